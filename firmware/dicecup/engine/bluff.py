"""Ravensburger "Bluff": stars are wild, the board's track orders bets, losses are the
difference, and (option `reroll`) a bettor may set dice aside face up and reroll."""
from micropython import const
from .bidding import BID, Bidding
from .actions import pack, unpack
from . import options_of

_STAR = const(6)


def track(q, star, half):
    """Position on the bet track. Board: 1, *1, 2, 3, *2, 4, 5, *3 ... (a star space
    after every two number spaces, on past 20). Half: *s sits between 2s and 2s+1."""
    if half:
        return 4 * q + 1 if star else 2 * q
    if star:
        return 3 * q - 2
    return 3 * (q >> 1) - 1 + (q & 1)


class Bluff(Bidding):
    name = "bluff"
    code = 1
    OPTIONS = options_of("bluff")
    WILD = _STAR  # a number bet counts its face plus every star; a star bet stars only

    def rank(self, q, f):
        return track(q, f == _STAR, self.opts & 1) << 3 | f

    def _resolve(self, actual):
        bet = self.bid >> 3
        if bet < actual:
            return ((self.caller, bet - actual),), self.bidder
        if bet == actual:  # everyone but the bettor loses one
            return [(s, -1) for s in range(self.n) if s != self.bidder], self.bidder
        return ((self.bidder, actual - bet),), self.caller

    def _draw_opener(self, rng):
        """Roll-off: everyone rolls five public dice, the highest pip total opens
        (a star counts 6); tied players roll again among themselves."""
        rolling = list(range(self.n))
        self.opening = []
        while True:
            best = -1
            top = []
            for s in rolling:
                faces = [rng.randrange(6) + 1 for _ in range(5)]
                self.opening.append(("rolloff", s, faces))
                t = sum(faces)
                if t > best:
                    best, top = t, [s]
                elif t == best:
                    top.append(s)
            if len(top) == 1:
                return top[0]
            rolling = top

    def _may_reroll(self, seat):
        if not self.opts & 2:
            return "reroll-not-allowed"
        if self.phase != BID or seat != self.bidder or self.rerolled:
            return "reroll-not-allowed"
        if self.hidden(seat) < 2:
            return "reroll-count"
        return None
