"""A simulated I2C bus: devices by 7-bit address, and a log of every transfer.

A transfer is what one START..STOP (or START..repeated START) carries: a write of some
bytes or a read of some bytes. A device that does not answer its address makes the
master see a NACK, which `machine.I2C` reports as OSError(ENODEV) on an ESP32.

Log lines (`Bus.lines()`) read like a logic analyser's decode, so the same traffic
recorded on CPython and inside MicroPython compares as text:
    W 18 0f        write 0x0f to 0x18, then STOP
    W 18 a8 +      write without STOP (a repeated START follows)
    R 18 33        read one byte 0x33
    W 3d - NACK    nobody at 0x3d
"""
import binascii

ENODEV = 19


def _hex(data):
    return binascii.hexlify(data).decode()


class Bus:
    def __init__(self, clock=None):
        self.clock = clock
        self.devices = {}
        self.log = []  # (kind, addr, bytes, stop)
        self.logging = True
        self.max_log = 4000

    def attach(self, device):
        self.devices[device.addr] = device
        return device

    def detach(self, addr):
        self.devices.pop(addr, None)

    def scan(self):
        return sorted(self.devices)

    def _note(self, kind, addr, data, stop):
        if self.logging and len(self.log) < self.max_log:
            self.log.append((kind, addr, data, stop))

    def write(self, addr, data, stop=True):
        """Master writes `data` (any buffer) to `addr`; returns the count of ACKed bytes."""
        dev = self.devices.get(addr)
        if dev is None:
            self._note("N", addr, b"", True)
            raise OSError(ENODEV)
        data = bytes(data)
        self._note("W", addr, data, stop)
        dev.i2c_write(data)
        return len(data)

    def read_into(self, addr, buf, stop=True):
        """Master reads len(buf) bytes from `addr` into `buf`."""
        dev = self.devices.get(addr)
        if dev is None:
            self._note("N", addr, b"", True)
            raise OSError(ENODEV)
        n = len(buf)
        data = dev.i2c_read(n)
        for i in range(n):
            buf[i] = data[i]
        self._note("R", addr, bytes(data[:n]), stop)
        return n

    def lines(self, start=0):
        out = []
        for kind, addr, data, stop in self.log[start:]:
            if kind == "N":
                out.append("W %02x - NACK" % addr)
            else:
                out.append("%s %02x %s%s" % (kind, addr, _hex(data), "" if stop else " +"))
        return out

    def clear(self):
        self.log = []

    def dump(self, out=print):
        """Hand each log line to `out` and empty the log (keeps a capped heap small)."""
        for line in self.lines():
            out(line)
        self.log = []
