"""Byte packing for engine states: a few bytes, varints for numbers that grow.

A 6-seat state must fit far inside one 250-byte radio frame, so states are packed
by hand rather than as JSON.
"""


class BadState(ValueError):
    """Bytes that are not a state this engine wrote (truncated, corrupt, other version)."""


class Writer:
    def __init__(self):
        self.buf = bytearray()

    def byte(self, v):
        self.buf.append(v & 0xFF)

    def uvar(self, v):
        while v >= 0x80:
            self.buf.append((v & 0x7F) | 0x80)
            v >>= 7
        self.buf.append(v)

    def svar(self, v):
        self.uvar(v * 2 if v >= 0 else -v * 2 - 1)

    def bits(self, values, width):
        """Many small numbers, `width` bits each, as one varint."""
        acc = 0
        for v in reversed(values):
            acc = acc << width | v
        self.uvar(acc)


class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def byte(self):
        if self.pos >= len(self.data):
            raise BadState("state truncated")
        v = self.data[self.pos]
        self.pos += 1
        return v

    def uvar(self):
        v = 0
        shift = 0
        while True:
            b = self.byte()
            v |= (b & 0x7F) << shift
            if b < 0x80:
                return v
            shift += 7
            if shift > 63:
                raise BadState("varint too long")

    def svar(self):
        v = self.uvar()
        return v >> 1 if not v & 1 else -((v + 1) >> 1)

    def bits(self, count, width):
        acc = self.uvar()
        mask = (1 << width) - 1
        out = []
        for _ in range(count):
            out.append(acc & mask)
            acc >>= width
        return out

    def raw(self, count):
        """The next `count` bytes as they are."""
        if self.pos + count > len(self.data):
            raise BadState("state truncated")
        self.pos += count
        return self.data[self.pos - count:self.pos]

    def end(self):
        if self.pos != len(self.data):
            raise BadState("trailing bytes in state")
