"""Perudo (Dudo): aces wild, the aces switch (halve / double plus one), calza, palifico."""
from micropython import const

from .bidding import NORMAL, SPECIAL, Bidding
from . import options_of

_ACE = const(1)


class Perudo(Bidding):
    name = "perudo"
    code = 2
    OPTIONS = options_of("perudo")
    SPECIAL_NAME = "palifico"
    CONSTRAINED = True
    EXACT = True
    WILD = _ACE  # in a normal round (counts: an ace bid counts aces only)

    def rank(self, q, f):
        # An ace bid of a sits above every bid of quantity <= 2a, below 2a+1.
        if f == _ACE and not self.special:
            return (q << 4) + 7
        return q << 3 | f

    def _constrained(self):
        return not self.bid or self.special

    def _bid_error(self, q, f):
        if not self.bid:
            return self._opening_error(q, f)
        if self.special and f != self.bid & 7:
            return ("palifico-face", "palifico: the face stays %d" % (self.bid & 7))
        return None

    def _opening_error(self, q, f):
        if f == _ACE and not self.special:
            return ("aces-opening", "a round may not be opened on aces")
        return None

    def _may_exact(self, seat):
        if seat == self.bidder:
            return "own-bid"
        if seat == self.turn or self.opts & 2:
            return None
        return "not-your-turn"

    def _resolve(self, count):
        q = self.bid >> 3
        if self.call == 2:  # calza
            return ((self.caller, 1 if count == q else -1),), self.caller
        loser = self.caller if count >= q else self.bidder
        return ((loser, -1),), loser

    def _next_special(self, reduced, alive):
        if not self.opts & 1 and alive > 2:  # option palifico on (choice index 0)
            for s in reduced:
                if not self.used >> s & 1:
                    self.used |= 1 << s
                    return SPECIAL
        return NORMAL
