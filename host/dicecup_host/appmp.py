"""The app inside real MicroPython on an emulated cup: main.py run as on a cup.

`boot(board_name, plan=..., safe=False)` wires an emulated cup as the board file says
(rig.py), puts asyncio on the emulated clock (emu/vtime.py), holds the safe button if
asked, and runs `firmware/main.py` itself -- safe mode, then the app with the real
ESP-NOW transport over the fake driver (tests/fakes), FileStore in a temporary folder
-- for `run_ms` of emulated time while `plan` acts on the outside: presses, screen
snapshots, heap readings. Returns a Run: serial lines, JSON events, screens, heap
figures. A screen snapshot of the app says which screen the UI shows (ui/screens.py
pick), what its Scene holds (menu keys, cursor, code, players) and whether the emulated
SSD1306's RAM holds exactly what `screens.draw` makes of that Scene; before the app
(the self-test) it is read back as text by matching the 8x8 font.

Runtimes: the unix wheel (64-bit, firmware as .mpy from build/mpy: all code in the
heap, so it needs far more than an ESP32's 110 KB: `HEAP`) or the 32-bit build with the
firmware frozen in (`fw32=True`, the ESP32's 110 KB).
"""
import os
import tempfile
from pathlib import Path

from dicecup_host import bundle, emu, mpy

HEAP = "768K"           # the 64-bit wheel: all code as .mpy in the heap (~540 KB used in the lobby)
FW32_HEAP = "140K"     # the ESP32's 110 KB plus the emulation (as tests/hw EMU_HEAP)
FAKES = mpy.ROOT / "tests" / "fakes"
MAIN = mpy.FIRMWARE / "main.py"

PRELUDE = r"""
import sys, gc
for _p in %(extra)r:
    sys.path.append(_p)
try:
    from dicecup_host.emu import machine as _machine   # the 32-bit build: frozen emulation
    sys.modules["machine"] = _machine
    from dicecup_host.emu import world, rig, vtime, lis3dh
except ImportError:
    import world, rig, vtime, lis3dh
import framebuf

def glyphs():
    g = {}
    b = bytearray(8)
    fb = framebuf.FrameBuffer(b, 8, 8, framebuf.MONO_VLSB)
    for c in range(32, 127):
        fb.fill(0)
        fb.text(chr(c), 0, 0, 1)
        g[bytes(b)] = chr(c)
    return g

def read_screen(ram, g):
    rows = []
    for r in range(8):
        s = ""
        for c in range(16):
            cell = bytes(ram[r * 128 + c * 8:r * 128 + c * 8 + 8])
            ch = g.get(cell)
            if ch is None:
                ch = g.get(bytes([x ^ 0xFF for x in cell]), "?")
            s += ch
        rows.append(s.rstrip())
    return rows

class Outside:
    # the world outside the cup, acting at emulated times (a timed part of the world)
    def __init__(self, w, b, oled, plan):
        self.w = w
        self.b = b
        self.oled = oled
        self.plan = sorted(plan)
        self.t0 = w.now()          # plan times are from here (vtime.install's start)
        self.shots = []
        self.mem = []
        self.g = glyphs()          # made before the cup runs: part of the base heap
        self.app = None            # the App once made (appboot.make_app, hooked)
        w.timed.append(self)

    def pin(self, name):
        s = self.b.buttons[self.b.button_names().index(name)]
        return s.pin, s.active

    def sync(self, now):
        now -= self.t0
        while self.plan and self.plan[0][0] <= now:
            t, what, arg = self.plan.pop(0)
            if what == "press":
                p, a = self.pin(arg)
                self.w.press(p, a)
            elif what == "release":
                self.w.release(self.pin(arg)[0])
            elif what == "screen":
                self.shot(t, arg)
            elif what == "mem":
                gc.collect()
                self.mem.append((arg, gc.mem_alloc(), gc.mem_free()))

    def shot(self, t, name):
        s = {"name": name, "t": t, "on": int(self.oled.on)}
        ui = self.app.ui if self.app is not None else None
        if ui is None:
            s["rows"] = read_screen(self.oled.ram, self.g)
        else:
            from dicecup.ui import screens
            buf = bytearray(len(self.oled.ram))
            sc = ui.sc
            s["screen"] = screens.draw(buf, sc)
            s["same"] = buf == self.oled.ram
            s["mode"] = ui.mode
            s["menu"] = list(sc.menu)
            s["cursor"] = sc.cursor
            s["code"] = sc.code
            s["players"] = list(sc.players)
            buf = None
        self.shots.append(s)

    def report(self):
        import json
        for s in self.shots:
            print("--screen-- " + json.dumps(s))
        for name, used, free in self.mem:
            print("--mem-- %%s %%d %%d" %% (name, used, free))
"""

