"""The bid choices a seat has, read off `view.legal` (the engine already encodes every
rule: Perudo's aces halving, palifico's fixed face, Bluff's star track), so the
screens step through legal bids only. Bids in `legal` come in rank order."""


def lowest_raise(legal):
    """The lowest legal bid (an action), 0 when none."""
    for i in range(len(legal)):   # by index: iterating a Legal would allocate
        a = legal[i]
        if 8 <= a < 0x10000:
            return a
    return 0


def lowest_on(legal, face):
    """The lowest legal quantity on `face`, 0 when none: the first bid on it (bids come
    in rank order, and on one face a higher quantity always ranks higher)."""
    for i in range(len(legal)):
        a = legal[i]
        if 8 <= a < 0x10000 and a & 7 == face:
            return a >> 3
    return 0


def next_face(legal, face, d):
    """The next face after `face` going `d` (wrapping 6 -> 1) that can be bid, 0 if none."""
    f = face
    for _ in range(5):
        f = (f + d - 1) % 6 + 1
        if lowest_on(legal, f):
            return f
    return 0


def next_quantity(legal, q, face, d):
    """The next legal quantity on `face` after `q` going `d`, 0 at the end (no wrap:
    one press never jumps from the lowest bid to the highest)."""
    q += d
    while 1 <= q <= 30:
        if q << 3 | face in legal:
            return q
        q += d
    return 0


def reroll_with_bid(view):
    """Whether a bid by this seat now may carry a reroll (Bluff's option, two dice or
    more under the cup, the hand known). `legal` cannot list it: the bid is not made yet."""
    if view.rules != "bluff" or not view.mine or view.hand is None or len(view.hand) < 2:
        return False
    for name, value in view.options:
        if name == "reroll":
            return value is True
    return False
