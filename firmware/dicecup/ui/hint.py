"""The hint screen (the table's HINTS option) and its figures: the odds of the
standing bid, of calling exact, and the safest raise, read off this seat's View alone (its hand,
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

`draw(buf, sc)` draws the hint page (ui/screens.py draws it by name "hint"): in this
module, imported when the page is first drawn, so a table without hints never holds
its code in RAM.
"""
from micropython import const

from dicecup.ui import screens, text

_TOP = const(9)          # the body starts under the status strip (as in ui/screens.py)


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
        at_least, exactly, _ = odds.for_view(view, None)
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


def draw(buf, sc):
    """The hint page: three rows of 18 px -- the bid (its quantity and die) left,
    what it is in small type beside it with the word under that, the percent right."""
    from dicecup.players import odds
    v = sc.view
    standing, exact, safest = figures(v)
    y = _TOP + 1
    if standing is None:
        text.centre(buf, sc.t("bid_none"), y + 2, screens.BIG)
    else:
        _row(buf, sc, y, standing[0], standing[1], "hint_bid", standing[2], odds)
    y += 18
    if exact is not None:
        _row(buf, sc, y, v.bid[0], v.bid[1], "btn_exact", exact, odds)
        y += 18
    if safest is not None:
        _row(buf, sc, y, safest[0], safest[1], "hint_raise", safest[2], odds)
    else:                           # off turn: no bid is legal to judge
        text.draw(buf, sc.t("hint_raise"), 40, y, screens.SMALL)
        text.draw(buf, sc.t("hint_turn"), 40, y + 8, screens.SMALL)


def _row(buf, sc, y, q, f, key, frac, odds):
    # the bid: at most 38 px ("30 \xd7" and a die); the label and word 12 small
    # characters from x 40 (to 100); the percent, at most "100%", from 104
    screens._bid(buf, sc, q, f, y, 0, 128)
    text.draw(buf, sc.t(key), 40, y, screens.SMALL)
    text.draw(buf, sc.t("odds_" + odds.word(frac)), 40, y + 8, screens.SMALL)
    text.right(buf, "%d%%" % odds.percent(frac), y + 3, screens.BIG)
