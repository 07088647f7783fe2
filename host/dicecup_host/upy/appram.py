"""Inside MicroPython: the whole app's RAM on an emulated cup, after boot and at peak
over whole games at one master cup (no radio: seats filled with bots).

The same file runs on the 32-bit frozen build, the 64-bit unix wheel and the 32-bit
WebAssembly port (the host supplies the emulated chips, the firmware and the drivers,
frozen or as .mpy). The app is the real one: appboot.make_app with the real Ui
(dicecup/ui/ui.py), its asyncio tasks on the emulated clock (emu/vtime.py), the
accelerometer shaken for every roll (the real motion path), and my moves sent as the
Ui's requests (app.request: what a press in play returns).

The work is cut into steps (`step()`: False when done): setup in four, then the event
loop SLICE_MS of emulated time at a time. Every reading (gc.collect, gc.mem_alloc) is
taken at the start of a step: the WebAssembly port frees nothing that became garbage
during the same call from JavaScript, so there each step is its own call (the host's
wasmrun.mjs); on the unix ports `main()` calls step() in a loop. The peak is the largest
live heap seen at a step (garbage between steps is not counted; the smallest heap the
games complete in, found by the host, bounds the rest).

argv: board_json store_dir rules seats games limit_ms on_error [folder ...]; on_error
"stop" ends the run at the first internal error (the host's smallest-heap search),
"go" plays on; the folders are added to sys.path (the drivers' .mpy, and where not
frozen the emulation). Prints one line
`--appram-- key=value ...` (bytes, and counts), then micropython.mem_info().
"""
import gc
import sys

for _p in sys.argv[8:]:
    sys.path.append(_p)
gc.collect()
start = gc.mem_alloc()
try:
    from dicecup_host.emu import machine as _machine   # the 32-bit build: frozen emulation
    sys.modules["machine"] = _machine
    from dicecup_host.emu import rig, vtime, lis3dh
except ImportError:
    import rig, vtime, lis3dh
import asyncio
import math

BOARD, STORE, RULES = sys.argv[1], sys.argv[2], sys.argv[3]
SEATS, GAMES = int(sys.argv[4]), int(sys.argv[5])
LIMIT_MS = int(sys.argv[6])     # per game, emulated ms
STOP = sys.argv[7] == "stop"
SLICE_MS = 200

from dicecup.hw import board as fwb
b = fwb.load(BOARD)
w, acc, oled = rig.build(b, battery_v=3.92)
vtime.install(w)
SHAKE = [-100000]


def felt(t):
    # a hand shaking the cup at 4 Hz for 1.2 s, then the cup at rest (made up as it
    # goes: a stored trace would take heap)
    d = t - SHAKE[0]
    if 0 <= d < 1200:
        s = math.sin(6.2832 * 4 * d / 1000)
        return lis3dh.to_sensor((1.6 * s, 0.4 * s, 1.0 + 0.5 * math.sin(d / 30)), b.mount)
    return lis3dh.to_sensor((0.01, -0.02, 1.0), b.mount)


acc.set_function(felt)
fig = {}
stats = {"internal": 0, "crash": 0, "peak": 0, "games": 0, "acts": 0, "shakes": 0, "ms": 0}
marks = ["emu"]                  # readings wanted at the next step's start
S = {"n": 0, "app": None, "hw": None, "loop": None, "main": None, "done": False}


def heard(ev):
    if ev.kind == "internal":
        stats["internal"] += 1


