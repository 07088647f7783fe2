"""Inside MicroPython: the virtual board's interpreter (host/dicecup_host/vboard.py).

    micropython -X heapsize=H vbagent.py FLASH WIRING_JSON     (emu .mpy on MICROPYPATH)

The emulated chips (emu/: world, lis3dh, ssd1306 and the fake machine, esp32, network)
are imported first, from the host; then the board's flash folder FLASH is mounted as
`/` (os.VfsPosix: the code sees only its own files, as on a cup) and sys.path becomes
a cup's ('', '.frozen', '/lib'). WIRING_JSON gives the board file's chip, I2C pins,
chip addresses, INT1, mounting and battery divider, so the chips hang where the
board says (emu/rig.py).

It then serves the host, which speaks MicroPython's REPL on the pty. On stdin a
header line MARK + "KIND ID N" then N bytes of source; ID numbers the command. While a
command runs, stdin is the cup's UART: the host passes on what is typed (`dicecup log`
asking a running app for what it missed); what the code left unread is dropped before
the next header's MARK.
    X        run source (raw REPL: file input)     S    one REPL line (single input)
    F        run the file named (boot.py, main.py) if it exists
What the code prints goes to stdout as it happens, as on a cup's serial port; when it
is over one marker follows: MARK + kind + ID + " " + length + "\\n" + the traceback:
    O  the interpreter is up (sent once, before the first header is read)
    G  the command is running (only now does the host send SIGINT for a Ctrl-C)
    E  done (the traceback of an error, else nothing)
    R  machine.reset() / deepsleep(): the host restarts the board (main.py runs)
    S  machine.soft_reset() or SystemExit: a soft reset, as pyexec does
    A  (ID = how many KeyboardInterrupts the agent has taken) before every end, and
       whenever one lands between commands
Ctrl-C arrives as SIGINT: a KeyboardInterrupt in the running code. The unix port raises
it at once, wherever the interpreter is (MICROPY_ASYNC_KBD_INTR), even between a read
and the keeping of its byte, so no reading code is safe from one: when a command ends
by itself just as the host sent a SIGINT, the signal lands after it. The host therefore
counts the SIGINTs it sent and sends the next command only once the agent's A count
says each has landed (else a lost header byte hung the board: the friendly REPL
echoed a line and never answered).
"""
import gc
import io
import json
import os
import sys

MARK = "\x1e\x1fVB"
BMARK = MARK.encode()
_kbd = [0]   # the KeyboardInterrupts (the host's SIGINTs) taken so far, however they landed


def _modules():
    import machine  # the emulated one (emu/machine.mpy is first on MICROPYPATH)
    import esp32
    import network
    if not hasattr(machine, "I2C"):
        raise ImportError("the emulated machine module is not on MICROPYPATH")
    sys.modules["machine"] = machine
    sys.modules["esp32"] = esp32
    sys.modules["network"] = network


class Wiring:
    """What rig.build reads of a board (dicecup.hw.board.Board), from the host's JSON."""

    def __init__(self, d):
        for k in d:
            setattr(self, k, d[k])


def _wire(spec):
    """The chips on the bus (but those the host left out: `absent`), the buttons held
    from power-on (`hold`: [pin, active level]) and the control channel (`control`)."""
    import rig
    absent = spec.get("absent", ())
    board = Wiring(spec)
    w, acc, oled = rig.build(board, real_time=True, accel="accel" not in absent,
                             display="display" not in absent, battery_v=3.9)
    for pin, active in spec.get("hold", ()):
        w.press(pin, active)
    if spec.get("control"):
        w.hook = Control(spec["control"], w, acc, board)
    return w


class Control:
    """What the host asks the outside world to do while the code runs, one line at a
    time on a pipe (opened before the flash is mounted): `press P A` / `release P` (a
    button on GPIO P, active level A), `tap P A` (pressed for TAP_MS), `shake` (a
    5 Hz shake, then the cup set down: rig.shake_at), `tilt` (the near edge lifted
    30 degrees), `still` (standing on the table). Read when the firmware next touches
    a pin, the bus or the ADC (world.poke), at most every POLL_MS."""

    TAP_MS = 200
    POLL_MS = 10

    def __init__(self, path, w, acc, board):
        import select
        self.f = open(path, "rb")
        self.p = select.poll()
        self.p.register(self.f, select.POLLIN)
        self.w = w
        self.acc = acc
        self.board = board
        self.part = b""
        self.later = []     # (world ms, pin) releases due
        self.t = -self.POLL_MS
        self.busy = False

    def __call__(self):
        if self.busy:
            return
        now = self.w.now()
        if now - self.t < self.POLL_MS:
            return
        self.busy = True
        try:
            self.t = now
            for item in self.later[:]:
                if now >= item[0]:
                    self.later.remove(item)
                    self.w.release(item[1])
            while self.p is not None and self.p.poll(0):
                c = self.f.read(1)
                if not c:
                    self.p = None       # the host closed it
                    break
                if c == b"\n":
                    self.do(self.part.decode().split(), now)
                    self.part = b""
                else:
                    self.part += c
        finally:
            self.busy = False

    def do(self, words, now):
        import rig
        if not words:
            return
        what = words[0]
        if what in ("press", "tap") and len(words) == 3:
            self.w.press(int(words[1]), int(words[2]))
            if what == "tap":
                self.later.append((now + self.TAP_MS, int(words[1])))
        elif what == "release" and len(words) == 2:
            self.w.release(int(words[1]))
        elif self.acc is None:
            return              # no accelerometer on the bus: nothing feels the motion
        elif what == "shake":
            rig.move(self.acc, self.board, rig.shake_at(now))
        elif what == "tilt":
            rig.feel_cup(self.acc, self.board, 0.0, 0.5, 0.866)
        elif what == "still":
            rig.feel_cup(self.acc, self.board, 0.0, 0.0, 1.0)


