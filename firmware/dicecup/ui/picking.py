"""Dice picked from a roll (a Dix mille keep) or from my hand (a Bluff set-aside), read
off `view.legal`: only dice that can still join a legal pick are offered, "done" only
once the pick can be sent. Picks are bit masks over the dice shown; multisets are
*tallies*, a count per face in 3 bits (face f at bits 3(f-1)..3f-1), so each press is
answered with small ints and no list per test.

`kind`: 2 a keep, 3 a reroll (the engine's action kinds, listed in `legal`), 0 a reroll
sent with a bid (not listed yet: any 1..n-1 of the n dice).
"""


def tally(dice, picked):
    """The faces of the dice whose bit is set in `picked`."""
    t = 0
    for i in range(len(dice)):
        if picked >> i & 1:
            t += 1 << 3 * (dice[i] - 1)
    return t


def tally_of(code):
    """The tally of a packed multiset (an action's faces, actions.pack)."""
    t = 0
    while code:
        t += 1 << 3 * ((code & 7) - 1)
        code >>= 3
    return t


def within(small, big):
    """Every face counted in `small` at most as often as in `big`."""
    for s in (0, 3, 6, 9, 12, 15):
        if small >> s & 7 > big >> s & 7:
            return False
    return True


def size(t):
    """Dice in a tally."""
    n = 0
    while t:
        n += t & 7
        t >>= 3
    return n


def packed(t):
    """The packed multiset of a tally (as actions.pack gives it)."""
    code = 0
    f = 6
    while f:
        for _ in range(t >> 3 * (f - 1) & 7):
            code = code << 3 | f
        f -= 1
    return code


def action(kind, dice, picked):
    """The keep or reroll of the picked dice."""
    return (3 if kind == 0 else kind) << 16 | packed(tally(dice, picked))


def may_hold(legal, kind, dice, picked):
    """Whether the pick is part of some legal one (so adding dice may complete it)."""
    if kind == 0:
        return size(tally(dice, picked)) < len(dice)
    t = tally(dice, picked)
    for i in range(len(legal)):   # by index: iterating a Legal would allocate
        a = legal[i]
        if a >> 16 == kind and within(t, tally_of(a & 0x7FFF)):
            return True
    return False


def offered(legal, kind, dice, picked, i):
    """Whether position i does something: a die picked or that may join the pick, or
    (i == len(dice)) "done" when the pick can be sent (with a bid: always, none
    picked sends the bid alone)."""
    if i == len(dice):
        return kind == 0 or picked != 0 and action(kind, dice, picked) in legal
    if picked >> i & 1:
        return True
    return may_hold(legal, kind, dice, picked | 1 << i)


def step(legal, kind, dice, picked, cursor, d):
    """The next offered position after `cursor` going `d` (wrapping over the dice and
    "done"), `cursor` itself when there is no other."""
    n = len(dice) + 1
    c = cursor
    for _ in range(n - 1):
        c = (c + d) % n
        if offered(legal, kind, dice, picked, c):
            return c
    return cursor
