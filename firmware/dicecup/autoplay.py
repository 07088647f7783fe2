"""A player made of a bot: plays one cup's seat through the cup's public seams.

It reads what the cup shows (`cup.view()`, `cup.wants_shake()`) and answers the way a
player does (`cup.shake()`, `cup.act()`), after a pause: `shake_ms` before each shake,
`think_ms` before each decision. The simulator seats one at every cup it runs (with
the shake delay the user asks for); a cup uses one with `player=False` as its own bot
when its player has not acted for a long while (net/seat.py).

    p = Autoplayer(rng, think_ms=250, shake_ms=10000)
    due = p.step(cup, now)     # call often; returns when it next wants to be asked
"""
from micropython import const
from . import bots
from .engine import BANK_OR_ROLL, BID, KEEP
from .engine.actions import kind

_THINK_MS = const(250)
DECIDE = (BID, KEEP, BANK_OR_ROLL)


class Autoplayer:
    def __init__(self, rng, think_ms=_THINK_MS, shake_ms=0, player=True):
        self.rng = rng
        self.think_ms = think_ms
        self.shake_ms = shake_ms
        self.player = player     # False: the cup's own bot (its moves do not count as the player's)
        self.shake_for = None    # (what, version) a shake is due for
        self.shake_at = 0
        self.thinking = -1       # the version a decision is being thought on
        self.act_at = 0
        self.decided = -1        # the version last decided on
        self.rolling = -1        # Dix mille: the version at which it chose to roll on
        self.rejects = 0         # the cup's count of refused inputs when it last decided
        self.shakes = 0

    def step(self, cup, now):
        t = cup.table
        if t is None or t.game is None:
            return None
        version = t.version
        due = None
        w = cup.wants_shake()
        need = cup.need()
        if w == "roll" and need == BANK_OR_ROLL and self.rolling != version:
            w = None  # bank or roll on: decide first, shake only to roll
        if w is None:
            self.shake_for = None
        else:
            if self.shake_for != (w, version):
                self.shake_for = (w, version)
                self.shake_at = now + self.shake_ms
            if now >= self.shake_at:
                self.shake_for = None
                self.shakes += 1
                cup.shake(b"auto%d" % self.shakes, player=self.player)
                return now
            due = self.shake_at
        if cup.rejects() != self.rejects:
            self.rejects = cup.rejects()
            self.decided = self.thinking = -1   # refused: think again
        if need not in DECIDE or self.decided == version or not cup.on_turn() or cup.busy():
            return due
        if self.thinking != version:
            self.thinking = version
            self.act_at = now + self.think_ms
            if self.player:
                cup.touch()   # a player thinking handles the cup: it is theirs to play
        if now < self.act_at:
            return self.act_at if due is None or self.act_at < due else due
        self.decided = version
        v = cup.view()
        a = bots.act(v, self.rng)
        if a is None:
            return due
        if kind(a) == "roll":
            self.rolling = version   # shaking is the roll
            return now
        then = bots.reroll(v, a, self.rng) if kind(a) == "bid" else None
        cup.act(a, then=then, player=self.player)
        return now

