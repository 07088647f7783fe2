"""Menteur, the French variant: the parrot joker (face 1) is wild, tout pile may be called
by anyone but the bidder at any time, and after anyone drops to one die the jokers are
plain for a round (ranked below 2)."""
from micropython import const
from .bidding import NORMAL, SPECIAL
from .perudo import Perudo
from . import options_of

_JOKER = const(1)


class Menteur(Perudo):
    name = "menteur"
    code = 3
    OPTIONS = options_of("menteur")
    SPECIAL_NAME = "no-jokers"
    CONSTRAINED = False
    _cache = None  # a ladder cache of its own: perudo's openers leave out aces

    def _constrained(self):
        return False

    def _bid_error(self, q, f):
        return None

    def _may_exact(self, seat):
        return "own-bid" if seat == self.bidder else None

    def _resolve(self, count):
        q = self.bid >> 3
        if self.call == 2:  # tout pile
            if count == q:
                return ((self.caller, 1),), self.bidder
            return ((self.caller, -1),), self.caller
        loser = self.caller if count >= q else self.bidder
        return ((loser, -1),), loser

    def _next_special(self, reduced, alive):
        return SPECIAL if reduced else NORMAL
