"""One simulated cup in its own MicroPython process, in lock-step with the host
(`dicecup sim --headless --micropython`; host/dicecup_host/mpsim.py runs one per cup).

    micropython-fw32 -X heapsize=N -c "from dicecup_host.emu import cupproc; cupproc.main()"

Frozen into the 32-bit build (firmware/manifest_sim.py). Inside: the emulated chips
wired as the board file says (rig.py), the whole app (`appboot.make_app`: hardware,
Cup, UI, every task) over `PipeRadio`, whose frames go to and come from the host over
stdin/stdout, and a player at the cup (`PLAYERS`). Time is the host's: asyncio runs on
the emulated clock (vtime.py) and this module stops it at the host's step ends.

Why lock-step: the host owns the simulated time and the medium. It says "run until
T, here are the frames that land for you (with their times)"; the cup runs its loop
on the emulated clock up to T -- time moves only when every task waits -- delivers
each frame at its landing time, writes what it sent (with send times) and its serial
log as it goes, and at T reports its next wake time and whether its game is over.
Six processes on two cores so neither drift into "away" nor wait on the wall clock.

Lines on stdout (serial lines -- the app's JSON event log -- have no prefix; the
protocol's start with \\x01):
    \\x01B base total ballast   the emulation is up: its heap (the emulators' share),
                               the GC heap's total, and the ballast (below)
    \\x01C code tid             the master's join code (what a player reads off its screen)
    \\x01F t dest hex           a frame sent at t (host ms)
    \\x01H bytes                a new peak of the app's live heap
    \\x01X where error          the player's own code raised (the traceback on stderr)
    \\x01M stage bytes          the app's heap after a stage of boot (drivers, hardware, app),
                               and (`person`) what the simulated person's bot took (below)
    \\x01W t next done          at t, the step is over: next wake (-1: none), game over 0/1
    \\x01E json                 at the end: counts, peak, final state digest
On stdin: one JSON line (the config, see `main`), then per step any of
    L t src n      a frame landing at t: the line, then its n bytes as they are
    J code tid     the join code, for a joiner
and "R T" (run until T) or "Q" (quit: the final report, then exit).

The heap. Once the emulation is up and before anything of the app is imported, the
live heap after gc.collect() is the emulators' share (base). A ballast bytearray then
takes all the free heap but `cap` bytes, so the app has exactly `cap` (110 KB: an
ESP32 without PSRAM; 60 KB for the second check) whatever the emulation took. The
app's figure at each event the cup emits is gc.mem_alloc() after gc.collect() minus
base and ballast: its live objects, the emulation's garbage collected away; the
emulated pins and chips are made before the base reading, so what they hold stays in
the base. Counted as the app's: the drivers (.mpy, as on a cup's flash), the
hardware objects, the app, frames waiting in the radio's buffer, and the small state
of the player and of this module. Not counted: the simulated person's brain on a table
without bot seats -- a person at a real cup brings no code into it. The bot that picks
their moves (`dicecup.bots`, the odds it reads) is imported once the app is made (its
imports, which the app needs too, are loaded by then), and a second, small ballast
(`PERSON_ROOM`) shrinks by what it took, so the app's figure and its free heap are as
if it were not there. With bot seats the master loads those modules for its bots: there
they stay the app's.
"""
import gc
import sys

from dicecup_host.emu import machine as _machine

sys.modules["machine"] = _machine   # the unix port's own has no I2C or Pin

import asyncio  # noqa: E402
from binascii import hexlify, unhexlify  # noqa: E402

from dicecup.net.transport import MAX_CUPS, MTU, RX_OVERHEAD, RXBUF, RxQueue, Transport, check_frame  # noqa: E402
from dicecup_host.emu import lis3dh, rig, vtime, world  # noqa: E402

