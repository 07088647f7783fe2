"""A virtual cup on a pseudo-terminal: what `dicecup vboard` serves.

    board = VBoard(flash_dir, board_file, heap_kb=1024, link=None)
    board.serve(on_status=print)       # until stop(); the pty path is board.port

Three parts, one concern each:
* `Runtime` -- the board's MicroPython: the unix port (`micropython` from PyPI) running
  upy/vbagent.py, with the emulated chips wired as the board file says and the flash
  folder mounted as `/`. A reset is a new process (a fresh heap), as on a cup.
* `Repl` -- what a cup's USB serial port answers, byte by byte: the friendly REPL
  (echo, `>>>`, Ctrl-C/D/E), the raw REPL (Ctrl-A, `OK`, output, \\x04, error, \\x04,
  `>`), raw-paste (`\\x05A\\x01`, flow-control windows) and soft reboot
  (`MPY: soft reboot`), after MicroPython's shared/runtime/pyexec.c. Real mpremote
  runs against it: exec, fs cp (its sha256 check too), ls, soft-reset, reset.
* `VBoard` -- the pty ("the cable"), the loop that moves bytes between the pty, the
  Repl and the runtime, and what a person does to a board: unplug and plug the cable
  back (`replug`: the `link` symlink is gone while the cable is out, then names a new
  pty; the cup runs on its battery meanwhile and what it prints is lost, as on a wire
  nobody listens to) and press
  reset (`reboot`: main.py runs again).

Output goes out as a cup's does: "\\n" becomes "\\r\\n"; nobody on the pty means it is
dropped, not queued for the next reader.
"""
import errno
import json
import os
import select
import signal
import subprocess
import sys
import termios
import time
import tty
from pathlib import Path

from . import mpy

AGENT = Path(__file__).resolve().parent / "upy" / "vbagent.py"
MARK = b"\x1e\x1fVB"
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
WINDOW = 256          # raw-paste flow-control window (a cup's stdin buffer is 512, half each)
MAX_PENDING = 1 << 18  # bytes kept for a slow reader before the oldest are dropped


CHIPS = ("display", "accel")    # what --no-chip may leave off the bus


def wiring(board, absent=(), hold=()):
    """The board file's wiring as the agent needs it (a dicecup.hw.board.Board in), with
    the chips left off the bus (`absent`, from CHIPS) and the buttons held down from
    power-on (`hold`: their names)."""
    held = []
    for name in hold:
        b = board.buttons[board.button_names().index(name)]
        held.append([b.pin, b.active])
    return {"chip": board.chip, "scl": board.scl, "sda": board.sda, "accel_addr": board.accel_addr,
            "int1": board.int1, "mount": list(board.mount), "display_addr": board.display_addr,
            "battery_pin": board.battery_pin, "battery_divider": board.battery_divider,
            "absent": list(absent), "hold": held}


def control_line(board, line):
    """A control request in the board's words (`press left`, `tap ok`, `release left`,
    `shake`, `tilt`, `still`) as the agent's (pins, not names); ValueError says why not."""
    words = line.split()
    if not words:
        raise ValueError("an empty request")
    what = words[0]
    if what in ("press", "tap", "release"):
        names = board.button_names()
        if len(words) != 2 or words[1] not in names:
            raise ValueError("%s what? this board's buttons: %s" % (what, ", ".join(names)))
        b = board.buttons[names.index(words[1])]
        return "release %d" % b.pin if what == "release" else "%s %d %d" % (what, b.pin, b.active)
    if what in ("shake", "tilt", "still") and len(words) == 1:
        return what
    raise ValueError("unknown request %r: press|tap|release BUTTON, shake, tilt, still" % line)


