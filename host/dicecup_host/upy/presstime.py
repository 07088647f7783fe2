"""Inside MicroPython: time from a button event to the updated screen, with ticks_us
around the app's real code path -- the event into App.on_buttons (the real Ui's
on_buttons, the app's requests), Ui.tick and Ui.draw into the framebuffer, and the
screen task's push of the changed pages (hw/display.py Display.push, through the
Adafruit SSD1306 driver's bus) over the emulated I2C bus. The emulated chip's own work
inside each bus transfer is timed apart and taken out; the bytes and transfers that
went on the bus are counted, for the host to turn into wire time.

argv: board_json repeats [folder ...] (folders added to sys.path). Prints lines
`--press-- case=<name> key=<microseconds or count> ...`:

  local  one cup, master of a 6-seat Perudo table (5 bots, no radio), my turn to bid:
         case cursor (press right: the move cursor), peek (long ok: my dice),
         redraw (a whole frame: draw + show(), as after a wake), same (draw + push
         with nothing changed: what finding that out costs), lobby (press right in
         the lobby menu). Keys: ui (App.on_buttons), draw (tick + draw), show (the
         push's CPU: CRCs, the driver, the bus adapter), emu (the emulated chip,
         taken out), bytes, transfers (medians), alloc (heap bytes the push took,
         the emulated bus's own copies left out),
         changed (repeats whose OLED RAM changed), same_ram (repeats whose OLED RAM
         equals the framebuffer afterwards), whole (repeats whose framebuffer equals a
         whole draw of the Ui's scene: a press the Ui redrew in part drew it right).
  chain  six cups on the simulated medium (5 ms links), one App and real Ui each (the
         screen drawn into a buffer; show() timed in `local`): the ok that confirms a
         bid at a peer's cup, then every pump until every cup applied it. For every
         hop (a 1 ms slot where frames landed), the slowest cup's pump; the press
         (bidder: on_buttons + the pump that sends), the master's pumps, and the
         slowest peer's apply pump + its draw. Keys: press, hops, hop<i>, slots<i>
         (sim ms of the hop), span (sim ms press -> every cup applied), draw; and
         the last peer's screen change (its framebuffer before the press and after
         its draw) pushed by a real Display over the emulated chip: push (CPU),
         pbytes, ptransfers.
"""
import gc
import sys

for _p in sys.argv[3:]:
    sys.path.append(_p)
try:
    from dicecup_host.emu import machine as _machine   # the 32-bit build: frozen emulation
    sys.modules["machine"] = _machine
    from dicecup_host.emu import rig
except ImportError:
    import rig
from time import ticks_diff, ticks_us

BOARD = sys.argv[1]
REPEATS = int(sys.argv[2])

from dicecup.hw import board as fwb
from dicecup.hw.buttons import LONG, PRESS
from dicecup import appboot, bots
from dicecup.net.noradio import NoRadio
from dicecup.rng import Rng
from dicecup.net.memstore import MemStore
from dicecup.ui.screens import draw as whole_draw
from dicecup.ui.ui import Ui


def discard(s):
    # the serial log is formatted as on a cup (its CPU counts), and not written out
    pass


def begin(app):
    # what App.start does before it makes its tasks: the tasks' work is driven here
    app.push_status()
    app.push_lobby(force=True)
    app.changed = True


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


class TimedBus:
    """Wraps the emulated bus: time spent in the emulated chip (and heap it took:
    the emulated bus copies every transfer, a real one does not), bytes, transfers."""

    def __init__(self, bus):
        self.bus = bus
        self.write0 = bus.write
        self.reset()
        bus.write = self.write

    def reset(self):
        self.us = 0
        self.bytes = 0
        self.transfers = 0
        self.alloc = 0

    def write(self, addr, data, stop=True):
        t = ticks_us()
        a = gc.mem_alloc()
        n = self.write0(addr, data, stop)
        self.alloc += gc.mem_alloc() - a
        self.us += ticks_diff(ticks_us(), t)
        self.bytes += len(data)
        self.transfers += 1
        return n


