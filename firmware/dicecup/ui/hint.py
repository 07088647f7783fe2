"""The hint screen's figures (the table's HINTS option): the odds of the standing bid,
of calling exact, and the safest raise, read off this seat's View alone (its hand,
the set-aside dice, the dice on the table: players/odds.py does the counting, every
rule set's wilds included). Exact integer fractions, as odds.py gives them.

    figures(view) -> (standing, exact, safest)
        standing  (q, f, at_least) of the standing bid, None with no bid
        exact     `exactly` of the standing bid when this game has an exact call
                  (Perudo's calza, Menteur's tout pile, Liar's dice with spot on) and a
                  bid stands, else None
        safest    (q, f, at_least) of the legal bid most likely true (ties: the lower
                  bid, the first in rank order), None when no bid is legal now (off
                  turn, or a call is all that is left)

Dix mille has no hint (None, None, None): no die is hidden there.
"""


def has_exact(view):
    """Whether this game can call exact at all (legal now or not)."""
    r = view.rules
    if r == "perudo" or r == "menteur":
        return True
    if r == "liars":
        for name, value in view.options:
            if name == "spot_on":
                return value is True
    return False


def figures(view):
    if view is None or view.rules == "dixmille" or view.total is None:
        return None, None, None
    from dicecup.players import odds
    standing = exact = safest = None
    if view.bid is not None:
        at_least, exactly, _ = odds.for_view(view)
        standing = (view.bid[0], view.bid[1], at_least)
        if has_exact(view):
            exact = exactly
    legal = view.legal
    num, den = -1, 1                # the best so far; strictly more beats it
    for i in range(len(legal)):     # by index: iterating a Legal would allocate
        a = legal[i]
        if 8 <= a < 0x10000:
            p = odds.for_view(view, a)[0]
            if p[0] * den > num * p[1]:
                num, den = p
                safest = (a >> 3, a & 7, p)
    return standing, exact, safest
