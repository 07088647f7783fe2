"""`dicecup log --port PORT [--baud B] [--out DIR]`: record a cup's serial event stream.

Reads the port with pyserial, tells the game as it goes (stdout), and keeps every
event once in a game file and in DIR/games.db (gamedb.py). A port that goes away (the
cable pulled, the cup rebooting) is waited for and opened again; each time it opens,
and whenever the replica finds a hole, the cup is asked for what came after the last
version the logger holds (`#dicecup since V`, seriallog.py), and the Recorder
(gamelog.py) takes each op once. Garbage, cut lines and a baud rate that gives only
garbage are said on stderr, never fatal. Ctrl-C (or SIGTERM) flushes the files and the
database, closes the port and exits 130.
"""
import os
import signal
import sys
import time

from . import cli, outpath

BAUDS = (9600, 19200, 38400, 57600, 74880, 115200, 230400, 460800, 921600, 1000000, 1500000, 2000000)
RETRY_S = 0.5          # a port that went away: look for it again this often
ASK_S = 1.0            # ask the cup again at most this often
GARBAGE_HINT = 4       # this many garbage reports in a row: say the baud rate may be wrong


def register(sub):
    s = sub.add_parser("log", help="record a cup's serial event log: live narration, game files, games.db")
    s.add_argument("--port", required=True, help="the cup's serial port (/dev/ttyUSB0, a pty, socket://host:port)")
    s.add_argument("--baud", type=_baud, default=115200, help="baud rate (default 115200)")
    s.add_argument("--out", default="games", type=outpath.arg_folder("--out"),
                   help="folder for the game files and games.db (default ./games; made if missing)")
    s.add_argument("--quiet", action="store_true", help="no live narration")
    s.set_defaults(func=run)
    s.error = cli._one_line_error("dicecup log")


def _baud(text):
    import argparse
    try:
        b = int(text)
    except ValueError:
        b = 0
    if b not in BAUDS:
        raise argparse.ArgumentTypeError("%r: give one of %s" % (text, ", ".join(str(x) for x in BAUDS)))
    return b


def _open(port, baud):
    import serial
    return serial.serial_for_url(port, baudrate=baud, timeout=0.2)


