"""Temporary exact binomial odds with the API of players/odds.py (another helper's
module; this one goes when it lands): whole numbers only, since an ESP32's floats are
single precision and a bot must decide the same on every runtime.

    figures(q, known, unseen, k) -> (at_least, exactly, expected), each (num, den)

`q` the bid quantity, `known` dice the asker sees counting for the bid, `unseen` dice it
cannot see, `k` faces of six that count (wilds included).
"""


def figures(q, known, unseen, k):
    need = q - known
    den = 6 ** unseen
    if need > unseen:
        return (0, 1), (0, 1), (6 * known + unseen * k, 6)
    # the terms C(u, j) k^j (6-k)^(u-j), j = 0..u, built by a running binomial
    at_least = 0
    exactly = 0
    c = 1
    other = 6 - k
    for j in range(unseen + 1):
        if j >= need:
            t = c * k ** j * other ** (unseen - j)
            at_least += t
            if j == need:
                exactly = t
        c = c * (unseen - j) // (j + 1)
    return (at_least, den), (exactly, den), (6 * known + unseen * k, 6)