def local(repeats):
    b = fwb.load(BOARD)
    w, acc, oled = rig.build(b, battery_v=3.92)
    from dicecup.hw import hardware
    hw = hardware.open(BOARD, clock=w.now)
    names = b.button_names()
    bit = dict((n, 1 << i) for i, n in enumerate(names))
    ui = Ui(names)
    app = appboot.make_app(hw, NoRadio(), MemStore(), w.now, ui=ui, out=discard)
    cup = app.cup
    d = hw.display
    buf = d.buffer()
    bus = TimedBus(w.bus)

    def frame(full=False):
        # the screen task's work: tick, draw, one push (show(): the whole frame)
        t = ticks_us()
        ui.tick(w.now())
        ui.draw(buf)
        t1 = ticks_us()
        bus.reset()
        a0 = gc.mem_alloc()               # (it walks the heap: outside the times)
        t2 = ticks_us()
        if full:
            d.show()
        else:
            d.push()
        t3 = ticks_us()
        return ticks_diff(t1, t), ticks_diff(t3, t2) - bus.us, gc.mem_alloc() - a0 - bus.alloc

    def one(case, kind, name, gap=20, full=False):
        res = {"ui": [], "draw": [], "show": [], "emu": [], "bytes": [], "transfers": [], "alloc": []}
        changed = 0
        same = 0
        whole = 0
        ref = bytearray(1024)
        for _ in range(repeats):
            w.advance(gap)
            app.pump()
            frame()                       # the screen settled before the press
            before = bytes(oled.ram)
            gc.collect()
            t = ticks_us()
            if kind:
                app.on_buttons(kind, bit[name])
            t1 = ticks_us()
            dr, sh, al = frame(full)
            ram = bytes(oled.ram)
            if ram != before:
                changed += 1              # the chip's RAM: what the OLED shows
            if ram == bytes(buf):
                same += 1
            whole_draw(ref, ui.sc)
            if ref == bytes(buf):
                whole += 1
            res["ui"].append(ticks_diff(t1, t))
            res["draw"].append(dr)
            res["show"].append(sh)
            res["emu"].append(bus.us)
            res["bytes"].append(bus.bytes)
            res["transfers"].append(bus.transfers)
            res["alloc"].append(al)
        print("--press-- case=%s ui=%d draw=%d show=%d emu=%d bytes=%d transfers=%d alloc=%d changed=%d"
              " same_ram=%d whole=%d mode=%s" % (
                  case, median(res["ui"]), median(res["draw"]), median(res["show"]), median(res["emu"]),
                  median(res["bytes"]), median(res["transfers"]), median(res["alloc"]), changed, same,
                  whole, ui.mode))

    begin(app)
    one("lobby", PRESS, "right")
    app.request(("create", "perudo", {}))
    for i in range(5):
        app.request(("bot", "bot%d" % i))
    rng = Rng(3)
    end = w.now() + 600000
    k = 0
    while w.now() < end:
        w.advance(10)
        app.pump()
        k += 1
        if k % 5 == 0:
            frame()                       # the screen task, every _FRAME_MS (app_tasks)
        if cup.table is not None and len(cup.table.members) == 6 and not app.game_on():
            app.request(("start",))
        if cup.wants_shake() and not cup.busy():
            cup.shake(b"bench")
        if cup.on_turn() and not cup.busy():
            v = cup.view()
            if v.need == "bid" and v.bid is not None and ui.mode == "play":
                break
            app.request(("act", bots.act(v, rng)))
    for _ in range(60):                   # 3 s: the toasts of the game's start go
        w.advance(50)
        app.pump()
        frame()
    one("cursor", PRESS, "right")
    one("peek", LONG, "ok", 3100)       # after PEEK_MS: each peek shows the dice anew
    one("redraw", 0, None, full=True)
    one("same", 0, None)
    return d, bus


class Cluster:
    """Six cups on the simulated medium, each an App with the real Ui."""

    def __init__(self, n, seed):
        from dicecup.net.sim import Clock, Medium
        self.clock = Clock()
        self.medium = Medium(self.clock, rng=seed, latency_ms=5, jitter_ms=0, trace=False)
        self.apps = []
        self.radios = []
        self.bufs = []
        self.applied = {}      # (cup index, version) -> sim ms
        clock = self.clock
        for i in range(n):
            addr = bytes((2, 0, 0, 0, 0, i + 1))
            r = self.medium.attach(addr)
            rb = Rng(seed * 10 + i)
            app = appboot.make_app(None, r, MemStore(), lambda: clock.now, ui=Ui(),
                                   random_bytes=lambda k, rb=rb: bytes(rb.randrange(256) for _ in range(k)),
                                   name="p%d" % i, out=discard)
            begin(app)
            app.cup.listen(self._note(i))
            self.apps.append(app)
            self.radios.append(r)
            self.bufs.append(bytearray(1024))

    def _note(self, i):
        def note(ev):
            if ev.kind == "op":
                self.applied[(i, ev.version)] = self.clock.now
        return note

    def step(self, timing=None):
        """One sim ms: frames land, then every cup with a frame or a deadline pumps and
        draws what changed. timing: a list getting (now, cup, had_frames, us)."""
        c = self.clock
        c.run_until(c.now + 1)
        now = c.now
        for i in range(len(self.apps)):
            app = self.apps[i]
            had = len(self.radios[i].rx) > 0
            if not had and now < app.due and not app.changed:
                continue
            t = ticks_us()
            app.pump()
            us = ticks_diff(ticks_us(), t)
            if app.ui.tick(now):
                t = ticks_us()
                app.ui.draw(self.bufs[i])
                if timing is not None:
                    timing.append((now, i, 2, ticks_diff(ticks_us(), t)))
            if timing is not None:
                timing.append((now, i, 1 if had else 0, us))

    def run(self, ms, cond=None):
        end = self.clock.now + ms
        while self.clock.now < end:
            self.step()
            if cond is not None and cond():
                return True
        return False


