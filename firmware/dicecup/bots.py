"""Bots that fill empty seats (hosted on the table master) and play simulated tables.

A bluffing bot knows only what its seat knows: its own hidden dice, the set-aside dice
on the table and the dice count. It bids what it expects to be true and challenges
what it expects to be false. The Dix mille bot keeps the best dice and banks by a
simple risk rule. Small on purpose: it runs on the cup.
"""
from .engine.actions import BANK, CHALLENGE, EXACT, reroll as _reroll, roll, unpack


def _expected(game, seat, hand, q, f):
    """Dice expected to match face f: known ones plus a share of the unknown ones."""
    known = 0
    seen = 0
    for d in hand:
        if game._matches(d, f):
            known += 1
        seen += 1
    for s in range(game.n):
        if game.aside[s]:
            for d in unpack(game.aside[s]):
                seen += 1
                if game._matches(d, f):
                    known += 1
    p = 0
    for d in range(1, 7):
        if game._matches(d, f):
            p += 1
    return known + (game.total() - seen) * p / 6


def bluffing(game, seat, hand, rng, boldness=0.6):
    """An action for `seat` holding `hand` (its hidden dice)."""
    acts = game.legal(seat)
    if not acts:
        return None
    b = game.bid
    if b:
        q, f = b >> 3, b & 7
        e = _expected(game, seat, hand, q, f)
        if EXACT in acts and abs(e - q) < 0.3 and rng.randrange(4) == 0:
            return EXACT
        if seat != game.to_act():
            return None
        if e < q - boldness:
            return CHALLENGE
    elif seat != game.to_act():
        return None
    good = []
    for a in acts:
        if a >= 8 and a < 0x10000:
            if _expected(game, seat, hand, a >> 3, a & 7) >= (a >> 3) - boldness + 0.2:
                good.append(a)
                if len(good) == 4:
                    break
    if good:
        return good[rng.randrange(len(good))]
    if CHALLENGE in acts:
        return CHALLENGE
    return acts[0]


def reroll(game, seat, hand, rng):
    """Bluff's extension, right after the bot's own bid: half the time, set aside the
    dice that count for it (one stays under the cup) and reroll the rest."""
    if game.name != "bluff" or game._may_reroll(seat) is not None or len(hand) < 2:
        return None
    counted = game.counted(game.bid & 7)
    aside = [d for d in hand if d in counted][:len(hand) - 1]
    if not aside or rng.randrange(2):
        return None
    return _reroll(aside)


def dixmille(game, seat, rng):
    """An action for the seat on turn; a roll comes back with its faces drawn from rng."""
    acts = game.legal(seat)
    if not acts:
        return None
    if acts[0] >> 16 == 2:  # keep: points plus a bonus for dice left to roll
        from .engine.dixmille import score
        best = None
        best_v = -1
        for a in acts:
            kept = unpack(a & 0x7FFF)
            left = game.left - len(kept)
            v = score(kept) + 60 * (left if left else 5)
            if v > best_v:
                best, best_v = a, v
        return best
    if BANK in acts:
        t = game.total
        if t >= 1000 or (t >= 300 and game.left <= 2) or (t >= 500 and game.left <= 3):
            return BANK
        if game.scores[seat] + t >= 9000:
            return BANK
    return roll([rng.randrange(6) + 1 for _ in range(game.left)])


def act(game, seat, hand, rng):
    """The bot's action for any rule set (None when it has nothing to do now)."""
    if game.name == "dixmille":
        return dixmille(game, seat, rng)
    return bluffing(game, seat, hand, rng)