LEAD_MS = 1 << 27      # the emulated clock's lead over real ticks (vtime.py): 37 hours of wall time
SHAKE_MS = 1200        # the hand shakes this long, then sets the cup down
SHAKE_WAIT_MS = 2000   # ...and waits this long before looking again
THINK_MS = 250         # a player's pause before a move (as dicecup/autoplay.py)
PERSON_ROOM = 4096     # the second ballast, given back as the simulated person's bot loads


class Quit(Exception):
    """The host said Q (or went away): end the run."""


def say(line):
    # written in pieces: the harness makes no allocation the size of a line on the
    # app's heap (a fragmented one could not give it; a cup's radio makes none)
    out = sys.stdout.write
    out("\x01")
    out(line)
    out("\n")


class PipeRadio(Transport):
    """The cup's radio: sends go to the host at once (a line on stdout), landings come
    from the host and wait in a receive buffer the size of the ESP-NOW ring."""

    mtu = MTU
    max_cups = MAX_CUPS

    def __init__(self, address, step):
        self.address = address
        self.step = step
        self.rx = RxQueue(RXBUF, RX_OVERHEAD)
        self.ev = asyncio.Event()
        self.tx = 0

    def send(self, dest, frame):
        check_frame(dest, frame, self.mtu)
        self.tx += 1
        out = sys.stdout.write
        out("\x01F %d %s " % (self.step.now(), hexlify(dest).decode()))
        mv = memoryview(frame)
        for i in range(0, len(frame), 32):   # hex in small pieces, as say() writes
            out(hexlify(mv[i:i + 32]).decode())
        out("\n")
        return True

    def recv(self):
        return self.rx.get()

    def _ready(self):
        return len(self.rx) > 0

    def landed(self, src, frame):
        if self.rx.put(src, frame):
            self.ev.set()

    async def wait(self, timeout_ms):
        if len(self.rx):
            return True
        self.ev.clear()
        try:
            await asyncio.wait_for_ms(self.ev.wait(), timeout_ms)
        except asyncio.TimeoutError:
            pass
        return len(self.rx) > 0

    def stats(self):
        return {"tx": self.tx, "rx": self.rx.received, "rx_dropped": self.rx.dropped}


class Lockstep:
    """asyncio's wait between tasks, stopped at the host's step ends (see the module
    docstring). Host time is the emulated clock minus its value at install."""

    def __init__(self, w):
        self.w = w
        self.t0 = w.now()
        self.until = 0          # host time this step runs to
        self.pending = []       # [host time, src, frame] landing later, in time order
        self.radio = None
        self.done = None        # () -> bool: this cup's game is over and shown
        self.code = None        # (code, tid) once the host told us
        self.steps = 0

    def now(self):
        return self.w.now() - self.t0

    def install(self):
        from asyncio import core
        from time import ticks_diff
        q = core._io_queue
        tq = core._task_queue
        poll = type(q).wait_io_event

        def io_ready():
            return vtime.io_ready(q)    # (the real poll sleeps 1 ms a call while a flag is registered)

        def wait_io_event(dt):
            if dt:
                if q.map and io_ready():
                    poll(q, 0)      # a flag a task just set (a button press) wakes its waiter now
                    t = tq.peek()
                    if t and ticks_diff(t.ph_key, core.ticks()) <= 0:
                        return
                self.pass_time(dt)
            if q.map and io_ready():
                poll(q, 0)

        q.wait_io_event = wait_io_event

    def pass_time(self, dt):
        """Let up to dt ms pass (dt < 0: no timer at all), landing frames on time and
        stopping at step ends to trade with the host."""
        w = self.w
        clock = w.clock
        target = None if dt < 0 else clock.t + dt
        p = self.pending
        while True:
            end = self.t0 + self.until
            if p:
                t = self.t0 + p[0][0]
                if t <= end and (target is None or t <= target):
                    if t > clock.t:
                        w.advance(t - clock.t)
                    while p and self.t0 + p[0][0] <= clock.t:
                        x = p.pop(0)
                        self.radio.landed(x[1], x[2])
                    return
            if target is not None and target <= end:
                if target > clock.t:
                    w.advance(target - clock.t)
                return
            if end > clock.t:
                w.advance(end - clock.t)
            self.trade(-1 if target is None else target - self.t0)

    def trade(self, wake):
        """The step is over: report, then take the host's next orders."""
        self.steps += 1
        say("W %d %d %d" % (self.now(), wake, 1 if self.done is not None and self.done() else 0))
        read = sys.stdin.readline
        raw = sys.stdin.buffer.read
        while True:
            ln = read()
            if not ln:
                raise Quit()
            c = ln[0]
            if c == "L":   # L t src n, then the frame's n bytes as they are
                parts = ln.split()
                n = int(parts[3])
                frame = raw(n)
                while len(frame) < n:
                    frame += raw(n - len(frame))
                self.pending.append([int(parts[1]), unhexlify(parts[2]), frame])
            elif c == "R":
                self.until = int(ln[2:])
                return
            elif c == "J":
                parts = ln.split()
                self.code = (parts[1], int(parts[2]))
            elif c == "Q":
                raise Quit()