BOOT = PRELUDE + r"""
from dicecup.hw import board as fwb
b = fwb.load(%(board)r)
w, acc, oled = rig.build(b, battery_v=3.92)
vtime.install(w)
# the cup's own clocks (appboot.make_clock, the buttons' and the self-test's default,
# the transports' polling) read ticks_ms through these modules: the emulated clock too
import dicecup.hw.clock, dicecup.hw.buttons, dicecup.hw.selftest, dicecup.net.transport
for _m in (dicecup.hw.clock, dicecup.hw.buttons, dicecup.hw.selftest, dicecup.net.transport):
    _m.ticks_ms = w.now
fwb.PATH = %(board)r
import fakeair, espnow, aioespnow, network   # the fake radio's code: not the cup's, so in the base
fakeair.reset(seed=1)
fakeair.use(b"\x02\xd1\xce\x00\x00\x01")
out = Outside(w, b, oled, %(plan)r)
gc.collect()
out.mem.append(("base", gc.mem_alloc(), gc.mem_free()))
if %(safe)r:
    p, a = out.pin(b.buttons[b.safe_button].name)
    w.press(p, a)
from dicecup import appboot
_make_app = appboot.make_app

def _made(*a, **k):
    out.app = _make_app(*a, **k)   # the outside looks at the app's screen state
    return out.app
appboot.make_app = _made
appboot.RUN_MS = %(run_ms)d
appboot.SELFTEST_MS = %(selftest_ms)d
appboot.STORE_ROOT = %(store)r
exec(open(%(main)r).read(), {"__name__": "__main__"})
gc.collect()
out.shot(w.now() - out.t0, "end")
print("--main returned-- %%d" %% (w.now() - out.t0))
out.report()
"""


GAME = PRELUDE + r"""
import asyncio
from dicecup.hw import board as fwb
from dicecup.hw import hardware
b = fwb.load(%(board)r)
w, acc, oled = rig.build(b, battery_v=3.92)
vtime.install(w)
out = Outside(w, b, oled, [])
import math
SHAKE = {"t0": -10000}

def felt(t):
    # a hand shaking the cup at 4 Hz for 1.2 s, then the cup set down (a jolt, rest):
    # made up as it goes (a stored trace would take 20 KB of this heap)
    d = t - SHAKE["t0"]
    if 0 <= d < 1200:
        s = math.sin(6.2832 * 4 * d / 1000)
        return lis3dh.to_sensor((1.6 * s, 0.4 * s, 1.0 + 0.5 * math.sin(d / 30)), b.mount)
    return lis3dh.to_sensor((0.01, -0.02, 1.0), b.mount)

acc.set_function(felt)
gc.collect()
out.mem.append(("base", gc.mem_alloc(), gc.mem_free()))
import adafruit_ssd1306, adafruit_lis3dh
gc.collect()
out.mem.append(("drivers", gc.mem_alloc(), gc.mem_free()))
hw = hardware.open(%(board)r, clock=w.now)
gc.collect()
out.mem.append(("hardware", gc.mem_alloc(), gc.mem_free()))
from dicecup import appboot, bots
from dicecup.net.noradio import NoRadio
from dicecup.net.store import FileStore
app = appboot.make_app(hw, NoRadio(), FileStore(%(store)r), w.now, out=sys.stdout.write)
out.app = app
gc.collect()
out.mem.append(("app", gc.mem_alloc(), gc.mem_free()))
ui = app.ui

from dicecup.net.sim import Rng   # the firmware's seeded xorshift, the same on every runtime
try:
    from dicecup_host.emu import thumb   # frozen (the 32-bit build, once it freezes it)
except ImportError:
    import thumb
player = thumb.Player(b.button_names(), Rng(7))
th = player.thumb
gc.collect()
out.mem.append(("person", gc.mem_alloc(), gc.mem_free()))

async def gesture(g):
    kind, mask = g
    if kind == thumb.SHAKE:
        SHAKE["t0"] = w.now()
        await asyncio.sleep_ms(2000)
        return
    pins = [b.buttons[i] for i in range(len(b.buttons)) if mask >> i & 1]
    for s in pins:
        w.press(s.pin, s.active)
        await asyncio.sleep_ms(30)
    await asyncio.sleep_ms(800 if kind == 2 else 60)   # LONG: past the 700 ms
    for s in pins:
        w.release(s.pin)
    await asyncio.sleep_ms(60)

async def pick(key):
    return await thumb.choose(th, ui, key, gesture, 12)

async def until(cond, ms):
    end = w.now() + ms
    while w.now() < end and not cond():
        await asyncio.sleep_ms(50)
    return cond()

async def person():
    await asyncio.sleep_ms(500)
    gc.collect()
    out.mem.append(("boot", gc.mem_alloc(), gc.mem_free()))
    await pick("menu_create")
    await pick(%(rules)r)
    await until(lambda: ui.mode == "table", 3000)
    await pick("table_add_bot")
    await until(lambda: len(ui.sc.players) == 2, 3000)
    await pick("table_start")
    await until(lambda: ui.mode == "play", 5000)
    while ui.sc.view is None or ui.sc.view.winner is None:
        if w.now() - out.t0 >= %(limit)d:
            break
        g = player.next(ui)
        if g is None:
            await asyncio.sleep_ms(100)
            continue
        player.did(g)
        await gesture(g)
    await asyncio.sleep_ms(500)
    gc.collect()
    out.mem.append(("game", gc.mem_alloc(), gc.mem_free()))
    out.shot(w.now() - out.t0, "end")
    moves = 0
    for k in thumb.SENT:
        if k != "with_bid":
            moves += player.sent[k]
    print("--played-- %%d %%d %%d %%d %%d" %% (player.shakes, moves, app.rolls, w.now() - out.t0, player.presses))
    app.stop()

async def main():
    app.start()
    await person()

asyncio.run(main())
out.report()
"""


