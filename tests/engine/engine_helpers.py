"""Small helpers for the rule-by-rule engine tests.

Seats are numbers: 0 = ana, 1 = ben, 2 = cy, 3 = dee ... Hands are lists of faces.
"""
import pytest

from dicecup.engine import IllegalAction, loads, new_game
from dicecup.engine.actions import BANK, CHALLENGE, EXACT, bid, keep, reroll, roll

__all__ = [
    "BANK", "CHALLENGE", "EXACT", "bid", "keep", "reroll", "roll",
    "game", "rnd", "illegal", "state", "ScriptedRng", "set_dice", "bids", "loads",
]


def game(rules, seats=2, opener=0, **options):
    """A new game with a fixed opener (no draw) and the given options."""
    return new_game(rules, seats, options, opener=opener)


def set_dice(g, counts):
    """Set-up shortcut between rounds: the dice each seat holds (the state a game
    would reach after earlier rounds). Checked through dumps/loads so the state is
    one the engine accepts."""
    assert g.public()["phase"] == "roll"
    g.dice[:] = counts
    if g.turn >= 0 and not g.dice[g.turn]:
        g.turn = g.next_active(g.turn, 0)
    return loads(g.dumps())


def rnd(g, hands, *moves):
    """Play one round: the cups roll, the (seat, action) moves are applied, and when
    a call stands the hands are revealed. Returns all events."""
    events = g.start_round()
    for seat, action in moves:
        events += g.apply(seat, action)
    if g.public()["phase"] == "reveal":
        events += g.settle([list(h) for h in hands])
    return events


def illegal(g, seat, action, code):
    """The action is rejected with `code` and the state is byte-for-byte unchanged."""
    before = g.dumps()
    pub = g.public()
    with pytest.raises(IllegalAction) as ei:
        g.apply(seat, action)
    assert ei.value.code == code, ei.value.message
    assert g.dumps() == before
    assert g.public() == pub
    return ei.value


def state(g):
    """The public state without the internal phase name (dice, turn, bid, ...)."""
    return g.public()


def bids(g, seat=None):
    """The bids listed as legal for the seat on turn, as (q, f) pairs."""
    s = g.to_act() if seat is None else seat
    return [(a >> 3, a & 7) for a in g.legal(s) if 8 <= a < 0x10000]


class ScriptedRng:
    """A stand-in for random.Random whose randrange returns scripted values."""

    def __init__(self, values):
        self.values = list(values)
        self.calls = []

    def randrange(self, n):
        v = self.values.pop(0)
        assert 0 <= v < n
        self.calls.append(n)
        return v
