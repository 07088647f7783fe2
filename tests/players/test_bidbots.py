"""Normal and strong bots: legal in every bidding rule set and option, deterministic."""
import random

import pytest

from players.headsup import play, player

CASES = [("perudo", {}), ("perudo", {"calza_anyone": True}), ("perudo", {"palifico": False}),
         ("liars", {}), ("liars", {"spot_on": True}), ("liars", {"one_life": True}),
         ("menteur", {}), ("bluff", {}), ("bluff", {"reroll": True, "star_track": "half"})]


@pytest.mark.parametrize("rules,opts", CASES)
@pytest.mark.parametrize("kind", ["normal", "strong"])
def test_every_decision_is_legal(rules, opts, kind):
    seen = set()

    def check(s, v, a):
        assert a is None or a in v.legal or a >> 16 == 3
        if a is not None:
            seen.add(a if a < 8 else (a >> 16 or "bid"))

    for seed in range(6):
        play(rules, [player(kind), player("easy"), player("normal")], seed, opts, on_decision=check)
    assert "bid" in seen


def test_same_view_and_rng_state_same_choice():
    from dicecup.engine import new_game
    from dicecup.players import normal, bidstrong
    g = new_game("perudo", 2, None, opener=0)
    g.start_round()
    g.apply(0, 3 << 3 | 4)
    for m in (normal, bidstrong):
        v = g.view(1, [4, 4, 1, 2, 6])
        assert m.act(v, random.Random(5)) == m.act(v, random.Random(5))