def game(board_name, rules="liars", fw32=False, heap=None, limit_ms=600000, timeout=600):
    """One player (buttons, shakes) and one bot at a master cup with no radio, inside
    MicroPython, the player by emu/thumb.py's Player (a bot's moves made by buttons):
    heap readings after boot and after the game. Returns a Run (its `played`: shakes,
    moves, rolls, emulated ms, presses)."""
    path = bundle.BOARDS / (board_name + ".json")
    with tempfile.TemporaryDirectory() as store:
        # the emulation as .mpy: all of it on the 64-bit wheel; on the 32-bit build only
        # what it does not freeze is looked up there (the thumb, unless frozen)
        extra = [str(emu.build_mpy()), str(bundle.drivers_mpy_dir())]
        code = GAME % {"extra": extra, "board": str(path), "store": store, "rules": rules,
                       "limit": limit_ms}
        if fw32:
            from dicecup_host import fw32 as fw
            r = fw.run_code(code, heap=heap or FW32_HEAP, timeout=timeout)
        else:
            r = mpy.run_code(code, heap=heap or HEAP, timeout=timeout, extra_path=[emu.build_mpy()])
    return Run(r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace"), r.returncode)


class Run:
    def __init__(self, stdout, stderr, rc):
        self.rc = rc
        self.stderr = stderr
        self.lines = stdout.splitlines()
        self.events = []
        self.screens = {}     # name -> the snapshot (Outside.shot): t, on, screen, same, ...
        self.mem = {}         # name -> (used, free)
        self.returned = None
        self.played = None
        import json
        for ln in self.lines:
            if ln.startswith("{"):
                try:
                    self.events.append(json.loads(ln))
                except ValueError:
                    pass
            elif ln.startswith("--screen-- "):
                shot = json.loads(ln[len("--screen-- "):])
                self.screens[shot["name"]] = shot
            elif ln.startswith("--mem-- "):
                _, name, used, free = ln.split()
                self.mem[name] = (int(used), int(free))
            elif ln.startswith("--played-- "):
                self.played = [int(x) for x in ln.split()[1:]]
            elif ln.startswith("--main returned--"):
                self.returned = int(ln.split()[-1])

    def kinds(self):
        return [e["k"] for e in self.events]

    def text(self):
        return "\n".join(self.lines) + "\n" + self.stderr


def press(plan, t, name, hold=100):
    plan.append((t, "press", name))
    plan.append((t + hold, "release", name))


def boot(board_name, plan=(), safe=False, run_ms=3000, selftest_ms=300, fw32=False, heap=None,
         timeout=300):
    """Run main.py on an emulated `board_name` cup (see the module doc); returns a Run."""
    path = bundle.BOARDS / (board_name + ".json")
    with tempfile.TemporaryDirectory() as store:
        extra = [str(FAKES), str(bundle.drivers_mpy_dir())]
        if not fw32:
            extra = [str(emu.build_mpy())] + extra
        code = BOOT % {"extra": extra, "board": str(path), "plan": list(plan), "safe": bool(safe),
                       "run_ms": run_ms, "selftest_ms": selftest_ms, "store": store,
                       "main": str(MAIN)}
        if fw32:
            from dicecup_host import fw32 as fw
            r = fw.run_code(code, heap=heap or FW32_HEAP, timeout=timeout)
        else:
            r = mpy.run_code(code, heap=heap or HEAP, timeout=timeout,
                             extra_path=[str(FAKES), emu.build_mpy()])
    return Run(r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace"), r.returncode)
