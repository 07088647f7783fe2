"""Bots that fill empty seats (hosted on the table master) and play simulated tables.

A bot reads only a View (`g.view(seat, hand)`): what its seat knows, never the game.
A bluffing bot knows its own hidden dice, the set-aside dice on the table and the dice
count. It bids what it expects to be true and challenges what it expects to be false.
The Dix mille bot keeps the best dice and banks by a simple risk rule. Small on
purpose: it runs on the cup. `rng` needs only `randrange(n)`; the same view and the
same rng state give the same choice.
"""
from micropython import const
from .engine.actions import BANK, CHALLENGE, EXACT, ROLL_ANY, reroll as _reroll, unpack


def _expected6(view, f):
    """Six times the dice expected to show a face counting for f: the known ones (its
    hand, every set-aside die) plus a share of the unseen ones. In sixths of a die the
    sums are whole numbers: the same on every runtime (an ESP32's floats are single)."""
    from .players.odds import seen
    faces = view.counts(f)
    known, unseen = seen(view, faces)
    return 6 * known + unseen * len(faces)


# Thresholds in sixths of a die, for a boldness of 0.6 die: exact when |e - q| < 0.3,
# challenge when e < q - 0.6, a bid is good when e >= q - 0.4.
_EXACT6 = const(1)      # |6e - 6q| <= 1   (< 1.8)
_CHALLENGE6 = const(4)  # 6e <= 6q - 4     (< 6q - 3.6)
_GOOD6 = const(2)       # 6e >= 6q - 2     (>= 6q - 2.4)


def _bluffing(view, rng):
    acts = view.legal
    if not acts:
        return None
    if view.bid:
        q, f = view.bid
        e = _expected6(view, f)
        if EXACT in acts and abs(e - 6 * q) <= _EXACT6 and rng.randrange(4) == 0:
            return EXACT
        if not view.mine:
            return None
        if e <= 6 * q - _CHALLENGE6:
            return CHALLENGE
    elif not view.mine:
        return None
    good = []
    for a in acts:
        if 8 <= a < 0x10000:
            if _expected6(view, a & 7) >= 6 * (a >> 3) - _GOOD6:
                good.append(a)
                if len(good) == 4:
                    break
    if good:
        return good[rng.randrange(len(good))]
    if CHALLENGE in acts:
        return CHALLENGE
    return acts[0]


def _dixmille(view):
    acts = view.legal
    if not acts:
        return None
    if acts[0] >> 16 == 2:  # keep: points plus a bonus for dice left to roll
        from .engine.dixmille import score
        best = None
        best_v = -1
        for a in acts:
            kept = unpack(a & 0x7FFF)
            left = view.left - len(kept)
            v = score(kept) + 60 * (left if left else 5)
            if v > best_v:
                best, best_v = a, v
        return best
    if BANK in acts:
        t = view.turn_total
        left = view.left
        if t >= 1000 or (t >= 300 and left <= 2) or (t >= 500 and left <= 3):
            return BANK
        if view.scores[view.seat] + t >= 9000:
            return BANK
    return ROLL_ANY


def act(view, rng):
    """The bot's action for the view's seat now (any rule set), or None when it has
    nothing to do: not its turn and no out-of-turn exact call worth making. A Dix
    mille roll is ROLL_ANY: the faces come from the dice source."""
    if view.rules == "dixmille":
        return _dixmille(view)
    return _bluffing(view, rng)


def reroll(view, bid, rng):
    """Bluff's extension, right after the bot places its own `bid` (an action int, not
    yet applied): half the time, set aside the dice of `view.hand` that count for it
    (one stays under the cup) and reroll the rest. The reroll action, or None (other
    rule sets, the option off, no hand given)."""
    hand = view.hand
    if view.rules != "bluff" or ("reroll", True) not in view.options or not hand or len(hand) < 2:
        return None
    faces = view.counts(bid & 7)
    aside = [d for d in hand if d in faces][:len(hand) - 1]
    if not aside or rng.randrange(2):
        return None
    return _reroll(aside)
