"""The strong player for the bidding games: a Bayesian read of the bids and a one-move
look at how the next seat will answer.

Belief. Each other seat's hidden dice are independent dice; a die of seat s counts for
a bid on f with k/6 (k faces count, wilds included) before anyone speaks. Every bid s
made on f this round multiplies the odds of each of its dice counting for f by W: a
bidder is more likely to name a face the more of it they hold, so the posterior of their
count stays binomial, only with a larger chance per die. The count of the table is then
its own seen dice plus a sum of binomials, computed die by die.

Choice. A challenge is worth the chance the standing bid is false; an exact call the
chance it is exactly right. A raise is worth, over the next seat's likely count c for
that face: if that seat would call it (the seat judges by its own dice and a fair share
of the rest), the chance the raise is then true; if it would rather raise, an even game
(`_GOES_ON`). So it bluffs where the next seat is unlikely to hold the face, and avoids
raises that a seat would happily call. It challenges only when that beats the best raise
by a sixth (`_BIAS`). Near-ties are broken with the seeded rng. The constants were
tuned on seeds from 10,000 against normal and baseline seats (tests/players/headsup.py);
the README's figures are measured on other seeds.

All in integers: chances are in 1/16384ths and products stay under 2**30, so MicroPython
on a 32-bit cup keeps them as small ints (no heap, the same answer on every runtime).
Bluff's reroll: as the normal player, judged by this belief. Dix mille is not here
(players/strong.py dispatches it).
"""
from ..engine.actions import CHALLENGE, EXACT
from .normal import candidates, reroll_under
from .odds import seen

S = 16384          # one, in fixed point
_SH = 14
W = 3              # likelihood ratio per die for each bid a seat made on a face
_GOES_ON = S * 3 // 5  # worth of a raise the next seat answers with a raise
_CALL_HI = S * 13 // 20  # the next seat calls surely below 1/4, never above 13/20 true
_CALL_LO = S // 4
_TIE = S // 64
_BIAS = -S // 6   # a challenge must beat the best raise by this: calling early loses


def _die(k, e):
    """Chance (1/S) that a die of a seat with e bids on the face counts for it."""
    w = W ** e
    return k * w * S // (k * w + 6 - k)


def _add(dist, p, n):
    """Fold n more dice, each counting with p/S, into the count distribution `dist`
    (a list that grows by n; updated in place from the top)."""
    q = S - p
    for _ in range(n):
        dist.append(0)
        for j in range(len(dist) - 1, 0, -1):
            dist[j] = (dist[j] * q + dist[j - 1] * p) >> _SH
        dist[0] = dist[0] * q >> _SH
    return dist


def _tail(dist, need):
    if need <= 0:
        return S
    t = 0
    for j in range(need, len(dist)):
        t += dist[j]
    return t


def _at(dist, j):
    return dist[j] if 0 <= j < len(dist) else 0


class _Read:
    """This seat's belief for one view: per face, the count distributions of the next
    seat's hidden dice and of all the other seats' (built on first use)."""

    def __init__(self, view):
        self.v = view
        s = view.seat
        n = view.seats
        nxt = -1
        for i in range(1, n):
            t = (s + i) % n
            if view.dice[t]:
                nxt = t
                break
        self.next = nxt
        self.faces = {}

    def hidden(self, s):
        return self.v.dice[s] - len(self.v.aside[s])

    def face(self, f):
        got = self.faces.get(f)
        if got is None:
            v = self.v
            k = len(v.counts(f))
            bids = [0] * v.seats
            for s, q, g in v.bids:
                if g == f and bids[s] < 2:
                    bids[s] += 1
            others = [S]
            nxt = [S]
            for s in range(v.seats):
                if s == v.seat or not v.dice[s]:
                    continue
                _add(nxt if s == self.next else others, _die(k, bids[s]), self.hidden(s))
            known, _ = seen(v, v.counts(f))
            # the whole table's unseen count: others (+) next, a small convolution
            conv = [0] * (len(others) + len(nxt) - 1)
            for i in range(len(others)):
                oi = others[i]
                if oi:
                    for j in range(len(nxt)):
                        conv[i + j] += oi * nxt[j] >> _SH
            got = (k, known, others, nxt, conv)
            self.faces[f] = got
        return got

    def odds(self, q, f):
        """(chance at least q, chance exactly q) of a bid on f, in 1/S."""
        k, known, others, nxt, conv = self.face(f)
        return _tail(conv, q - known), _at(conv, q - known)

    def raise_worth(self, q, f):
        """Worth of raising to q x f: the next seat calls or raises, by its count."""
        k, known, others, nxt, conv = self.face(f)
        v = self.v
        r = self.next
        # what the next seat sees: its dice, the set-aside ones; and a hint from this bid
        vis = 0
        for a in v.aside:
            for d in a:
                if d in v.counts(f):
                    vis += 1
        unseen = v.total - self.hidden(r)
        for a in v.aside:
            unseen -= len(a)
        me = self.hidden(v.seat)
        hint = q - (v.total - v.dice[v.seat]) * k // 6
        hint = 0 if hint < 0 else (me if hint > me else hint) // 2
        theirs = _add([S], k * S // 6, unseen - hint)
        total = 0
        for c in range(len(nxt)):
            pc = nxt[c]
            if not pc:
                continue
            pr = _tail(theirs, q - c - vis - hint)  # how true it looks to them
            if pr <= _CALL_LO:
                call = S
            elif pr >= _CALL_HI:
                call = 0
            else:
                call = (_CALL_HI - pr) * S // (_CALL_HI - _CALL_LO)
            true = _tail(others, q - known - c)
            total += pc * ((call * true + (S - call) * _GOES_ON) >> _SH) >> _SH
        return total


def act(view, rng):
    """The action for the view's seat now, or None (nothing worth doing now)."""
    acts = view.legal
    if not acts:
        return None
    rd = _Read(view)
    pt = pe = -1
    if view.bid:
        pt, pe = rd.odds(view.bid[0], view.bid[1])
    if not view.mine:
        return EXACT if EXACT in acts and 2 * pe > S else None
    vals = []
    best_v = -1
    if rd.next >= 0:
        for a in candidates(acts, 3):
            w = rd.raise_worth(a >> 3, a & 7)
            vals.append((a, w))
            if w > best_v:
                best_v = w
    if view.bid:
        win = S - pt
        if EXACT in acts and pe > win and pe > best_v:
            return EXACT
        if CHALLENGE in acts and win + _BIAS >= best_v:
            return CHALLENGE
    near = [a for a, w in vals if w >= best_v - _TIE]
    if near:
        return near[rng.randrange(len(near))]
    return acts[0]


def reroll(view, bid, rng):
    """Bluff's extension after its own `bid`: set aside the dice counting for it and
    reroll the rest when the bet is under 3 in 4 to be true, judged by this belief."""
    return reroll_under(view, bid, lambda: 4 * _Read(view).odds(bid >> 3, bid & 7)[0] < 3 * S)