class Logger:
    """The I/O around gamelog.Recorder and gamedb.GameStore."""

    def __init__(self, port, baud, out, say=print, warn=None, quiet=False):
        from . import gamedb, gamelog, tell
        self.port, self.baud = port, baud
        self.rec = gamelog.Recorder()
        self.lines = gamelog.Lines()
        self.store = gamedb.GameStore(out)
        self.tell = tell.Teller(lambda: self.rec.table)
        self.say = (lambda s: None) if quiet else say
        self.warn = warn or (lambda s: print("dicecup log: " + s, file=sys.stderr, flush=True))
        self.ser = None
        self.asked_at = -ASK_S
        self.garbage = 0
        self.counts = {"lines": 0, "garbage": 0, "events": 0, "reconnects": 0, "resent": 0, "gaps": 0}
        self._problems = 0
        self._notes = 0

    def connect(self):
        """Open the port; False if it is not there (yet)."""
        try:
            self.ser = _open(self.port, self.baud)
        except (OSError, ValueError) as e:
            self.ser = None
            self._why = str(e)
            return False
        self.rec.ask()
        self.asked_at = -ASK_S
        self._ask()
        return True

    def _ask(self):
        since = self.rec.since
        now = time.monotonic()
        if since is None or self.ser is None or now - self.asked_at < ASK_S:
            return
        try:
            self.ser.write(b"#dicecup since %d\r\n" % since)
        except (OSError, ValueError):
            return
        self.rec.since = None
        self.asked_at = now

    def step(self):
        """Read what the port has (up to 0.2 s); False when it went away."""
        import serial
        try:
            data = self.ser.read(4096)
        except (serial.SerialException, OSError, ValueError, TypeError):
            data = None
        if data is None:
            for _, problem in self.lines.cut():
                self._garbage(problem)
            self.store.flush(force=True)
            try:
                self.ser.close()
            except (OSError, serial.SerialException):
                pass
            self.ser = None
            return False
        if data:
            self.feed(data)
        else:
            self.store.flush()
        self._ask()
        return True

    def feed(self, data):
        from .gamelog import BadLine, parse
        for line, problem in self.lines.feed(data):
            if problem:
                self._garbage(problem)
                continue
            try:
                rec = parse(line)
            except BadLine as e:
                self._garbage(str(e))
                continue
            self.garbage = 0
            self.counts["lines"] += 1
            if isinstance(rec, str):
                self.say("cup: " + rec)
                continue
            if rec["k"] == "resend":
                self.counts["resent"] += 1
            new = self.rec.take(rec)
            self._notes_out()
            if new:
                self.store.write(new, self.rec.table)
                self.counts["events"] += len(new)
                for r in new:
                    if r["k"] == "gap":
                        self.counts["gaps"] += 1
                    s = self.tell(r)
                    if s:
                        self.say(s)

    def _notes_out(self):
        rec = self.rec
        while self._notes < len(rec.notes):
            self.say("** " + rec.notes[self._notes])
            self._notes += 1
        while self._problems < len(rec.problems):
            self.warn(rec.problems[self._problems])
            self._problems += 1

    def _garbage(self, problem):
        self.counts["garbage"] += 1
        self.garbage += 1
        self.warn(problem)
        if self.garbage == GARBAGE_HINT:
            self.warn("%d bad lines in a row at %d baud: is the cup at another baud rate (--baud)?"
                      % (self.garbage, self.baud))

    def close(self):
        for _, problem in self.lines.cut():
            self._garbage(problem)
        self.store.close()
        if self.ser is not None:
            try:
                self.ser.close()
            except OSError:
                pass

    def summary(self):
        c = self.counts
        return ("%d events recorded in %d game file(s) and %s; %d lines, %d resent ops, %d garbage, "
                "%d reconnects, %d gaps" % (c["events"], len(self.store.files),
                                            os.path.join(self.store.folder, "games.db"), c["lines"],
                                            c["resent"], c["garbage"], c["reconnects"], c["gaps"]))


def run(args):
    try:
        import serial  # noqa: F401
    except ImportError:
        print("dicecup log: pyserial is not installed (pip install pyserial)", file=sys.stderr)
        return 2
    try:
        ser = _open(args.port, args.baud)
    except (OSError, ValueError) as e:
        print("dicecup log: --port %s: %s" % (args.port, _why(e)), file=sys.stderr)
        return 2
    ser.close()
    try:
        log = Logger(args.port, args.baud, args.out, quiet=args.quiet, say=lambda s: print(s, flush=True))
    except OSError as e:
        print("dicecup log: --out %s: %s" % (args.out, e.strerror or e), file=sys.stderr)
        return 2

    def stop(signum, frame):
        raise KeyboardInterrupt
    # SIGINT too: a shell starts a background job with SIGINT ignored, and Python then
    # leaves it ignored -- `dicecup log ... &` would not stop on `kill -INT`.
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    print("logging %s at %d baud into %s (Ctrl-C stops)" % (args.port, args.baud, args.out), flush=True)
    try:
        while True:
            if log.ser is None:
                if not log.connect():
                    time.sleep(RETRY_S)
                    continue
                if log.counts["reconnects"] or log.counts["lines"]:
                    log.say("** the port is back")
            while log.step():
                pass
            log.counts["reconnects"] += 1
            log.say("** the port went away: waiting for it (the cup unplugged or rebooting)")
    except KeyboardInterrupt:
        pass
    finally:
        log.close()
    print(log.summary(), flush=True)
    return 130


def _why(e):
    text = str(e)
    if "could not open port" in text and ":" in text:
        text = text.split(":", 1)[1].strip()
    return text
