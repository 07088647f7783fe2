"""A fake cup on the far end of a pseudo-terminal, for the shake-record tests.

    python fakecup_proc.py FD TRACE MODE

FD is the pty master (the cup's side of the wire), TRACE the motion it "feels", MODE
`repl` (answer like MicroPython's REPL: wait for the host's `_r.main(...)` line, echo it,
then record), `listen` (stream as soon as the host has the port open, as a cup started
from its own menu; pyserial flushes the input on open, so earlier bytes would be lost),
`silent` (never answer) or `cut` (stream, then go quiet before the stop marker).
The recording runs the firmware's own `dicecup.hw.record.record()` with the accelerometer
replaced by the trace and the clock by a fast fake one (no 100 Hz wait in tests).
"""
import fcntl
import os
import struct
import sys
import termios
import time

from dicecup.hw import record
from dicecup_host import traces


class TraceAccel:
    """Like an Adafruit LIS3DH driver: `.acceleration` in m/s^2, `.range` register code."""

    def __init__(self, tr):
        self.samples = tr.samples
        self.i = 0
        self.range = {2: 0, 4: 1, 8: 2, 16: 3}[tr.range_g]

    @property
    def acceleration(self):
        x, y, z = self.samples[min(self.i, len(self.samples) - 1)]
        self.i += 1
        g = record.STANDARD_GRAVITY
        return x * g, y * g, z * g


class Wire:
    """stdout of a MicroPython REPL: \\r\\n line ends."""

    def __init__(self, fd, cut_after=None):
        self.fd = fd
        self.lines = 0
        self.cut_after = cut_after

    def write(self, s):
        self.lines += s.count("\n")
        if self.cut_after is not None and self.lines > self.cut_after:
            return
        data = s.replace("\n", "\r\n").encode()
        while data:
            data = data[os.write(self.fd, data):]

    def flush(self):
        pass


def packet_mode(fd, on):
    """In packet mode the pty master is told of an input flush on the port (TIOCPKT_FLUSHREAD)."""
    fcntl.ioctl(fd, termios.TIOCPKT, struct.pack("i", 1 if on else 0))


def wait_for_open(fd):
    """Block until the host opens the port: pyserial flushes the input on open. The
    starter turns packet mode on before the host can open, so the flush is never missed."""
    while not os.read(fd, 64)[0] & termios.TIOCPKT_FLUSHREAD:
        pass
    packet_mode(fd, False)


def main():
    fd, path, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    tr = traces.load(path)
    fake_now = [0]

    def ticks_us():
        return fake_now[0]

    def sleep_us(us):
        fake_now[0] += us

    record.ticks_us = ticks_us      # the firmware's pacing, on a fast clock
    record.sleep_us = sleep_us
    wire = Wire(fd, cut_after=len(tr.samples) // 2 if mode == "cut" else None)
    if mode == "silent":
        time.sleep(30)
        return
    if mode in ("listen", "cut"):
        wait_for_open(fd)
    if mode == "repl":
        os.write(fd, b"MicroPython v1.29 on esp32\r\n>>> ")
        buf = b""
        while not (b"_r.main(" in buf and buf.endswith(b"\r")):
            buf += os.read(fd, 1024)
        line = buf[buf.rindex(b"import"):].strip()
        os.write(fd, line + b"\r\n")                      # the REPL echoes the line
        assert line.startswith(b"import dicecup.hw.record as _r; _r.main("), line
        seconds = float(line[line.rindex(b"(") + 1:-1] or 0) or None
    else:
        seconds = None
    n = int(seconds * tr.rate_hz) if seconds else len(tr.samples)
    record.record(TraceAccel(tr), seconds=n / tr.rate_hz, rate_hz=tr.rate_hz, out=wire)
    wire.write(">>> ")
    time.sleep(30)                                        # until the test ends us


if __name__ == "__main__":
    main()