class Heap:
    """The app's live heap (gc.mem_alloc after gc.collect, minus base and ballast) at
    each event the cup emits; the peak is reported whenever it grows."""

    def __init__(self, floor):
        self.floor = floor
        self.peak = 0
        self.readings = 0

    def stage(self, name):
        """A reading between the steps of bringing the cup up (M lines: where the heap goes)."""
        gc.collect()
        say("M %s %d" % (name, gc.mem_alloc() - self.floor))

    def reading(self, ev=None):
        gc.collect()
        a = gc.mem_alloc() - self.floor
        self.readings += 1
        if a > self.peak:
            self.peak = a
            say("H %d" % a)


def quiet_bus(bus):
    """The emulated I2C bus (emu/bus.py) without its copies: `write` copies every buffer
    into a new bytes (1 KB per screen frame) and `read_into` slices what it read for
    its log even with logging off -- garbage a cup's machine.I2C never makes, which
    fragmented the capped heap (a 1026-byte MemoryError in the screen task at 110 KB).
    The devices see the same bytes; nothing is logged."""
    devices = bus.devices

    def write(addr, data, stop=True):
        dev = devices.get(addr)
        if dev is None:
            raise OSError(19)   # ENODEV: nobody answers that address
        dev.i2c_write(data)
        return len(data)

    def read_into(addr, buf, stop=True):
        dev = devices.get(addr)
        if dev is None:
            raise OSError(19)
        n = len(buf)
        data = dev.i2c_read(n)
        for i in range(n):
            buf[i] = data[i]
        return n

    bus.write = write
    bus.read_into = read_into


def seeded_bytes(seed):
    """The cup's random bytes from the firmware's seeded xorshift: one seed, one game."""
    from dicecup.rng import Rng
    r = Rng(seed)

    def random_bytes(n):
        b = bytearray(n)
        for k in range(n):
            b[k] = r.randrange(256)
        return bytes(b)
    return random_bytes


# ----- players ------------------------------------------------------------------------

class Hand:
    """The player's hand on the cup: shakes through the emulated accelerometer, made up
    as it goes (4 Hz for SHAKE_MS, then set down), so the app's own motion task and
    shake detector decide the roll."""

    def __init__(self, w, acc, board):
        import math
        self.w = w
        self.t0 = -100000
        self.mount = board.mount
        self.sin = math.sin
        self.rest = lis3dh.to_sensor((0.01, -0.02, 1.0), board.mount)
        acc.set_function(self.felt)
        self.shakes = 0
        self.pins = [(s.pin, s.active) for s in board.buttons]
        self.presses = 0

    def felt(self, t):
        d = t - self.t0
        if 0 <= d < SHAKE_MS:
            s = self.sin(6.2832 * 4 * d / 1000)
            return lis3dh.to_sensor((1.6 * s, 0.4 * s, 1.0 + 0.5 * self.sin(d / 30)), self.mount)
        return self.rest

    async def shake(self, sleep):
        self.shakes += 1
        self.t0 = self.w.now()
        await sleep(SHAKE_WAIT_MS)

    async def press(self, g, sleep):
        """Gesture g = (kind, mask) on the emulated buttons: the buttons of the mask
        pressed 30 ms apart, held (past the 700 ms long press for LONG), let go."""
        from dicecup.hw.buttons import LONG
        kind, mask = g
        w = self.w
        self.presses += 1
        for i in range(len(self.pins)):
            if mask >> i & 1:
                w.press(self.pins[i][0], self.pins[i][1])
                await sleep(30)
        await sleep(800 if kind == LONG else 60)
        for i in range(len(self.pins)):
            if mask >> i & 1:
                w.release(self.pins[i][0])
        await sleep(60)


