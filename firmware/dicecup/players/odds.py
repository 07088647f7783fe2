"""Exact odds of a bid, for screens and bots: how likely it is true, exactly right, and
how many dice are expected to count.

Each unseen die counts for a bid with chance k/6 (k: the faces counting for it, wilds
included), so the count among `unseen` dice is binomial. Everything is an integer
fraction `(num, den)`: an ESP32's floats are single precision and would round
`2*num >= den` the wrong way near 1/2. Denominators (not reduced, so figures of one
table compare by numerator alone):

    at_least, exactly   den = 6 ** unseen
    expected            den = 6

    figures(q, known, unseen, k) -> (at_least, exactly, expected)
    for_view(view, bid)          -> the same for a View's hand, set-aside dice and bid
    percent(frac), word(frac)    -> 0..100 and "likely"/"fair"/"thin"/"long shot"

What counts in each rule set and round (wild aces, jokers, stars, star bets, palifico,
one-die rounds) comes from the engine's `view.counts(face)`; nothing here knows a rule.

One row of binomial numerators per (unseen, k) is cached (two slots: a table has at
most two distinct k per round, 1 and 2), with its tail sums, so a button press that
judges every bid of a round builds each row once. Time, measured in the 32-bit
MicroPython with the firmware frozen (fw32, 110 KB heap) on this x86 host, 30 unseen
dice: the first call (builds a row) 50 us, 60 further calls (every q, k = 1 and 2)
167 us in all. An ESP32 is slower than this host by an unmeasured factor; not yet
measured on a cup.
"""

_rows = []  # [(unseen, k, row, tail)], at most _SLOTS, newest last
_SLOTS = 2


def _row(unseen, k):
    """(row, tail): row[j] = C(n, j) k^j (6-k)^(n-j), the ways j of n unseen dice count;
    tail[j] = row[j] + ... + row[n]; both over 6**n (tail[0] == 6**n)."""
    for r in _rows:
        if r[0] == unseen and r[1] == k:
            return r[2], r[3]
    n = unseen
    miss = 6 - k
    low = [1] * (n + 1)  # low[i] = miss ** i
    for i in range(1, n + 1):
        low[i] = low[i - 1] * miss
    row = [0] * (n + 1)
    c = 1       # C(n, j)
    hit = 1     # k ** j
    for j in range(n + 1):
        row[j] = c * hit * low[n - j]
        c = c * (n - j) // (j + 1)
        hit *= k
    tail = [0] * (n + 2)
    for j in range(n, -1, -1):
        tail[j] = tail[j + 1] + row[j]
    if len(_rows) >= _SLOTS:
        _rows.pop(0)
    _rows.append((unseen, k, row, tail))
    return row, tail


def forget():
    """Drop the cached rows (their heap goes back to the cup; the next call builds anew)."""
    del _rows[:]


def figures(q, known, unseen, k):
    """The bid "at least q dice count" when the asker sees `known` counting dice and
    `unseen` dice it cannot see, each counting with chance k/6: (at_least, exactly,
    expected), fractions as (num, den) with den 6**unseen, 6**unseen and 6."""
    if unseen < 0 or known < 0 or not 0 <= k <= 6:
        raise ValueError("odds: unseen %d, known %d, k %d" % (unseen, known, k))
    row, tail = _row(unseen, k)
    den = tail[0]
    need = q - known
    if need <= 0:
        at_least = den
    elif need > unseen:
        at_least = 0
    else:
        at_least = tail[need]
    exactly = row[need] if 0 <= need <= unseen else 0
    return (at_least, den), (exactly, den), (6 * known + unseen * k, 6)


def seen(view, faces):
    """(known, unseen): the dice the view's seat sees counting for `faces` (its hand and
    every set-aside die, face up), and the dice on the table it cannot see."""
    hand = view.hand or ()
    n = len(hand)
    known = 0
    for d in hand:
        if d in faces:
            known += 1
    for a in view.aside:
        n += len(a)
        for d in a:
            if d in faces:
                known += 1
    return known, view.total - n


def for_view(view, bid):
    """figures() for `bid` ((q, f), or a bid action int), else the standing `view.bid`,
    as the view's seat sees it (hand, set-aside dice, dice on the table, this round's
    counting). None when there is no bid to judge (no bid standing, or Dix mille)."""
    if bid is None:
        bid = view.bid
    if bid is None or view.total is None:
        return None
    if type(bid) is int:
        bid = (bid >> 3, bid & 7)
    q, f = bid
    faces = view.counts(f)
    known, unseen = seen(view, faces)
    return figures(q, known, unseen, len(faces))


def percent(frac):
    """A probability (num, den) as a whole percent 0..100, rounded half up."""
    num, den = frac
    p = (200 * num + den) // (2 * den)
    return 0 if p < 0 else 100 if p > 100 else p


WORDS = ("likely", "fair", "thin", "long shot")


def word(frac):
    """The screen's word for a probability: "likely" (>= 65 %), "fair" (40-65 %), "thin"
    (15-40 %), "long shot" (< 15 %), judged on the shown percent(frac) so the word never
    contradicts the number beside it. A key a screen translates."""
    p = percent(frac)
    if p >= 65:
        return WORDS[0]
    if p >= 40:
        return WORDS[1]
    if p >= 15:
        return WORDS[2]
    return WORDS[3]
