"""Neller's binomial player, the baseline for the four bidding games.

On its turn it makes the highest-ranking legal bid whose chance of being true is at
least 1/2, given its own dice, the set-aside dice and the round's counting (odds.py);
when no legal bid is that likely it challenges. The opener bids the same way. It never
calls exact and never rerolls; out of turn it does nothing.

Highest-ranking is the engine's order: `view.legal` lists bids lowest rank first, so
the last bid that qualifies wins. The issue's tie rule (lower quantity, then lower
face) never has to decide: every rule set ranks its bids strictly (the engine's ladder
is built on distinct ranks), so bids of equal chance are still told apart by rank.
"""
from ..engine.actions import CHALLENGE
from . import odds


def _tops(view):
    """Per face 1..6 (index f), the highest quantity whose bid is at least even money:
    a bid (q, f) qualifies when q <= tops[f]. Built with one binomial row per k."""
    tops = [0] * 7
    for f in range(1, 7):
        faces = view.counts(f)
        k = len(faces)
        known, unseen = odds.seen(view, faces)
        q = known
        while q < known + unseen:
            at_least = odds.figures(q + 1, known, unseen, k)[0]
            if 2 * at_least[0] < at_least[1]:
                break
            q += 1
        tops[f] = q
    return tops


def choose(view):
    """The bid action it would make now, or None when no legal bid is at least even."""
    tops = _tops(view)
    best = None
    for a in view.legal:
        if 8 <= a < 0x10000 and a >> 3 <= tops[a & 7]:
            best = a
    return best


def act(view, rng):
    """Its action now: the bid from choose(), else a challenge; None out of turn. An
    opener with no even bid (only without a hand) bids the lowest legal bid."""
    if not view.mine or view.need != "bid" or view.total is None:
        return None
    acts = view.legal
    a = choose(view)
    if a is not None:
        return a
    if CHALLENGE in acts:
        return CHALLENGE
    for a in acts:
        if 8 <= a < 0x10000:
            return a
    return None


def reroll(view, bid, rng):
    """The baseline never rerolls."""
    return None