async def lobby(app, cfg, step, sleep):
    """Cup 0 creates the table and, once every cup joined, adds the bots and starts;
    cup i joins (with the code the host relays) once the i before it are in."""
    cup = app.cup
    i = cfg["i"]
    n = cfg["n"]
    if i == 0:
        app.request(("create", cfg["rules"], cfg.get("options")))
        while cup.table is None:
            await sleep(50)
        say("C %s %d" % (cup.keys.code, cup.keys.tid))
        while len(cup.table.members) < n:
            await sleep(100)
        for k in range(cfg.get("bots", 0)):
            app.request(("bot", "bot%d" % (k + 1)))
            while len(cup.table.members) < n + k + 1:
                await sleep(100)
        app.request(("start",))
        return
    while step.code is None:
        await sleep(100)
    code, tid = step.code
    while True:
        v = cup.heard.get(tid)
        if v is not None and v[3] >= i:
            break
        await sleep(100)
    while cup.table is None or cup.me is None:
        app.request(("join", code, tid))
        for _ in range(100):
            await sleep(100)
            if cup.table is not None and cup.me is not None:
                break


def watch_views(app):
    """The View the app last pushed to its UI (the seam's ui.on_view), kept for the
    player: it reads what the screen was given instead of building a second View
    (with its legal-move list: 1.3 KB at a 30-dice table) on a full heap."""
    seen = [None]
    ui = app.ui
    shown = ui.on_view

    def on_view(v):
        seen[0] = v
        shown(v)

    ui.on_view = on_view
    return seen


def player_error(where, e):
    """Something the player did raised (a MemoryError on a full heap): said on stdout
    for the host, the traceback on stderr; the player goes on."""
    say("X %s %s: %s" % (where, type(e).__name__, e))
    sys.print_exception(e, sys.stderr)


async def engine_player(app, cfg, step, hand, sleep):
    """--drive engine: moves chosen by dicecup.bots on the seat's View, handed to the app
    as its requests; rolls by shaking the cup. Paced like dicecup/autoplay.py."""
    from dicecup import bots
    from dicecup.engine import BANK_OR_ROLL, BID, KEEP
    from dicecup.engine.actions import kind
    from dicecup.rng import Rng
    cup = app.cup
    rng = Rng(cfg["seed"] * 31 + cfg["i"])
    seen = watch_views(app)
    while True:
        try:
            await lobby(app, cfg, step, sleep)
            break
        except Exception as e:  # noqa: BLE001 - reported, then tried again
            player_error("lobby", e)
            await sleep(1000)
    decided = -1
    rolling = -1
    rejects = 0
    shake_ms = cfg.get("shake_ms", 0)
    while True:
        v = None   # not held over a wait: the app's next View replaces it (a person keeps no copy)
        await sleep(100)
        try:
            t = cup.table
            if t is None or t.game is None:
                continue
            version = t.version
            need = cup.need()
            w = cup.wants_shake()
            if w is not None and not (w == "roll" and need == BANK_OR_ROLL and rolling != version):
                if shake_ms:
                    await sleep(shake_ms)
                if cup.wants_shake() is not None:
                    await hand.shake(sleep)
                continue
            if cup.rejects() != rejects:
                rejects = cup.rejects()
                decided = -1
            if need not in (BID, KEEP, BANK_OR_ROLL) or decided == version or not cup.on_turn() or cup.busy():
                continue
            await sleep(THINK_MS)
            v = seen[0]
            if (t is not cup.table or t.version != version or not cup.on_turn() or cup.busy() or app.changed
                    or v is None or not v.mine):
                continue           # something changed meanwhile (or the screen has not caught up)
            decided = version
            a = bots.act(v, rng)
            if a is None:
                continue
            if kind(a) == "roll":
                rolling = version      # shaking is the roll
                continue
            then = bots.reroll(v, a, rng) if kind(a) == "bid" else None
            app.request(("act", a) if then is None else ("act", a, then))
        except Exception as e:  # noqa: BLE001
            player_error("play", e)
            decided = -1


