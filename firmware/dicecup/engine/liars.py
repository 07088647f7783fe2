"""Classic Liar's Dice: no wilds, the challenge's winner opens; options one_life and spot_on."""
from .bidding import Bidding
from . import options_of


class Liars(Bidding):
    name = "liars"
    code = 4
    OPTIONS = options_of("liars")
    EXACT = True
    EXACT_BIT = 2  # spot_on

    def _may_exact(self, seat):
        if not self.opts & 2:
            return "exact-not-allowed"
        if seat == self.bidder:
            return "own-bid"
        return None if seat == self.turn else "not-your-turn"

    def _loss(self, seat):
        # one_life: any lost die is the last one
        return ((seat, -5 if self.opts & 1 else -1),)

    def _resolve(self, count):
        q = self.bid >> 3
        if self.call == 2:  # spot on
            if count == q:
                return ((self.caller, 1),), self.caller
            return self._loss(self.caller), self.bidder
        # the loser's loss in place (no _loss call): one die, all of them with one_life
        if count >= q:
            return ((self.caller, -5 if self.opts & 1 else -1),), self.bidder
        return ((self.bidder, -5 if self.opts & 1 else -1),), self.caller
