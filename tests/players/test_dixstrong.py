"""Strong at Dix mille: the value-iteration policy from players/dixtable.py.

End-game positions worked by hand, the same choices inside real MicroPython, the
solitaire mean reaching the computed expectation, the win rate against the baseline,
and the checked-in table matching the script."""
import json
import random
import subprocess
import sys

import pytest

from dicecup import players
from dicecup.engine import new_game
from dicecup.engine.actions import BANK, ROLL_ANY, keep, pack, unpack
from dicecup.engine.dixmille import score
from dicecup.players import dixstrong, dixtable
from dicecup_host import dixsim


def position(score_, total, faces=None, left=None, crosses=0, opened=True):
    """A one-seat game at `score_` with `total` this turn: faces rolled to keep from,
    or `left` dice to bank or roll on."""
    g = new_game("dixmille", 1, None, opener=0)
    g.scores[0] = score_
    g.crosses[0] = crosses
    g.opened = 1 if opened else 0
    g.total = total
    if faces is not None:
        g.phase, g.roll, g.left = 1, pack(faces), len(faces)
    else:
        g.phase, g.left = 2, left
    return g


def decide(g):
    return players.get("strong").act(g.view(0), random.Random(0))


def kept_points(a):
    return score(unpack(a & 0x7FFF))


def test_at_9950_it_keeps_the_lone_five_that_wins():
    # keeping the 1 (or 1 and 5) passes 10,000 and loses the turn; the 5 alone wins
    a = decide(position(9950, 0, [1, 5, 2, 3, 4]))
    assert a == keep([5])
    g = position(9950, 0, [1, 5, 2, 3, 4])
    g.apply(0, a)
    assert g.winner() == 0


def test_needing_exactly_100_it_keeps_a_hundred_not_the_most():
    # 9,700 + 200 this turn: 1 (100) or 5 5 (100) win; 1 5 5 (200) overshoots
    a = decide(position(9700, 200, [1, 5, 5, 2, 3]))
    assert kept_points(a) == 100


def test_one_die_short_of_50_it_rolls_on_rather_than_bank_9950():
    # 9,900 + 50: banking leaves 9,950 and a turn of its own (1.68 turns to go);
    # rolling 4 dice wins at once with any 5 (52 %), else at worst a cross: under 1 turn
    assert decide(position(9900, 50, left=4)) == ROLL_ANY


def test_with_one_die_and_900_it_banks_at_9900():
    # one die: 4 in 6 bust away 900 points (a cross at 9,000), 1 in 6 wins
    assert decide(position(9000, 900, left=1)) == BANK


def test_it_rolls_where_it_may_not_bank():
    assert decide(position(0, 450, left=1, opened=False)) == ROLL_ANY


def test_every_decision_is_legal_and_the_same_for_the_same_view():
    rng = random.Random(3)
    for _ in range(300):
        s = rng.choice([0, 450, 5000, 8800, 9500, 9850, 9950, -1200, -9000])
        faces = [rng.randrange(6) + 1 for _ in range(rng.randrange(1, 6))]
        total = 50 * rng.randrange(0, (10000 - max(s, 0)) // 50) if s < 9950 else 0
        g = position(s, total, faces, crosses=rng.randrange(3), opened=s != 0)
        if not g.legal(0):
            continue
        a = decide(g)
        assert a in g.legal(0)
        assert decide(g) == a


UPY_SCRIPT = """
import sys, json
from dicecup.engine import new_game
from dicecup.engine.actions import pack
from dicecup.players import dixstrong
out = []
for line in sys.stdin:
    s, c, o, t, faces, left = json.loads(line)
    g = new_game("dixmille", 1, None, opener=0)
    g.scores[0] = s
    g.crosses[0] = c
    g.opened = o
    g.total = t
    if faces:
        g.phase = 1
        g.roll = pack(faces)
        g.left = len(faces)
    else:
        g.phase = 2
        g.left = left
    out.append(dixstrong.act(g.view(0), None))
print(json.dumps(out))
"""


def test_micropython_makes_the_same_choices(mpy_dir, tmp_path):
    from dicecup_host import mpy
    rng = random.Random(11)
    cases = []
    while len(cases) < 150:
        s = 50 * rng.randrange(-60, 200)
        o = 1 if s else rng.randrange(2)
        t = 50 * rng.randrange(0, (10000 - max(s, 0)) // 50)
        if rng.randrange(2):
            faces = [rng.randrange(6) + 1 for _ in range(rng.randrange(1, 6))]
            g = position(s, t, faces, crosses=rng.randrange(3) * o, opened=o)
            if not g.legal(0):
                continue
            cases.append((s, g.crosses[0], o, t, faces, 0))
        elif t and (o or t >= 500):
            cases.append((s, rng.randrange(3) * o, o, t, [], rng.randrange(1, 6)))
    want = []
    for s, c, o, t, faces, left in cases:
        want.append(decide(position(s, t, faces or None, left=left or None, crosses=c, opened=o)))
    script = tmp_path / "dix.py"
    script.write_text(UPY_SCRIPT)
    res = mpy.run([str(script)], path=mpy_dir, input="".join(json.dumps(c) + "\n" for c in cases).encode())
    assert res.returncode == 0, res.stderr.decode()
    assert json.loads(res.stdout.decode().strip().splitlines()[-1]) == want


@pytest.mark.heavy
def test_solitaire_mean_reaches_the_computed_expectation():
    turns = dixsim.solitaire_turns("strong", 2000, seed=0)
    m, h = dixsim.mean_interval(turns)
    exact = dixtable.TURNS_E9 / 1e9
    assert abs(m - exact) <= h, (m, h, exact)
    base, _ = dixsim.mean_interval(dixsim.solitaire_turns("baseline", 1000, seed=0))
    assert base > exact + 1


@pytest.mark.heavy
def test_strong_beats_the_baseline_heads_up():
    n = 400
    wins = dixsim.headsup("strong", "baseline", n, seed=100000)
    lo, _ = dixsim.wilson(wins, n)
    assert lo > 0.6, (wins, n)


def test_the_checked_in_table_is_the_policy_of_the_fixed_point():
    """One sweep from the checked-in values moves none by more than the solve's tolerance, and
    the table encoded from them is the checked-in one (the solve from 0 is --from-zero)."""
    r = subprocess.run([sys.executable, "-m", "dicecup_host.dixpolicy", "--check", "--quiet"],
                       capture_output=True, timeout=300)
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    assert b"matches" in r.stdout and b"fixed point" in r.stdout
    assert ("%.9f" % (dixtable.TURNS_E9 / 1e9)).encode() in r.stdout


def test_on_a_32bit_cup_strong_decides_with_the_table_left_in_flash(fw32):
    from dicecup_host import bench_players
    f = bench_players.decide("strong", "dixmille", "{}", seats=2, games=1)
    assert "error" not in f, f
    assert f["n"] > 20
    assert 0 < f["peak"] <= 8 * 1024
    assert f["max_alloc"] < 8 * 1024     # the 41 KB table is read in place, never copied
