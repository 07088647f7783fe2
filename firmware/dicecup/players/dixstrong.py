"""The strong Dix mille player: the solitaire policy that minimises the expected turns to
exactly 10,000, read from players/dixtable.py (value iteration by
host/dicecup_host/dixpolicy.py, format there). Heads-up it plays the same solitaire
policy: it does not look at the other seats' scores.

Each decision reads a few bytes of the table in place (frozen, it stays in flash): the
bank-or-roll bit for (state, score reached, dice left), or for a keep the option
(points, dice kept) chosen for that roll's option set. Scores below the table's floor
play as the floor. Integers only. Measured in the 32-bit MicroPython with the firmware
frozen (bench_players.decide, 3 two-seat games): slowest decision 110 us (x20 for an
ESP32: about 2 ms), peak heap 480 B; the 41,876-byte table stays in flash.
"""
from ..engine.actions import BANK, ROLL_ANY, unpack

_T = None
_L = None   # (floor slots, NA, U, groups pos, cells pos, exc count, exc pos, offsets pos)


def _table():
    global _T, _L
    if _T is None:
        from .dixtable import TABLE
        t = TABLE
        na = t[3]
        p = 6
        gpos = p
        for _ in range(5):
            g = t[p]
            p += 1
            for _ in range(g):
                p += 1 + 2 * t[p]
        ncells = t[p] << 8 | t[p + 1]
        cpos = p + 2
        p = cpos + (ncells + 1) // 2
        nexc = t[p] << 8 | t[p + 1]
        epos = p + 2
        _L = (t[2], na, 3 * na, gpos, cpos, nexc, epos, epos + 7 * nexc)
        _T = t
    return _T, _L


def _where(view, L):
    """(state index, absolute slot of score + turn total) for the seat on turn."""
    fl, na, u = L[0], L[1], L[2]
    me = view.seat
    if not view.opened[me]:
        return u, fl + view.turn_total // 50
    s = view.scores[me] // 50 + fl
    if s < 0:
        s = 0
    return view.crosses[me] * na + s, s + view.turn_total // 50


def rolls_on(view):
    """Whether the policy rolls the dice left rather than bank (the seat may bank)."""
    t, L = _table()
    x, ai = _where(view, L)
    p = L[7] + 2 * x
    p = t[p] << 8 | t[p + 1]
    for _ in range(view.left - 1):
        p += 1 + (t[p] & 127)
    h = t[p]
    bit = h >> 7
    for i in range(h & 127):
        if t[p + 1 + i] > ai:
            break
        bit ^= 1
    return bool(bit)


def _choice(t, L, cell, x):
    lo, hi = 0, L[5]
    e = L[6]
    while lo < hi:      # the last run starting at or before (cell, x)
        mid = (lo + hi) // 2
        q = e + 7 * mid
        key = (t[q] << 8 | t[q + 1]) - cell
        if key < 0 or (key == 0 and (t[q + 2] << 8 | t[q + 3]) <= x):
            lo = mid + 1
        else:
            hi = mid
    if lo:
        q = e + 7 * (lo - 1)
        if (t[q] << 8 | t[q + 1]) == cell and (t[q + 4] << 8 | t[q + 5]) >= x:
            return t[q + 6]
    b = t[L[4] + cell // 2]
    return b >> 4 if cell & 1 else b & 15


def keep(view):
    """The keep action the policy takes for the roll in view."""
    from ..engine.dixmille import score
    t, L = _table()
    opts = []   # (points // 50) << 3 | dice kept, sorted, distinct
    acts = []
    for a in view.legal:
        kept = unpack(a & 0x7FFF)
        k = score(kept) // 50 << 3 | len(kept)
        if k not in opts:
            opts.append(k)
            acts.append(a)
    order = sorted(range(len(opts)), key=lambda i: opts[i])
    n = len(view.roll)
    na = L[1]
    p = L[3]
    cell = 0
    for m in range(1, n + 1):
        g = t[p]
        p += 1
        if m < n:
            cell += na * g
            for _ in range(g):
                p += 1 + 2 * t[p]
            continue
        for gi in range(g):
            k = t[p]
            if k == len(opts):
                j = 0
                while j < k and (t[p + 1 + 2 * j] << 3 | t[p + 2 + 2 * j]) == opts[order[j]]:
                    j += 1
                if j == k:
                    x, ai = _where(view, L)
                    return acts[order[_choice(t, L, cell + ai * g + gi, x)]]
            p += 1 + 2 * k
    raise ValueError("roll not in the table")


def act(view, rng):
    acts = view.legal
    if not acts or not view.mine:
        return None
    first = None
    for a in acts:
        first = a
        break
    if first >> 16 == 2:
        return keep(view)
    if BANK in acts and not rolls_on(view):
        return BANK
    return ROLL_ANY


def reroll(view, bid, rng):
    return None
