"""Normal at Dix mille (players/dixnormal.py): thresholds by dice left, exact finishes."""
import random

import pytest

from dicecup import players
from dicecup.engine.actions import BANK, ROLL_ANY, keep
from dicecup_host import dixsim
from tests.players.test_dixstrong import kept_points, position


def decide(g):
    return players.get("normal").act(g.view(0), random.Random(0))


def test_normal_takes_the_keep_that_reaches_10000():
    assert decide(position(9950, 0, [1, 5, 2, 3, 4])) == keep([5])
    assert kept_points(decide(position(9700, 200, [1, 5, 5, 2, 3]))) == 100


def test_normal_keeps_one_die_to_roll_four_rather_than_two_for_fifty_more():
    assert decide(position(2000, 0, [1, 5, 2, 3, 6])) == keep([1])


def test_normal_banks_by_the_dice_left():
    assert decide(position(2000, 300, left=2)) == BANK
    assert decide(position(2000, 300, left=4)) == ROLL_ANY
    assert decide(position(9850, 50, left=3)) == ROLL_ANY    # needs 100: a 1 finishes


def test_normal_decides_legally():
    rng = random.Random(5)
    for _ in range(300):
        s = rng.choice([0, 3000, 9500, 9900, -500])
        faces = [rng.randrange(6) + 1 for _ in range(rng.randrange(1, 6))]
        g = position(s, 50 * rng.randrange(0, 8), faces, opened=s != 0)
        if g.legal(0):
            assert decide(g) in g.legal(0)


@pytest.mark.heavy
def test_normal_sits_between_easy_and_strong():
    n = 400
    lo, _ = dixsim.wilson(dixsim.headsup("normal", "easy", n, seed=7), n)
    assert lo > 0.55
    lo, _ = dixsim.wilson(dixsim.headsup("strong", "normal", n, seed=7), n)
    assert lo > 0.5
