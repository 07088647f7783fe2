"""g.copy(): what a search takes per decision. A copy is the same game (same state, same
legal actions, same outcome) and independent: playing on either leaves the other as it was."""
import random

import pytest

from dicecup.engine import REVEAL, SHAKE, new_game

BIDDING = ("bluff", "perudo", "menteur", "liars")
OPTIONS = {"bluff": {"reroll": True}, "perudo": {"calza_anyone": True}, "liars": {"spot_on": True}, "menteur": {}}


def _step(g, rr):
    """One random legal step of a whole game (rolls, bids and calls, reveals)."""
    need = g.need()
    if need == SHAKE:
        return g.start_round()
    if need == REVEAL:
        return g.settle([[rr(6) + 1 for _ in range(g.hidden(s))] for s in range(g.n)])
    s = g.to_act()
    acts = g.legal(s, [rr(6) + 1 for _ in range(g.hidden(s))])
    return g.apply(s, acts[rr(len(acts))])


@pytest.mark.parametrize("rules", BIDDING)
def test_a_copy_is_the_same_game_and_independent(rules):
    for seed in range(6):
        g = new_game(rules, 3, OPTIONS[rules], rng=random.Random(seed))
        steps = 0
        while g.winner() is None and steps < 400:
            c = g.copy()
            before = g.dumps()
            assert c.dumps() == before and c.need() == g.need() and c.to_act() == g.to_act()
            for k, v in vars(g).items():  # no state left behind (a class default instead)
                assert getattr(c, k) == v, k
            if g.to_act() is not None:
                assert c.legal(c.to_act()) == g.legal(g.to_act())
                assert c.history() == g.history()
            # the copy plays one step ahead: the original is untouched ...
            ev = _step(c, random.Random(steps).randrange)
            assert g.dumps() == before
            # ... and the same step on the original gives the same events and state
            assert _step(g, random.Random(steps).randrange) == ev
            assert g.dumps() == c.dumps() and g.public() == c.public()
            steps += 1
        assert g.winner() is not None
