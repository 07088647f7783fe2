"""The firmware as a cup runs it: compiled by mpy-cross, imported by real MicroPython
with an ESP32's heap, giving the same game as CPython."""
import json
import random
import re
import subprocess
import sys

import pytest

from dicecup.engine import RULES, new_game
from dicecup.engine.actions import roll
from dicecup_host import mpy

_REPLAY = r"""
import json, sys
from dicecup.engine import BID, new_game
f = open(sys.argv[1])
doc = json.loads(f.readline())
g = new_game(doc["rules"], doc["seats"], doc["options"], opener=doc["opener"])
for line in f:
    st = json.loads(line)
    if st[0] == "start":
        g.start_round()
    elif st[0] == "act":
        g.apply(st[1], st[2])
    else:
        g.settle(st[1])
    print(%s)
"""
REPLAY = _REPLAY % "g.dumps().hex()"
LEGAL = _REPLAY % "json.dumps(g.legal(g.to_act()) if g.need() == BID else [])"   # the moves offered


def test_every_firmware_module_compiles_with_mpy_cross(mpy_dir):
    for rel in mpy.sources():
        assert (mpy_dir / rel.with_suffix(".mpy")).stat().st_size > 0, rel


def record_game(rules, seats, seed):
    """A random legal game on CPython, as steps a replay can follow, with the state
    bytes after each step."""
    rng = random.Random(seed)
    opener = rng.randrange(seats)
    g = new_game(rules, seats, None, opener=opener)
    steps, states = [], []
    while g.winner() is None and len(steps) < 3000:
        if rules == "dixmille":
            s = g.to_act()
            a = rng.choice(g.legal(s))
            if a >> 16 == 1:
                a = roll([rng.randrange(6) + 1 for _ in range(g.left)])
            g.apply(s, a)
            steps.append(["act", s, a])
        elif g.phase == 0:
            g.start_round()
            hands = [[rng.randrange(6) + 1 for _ in range(g.hidden(s))] for s in range(g.n)]
            steps.append(["start"])
        elif g.phase == 1:
            s = g.to_act()
            a = rng.choice(g.legal(s))
            g.apply(s, a)
            steps.append(["act", s, a])
        else:
            g.settle(hands)
            steps.append(["settle", hands])
        states.append(g.dumps().hex())
    return {"rules": rules, "seats": seats, "options": None, "opener": opener, "steps": steps}, states


@pytest.mark.parametrize("rules", RULES)
def test_micropython_replays_a_game_to_the_same_states(rules, tmp_path, upy):
    doc, states = record_game(rules, 4, seed=7)
    path = tmp_path / "game.json"
    steps = doc.pop("steps")  # one line each: the cup's heap need not hold the game
    path.write_text("\n".join(json.dumps(x) for x in [doc] + steps) + "\n")
    script = tmp_path / "replay.py"
    script.write_text(REPLAY)
    res = mpy.run([str(script), str(path)], path=mpy.build())
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.decode().split() == states


@pytest.mark.parametrize("rules", ("bluff", "perudo", "menteur", "liars"))
def test_a_cup_offers_the_same_legal_moves_as_cpython(rules, tmp_path, upy):
    # A cup's legal() reads legal_run (it keeps no list of the ladder to slice, as a
    # search on CPython does): the lists must still be the same, at every step.
    doc, _ = record_game(rules, 5, seed=11)
    path = tmp_path / "game.json"
    path.write_text("\n".join(json.dumps(x) for x in [doc] + doc.pop("steps")) + "\n")
    script = tmp_path / "legal.py"
    script.write_text(LEGAL)
    want = subprocess.run([sys.executable, str(script), str(path)], capture_output=True, check=True).stdout
    res = mpy.run([str(script), str(path)], path=mpy.build())
    assert res.returncode == 0, res.stderr.decode()
    assert [json.loads(x) for x in res.stdout.splitlines()] == [json.loads(x) for x in want.splitlines()]
    assert any(len(json.loads(x)) > 1 for x in want.splitlines())


@pytest.mark.parametrize("rules", RULES)
def test_six_player_game_fits_an_esp32_heap(rules):
    """A whole 6-player game in the 110 KB heap, and the peak stays under 16 KB above
    what importing the engine takes (the cup's budget for everything else)."""
    res = mpy.run([str(mpy.ROOT / "host/dicecup_host/upy/heapgame.py"), rules, "6", "3"])
    assert res.returncode == 0, res.stderr.decode()
    figs = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(-?\d+)", res.stdout.decode()))
    assert 0 <= figs["winner"] < 6
    assert figs["peak"] < 16 * 1024
    assert figs["state"] < 64


def test_engine_mpy_is_small():
    assert sum(mpy.sizes().values()) < 24 * 1024
