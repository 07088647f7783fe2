"""The Dix mille baseline: keep every scoring die of each roll (the largest scoring keep
that does not pass 10,000), bank as soon as the turn total is 300 or more (500 until
the seat has opened). A fixed rule, to measure the other levels against."""
from micropython import const
from ..engine.actions import BANK, ROLL_ANY, unpack

_GOAL = const(10000)


def act(view, rng):
    acts = view.legal
    if not acts:
        return None
    if not view.mine:
        return None
    first = None
    for a in acts:
        first = a
        break
    if first is not None and first >> 16 == 2:   # which dice to keep
        from ..engine.dixmille import score
        banked = view.scores[view.seat] + view.turn_total
        best, best_key = None, None
        for a in acts:
            kept = unpack(a & 0x7FFF)
            pts = score(kept)
            key = (banked + pts <= _GOAL, len(kept), pts)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best
    if BANK in acts and view.turn_total >= (300 if view.opened[view.seat] else 500):
        return BANK
    return ROLL_ANY


def reroll(view, bid, rng):
    return None