def setup(n):
    """Setup step n (0..3); the reading after it is taken at the next step."""
    if n == 0:
        import adafruit_ssd1306, adafruit_lis3dh  # noqa: E401,F401
        marks.append("drivers")
    elif n == 1:
        from dicecup.hw import hardware
        S["hw"] = hardware.open(BOARD, clock=w.now)
        marks.append("hardware")
    elif n == 2:
        from dicecup import appboot
        from dicecup.net.noradio import NoRadio
        from dicecup.rng import Rng
        from dicecup.net.store import FileStore
        from dicecup.ui.ui import Ui
        import os
        if hasattr(os, "urandom"):
            rb = os.urandom
        else:                    # the WebAssembly port has none: a seeded stand-in
            r = Rng(5)

            def rb(k):
                return bytes(r.randrange(256) for _ in range(k))
        app = appboot.make_app(S["hw"], NoRadio(), FileStore(STORE), w.now,
                               ui=Ui(b.button_names()), out=sys.stdout.write, random_bytes=rb)
        app.cup.listen(heard, private=True)
        S["app"] = app
        marks.append("app")
    else:
        S["app"].start()
        S["loop"] = asyncio.get_event_loop()
        S["main"] = asyncio.create_task(person(S["app"]))


async def until(cond, ms):
    end = w.now() + ms
    while w.now() < end and not cond():
        await asyncio.sleep_ms(50)
    return cond()


async def mark(name):
    marks.append(name)
    await asyncio.sleep_ms(SLICE_MS + 10)     # a step's start passes meanwhile


async def person(app):
    try:
        await play(app)
    except Exception as e:  # noqa: BLE001 - a MemoryError here too: counted, run ends
        stats["crash"] = 1
        print("--appram-crash-- %s: %s" % (type(e).__name__, e))
        app.stop()


async def play(app):
    from dicecup import bots
    from dicecup.rng import Rng
    cup = app.cup
    rng = Rng(7)

    def over():
        t = cup.table
        return t is not None and t.game is not None and t.game.winner() is not None

    await asyncio.sleep_ms(500)
    fig["lobby"] = int(app.ui.mode == "menu" and app.frames > 0)
    await mark("boot")
    app.request(("create", RULES, {}))
    await until(cup.is_master, 3000)
    for i in range(SEATS - 1):
        app.request(("bot", "bot%d" % i))
    await until(lambda: len(cup.table.members) == SEATS, 5000)
    for g in range(GAMES):
        app.request(("start",))
        await until(lambda: app.game_on() and not over(), 5000)
        t0 = w.now()
        while not over() and w.now() - t0 < LIMIT_MS and not (STOP and stats["internal"]):
            if cup.wants_shake() and not cup.busy():
                SHAKE[0] = w.now()
                stats["shakes"] += 1
                await asyncio.sleep_ms(2000)
            elif cup.on_turn() and not cup.busy():
                v = app.ui.sc.view       # the view the app pushed to the Ui: no extra one
                if v is not None and v.mine and v.legal:
                    app.request(("act", bots.act(v, rng)))
                    stats["acts"] += 1
                v = None
                await asyncio.sleep_ms(300)
            else:
                await asyncio.sleep_ms(100)
        stats["ms"] += w.now() - t0
        if not over():
            break
        stats["games"] += 1
        await asyncio.sleep_ms(1000)
        await mark("game%d" % (g + 1))
    app.stop()


async def _slice():
    await asyncio.sleep_ms(SLICE_MS)


def step():
    """One step; False when the run is over (the figures printed)."""
    gc.collect()
    u = gc.mem_alloc()
    while marks:
        fig[marks.pop()] = u
    if S["app"] is not None and u > stats["peak"]:
        stats["peak"] = u
    n = S["n"]
    S["n"] = n + 1
    if n < 4:
        setup(n)
        return True
    if not S["main"].done():
        S["loop"].run_until_complete(_slice())
        return True
    S["app"] = None
    fig["end"] = u
    report()
    return False


def report():
    app_figs = ["%s=%d" % (k, fig[k]) for k in fig]
    app_figs += ["%s=%d" % (k, stats[k]) for k in stats]
    app_figs.append("start=%d" % start)
    print("--appram-- " + " ".join(app_figs))
    import micropython
    micropython.mem_info()


def main():
    while step():
        pass


if __name__ == "__main__":
    main()
