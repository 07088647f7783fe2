"""A few of the cup's screens from fixed game states, written to run unchanged on
CPython and inside MicroPython: both must draw the same 1024 bytes per screen.

As a script: prints `NAME LANG HEX` per screen and language; `screencards.py bench`
prints `draw_us=` (the slowest screen's best time over 20 draws) and `draw_alloc=`.
"""
import sys

from dicecup.engine import new_game
from dicecup.ui import fb
from dicecup.ui.controls import Controls
from dicecup.ui.screens import Scene, draw

NAMES = ["Ana", "Bernard", "Chiara", "Dolores"]
HANDS = [[2, 5, 5, 2, 3], [5, 4, 6, 5, 1], [5, 1, 4, 3, 5], [2, 2, 6, 4, 5]]


def _game(rules, bids):
    g = new_game(rules, 4, {}, opener=1)
    g.start_round()
    for b in bids:
        g.apply(g.to_act(), b)
    return g


def _scene(g, seat, code, rules, **kw):
    sc = Scene(code, rules)
    sc.view = g.view(seat, HANDS[seat])
    sc.names = NAMES
    sc.battery = 70
    c = Controls()
    c.update(sc.view)
    sc.controls = c
    for k in kw:
        setattr(sc, k, kw[k])
    return sc


def scenes(code):
    out = []
    g = _game("perudo", [2 << 3 | 3, 2 << 3 | 5])
    out.append(("bidding", _scene(g, 0, code, "perudo")))
    out.append(("peek", _scene(g, 0, code, "perudo", peek=True)))
    out.append(("quorum", _scene(g, 0, code, "perudo", quorum=False)))
    g = _game("menteur", [2 << 3 | 3, 2 << 3 | 5, 3 << 3 | 2])
    out.append(("my-turn", _scene(g, 0, code, "menteur")))
    return out


def render(sc):
    buf = fb.new()
    draw(buf, sc)
    return buf


def main(argv):
    if argv and argv[0] == "bench":
        import gc
        import time
        worst = 0
        alloc = 0
        for name, sc in scenes("de"):
            buf = fb.new()
            best = None
            for _ in range(20):
                t0 = time.ticks_us()
                draw(buf, sc)
                dt = time.ticks_diff(time.ticks_us(), t0)
                best = dt if best is None or dt < best else best
            gc.collect()
            a = gc.mem_alloc()
            draw(buf, sc)
            alloc = max(alloc, gc.mem_alloc() - a)
            worst = max(worst, best)
        print("draw_us=%d draw_alloc=%d" % (worst, alloc))
        return
    for code in ("en", "fr", "de", "it", "es"):
        for name, sc in scenes(code):
            print("%s %s %s" % (name, code, bytes(render(sc)).hex()))


if __name__ == "__main__":
    main(sys.argv[1:])
