"""The normal Dix mille player: a threshold rule between easy and strong.

Keep: a keep that reaches exactly 10,000 wins at once; keeps that pass it are avoided
while another exists; otherwise the keep worth most counting its points and the dice it
leaves to roll (KEEP_DICE: a 1 kept alone with four dice left beats 1 and 5 with three).
Bank: once the turn total reaches the threshold for the dice left (BANK_AT), or when the
game would be left needing more than the dice can give in one exact roll; close to
10,000 it rolls on while a single 1 or 5 can finish (needs of 50 or 100, three dice or more).
Integers only; it reads the View, nothing else.
"""
from micropython import const
from ..engine.actions import BANK, ROLL_ANY, unpack

_GOAL = const(10000)
KEEP_DICE = (0, 20, 60, 150, 250, 400)     # what leaving n dice (5: hot dice) is worth
BANK_AT = (0, 250, 300, 400, 700, 1500)    # bank at this turn total with n dice left


def _keep(view):
    from ..engine.dixmille import score
    me = view.seat
    reached = view.scores[me] + view.turn_total
    n = len(view.roll)
    best, best_v = None, None
    for a in view.legal:
        kept = unpack(a & 0x7FFF)
        pts = score(kept)
        if reached + pts == _GOAL:
            return a
        left = n - len(kept) or 5
        v = pts + KEEP_DICE[left]
        if reached + pts > _GOAL:
            v -= 100000
        if best_v is None or v > best_v:
            best, best_v = a, v
    return best


def act(view, rng):
    acts = view.legal
    if not acts or not view.mine:
        return None
    first = None
    for a in acts:
        first = a
        break
    if first >> 16 == 2:
        return _keep(view)
    if BANK not in acts:
        return ROLL_ANY
    need = _GOAL - view.scores[view.seat] - view.turn_total
    if need <= 100 and view.left >= 3:
        return ROLL_ANY
    if view.turn_total >= BANK_AT[view.left]:
        return BANK
    return ROLL_ANY


def reroll(view, bid, rng):
    return None