async def buttons_player(app, cfg, step, hand, sleep):
    """--drive buttons: the lobby and every move by gestures on the emulated buttons
    through the real Ui and its button model (dicecup_host.emu.thumb, frozen in): cup 0
    creates the table from its menu, sets the options and adds the bots on its table
    menu and starts; the others pick "join" and type the code the host relays. Moves
    are dicecup.bots' choices on the View the Ui shows (thumb.Player); rolls are shakes."""
    from dicecup_host.emu.thumb import SHAKE, Player, choose
    from dicecup.rng import Rng
    ui = app.ui
    cup = app.cup
    player = Player(app.hw.board.button_names(), Rng(cfg["seed"] * 31 + cfg["i"]))
    th = player.thumb
    shake_ms = cfg.get("shake_ms", 0)

    async def make(g):
        if g[0] == SHAKE:
            if shake_ms:
                await sleep(shake_ms)
            await hand.shake(sleep)
        else:
            await hand.press(g, sleep)

    async def pick(key):
        return await choose(th, ui, key, make)

    async def until(cond, ms):
        end = step.now() + ms
        while step.now() < end and not cond():
            await sleep(100)
        return cond()

    i = cfg["i"]
    n = cfg["n"]
    if i == 0:
        while not (await pick("menu_create") and await pick(cfg["rules"])
                   and await until(lambda: cup.table is not None and ui.mode == "table", 5000)):
            await sleep(1000)
        say("C %s %d" % (cup.keys.code, cup.keys.tid))
        await until(lambda: len(cup.table.members) >= n, 600000)
        for name, value in sorted((cfg.get("options") or {}).items()):
            for _ in range(4):
                lb = ui.lobby
                if lb is not None and dict(lb.options).get(name) == value:
                    break
                await pick("table_opt_" + name)
                await sleep(300)
        for k in range(cfg.get("bots", 0)):
            await pick("table_add_bot")
            await until(lambda: len(cup.table.members) >= n + k + 1, 5000)
        while cup.table.phase == 0:
            await pick("table_start")
            await sleep(500)
    else:
        while step.code is None:
            await sleep(100)
        code, tid = step.code
        await until(lambda: cup.heard.get(tid) is not None and cup.heard[tid][3] >= i, 600000)
        while cup.table is None or cup.me is None:
            if await pick("menu_join"):
                while ui.sc.screen == "code":
                    await make(th.code(ui, code))
            await until(lambda: cup.table is not None and cup.me is not None, 10000)
    while True:
        try:
            g = player.next(ui)
            if g is None:
                await sleep(100)
                continue
            await make(g)
            player.did(g)
        except Exception as e:  # noqa: BLE001 - reported, the player goes on
            player_error("play", e)
            await sleep(500)


PLAYERS = {"engine": engine_player, "buttons": buttons_player}


# ----- the run ------------------------------------------------------------------------