class Runtime:
    """The board's MicroPython process. `feed()` reads what it printed and returns
    [("out", bytes) | ("done", kind, traceback bytes)] (see upy/vbagent.py)."""

    def __init__(self, flash, wire, heap_kb=1024, control=False, binary=None):
        self.flash = str(Path(flash).resolve())
        self.binary = binary     # None: the unix wheel's micropython; else e.g. fw32 (frozen firmware)
        self.wire = wire
        self.control = control   # a pipe to the emulated world (upy/vbagent.py Control)
        self.ctl = None
        self.heap_kb = heap_kb
        self.proc = None
        self.buf = b""
        self.tail = b""          # the last bytes it printed (said when it dies)
        self.busy = False
        self.up = False          # the interpreter said it is up (SIGINT is safe)
        self.cid = 0             # the last command's id (its marker carries it)
        self.going = False       # it said it runs (G): SIGINT reaches the code
        self.held = False        # a Ctrl-C that came before it was
        self.sent = 0            # SIGINTs sent to this interpreter
        self.taken = 0           # ...and taken, as its A markers count them
        self.waiting = None      # a command held back until every SIGINT has landed
        self.wait_until = 0.0

    SETTLE_S = 2.0   # a SIGINT the code swallowed is never counted: send anyway after this

    def start(self):
        from . import emu
        env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(emu.build_mpy()), ".frozen"]))
        wire = self.wire
        fds = ()
        if self.control and wire:
            r, self.ctl = os.pipe()
            os.set_blocking(self.ctl, False)
            wire = dict(wire, control="/dev/fd/%d" % r)
            fds = (r,)
        cmd = [self.binary or mpy._tool("micropython"), "-X", "heapsize=%dK" % self.heap_kb, str(AGENT), self.flash,
               json.dumps(wire) if wire else ""]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, env=env, bufsize=0, cwd=self.flash,
                                     pass_fds=fds)
        for fd in fds:
            os.close(fd)
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.buf = b""
        self.busy = False
        self.up = False
        self.held = False
        self.going = False
        self.sent = self.taken = 0
        self.waiting = None

    @property
    def fd(self):
        return self.proc.stdout.fileno() if self.proc else None

    def run(self, kind, src):
        """Start running `src` (bytes): kind X (file input), S (one REPL line), F (a file).
        Nothing runs on a board whose interpreter is gone (until the next reset)."""
        if self.proc is None:
            return
        self.busy = True
        self.going = False
        self.cid += 1
        self.waiting = MARK + b"%s %d %d\n" % (kind.encode(), self.cid, len(src)) + src
        self.wait_until = time.monotonic() + self.SETTLE_S
        self.send_waiting()

    def send_waiting(self, force=False):
        """The command held back goes out once no SIGINT is still on its way (one sent
        as the last command ended by itself lands after it: on a command being read it
        would cut a byte out; see upy/vbagent.py), or when `force`d (the settle time
        passed: the code swallowed one)."""
        if self.waiting is None or (self.taken < self.sent and not force):
            return
        if force:
            self.sent = self.taken   # swallowed (code that catches KeyboardInterrupt): not waited for again
        data, self.waiting = self.waiting, None
        try:
            self.proc.stdin.write(data)
        except (BrokenPipeError, OSError):
            pass   # it died: feed() reports the end

    def uart(self, b):
        """A byte for the running code's stdin, as a cup's UART hands it over: only while
        it runs and no Ctrl-C is on its way (what comes after one is the REPL's: mpremote
        sends Ctrl-A right behind it). False: not now, the REPL keeps it."""
        if not (self.busy and self.going) or self.held or self.taken < self.sent or self.proc is None:
            return False
        try:
            self.proc.stdin.write(bytes((b,)))
        except (BrokenPipeError, OSError):
            return False
        return True

    def interrupt(self):
        """Ctrl-C: a KeyboardInterrupt in the running code. Until the command says it
        runs (G) it is held back: a SIGINT then would hit the interpreter, not the code."""
        if not self.going:
            self.held = self.busy
        elif self.busy and self.proc and self.proc.poll() is None:
            self.sent += 1
            self.proc.send_signal(signal.SIGINT)

    def tell(self, line):
        """A control request (in pins: see control_line) for the emulated world."""
        if self.ctl is None:
            return False
        try:
            os.write(self.ctl, line.encode() + b"\n")
        except OSError:
            return False
        return True

    def stop(self):
        p = self.proc
        self.proc = None
        self.busy = False
        if self.ctl is not None:
            os.close(self.ctl)
            self.ctl = None
        if p is None:
            return
        if p.poll() is None:
            p.kill()
        p.wait()
        for f in (p.stdin, p.stdout):
            try:
                f.close()
            except OSError:
                pass

    def feed(self):
        out = []
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            return out
        if not data:   # the interpreter is gone (a crash): said, then the run ends
            status = self.proc.wait()
            self.stop()
            out.append(("died", status, self.buf + self.tail))
            out.append(("done", "E", b""))
            return out
        self.tail = (self.tail + data)[-400:]
        buf = self.buf + data
        while buf:
            i = buf.find(MARK)
            if i < 0:
                keep = 0   # a marker cut in two: hold back its start
                for k in range(1, len(MARK)):
                    if buf.endswith(MARK[:k]):
                        keep = k
                if len(buf) > keep:
                    out.append(("out", buf[:len(buf) - keep]))
                buf = buf[len(buf) - keep:]
                break
            if i:
                out.append(("out", buf[:i]))
            nl = buf.find(b"\n", i)
            if nl < 0:
                buf = buf[i:]
                break
            head = buf[i + len(MARK):nl]
            cid, n = (int(x) for x in head[1:].split())
            if len(buf) < nl + 1 + n:
                buf = buf[i:]
                break
            if head[:1] == b"O":
                self.up = True
            elif head[:1] == b"A":
                self.taken = cid
                self.send_waiting()
            elif head[:1] == b"G":
                if cid == self.cid and self.busy:
                    self.going = True
                    if self.held:
                        self.held = False
                        self.interrupt()
            elif cid == self.cid and self.busy:   # (a repeat for the same command is dropped)
                self.busy = False
                self.going = False
                out.append(("done", head[:1].decode(), buf[nl + 1:nl + 1 + n]))
            buf = buf[nl + 1 + n:]
        self.buf = buf
        return out


