"""The engine's fast paths (what a search calls per decision) answer as the general ones:
to_act() is the seat on turn while bidding and None otherwise, legal() of that seat is
legal_run()'s list, and odd seats and actions (None, a bool, a float, a bid past any
table) are refused with IllegalAction in every phase, the state kept."""
import random

import pytest

from dicecup.engine import IllegalAction, loads, new_game
from dicecup.engine.bidding import BID

BIDDING = ("bluff", "perudo", "menteur", "liars")
OPTIONS = {"bluff": {"reroll": True}, "perudo": {"calza_anyone": True}, "liars": {"spot_on": True}, "menteur": {}}
ODD = ((None, 9), (True, 9), (False, 9), (0, 9.0), (0, True), (1, True), (0, 32 << 3 | 1), (0, 256), (0, 7), (0, -1))


def _refused(g, seat, action):
    before = g.dumps()
    with pytest.raises(IllegalAction):
        g.apply(seat, action)
    assert g.dumps() == before


@pytest.mark.parametrize("rules", BIDDING)
def test_fast_paths_agree_with_the_general_ones_through_whole_games(rules):
    for seed in range(4):
        rng = random.Random(seed)
        rr = rng.randrange
        g = new_game(rules, 3, OPTIONS[rules], rng=rng)
        steps = 0
        while g.winner() is None and steps < 400:
            steps += 1
            bidding = g.phase == BID
            assert g.to_act() == (g.turn if bidding else None)
            assert loads(g.dumps()).to_act() == g.to_act()
            if not bidding:
                assert g.legal(None) == []
            for seat, action in ODD:
                if seat is not None and type(seat) is int and seat == g.to_act() and type(action) is int \
                        and action in g.legal(seat):
                    continue
                _refused(g, seat, action)
            if not bidding:
                if g.need() == "shake":
                    g.start_round()
                else:
                    g.settle([[rr(6) + 1 for _ in range(g.hidden(s))] for s in range(g.n)])
                continue
            s = g.to_act()
            acts = g.legal(s)
            assert acts == list(g.legal_run(s)), (rules, seed, steps)
            for other in range(g.n):
                if other != s:
                    _refused(g, other, acts[0])
            g.apply(s, acts[rr(len(acts))])
        assert g.winner() is not None
