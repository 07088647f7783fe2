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


# Each option's own call is played, not just allowed: over a few games a level calls
# calza / tout pile / spot on, and rerolls in Bluff when the option is on.
USES = [("perudo", {"calza_anyone": True}, "exact"), ("menteur", {}, "exact"),
        ("liars", {"spot_on": True}, "exact"), ("bluff", {"reroll": True}, "reroll")]


@pytest.mark.parametrize("rules,opts,move", USES)
@pytest.mark.parametrize("kind", ["normal", "strong"])
def test_the_options_calls_are_made(rules, opts, move, kind):
    from dicecup.engine.actions import EXACT
    made = []

    def check(s, v, a):
        if s == 0 and (a == EXACT or (a is not None and a >> 16 == 3)):
            made.append("exact" if a == EXACT else "reroll")

    for seed in range(12):
        play(rules, [player(kind), player("easy"), player("easy")], seed, opts, on_decision=check)
    assert move in made


class Lcg:
    """The same rng on CPython and MicroPython (only randrange is asked for)."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def randrange(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


UPY = """
from players.headsup import play
from dicecup.players import get
%s
for rules, opts in %r:
    print(repr([play(rules, [get("strong"), get("normal"), get("easy")], seed, opts, make_rng=Lcg)
                for seed in range(3)]))
"""


def test_micropython_plays_the_same_games(upy):
    """normal and strong decide the same on a cup as on the host (exact odds, no floats)."""
    import inspect
    import pathlib
    cases = [("perudo", {"calza_anyone": True}), ("menteur", {}), ("liars", {"spot_on": True}),
             ("bluff", {"reroll": True})]
    res = upy(UPY % (inspect.getsource(Lcg), cases), extra_path=(pathlib.Path(__file__).parent.parent,))
    assert res.returncode == 0, res.stderr.decode()[-2000:]
    got = [eval(line) for line in res.stdout.decode().splitlines()]
    want = [[play(r, [player("strong"), player("normal"), player("easy")], seed, o, make_rng=Lcg)
             for seed in range(3)] for r, o in cases]
    assert got == want
