"""The normal player: bids and calls by the odds, reads the others' bids, bluffs a little.

Bidding games. For a bid on face f it counts the dice it sees (its hand, every set-aside
die) and, for each other seat that bid on f this round, half of the dice that bid implies
the seat holds (the quantity less that seat's fair share of the rest of the table): a bid
is a hint, and people bluff. The rest are unseen, each counting with k/6. Then:

* a raise is worth the chance it is true, plus a little for the chance nobody calls it;
* a challenge is worth the chance the standing bid is false;
* an exact call (calza, tout pile, spot on) the chance it is exactly right; out of turn
  only when that is better than even (not calling costs nothing);
* one raise in eight is a bluff: any candidate that is at least one-in-three true.

Bluff's reroll extension: after its own bet, it sets aside the dice counting for it
and rerolls the rest when the bet needs help (under 3 in 4 to be true). Palifico and
Menteur's one-die rounds need nothing special: the View's `counts` and `legal` say which
faces count and which bids may follow. Dix mille goes to players/dixnormal.py.

Odds come from `odds.figures` (exact ints), turned into 1/4096ths.
"""
from micropython import const
from ..engine.actions import CHALLENGE, EXACT, reroll as _reroll
from .odds import figures, seen

_SCALE = const(4096)
_RAISE_BONUS = _SCALE // 10   # a raise is not always called
_BLUFF_FLOOR = _SCALE // 3


def _p(fr):
    return fr[0] * _SCALE // fr[1]


def hinted(view, f):
    """Dice the other seats' bids on f this round suggest they hold (half of what each
    seat's best bid implies, capped at its hidden dice)."""
    k = len(view.counts(f))
    total = view.total
    best = {}
    for s, q, g in view.bids:
        if g != f or s == view.seat:
            continue
        d = view.dice[s]
        imp = q - (total - d) * k // 6
        hid = d - len(view.aside[s])
        if imp > hid:
            imp = hid
        if imp > best.get(s, 0):
            best[s] = imp
    h = 0
    for s in best:
        h += best[s] // 2
    return h


def odds(view, q, f):
    """(P at least q, P exactly q) for a bid on f, in 1/SCALE."""
    faces = view.counts(f)
    known, unseen = seen(view, faces)
    h = hinted(view, f)
    a, e, _ = figures(q, known + h, unseen - h, len(faces))
    return _p(a), _p(e)


def candidates(legal, per_face=2):
    """The lowest `per_face` legal bids on each face, in legal (rank) order."""
    got = [0] * 7
    out = []
    for a in legal:
        if 8 <= a < 0x10000:
            f = a & 7
            if got[f] < per_face:
                got[f] += 1
                out.append(a)
                if len(out) == 6 * per_face:
                    break
    return out


def act(view, rng):
    """The action for the view's seat now, or None (nothing worth doing now)."""
    if view.rules == "dixmille":
        from . import dixnormal
        return dixnormal.act(view, rng)
    acts = view.legal
    if not acts:
        return None
    pt = pe = -1
    if view.bid:
        pt, pe = odds(view, view.bid[0], view.bid[1])
    if not view.mine:
        return EXACT if EXACT in acts and 2 * pe > _SCALE else None
    best = None
    best_v = -1
    ok = []
    for a in candidates(acts):
        p = odds(view, a >> 3, a & 7)[0]
        if p >= _BLUFF_FLOOR:
            ok.append(a)
        if p > best_v or (p == best_v and rng.randrange(2)):
            best, best_v = a, p
    if ok and rng.randrange(8) == 0:
        best = ok[rng.randrange(len(ok))]
        best_v = odds(view, best >> 3, best & 7)[0]
    if view.bid:
        raise_v = best_v + _RAISE_BONUS if best is not None else -1
        win = _SCALE - pt
        if EXACT in acts and pe > win and pe > raise_v:
            return EXACT
        if CHALLENGE in acts and win >= raise_v:
            return CHALLENGE
    if best is not None:
        return best
    return acts[0]


def reroll(view, bid, rng):
    """Bluff's extension after its own `bid` (not yet applied): set aside the dice
    counting for it and reroll the rest when the bet is under 3 in 4 to be true."""
    return reroll_under(view, bid, lambda: 4 * odds(view, bid >> 3, bid & 7)[0] < 3 * _SCALE)


def reroll_under(view, bid, thin):
    """The reroll rule normal and strong share: with the option on and a hand that has
    dice counting for `bid` and dice that do not, set those aside and reroll the rest
    when `thin()` (the player's own judgement of the bet) says so; else None."""
    hand = view.hand
    if view.rules != "bluff" or ("reroll", True) not in view.options or not hand or len(hand) < 2:
        return None
    faces = view.counts(bid & 7)
    aside = [d for d in hand if d in faces]
    if not aside or len(aside) == len(hand) or not thin():
        return None
    return _reroll(aside)