def main():
    """Read the config line, bring the emulated cup up, run the app until the host quits.

    Config (JSON): i (cup index), n (cups), bots, board (path), addr (hex), name, rules,
    options, seed, drive, cap (the app's heap, bytes), store (a folder for FileStore),
    path (folders to add to sys.path: the drivers' .mpy), shake_ms."""
    import json
    cfg = json.loads(sys.stdin.readline())
    for p in cfg.get("path", ()):
        sys.path.append(p)
    from dicecup.hw import board as fwb
    b = fwb.load(cfg["board"])
    w, acc, oled = rig.build(b, battery_v=3.92)
    quiet_bus(w.bus)
    for num in [s.pin for s in b.buttons] + [b.scl, b.sda, b.int1, b.battery_pin]:
        if num is not None:
            w.line(num)          # the emulated pins exist before the base reading
    vtime.LEAD_MS = LEAD_MS
    vtime.install(w)
    step = Lockstep(w)
    step.install()
    hand = Hand(w, acc, b)
    player = PLAYERS[cfg.get("drive", "engine")]
    addr = unhexlify(cfg["addr"])
    del json
    gc.collect()
    base = gc.mem_alloc()
    total = base + gc.mem_free()
    spare = gc.mem_free() - cfg["cap"]
    ballast = bytearray(spare - PERSON_ROOM) if spare > PERSON_ROOM else None
    room = bytearray(PERSON_ROOM) if spare > PERSON_ROOM else None
    gc.collect()
    floor = gc.mem_alloc()
    say("B %d %d %d" % (base, total, floor - base))
    heap = Heap(floor)

    import adafruit_lis3dh  # noqa: F401 - the drivers (.mpy), as hw/ imports them
    import adafruit_ssd1306  # noqa: F401
    heap.stage("drivers")
    from dicecup.hw import hardware
    hw = hardware.open(cfg["board"], clock=w.now)
    del hardware          # as on a cup (safemode.main's local): hw/trim.py may unload it
    heap.stage("hardware")
    from dicecup import appboot
    from dicecup.net.store import FileStore
    radio = PipeRadio(addr, step)
    step.radio = radio
    app = appboot.make_app(hw, radio, FileStore(cfg["store"]), step.now, out=sys.stdout.write,
                           random_bytes=seeded_bytes(cfg["seed"] * 7919 + cfg["i"]), name=cfg["name"])
    app.cup.listen(heap.reading, private=True)
    heap.stage("app")
    if not cfg.get("bots") and room is not None:
        gc.collect()
        a = gc.mem_alloc()
        from dicecup import bots  # noqa: F401 - the person's brain, not the cup's (see above)
        from dicecup.players import odds  # noqa: F401
        gc.collect()
        took = gc.mem_alloc() - a
        room = None
        gc.collect()
        room = bytearray(PERSON_ROOM - took) if took < PERSON_ROOM else None
        say("M person %d" % took)
    from dicecup.net import table as tbl
    cup = app.cup

    def done():
        t = cup.table
        return t is not None and t.phase == tbl.DONE and cup.sync.shown == t.version

    step.done = done
    sleep = app.sleep

    async def run():
        app.start()
        await player(app, cfg, step, hand, sleep)
        while True:
            await sleep(1000)

    try:
        asyncio.run(run())
    except Quit:
        pass
    from asyncio import core
    core.cur_task = None    # the loop stopped inside a wait: no task is running now
    app.stop()
    heap.reading()
    t = cup.table
    report = {"peak": heap.peak, "readings": heap.readings, "counts": cup.counts, "rolls": app.rolls,
              "shakes": hand.shakes, "steps": step.steps, "restarts": app.restarts, "screens": app.frames,
              "radio": radio.stats(), "digest": hexlify(t.digest_of()).decode() if t is not None else None,
              "version": t.version if t is not None else -1, "ballast": (len(ballast) if ballast else 0) + (len(room) if room else 0)}
    import json
    sys.stdout.write("\x01E ")
    json.dump(report, sys.stdout)   # streamed: no string of the whole report
    sys.stdout.write("\n")
