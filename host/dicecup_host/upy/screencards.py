"""A few of the cup's screens from fixed game states, written to run unchanged on
CPython and inside MicroPython: both must draw the same 1024 bytes per screen.

As a script: prints `NAME LANG HEX` per screen and language; `screencards.py bench`
prints `draw_us=` (the slowest screen's best time over 20 draws) and `draw_alloc=`.
"""
import sys

from dicecup.engine import new_game
from dicecup.engine.actions import keep, roll
from dicecup.events import Event
from dicecup.ui import fb
from dicecup.ui.controls import BOARD4, Controls
from dicecup.ui.screens import Scene, draw
from dicecup.ui.ui import Ui

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
    sc.view = g.view(seat, HANDS[seat] if rules != "dixmille" else None)
    sc.names = NAMES
    sc.battery = 70
    c = Controls(BOARD4, 0, None)
    c.update(sc.view)
    sc.controls = c
    for k in kw:
        setattr(sc, k, kw[k])
    return sc


class Lobby:
    def __init__(self, role, members, bots, rules, code=None):
        self.role, self.members, self.bots, self.rules, self.code = role, members, bots, rules, code
        self.phase, self.me, self.seat, self.tables, self.tid = "lobby", 0, -1, [], 1


def _table(code, role):
    """The real UI at a table: joins, the rule set, a seat order; the menu moved twice."""
    ui = Ui(lang=code)
    members = ["Ana", "Bernard", "Bot 1", "Chiara"]
    bots = [False, False, True, False]
    for m in range(4):
        ui.on_event(Event("joined", (m, members[m], bots[m], "easy" if bots[m] else None), 1, 1, 0, 0, 0))
    ui.on_event(Event("rules", ("bluff", [["star_track", "half"], ["reroll", True]]), 1, 1, 0, 0, 0))
    ui.on_event(Event("seats", ([3, 0, 2, 1],), 1, 1, 0, 0, 0))
    ui.on_lobby(Lobby(role, members, bots, "bluff", "4711" if role == "master" else None))
    ui.on_buttons(1, 4)
    ui.on_buttons(1, 4)
    ui.tick(10000)
    return ui.sc


def scenes(code):
    out = []
    out.append(("table", _table(code, "master")))
    out.append(("table-member", _table(code, "member")))
    g = new_game("bluff", 4, {}, opener=2)
    rolls = [(0, [6, 2, 3, 1, 5]), (1, [4, 6, 6, 2, 3]), (2, [6, 6, 5, 2, 2]), (3, [1, 2, 3, 4, 5]),
             (1, [3, 3, 2, 1, 1]), (2, [6, 4, 3, 2, 1])]
    out.append(("rolloff", _scene(g, 0, code, "bluff", rolloff=rolls)))
    g = new_game("dixmille", 3, {}, opener=0)
    g.apply(0, roll([1, 5, 3, 3, 6]))
    g.apply(0, keep([1, 5]))
    g.apply(0, roll([5, 2, 3]))
    out.append(("dixmille", _scene(g, 1, code, "dixmille", kept=[1, 5])))
    out.append(("scores", _scene(g, 0, code, "dixmille", kept=[1, 5], peek=True)))
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
