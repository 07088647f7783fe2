"""A `dicecup vboard` process for the tests: started, its port read off its first line,
stopped (SIGTERM) at the end; and a serial reader for what the cup prints."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import serial

ROOT = Path(__file__).resolve().parents[2]
DICECUP = str(Path(sys.executable).parent / "dicecup")


class Board:
    def __init__(self, tmp, *args):
        self.flash = Path(tmp) / "flash"
        self.link = str(Path(tmp) / "cup")
        self.proc = subprocess.Popen([DICECUP, "vboard", "--flash", str(self.flash), "--link", self.link] + list(args),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.port = self.proc.stdout.readline().strip()
        assert self.port == self.link, (self.port, self.proc.stderr.read() if self.proc.poll() is not None else "")
        self.said = []

    def status(self, want, timeout=20):
        """Wait for a status line of the board's containing `want`."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.said.append(line.strip())
            if want in line:
                return line.strip()
        raise AssertionError("no %r from the vboard: %s" % (want, self.said))

    def signal(self, sig):
        self.proc.send_signal(sig)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


def events(port, until, timeout, seen=None):
    """Read the cup's serial lines from `port` until `until(event)` holds for a JSON
    event line; returns (events, other lines). Raises AssertionError on timeout."""
    seen = [] if seen is None else seen
    other = []
    end = time.monotonic() + timeout
    with serial.Serial(port, 115200, timeout=0.5) as s:
        while time.monotonic() < end:
            line = s.readline().decode(errors="replace").strip()
            if line.startswith("{"):
                ev = json.loads(line)
                seen.append(ev)
                if until(ev):
                    return seen, other
            elif line:
                other.append(line)
    raise AssertionError("timed out; %d events, last %s; other lines %s" % (len(seen), seen[-3:], other[-5:]))


def make_flash(port, *assign, timeout=240):
    t0 = time.monotonic()
    res = subprocess.run(["make", "-s", "-C", str(ROOT), "flash", "PORT=" + port] + list(assign),
                         capture_output=True, text=True, timeout=timeout)
    return res, time.monotonic() - t0
