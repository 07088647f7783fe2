"""A USB cable made of pseudo-terminals, for feeding `dicecup log` as a cup would.

The cup writes into the pty's master end; the logger opens the slave through a symlink
(`link`), as a user gives /dev/ttyACM0. `unplug()` closes the pty and removes the link
(the device vanishes: the logger's read fails); what the cup writes meanwhile is lost,
as on a real cable. `plug()` makes a new pty behind the same link. `requests()` is
what the logger wrote to the cup (its `#dicecup since V` lines). A later swap for
`dicecup vboard --link` keeps the same shape.
"""
import array
import fcntl
import os
import select
import termios
import time
import tty

WAIT_S = 20


class Cable:
    def __init__(self, link):
        self.link = link
        self.master = None
        self.slave = None
        self.lost = 0          # bytes the cup wrote while unplugged (or dropped)
        self.dropped = 0       # bytes dropped while plugged in: the logger read nothing for WAIT_S
        self._in = b""

    @property
    def plugged(self):
        return self.master is not None

    def plug(self):
        m, s = os.openpty()
        tty.setraw(s)
        os.set_blocking(m, False)
        tmp = self.link + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(os.ttyname(s), tmp)
        os.replace(tmp, self.link)
        self.master, self.slave = m, s

    def drain(self, timeout=5):
        """Wait until the logger has read all that was written (True), so an unplug
        falls between lines; a torn line is tested on purpose elsewhere."""
        end = time.monotonic() + timeout
        quiet = 0
        while self.plugged and time.monotonic() < end:
            buf = array.array("i", [0])
            fcntl.ioctl(self.slave, termios.FIONREAD, buf)
            quiet = quiet + 1 if buf[0] == 0 else 0
            if quiet == 5:
                return True
            time.sleep(0.05)
        return False

    def unplug(self):
        if not self.plugged:
            return
        os.unlink(self.link)
        os.close(self.master)
        os.close(self.slave)
        self.master = self.slave = None
        self._in = b""

    def write(self, text):
        """The cup's serial write (str); waits while the logger is slow, up to WAIT_S
        (what it then drops while plugged in counts in `dropped`: the logger stalled)."""
        data = text.encode() if isinstance(text, str) else text
        if not self.plugged:
            self.lost += len(data)
            return
        end = time.monotonic() + WAIT_S
        while data:
            try:
                n = os.write(self.master, data)
                data = data[n:]
            except BlockingIOError:
                if time.monotonic() > end:
                    self.lost += len(data)
                    self.dropped += len(data)
                    return
                select.select([], [self.master], [], 0.05)

    def requests(self):
        """Whole lines the logger wrote to the cup since the last call."""
        if not self.plugged:
            return []
        try:
            while True:
                chunk = os.read(self.master, 4096)
                if not chunk:
                    break
                self._in += chunk
        except (BlockingIOError, OSError):
            pass
        *lines, self._in = self._in.split(b"\n")
        return [x.decode("ascii", "replace").strip("\r") for x in lines]

    def close(self):
        self.unplug()