def cooked(data):
    """A cup's serial output: every \\n sent as \\r\\n."""
    return data.replace(b"\n", b"\r\n")


class Repl:
    """MicroPython's REPL on the serial port (shared/runtime/pyexec.c), driving a Runtime.
    `write(bytes)` sends to the pty."""

    BANNER = b"MicroPython (virtual dice cup: unix port, emulated chips) with %s\r\nType \"help()\" for more information.\r\n"

    def __init__(self, runtime, write, chip="ESP32"):
        self.rt = runtime
        self.write = write
        self.chip = chip.upper().encode()
        self.raw = False
        self.line = bytearray()
        self.block = []           # friendly REPL: lines of a block being typed (after a ':')
        self.paste = None         # friendly paste mode (Ctrl-E): the text so far
        self.rawpaste = None      # raw-paste: [data, bytes left in the window]
        self.queue = bytearray()  # bytes that came while code ran (a cup's stdin buffer)
        self.after = []           # what runs when the current run ends: ("F", name) | "prompt"
        self.resets = 0

    # ----- power and resets ------------------------------------------------------------
    def power_on(self, soft=False):
        """A (re)start: the interpreter anew, boot.py, then main.py unless in the raw REPL."""
        self.rt.stop()
        self.queue = bytearray()
        self.line = bytearray()
        self.block = []
        self.paste = None
        self.rawpaste = None
        self.resets += 1
        if soft:
            self.write(b"MPY: soft reboot\r\n")
        else:
            self.raw = False
        self.rt.start()
        self.after = [("F", b"boot.py")]
        if not self.raw:
            self.after.append(("F", b"main.py"))
        self.after.append("prompt")
        self._next()

    def _next(self):
        while self.after and not self.rt.busy:
            step = self.after.pop(0)
            if step == "prompt":
                self.write(RAW_BANNER + b">" if self.raw else self.BANNER % self.chip + b">>> ")
                self._drain()
            else:
                self.rt.run(step[0], step[1])

    def _drain(self):
        q = self.queue
        self.queue = bytearray()
        for b in q:
            self.feed(b)

    def done(self, kind, err):
        """The runtime finished a run (kind E, R reset, S soft reset)."""
        if kind == "R":
            self.power_on()
            return
        if kind == "S":
            self.power_on(soft=True)
            return
        if self.after:
            if err:
                self.write(cooked(err))
            self._next()
            return
        if self.raw:
            self.write(b"\x04" + cooked(err) + b"\x04>")
        else:
            self.write(cooked(err) + b">>> ")
        self._drain()

    # ----- bytes from the pty ----------------------------------------------------------
    def feed(self, b):
        """One byte typed on the serial port."""
        if self.rt.busy or self.after:
            if b == 3:
                self.rt.interrupt()
            elif self.rt.uart(b):
                pass       # the running code's stdin (a cup's app reads `dicecup log` asking)
            else:
                self.queue.append(b)
            return
        if self.rawpaste is not None:
            return self._rawpaste(b)
        if self.raw:
            return self._raw(b)
        return self._friendly(b)

    def _raw(self, b):
        line = self.line
        if b == 1:  # Ctrl-A
            if len(line) == 2 and line[0] == 5:
                self.line = bytearray()
                if line[1] != ord("A"):
                    self.write(b"R\x00")
                    return
                self.write(b"R\x01" + bytes([WINDOW & 0xFF, WINDOW >> 8]) + b"\x01")
                self.rawpaste = [bytearray(), WINDOW]
                return
            self.line = bytearray()
            self.write(RAW_BANNER + b">")
        elif b == 2:  # Ctrl-B: the friendly REPL
            self.raw = False
            self.line = bytearray()
            self.write(b"\r\n" + self.BANNER % self.chip + b">>> ")
        elif b == 3:
            self.line = bytearray()
        elif b == 4:
            self.write(b"OK")
            if not line:
                self.write(b"\r\n")
                self.power_on(soft=True)
                return
            self.line = bytearray()
            self.rt.run("X", bytes(line))
        else:
            line.append(b)

    def _rawpaste(self, b):
        data, left = self.rawpaste
        if b == 4 or b == 3:
            self.rawpaste = None
            self.write(b"\x04")
            if b == 3:
                self.write(b">")
                return
            self.rt.run("X", bytes(data))
            return
        data.append(b)
        left -= 1
        if left == 0:
            self.write(b"\x01")
            left = WINDOW
        self.rawpaste[1] = left

    def _friendly(self, b):
        if self.paste is not None:
            if b == 3:
                self.paste = None
                self.write(b"\r\n>>> ")
            elif b == 4:
                src = bytes(self.paste)
                self.paste = None
                self.write(b"\r\n")
                self.rt.run("X", src)
            else:
                self.paste.append(b)
                self.write(b"\r\n=== " if b == 13 else bytes([b]))
            return
        if b == 1:
            self.raw = True
            self.line = bytearray()
            self.block = []
            self.write(b"\r\n" + RAW_BANNER + b">")
        elif b == 2:
            self.write(b"\r\n" + self.BANNER % self.chip + b">>> ")
        elif b == 3:
            self.line = bytearray()
            self.block = []
            self.write(b"\r\nKeyboardInterrupt\r\n>>> ")
        elif b == 4:
            if not self.line and not self.block:
                self.write(b"\r\n")
                self.power_on(soft=True)
        elif b == 5:
            self.line = bytearray()
            self.block = []
            self.paste = bytearray()
            self.write(b"\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
        elif b in (8, 127):
            if self.line:
                self.line.pop()
                self.write(b"\x08 \x08")
        elif b == 13 or b == 10:
            self._enter()
        elif b >= 32 or b == 9:
            self.line.append(b)
            self.write(bytes([b]))

    def _enter(self):
        text = bytes(self.line)
        self.line = bytearray()
        self.write(b"\r\n")
        if self.block:
            if text.strip():
                self.block.append(text)
                self.write(b"... ")
                return
            src = b"\n".join(self.block) + b"\n"
            self.block = []
            self.rt.run("S", src)
            return
        if text.rstrip().endswith(b":"):
            self.block = [text]
            self.write(b"... ")
            return
        if not text.strip():
            self.write(b">>> ")
            return
        self.rt.run("S", text)


def _raw_tty(fd):
    """The slave side as a serial port: no echo, no line editing, bytes as they are."""
    tty.setraw(fd)
    attrs = termios.tcgetattr(fd)
    attrs[1] &= ~termios.OPOST
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


class VBoard:
    """The virtual cup on a pty; see the module docstring."""

    def __init__(self, flash, board, heap_kb=1024, link=None, unplug_s=1.0, absent=(), hold=(),
                 control=None, binary=None):
        from dicecup.hw import board as fwb
        b = fwb.load(str(board))
        self.board = b
        self.flash = Path(flash)
        self.flash.mkdir(parents=True, exist_ok=True)
        self.control = Path(control).absolute() if control else None   # a FIFO of requests
        self.ctl_fd = None
        self.ctl_part = b""
        self.rt = Runtime(self.flash, wiring(b, absent, hold), heap_kb, control=self.control is not None,
                          binary=binary)
        self.repl = Repl(self.rt, self._out, chip=b.chip)
        self.link = Path(link).absolute() if link else None
        self.unplug_s = unplug_s
        self.master = None
        self.port = None         # the pty's path (/dev/pts/N) while plugged in
        self.pending = bytearray()
        self.listening = False   # someone has the pty open
        self.running = False
        self.plug_at = None      # when an unplugged cable goes back in
        self.status = print
        self.dropped = 0
        self._wake_r, self._wake_w = os.pipe()
        self._asked = []         # signals and keys to act on, in the loop
        self.keys = None         # a file descriptor whose characters are keys

    # ----- the cable -------------------------------------------------------------------
    def plug(self):
        master, slave = os.openpty()
        _raw_tty(slave)
        self.port = os.ttyname(slave)
        os.close(slave)          # nobody listens until someone opens the port
        os.set_blocking(master, False)
        self.master = master
        self.listening = False
        self.pending = bytearray()
        if self.link is not None:
            tmp = self.link.with_name(".%s.%d" % (self.link.name, os.getpid()))
            if tmp.is_symlink() or tmp.exists():
                tmp.unlink()
            os.symlink(self.port, tmp)
            os.replace(tmp, self.link)
        return self.port

    def unplug(self):
        # The device node goes, as a real board's does: a link left pointing at the
        # closed /dev/pts/N would lead a reconnecting reader into whatever pty the
        # system hands out next under that number.
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()
        if self.master is not None:
            os.close(self.master)
        self.master = None
        self.port = None
        self.listening = False
        self.pending = bytearray()

    def replug(self, seconds=None):
        """Pull the cable out; it goes back in `seconds` later (a new pty)."""
        self.unplug()
        self.plug_at = time.monotonic() + (self.unplug_s if seconds is None else seconds)
        self.status("unplugged: the cup runs on its battery, its output is lost")

    def reboot(self):
        """The reset button: main.py runs again."""
        self.status("reset")
        self.repl.power_on()

    def _out(self, data):
        if self.master is None or not self._has_listener():
            self.dropped += len(data)
            return
        self.pending += data
        if len(self.pending) > MAX_PENDING:
            self.dropped += len(self.pending) - MAX_PENDING
            del self.pending[:len(self.pending) - MAX_PENDING]
        self._flush()

    def _has_listener(self):
        p = select.poll()
        p.register(self.master, select.POLLIN | select.POLLOUT)
        ev = p.poll(0)
        self.listening = not (ev and ev[0][1] & select.POLLHUP)
        if not self.listening:
            self.pending = bytearray()
        return self.listening

    def _flush(self):
        while self.pending and self.master is not None:
            try:
                n = os.write(self.master, self.pending[:4096])
            except BlockingIOError:
                return
            except OSError as e:
                if e.errno in (errno.EIO, errno.EAGAIN):
                    self.pending = bytearray()
                    return
                raise
            del self.pending[:n]

    # ----- requests from signals and keys ------------------------------------------------
    def ask(self, what):
        """Ask the loop to `replug`, `reboot` or `stop` (safe from a signal handler)."""
        self._asked.append(what)
        try:
            os.write(self._wake_w, b"!")
        except OSError:
            pass

    def key(self, ch):
        what = {"u": "replug", "r": "reboot", "q": "stop"}.get(ch.lower())
        if what:
            self.ask(what)

    def _requests(self):
        """Lines from the control FIFO: what a person does to the cup (control_line)."""
        try:
            data = os.read(self.ctl_fd, 4096)
        except BlockingIOError:
            return
        self.ctl_part += data
        while b"\n" in self.ctl_part:
            line, self.ctl_part = self.ctl_part.split(b"\n", 1)
            text = line.decode(errors="replace").strip()
            if not text:
                continue
            try:
                req = control_line(self.board, text)
            except ValueError as e:
                self.status("control: %s" % e)
                continue
            self.status("control: %s%s" % (text, "" if self.rt.tell(req) else " (the board is not running)"))

    # ----- the loop ----------------------------------------------------------------------
    def serve(self, status=print, keys=None, ready=None):
        """Plug in, power on, move bytes until stop(). `keys`: a file descriptor whose
        characters are keys (u, r, q); `ready(port)` is called once the pty exists."""
        self.status = status
        self.running = True
        if self.control is not None:
            if self.control.exists() or self.control.is_symlink():
                self.control.unlink()
            os.mkfifo(self.control)
            self.ctl_fd = os.open(self.control, os.O_RDWR | os.O_NONBLOCK)   # (ours: never a hang-up)
        self.plug()
        if ready:
            ready(self.port)
        self.keys = keys
        self.repl.power_on()
        try:
            while self.running:
                self._step()
        finally:
            self.rt.stop()
            self.unplug()
            if self.link is not None and self.link.is_symlink():
                self.link.unlink()
            if self.ctl_fd is not None:
                os.close(self.ctl_fd)
                self.ctl_fd = None
                try:
                    self.control.unlink()
                except OSError:
                    pass
            os.close(self._wake_r)
            os.close(self._wake_w)

    def stop(self):
        self.running = False

    def _step(self):
        keys = self.keys
        p = select.poll()
        if self.master is not None:
            if not self.listening:
                self._has_listener()
            if self.listening:
                p.register(self.master, select.POLLIN | (select.POLLOUT if self.pending else 0))
        rfd = self.rt.fd
        if rfd is not None:
            p.register(rfd, select.POLLIN)
        p.register(self._wake_r, select.POLLIN)
        if keys is not None:
            p.register(keys, select.POLLIN)
        if self.ctl_fd is not None:
            p.register(self.ctl_fd, select.POLLIN)
        timeout = 100 if self.master is None or not self.listening else 500
        if self.rt.waiting is not None:
            timeout = 50
        for fd, ev in p.poll(timeout):
            if fd == self.master and self.master is not None:
                if ev & select.POLLHUP:
                    self.listening = False
                    self.pending = bytearray()
                    continue
                if ev & select.POLLOUT:
                    self._flush()
                if ev & select.POLLIN:
                    try:
                        data = os.read(self.master, 4096)
                    except OSError:
                        data = b""
                    for b in data:
                        self.repl.feed(b)
            elif fd == rfd and self.rt.fd == rfd:
                for item in self.rt.feed():
                    if item[0] == "out":
                        self._out(cooked(item[1]))
                    elif item[0] == "died":
                        self.status("the board's MicroPython exited (status %s); r or SIGUSR2 resets it. It said: %s"
                                    % (item[1], item[2].decode(errors="replace").strip()[-300:]))
                    else:
                        self.repl.done(item[1], item[2])
            elif fd == self._wake_r:
                os.read(self._wake_r, 64)
            elif fd == self.ctl_fd:
                self._requests()
            elif fd == keys:
                try:
                    data = os.read(keys, 64)
                except OSError:
                    data = b""
                if not data:
                    self.keys = None     # stdin closed: no more keys, the board serves on
                for ch in data.decode(errors="replace"):
                    self.key(ch)
        if self.rt.waiting is not None and time.monotonic() >= self.rt.wait_until:
            self.rt.send_waiting(force=True)
        while self._asked:
            what = self._asked.pop(0)
            if what == "stop":
                self.running = False
            elif what == "reboot":
                self.reboot()
            elif what == "replug" and self.master is not None:
                self.replug()
        if self.plug_at is not None and time.monotonic() >= self.plug_at:
            self.plug_at = None
            self.status("plugged in: %s" % self.plug())