def chain(repeats, d, bus):
    n = 6
    cl = Cluster(n, 5)
    cl.display = d
    cl.bus = bus
    apps = cl.apps
    m = apps[0].cup
    m.create(0x4242, "1234", "perudo", 0)
    for a in apps[1:]:
        cl.run(3000, lambda: 0x4242 in a.cup.heard)
        a.cup.join(0x4242, "1234")
        cl.run(3000, lambda: a.cup.table is not None)
    cl.run(1000)
    m.start()
    rng = Rng(11)
    ok = 1 << 1                # Ui's default names: left, ok, right, back
    got = []
    guard = 0
    while len(got) < repeats and guard < 200000:
        guard += 1
        cl.step()
        for i in range(n):
            cup = apps[i].cup
            if cup.table is None or cup.table.game is None:
                continue
            if cup.wants_shake() and not cup.busy():
                cup.shake(b"bench%d" % i)
        bidder = None
        for i in range(n):
            cup = apps[i].cup
            if cup.on_turn() and not cup.busy():
                bidder = i
        if bidder is None:
            continue
        a = apps[bidder]
        v = a.cup.view()
        c = a.ui.controls
        if bidder != 0 and v.need == "bid" and a.ui.mode == "play" and v.legal:
            # compose a bid on the Ui: ok (the bid move), ok (the face), then time the
            # ok that sends it
            if c.focus == 0 and c.move == 1:
                a.on_buttons(PRESS, ok)
                a.on_buttons(PRESS, ok)
            if c.focus == 2 and c.move == 1:
                got.append(measure(cl, bidder, ok))
                continue
        act = bots.act(v, rng)
        a.request(("act", act))
    if not got:
        print("--press-- case=chain error=no-bid")
        return
    keys = got[0].keys()
    print("--press-- case=chain " + " ".join("%s=%d" % (k, median([g[k] for g in got])) for k in keys))


def measure(cl, bidder, ok):
    apps = cl.apps
    a = apps[bidder]
    for _ in range(20):            # let acks and heartbeats settle: a quiet start
        cl.step()
    version = a.cup.table.version + 1
    screens = [bytes(b) for b in cl.bufs]     # what every cup shows before the press
    t0 = cl.clock.now
    gc.collect()
    t = ticks_us()
    a.on_buttons(PRESS, ok)
    a.pump()
    press = ticks_diff(ticks_us(), t)
    timing = []
    n = len(apps)
    while cl.clock.now - t0 < 500 and len([1 for i in range(n) if (i, version) in cl.applied]) < n:
        cl.step(timing)
    done = [cl.applied.get((i, version)) for i in range(n)]
    if None in done:
        return {"press": press, "hops": -1, "span": -1}
    last = max(done)
    # hops: the sim ms where frames landed, up to the last apply; on each, the slowest
    # cup's pump (cups run in parallel, each on its own CPU)
    slots = {}
    draw = 0
    for now, i, kind, us in timing:
        if now > last:
            continue
        if kind == 1:
            slots[now] = max(slots.get(now, 0), us)
        elif kind == 2 and now == done[i] and us > draw:
            draw = us
    out = {"press": press, "hops": len(slots), "span": last - t0, "draw": draw}
    out.update(push_change(cl, screens[done.index(last)], cl.bufs[done.index(last)]))
    k = 0
    for now in sorted(slots):
        out["hop%d" % k] = slots[now]
        out["at%d" % k] = now - t0
        k += 1
    return out


def push_change(cl, before, after):
    """The last peer's screen change, pushed as its screen task would: `before` shown
    (a whole frame), then `after` drawn and pushed; its CPU, bytes and transfers."""
    d = cl.display
    buf = d.buffer()
    buf[:] = before
    d.show()
    buf[:] = after
    cl.bus.reset()
    t = ticks_us()
    d.push()
    us = ticks_diff(ticks_us(), t) - cl.bus.us
    return {"push": us, "pbytes": cl.bus.bytes, "ptransfers": cl.bus.transfers}


d, bus = local(REPEATS)
chain(max(3, REPEATS // 4), d, bus)
