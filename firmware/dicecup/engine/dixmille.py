"""Dix mille (10,000): press your luck with five public dice.

Each roll must be answered by one keep of scoring dice from that roll; then bank or roll
what is left. Opening at 500, crosses for busts, exactly 10,000 to win.
"""
from micropython import const

from .actions import BANK, ROLL_ANY, pack, unpack
from .codec import BadState, Reader, Writer
from .errors import IllegalAction
from .need import DIXMILLE as NEEDS
from . import option_bits, options_of

ROLL = const(0)     # the player on turn must roll
KEEP = const(1)     # must keep scoring dice from the roll
_CHOOSE = const(2)   # bank, or roll the dice not yet kept
OVER = const(3)

_GOAL = const(10000)
_OPENING = const(500)
_CROSS_PENALTY = const(1000)
_OVERSHOOT_PENALTY = const(2000)
_FORMAT = const(1)
_PHASES = const(("roll", "keep", "choose", "over"))


def _kind(face, n):
    """Three, four, five of a kind: base, base x1.5, base x2."""
    base = 1000 if face == 1 else face * 100
    return (base, base * 3 // 2, base * 2)[n - 3]


def score(faces):
    """Points for dice kept from one roll, split the best way into combinations;
    None when some die is not part of any combination."""
    counts = [0] * 7
    for f in faces:
        counts[f] += 1
    return score_counts(counts, len(faces))


def score_counts(counts, n):
    """`score` for a kept set given as dice per face (index 1..6) and its size n."""
    if n == 5 and max(counts) == 1 and (counts[1] == 0 or counts[6] == 0):
        return 1000  # a straight: 1-2-3-4-5 or 2-3-4-5-6 (the only split of those dice)
    total = 0
    for face in range(1, 7):
        c = counts[face]
        if not c:
            continue
        single = 100 if face == 1 else 50 if face == 5 else 0
        best = c * single if single else -1
        for k in range(3, c + 1):
            v = _kind(face, k) + (c - k) * single
            if (single or k == c) and v > best:
                best = v
        if best < 0:
            return None
        total += best
    return total


def scores_any(faces):
    """Whether a roll holds at least one scoring die (else it is a bust)."""
    counts = [0] * 7
    for f in faces:
        counts[f] += 1
    # every straight holds a 5, so singles and sets cover all scoring rolls
    return bool(counts[1] or counts[5] or max(counts) >= 3)


class DixMille:
    name = "dixmille"
    code = 5
    OPTIONS = options_of("dixmille")

    def __init__(self, seats, options=None, opener=None, rng=None):
        if type(seats) is not int or not 1 <= seats <= 6:
            raise ValueError("dixmille needs 1 to 6 seats")
        self.n = seats
        self.opts = option_bits("dixmille", options)
        self.scores = [0] * seats
        self.crosses = [0] * seats
        self.opened = 0
        self.phase = ROLL
        self.total = 0      # the turn total
        self.left = 5       # dice the next roll uses
        self.roll = 0       # packed faces of the roll to keep from
        self.won = -1
        self.opening = []
        if opener is None:
            if rng is None:
                raise ValueError("give an opener or an rng to draw one")
            opener = rng.randrange(seats)
        if type(opener) is not int or not 0 <= opener < seats:
            raise ValueError("opener must be a seat number")
        self.turn = opener

    def option(self, name):
        if name != "overshoot_penalty":
            raise KeyError(name)
        return bool(self.opts & 1)

    def options(self):
        return [("overshoot_penalty", self.option("overshoot_penalty"))]

    def to_act(self):
        return None if self.phase == OVER else self.turn

    def need(self):
        """What must happen now: ROLL, KEEP, BANK_OR_ROLL or OVER (see need.py)."""
        return NEEDS[self.phase]

    def roll_size(self, seat):
        """Dice the seat's next roll uses: `left` for the seat on turn, else 0."""
        return self.left if seat == self.turn and self.phase != OVER else 0

    def hidden(self, seat):
        """Every die is public: none under a cup."""
        return 0

    def wild(self):
        return None

    def counts(self, face):
        """No bids in Dix mille: no face counts for one."""
        return ()

    def view(self, seat, hand=None):
        """What `seat` knows now (a View, built on demand)."""
        from .view import View
        return View(self, seat, hand)

    def winner(self):
        return self.won if self.won >= 0 else None

    def is_open(self, seat):
        return bool(self.opened >> seat & 1)

    def legal_run(self, seat, hand=None):
        """As legal(): a Dix mille turn's choices are few (keeps of one roll, bank, roll)."""
        return self.legal(seat, hand)

    def legal(self, seat, hand=None):
        """ROLL_ANY stands for "roll": the faces come from the dice source."""
        if self.phase == OVER or seat != self.turn:
            return []
        if self.phase == ROLL:
            return [ROLL_ANY]
        if self.phase == _CHOOSE:
            if self.is_open(seat) or self.total >= _OPENING:
                return [ROLL_ANY, BANK]
            return [ROLL_ANY]
        # every distinct sub-multiset of the roll, counted face by face (odometer
        # over 0..rolled[f] per face): no lists per candidate, so the cup's heap stays flat
        rolled = [0] * 7
        for f in unpack(self.roll):
            rolled[f] += 1
        take = [0] * 7
        out = []
        while True:
            f = 1
            while f <= 6 and take[f] == rolled[f]:
                take[f] = 0
                f += 1
            if f > 6:
                return out
            take[f] += 1
            n = 0
            code = 0
            for face in range(6, 0, -1):
                for _ in range(take[face]):
                    code = code << 3 | face
                    n += 1
            if score_counts(take, n) is not None:
                out.append(0x20000 | code)

    def apply(self, seat, action):
        if self.phase == OVER:
            raise IllegalAction("game-over", "the game is over", seat)
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalAction("not-your-turn", "no such seat %r" % (seat,), -1)
        if seat != self.turn:
            raise IllegalAction("not-your-turn", "seat %d plays, not seat %d" % (self.turn, seat), seat)
        if type(action) is not int:
            raise IllegalAction("unknown-action", "an action is an int, not %r" % (action,), seat)
        k = action >> 16
        if k == 1:
            return self._roll(seat, unpack(action & 0x7FFF))
        if k == 2:
            return self._keep(seat, unpack(action & 0x7FFF))
        if action == BANK:
            return self._bank(seat)
        raise IllegalAction("unknown-action", "dixmille has no action %r" % (action,), seat)

    def _roll(self, seat, faces):
        if self.phase == KEEP:
            raise IllegalAction("keep-first", "keep scoring dice from this roll first", seat)
        if len(faces) != self.left:
            raise IllegalAction("dice-count", "roll %d dice, not %d" % (self.left, len(faces)), seat)
        for f in faces:
            if not 1 <= f <= 6:
                raise IllegalAction("bad-face", "face %d is not 1..6" % f, seat)
        events = [("roll", seat, faces)]
        if scores_any(faces):
            self.phase = KEEP
            self.roll = pack(faces)
            return events
        events.append(("bust", seat, self.total))
        if self.is_open(seat):
            self.crosses[seat] += 1
            events.append(("cross", seat, self.crosses[seat]))
            if self.crosses[seat] == 3:
                self.crosses[seat] = 0
                self.scores[seat] -= _CROSS_PENALTY
                events.append(("penalty", seat, _CROSS_PENALTY, self.scores[seat]))
        return self._next(events)

    def _keep(self, seat, faces):
        if self.phase != KEEP:
            raise IllegalAction("wrong-phase", "keep only right after a roll, once", seat)
        rolled = unpack(self.roll)
        for f in faces:
            if f in rolled:
                rolled.remove(f)
            else:
                raise IllegalAction("not-your-dice", "the roll has no other %d" % f, seat)
        points = score(faces)
        if not faces or points is None:
            raise IllegalAction("keep-not-scoring", "every kept die must score within this roll", seat)
        self.total += points
        self.left -= len(faces)
        hot = self.left == 0
        if hot:
            self.left = 5
        self.roll = 0
        events = [("keep", seat, faces, points, self.total)]
        if hot:
            events.append(("hot", seat))
        reached = self.scores[seat] + self.total
        if reached == _GOAL:
            self.scores[seat] = _GOAL
            self.opened |= 1 << seat  # 10,000 on the board: the score is open
            self.crosses[seat] = 0
            self.total = 0
            self.won = seat
            self.phase = OVER
            events.append(("win", seat))
            return events
        if reached > _GOAL:
            events.append(("overshoot", seat, self.total))
            if self.opts & 1:
                self.scores[seat] -= _OVERSHOOT_PENALTY
                events.append(("penalty", seat, _OVERSHOOT_PENALTY, self.scores[seat]))
            return self._next(events)
        self.phase = _CHOOSE
        return events

    def _bank(self, seat):
        if self.phase == KEEP:
            raise IllegalAction("keep-first", "keep scoring dice from this roll first", seat)
        if self.phase != _CHOOSE:
            raise IllegalAction("wrong-phase", "nothing to bank before rolling", seat)
        if not self.is_open(seat) and self.total < _OPENING:
            raise IllegalAction("not-open", "opening needs %d in one turn, not %d" % (_OPENING, self.total), seat)
        self.scores[seat] += self.total
        self.opened |= 1 << seat
        self.crosses[seat] = 0
        events = [("bank", seat, self.total, self.scores[seat])]
        return self._next(events)

    def _next(self, events):
        self.total = 0
        self.left = 5
        self.roll = 0
        self.phase = ROLL
        self.turn = (self.turn + 1) % self.n
        events.append(("turn", self.turn))
        return events

    def public(self):
        return {
            "scores": list(self.scores),
            "crosses": list(self.crosses),
            "opened": [self.is_open(s) for s in range(self.n)],
            "turn": None if self.phase == OVER else self.turn,
            "turn_total": self.total,
            "winner": self.winner(),
            "phase": _PHASES[self.phase],
            "roll": unpack(self.roll),
            "left": self.left,
        }

    def dumps(self):
        w = Writer()
        w.byte(_FORMAT << 4 | self.code)
        w.byte(self.opts)
        w.byte(self.n | self.phase << 3)
        w.byte((self.turn & 7) | (self.won & 7) << 3)
        for s in self.scores:
            w.svar(s)
        w.bits(self.crosses, 2)
        w.byte(self.opened)
        w.uvar(self.total)
        w.byte(self.left)
        w.uvar(self.roll)
        return bytes(w.buf)

    def _restore(self, r):
        self.opts = r.byte()
        b = r.byte()
        if b & 7 != self.n:
            raise BadState("seat count mismatch")
        self.phase = b >> 3 & 3
        t = r.byte()
        self.turn = t & 7
        self.won = -1 if t >> 3 & 7 == 7 else t >> 3 & 7
        self.scores = [r.svar() for _ in range(self.n)]
        self.crosses = r.bits(self.n, 2)
        self.opened = r.byte()
        self.total = r.uvar()
        self.left = r.byte()
        self.roll = r.uvar()
        r.end()
        ok = self.opts < 2 and self.turn < self.n and 1 <= self.left <= 5 and max(self.crosses) <= 2
        ok = ok and self.opened < 1 << self.n and self.roll < 0x8000
        ok = ok and (self.phase == OVER) == (self.won >= 0) and self.won < self.n
        if self.phase == KEEP:
            ok = ok and 0 < len(unpack(self.roll)) == self.left
        if not ok:
            raise BadState("inconsistent state")