def _mount(folder, chip):
    """The flash as `/` (the process runs in the folder: VfsPosix hands relative paths
    to the host as they are)."""
    os.umount("/")
    os.mount(os.VfsPosix(folder), "/")
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib"]
    sys.modules["os"] = _Os(chip)


class _Uname:
    """os.uname() as an ESP32 port answers it (the machine names the chip)."""

    def __init__(self, chip):
        v = sys.implementation.version
        self.sysname = chip
        self.nodename = chip
        self.release = "%d.%d.%d" % (v[0], v[1], v[2])
        self.version = "v" + self.release + " (unix port)"
        self.machine = "virtual dice cup with " + chip.upper()

    def __iter__(self):
        return iter((self.sysname, self.nodename, self.release, self.version, self.machine))


class _Os:
    """`os` with a rename that works on the mounted flash (VfsPosix mounted at `/`
    resolves an absolute *new* name against the host's root: ENOENT, so that one is
    handed over relative to the current folder) and a uname naming the board's chip,
    as the ESP32 port's does. Everything else is the real os."""

    def __init__(self, chip):
        for k in dir(os):
            if not k.startswith("__") and k not in ("rename", "uname"):
                setattr(self, k, getattr(os, k))
        self._rename = os.rename
        self._uname = _Uname(chip)

    def uname(self):
        return self._uname

    def rename(self, old, new):
        if new.startswith("/"):
            cwd = self.getcwd()
            new = "../" * (0 if cwd == "/" else cwd.count("/")) + new[1:]
        self._rename(old, new)


def _traceback(e):
    s = io.StringIO()
    sys.print_exception(e, s)
    lines = s.getvalue().split("\n")
    me = __file__ if "__file__" in globals() else "vbagent.py"
    return "\n".join(ln for ln in lines if me not in ln and "vbagent" not in ln)


def _done(kind, cid=0, text=""):
    """The marker, in one write. A Ctrl-C landing here cannot tell whether it went out,
    so it is written again: the host drops a second one for the same command id."""
    data = text.encode()
    msg = (MARK + kind + str(cid) + " " + str(len(data)) + "\n").encode() + data
    for _ in range(3):
        try:
            sys.stdout.buffer.write(msg)
            return
        except KeyboardInterrupt:
            _kbd[0] += 1


def _run(kind, src, g):
    if kind == "F":
        name = src.decode()
        try:
            with open(name) as f:
                src = f.read()
        except OSError:
            return              # no such file: nothing to run
        code = compile(src, name, "exec")
    else:
        code = compile(src, "<stdin>", "single" if kind == "S" else "exec")
    exec(code, g)


class Reader:
    """The host's commands from stdin. The header comes a byte at a time into a buffer
    that outlives a KeyboardInterrupt; the body in one read, which no Ctrl-C can cut:
    the host sends SIGINT only once this command said G (it is running)."""

    def __init__(self):
        self.read = sys.stdin.buffer.read
        self.head = bytearray()

    def take(self):
        """The next command (kind, id, source bytes), or None at end of input."""
        head = self.head
        while True:
            while not head.endswith(b"\n"):
                b = self.read(1)
                if not b:
                    return None
                head.extend(b)
            at = head.find(BMARK)
            if at >= 0:
                break
            head[:] = b""      # a line the running code left unread on its stdin
        parts = head[at + len(BMARK):].split()
        self.head = bytearray()
        n = int(parts[2])
        src = self.read(n) if n else b""
        return chr(parts[0][0]), int(parts[1]), src


def serve(g, rd):
    while True:
        try:
            cmd = rd.take()
        except KeyboardInterrupt:
            _kbd[0] += 1        # a Ctrl-C that came as the code ended (the host waits for it)
            _done("A", _kbd[0])
            continue
        if cmd is None:
            return
        kind, cid, src = cmd
        result = ("E", "")
        try:
            try:
                _done("G", cid)     # running: a Ctrl-C is the code's from here
                _run(kind, src, g)
            except SystemExit as e:
                why = str(e.value) if hasattr(e, "value") else str(e)
                result = ("R" if why in ("machine.reset", "deepsleep") else "S", "")
            except BaseException as e:  # noqa: BLE001 - KeyboardInterrupt too: the REPL's answer
                if isinstance(e, KeyboardInterrupt):
                    _kbd[0] += 1
                result = ("E", _traceback(e))
        except KeyboardInterrupt:
            _kbd[0] += 1
            result = ("E", "KeyboardInterrupt: \n")   # a second Ctrl-C while the first was reported
        _done("A", _kbd[0])
        _done(result[0], cid, result[1])
        try:
            gc.collect()
        except KeyboardInterrupt:
            _kbd[0] += 1
            _done("A", _kbd[0])


def main():
    folder = sys.argv[1]
    spec = json.loads(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else None
    _modules()
    if spec:
        _wire(spec)
    _mount(folder, spec["chip"] if spec else "esp32")
    g = {"__name__": "__main__"}
    rd = Reader()
    _done("O")                  # up: from here a Ctrl-C (SIGINT) interrupts the code
    while True:
        try:
            serve(g, rd)
            return
        except KeyboardInterrupt:
            _kbd[0] += 1        # one that fell between two commands
            _done("A", _kbd[0])


main()
