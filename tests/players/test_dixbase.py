"""The Dix mille baseline keeps every scoring die and banks at 300 (500 until open)."""
import random

from dicecup import players
from dicecup.engine import new_game
from dicecup.engine.actions import BANK, ROLL_ANY, roll, unpack


def play(seed, seats=2, cap=4000):
    """Seeded games of baseline seats, every decision checked against the rule."""
    rng = random.Random(seed)
    g = new_game("dixmille", seats, None, rng=rng)
    bot = players.get("baseline")
    banks = []
    for _ in range(cap):
        if g.winner() is not None:
            return g, banks
        s = g.to_act()
        v = g.view(s)
        a = bot.act(v, rng)
        assert a is not None and (a == ROLL_ANY or a in v.legal)
        if BANK in v.legal and v.turn_total >= (300 if v.opened[s] else 500):
            assert a == BANK, "it rolled on at %d" % v.turn_total    # banks as soon as it may
        if a == ROLL_ANY:
            a = roll([rng.randrange(6) + 1 for _ in range(g.left)])
        elif a == BANK:
            banks.append((v.turn_total, v.opened[s]))
        g.apply(s, a)
    raise AssertionError("no winner in %d steps" % cap)


def test_it_banks_at_300_once_open_and_500_before():
    banks = []
    for seed in range(12):
        g, b = play(seed)
        assert g.winner() is not None
        banks += b
    assert banks
    for total, opened in banks:
        assert total >= (300 if opened else 500)
