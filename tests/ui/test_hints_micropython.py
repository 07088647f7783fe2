"""The hint page as a cup runs it: the real Ui at a table with hints on, fed a seat's
View, its menu opened and the page picked by buttons, inside real MicroPython (the
firmware as .mpy in the unix port; frozen in the 32-bit build): the same figures,
requests and screen bytes as CPython."""
import subprocess
import sys

import pytest

SCRIPT = r"""
import random
from dicecup.engine import new_game
from dicecup.events import Event
from dicecup.ui import fb, hint
from dicecup.ui.ui import Ui

class Lobby:
    def __init__(self, rules, options):
        self.role, self.phase, self.seat, self.rules, self.code = "member", "playing", 0, rules, None
        self.members = ["Ana", "Ben", "Cy"]
        self.tables, self.tid, self.bots, self.me = [], 1, [False] * 3, 0
        self.options = options

def crc(b):
    h = 0
    for x in b:
        h = (h * 31 + x) & 0xFFFFFFFF
    return h

for rules, opts in (("perudo", [("palifico", True), ("calza_anyone", True)]),
                    ("liars", [("one_life", False), ("spot_on", True)]),
                    ("menteur", []), ("bluff", [("star_track", "board"), ("reroll", False)])):
    g = new_game(rules, 3, dict(opts), opener=1)
    g.start_round()
    hands = [[1, 2, 3, 4, 5], [2, 2, 6, 6, 1], [3, 4, 4, 5, 6]]
    for _ in range(2):
        s = g.to_act()
        bids = [a for a in g.view(s, hands[s]).legal if 8 <= a < 0x10000]
        g.apply(s, bids[len(bids) // 5])
    ui = Ui()
    ui.on_lobby(Lobby(rules, opts + [("hints", True)]))
    ui.on_view(g.view(0, hands[0]))
    out = [ui.on_buttons(2, 4), ui.on_buttons(1, 2)]     # long right: the menu; ok: the odds
    buf = fb.new()
    name = ui.draw(buf)
    print(rules, name, out, hint.figures(ui.sc.view), crc(buf))
    out = ui.on_buttons(1, 1)                            # any button: the page goes
    print(rules, out, ui.draw(fb.new()))
"""


def test_the_hint_page_is_the_same_inside_micropython(upy):
    cpy = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert cpy.returncode == 0, cpy.stderr
    res = upy(SCRIPT, heap=1024 * 1024)    # (the strings as .mpy live in the heap; frozen: flash)
    assert res.returncode == 0, res.stdout.decode() + res.stderr.decode()
    lines = res.stdout.decode().splitlines()
    assert lines == cpy.stdout.splitlines()
    assert len(lines) == 8 and all(" hint [None, None] ((" in l for l in lines[0::2]), lines


@pytest.mark.heavy
def test_the_hint_page_is_the_same_frozen_in_the_32_bit_build(fw32):
    cpy = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    res = fw32.run_code(SCRIPT)
    assert res.returncode == 0, res.stdout.decode() + res.stderr.decode()
    assert res.stdout.decode().splitlines() == cpy.stdout.splitlines()
