"""The serial event log: one JSON line per public and local event, on the cup's USB port.

    cup.listen(SerialLog(sys.stdout.write, cup))

This is what `dicecup log` records and what the re-checker replays. Each line starts
with the event's kind and where it stands: table id (`tb`), term (`tm`), version (`v`)
and index among that op's events (`i`) for a public event; the cup's boot (`boot`) and
a counter (`n`) for a local one; then the cup's clock (`t`, ms) and member id (`cup`),
then the event's own fields by name. Bytes are written as hex. Private events (the
cup's own dice and commitments) are never written.

The line is written in pieces straight to the port (jsonw.write): nothing the size of
a line is allocated, and nothing at all is built for a cup with no log attached.
"""
from binascii import hexlify

from . import jsonw
from .events import LOCAL, PRIVATE


def _value(v, out):
    if type(v) is bytes or type(v) is bytearray:
        out('"')
        out(hexlify(v).decode())
        out('"')
    elif type(v) in (list, tuple):
        out("[")
        for i in range(len(v)):
            if i:
                out(",")
            _value(v[i], out)
        out("]")
    else:
        jsonw.write(v, out)


class SerialLog:
    """A listener writing each event as one line through `write` (a str -> None function).
    `cup` gives the member id, the boot counter and, for ops, the state fingerprint."""

    def __init__(self, write, cup):
        self.write = write
        self.cup = cup
        self.lines = 0

    def __call__(self, ev):
        if ev.scope == PRIVATE:
            return
        w = self.write
        cup = self.cup
        me = cup.me if cup.me is not None else -1
        if ev.scope == LOCAL:
            w('{"k":"%s","tb":%d,"tm":%d,"v":%d,"boot":%d,"n":%d,"t":%d,"cup":%d' % (
                ev.kind, ev.table, ev.term, ev.version, cup.boot, ev.index, ev.t, me))
        else:
            w('{"k":"%s","tb":%d,"tm":%d,"v":%d,"i":%d,"t":%d,"cup":%d' % (
                ev.kind, ev.table, ev.term, ev.version, ev.index, ev.t, me))
        names = ev.names()
        values = ev.values
        for i in range(len(names)):
            w(',"%s":' % names[i])
            v = values[i]
            if v is None and names[i] == "state" and cup.table is not None:
                v = cup.table.digest_of()
            _value(v, w)
        w("}\n")
        self.lines += 1


class Lines:
    """A `write` for the host simulation: pieces in, whole lines (without the newline)
    appended to a list, as a serial port reader would see them."""

    def __init__(self, lines=None):
        self.lines = [] if lines is None else lines
        self._part = []

    def __call__(self, s):
        if s.endswith("\n"):
            self._part.append(s[:-1])
            self.lines.append("".join(self._part))
            self._part = []
        else:
            self._part.append(s)
