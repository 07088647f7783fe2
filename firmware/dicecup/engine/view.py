"""What one seat knows now, the same shape for all five rule sets: `g.view(seat, hand)`.

A View is built on demand and never stored in the game: plain attributes copied out of
it (a handful of small lists), so screens and bots read a seat's knowledge without
touching the engine. Fields a rule set does not have keep the class defaults below
(None, -1 or 0); per-round lists are empty (empty tuples when nothing is there: no
one out, nothing set aside). `hand` is the seat's hidden dice when the
caller gives them (the engine never holds them), else None.

Every rule set: rules, seat, seats, need, turn, mine, options, faces, winner,
eliminated, legal. Bluffing games: round, dice, hidden, hand, aside, bid, bidder, bids,
special, caller, call, wild, total. Dix mille: scores, crosses, opened, turn_total,
roll, left.
"""
from micropython import const

from .actions import unpack
from .need import REVEAL, counting

FACES = (1, 2, 3, 4, 5, 6)


_NO_ASIDE = const(((), (), (), (), (), ()))   # per seat (up to 6): nothing set aside


class View:
    # Class values stand for the common case, so a View sets only what differs: each
    # instance attribute is a slot in its table, grown step by step as it is built
    # (on a cup a View is made at every change; 16 slots, not 23, and fewer lists).
    mine = False       # this seat is on turn
    winner = None      # the seat that won, once over
    faces = FACES
    eliminated = ()    # seats out of the game
    aside = _NO_ASIDE  # per seat, the faces set aside (Bluff's rerolls, face up)
    roll = ()          # dix mille: the faces of the roll to keep from
    round = None       # bluffing games: the round number
    dice = None        # dice count per seat
    hidden = 0         # this seat's dice under its cup
    hand = None        # this seat's hidden faces, when given
    bid = None         # the standing bid (q, f)
    bidder = -1        # who made it
    special = None     # "palifico" / "no-jokers" in such a round
    caller = None      # REVEAL: who called ...
    call = None        # ... "challenge" or "exact"
    wild = None        # the face wild for number bids this round
    total = None       # all dice on the table
    scores = None      # dix mille: banked points per seat
    crosses = None     # crosses in a row per seat
    opened = None      # whether each seat's score is open (bools)
    turn_total = None  # points of the turn so far
    left = None        # dice the next roll uses

    def __init__(self, g, seat, hand=None):
        self.rules = g.name
        self.seat = seat
        self.seats = n = g.n
        self.need = g.need()
        self.turn = t = g.to_act()
        if t is not None and t == seat:
            self.mine = True
        self.options = g.options()
        w = g.winner()
        if w is not None:
            self.winner = w
        self.legal = g.legal_run(seat, hand)   # a Legal: no list of every bid
        if g.name == "dixmille":  # every die public, nobody drops out
            self.bids = []
            self.scores = list(g.scores)
            self.crosses = list(g.crosses)
            self.opened = [g.is_open(s) for s in range(n)]
            self.turn_total = g.total
            self.roll = unpack(g.roll)
            self.left = g.left
            return
        dice = g.dice
        if 0 in dice:
            self.eliminated = [s for s in range(n) if not dice[s]]
        self.round = g.round
        self.dice = list(dice)
        self.hidden = g.hidden(seat)
        if hand is not None:
            self.hand = list(hand)
        if any(g.aside):
            self.aside = [unpack(a) for a in g.aside]
        b = g.bid
        if b:
            self.bid = (b >> 3, b & 7)
        self.bidder = g.bidder
        self.bids = g.history()
        if g.special:
            self.special = g.SPECIAL_NAME
        if self.need == REVEAL:
            self.caller = g.caller
            self.call = "challenge" if g.call == 1 else "exact"
        self.wild = g.wild()
        self.total = sum(dice)

    def counts(self, face):
        """The die faces that count for a bid on `face` this round, wilds included
        (as the game's `counts`); () in Dix mille."""
        if self.total is None:
            return ()
        return counting(face, self.wild)
