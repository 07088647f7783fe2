"""What the four bluffing games share: seats, dice counts, turns, bids, the call, settling.

The master never holds anyone's hidden dice: a round starts with `start_round()` (the
cups have rolled), bids move the turn on, a challenge or exact call moves the game to
REVEAL, and `settle(hands)` takes the revealed dice and applies the losses. The
round's bids are kept in order (`history()` names the bidders). Each
rule set says how bids rank, which face is wild, and who loses and opens (`_resolve`).
"""
import sys

from micropython import const

from . import option_bits
from .actions import CHALLENGE, EXACT, MAX_QUANTITY, pack, unpack
from .codec import BadState, Reader, Writer
from .errors import IllegalAction
from .legal import Legal
from .need import BIDDING as NEEDS, counting

ROLL = const(0)    # waiting for every cup to roll (shake) for the round
BID = const(1)     # the seat on turn bids or calls
REVEAL = const(2)  # a call stands: waiting for the cups to reveal
OVER = const(3)    # one seat alone holds dice

NORMAL = const(0)
SPECIAL = const(1)  # perudo palifico, menteur one-die round

_START_DICE = const(5)
_FORMAT = const(1)   # serialised state format, in the first byte's high nibble

_PHASES = const(("roll", "bid", "reveal", "over"))
_FACES = {1, 2, 3, 4, 5, 6}
_new = object.__new__
_UPY = sys.implementation.name == "micropython"


def _table(size):
    """Zeros, a table by bid (a bid fits a byte, so does each entry): on a cup a
    bytearray of `size`, the bids up to the dice on the table (128 B at 15 dice, made
    anew each round a die is lost: a smaller block each time, which a fragmented heap
    still has); on CPython a list of 256, which an index reads in one specialised step
    (a bytearray's item goes through the generic lookup)."""
    return bytearray(size) if _UPY else [0] * 256


def _nonzero(src, keep):
    """The nonzero bytes of `src` that `keep` accepts (all when None), in order, as a
    bytearray of just their number: no list on the way (at a 30-dice table a list of
    the ladder is the 1 KB block a fragmented ESP32 heap no longer has)."""
    n = 0
    for x in src:
        if x and (keep is None or keep(x)):
            n += 1
    out = bytearray(n)
    i = 0
    for x in src:
        if x and (keep is None or keep(x)):
            out[i] = x
            i += 1
    return out


class Bidding:
    """Base of bluff, perudo, menteur and liars; not a rule set by itself."""

    name = ""
    code = 0          # rule-set number in serialised states
    OPTIONS = ()      # (name, choices): choices[0] is the default
    FACES = (1, 2, 3, 4, 5, 6)
    SPECIAL_NAME = None
    WILD = None           # the face wild for number bids in a normal round, if any
    CONSTRAINED = False   # some rounds allow fewer bids than the ranking (perudo)
    EXACT = False         # the rule set has an exact call at all
    EXACT_BIT = 0         # ... only with these option bits (liars: spot_on)
    _cache = None          # class-wide cache of one round's ladder (see _ladder_for)
    # The state, set on the instance by __init__, copy() and loads() (_restore) alike
    # -- no class defaults: each would be a slot in the class's table, which grew to a
    # 776 B block as a rule set loaded at a game's start, the block a fragmented cup's
    # heap no longer had:
    #   opts      option bits            round   the round number (from 1)
    #   phase     ROLL, BID, REVEAL, OVER special NORMAL or SPECIAL (a palifico round)
    #   bid       standing bid as an action int, 0 for none; bidder who made it (-1)
    #   rerolled  bluff: the bettor rerolled after the standing bid
    #   caller    REVEAL: who called (-1), and how (call)
    #   used      perudo: bitmask of seats that had their palifico
    #   gone      REVEAL: bitmask of seats that forfeited this round
    #   hist      this round's bids, newest first as a chain of pairs (earlier bids,
    #             bid): a bid adds one small tuple, no copy of the bids before it
    #             (_said() reads them out in order)
    #   _act      to_act(): `turn` while bidding, else None (kept with turn and phase)
    #   _lad      this round's ladder, _ladder_for's tuple (derived, not serialised)
    opening = ()           # events of the opener draw (not serialised; bluff's roll-off)

    def __init__(self, seats, options=None, opener=None, rng=None):
        if type(seats) is not int or not 2 <= seats <= 6:
            raise ValueError("%s needs 2 to 6 seats" % self.name)
        self.n = seats
        self.dice = [_START_DICE] * seats
        self.aside = [0] * seats   # bluff: packed faces set aside (face up)
        self.phase = self.bid = self.opts = self.rerolled = self.special = self.used = self.gone = self.call = 0
        self.bidder = self.caller = -1
        self.hist = ()
        self._act = None
        self.round = 1
        self.opening = ()
        if options:
            self._set_options(options)
        # the ladder cached on the class, when it is a new table's (_ladder_for's key):
        # then a new game's first legal() makes no call for it
        L = self._cache
        self._lad = L if L is not None and L[7] == self.opts << 8 | _START_DICE * seats else None
        if opener is None:
            if rng is None:
                raise ValueError("give an opener or an rng to draw one")
            opener = self._draw_opener(rng)
        if type(opener) is not int or not 0 <= opener < seats:
            raise ValueError("opener must be a seat number")
        self.turn = opener
        self.opener = opener       # who opens the round in progress (for a replay)

    # ----- options -----------------------------------------------------------------
    def _set_options(self, options):
        self.opts = option_bits(self.name, options)

    def option(self, name):
        bit = 1
        for oname, choices in self.OPTIONS:
            if oname == name:
                return choices[1] if self.opts & bit else choices[0]
            bit <<= 1
        raise KeyError(name)

    def options(self):
        """All options with their values, defaults included (a list of pairs)."""
        return [(o[0], self.option(o[0])) for o in self.OPTIONS]

    def _draw_opener(self, rng):
        return rng.randrange(self.n)

    # ----- questions ---------------------------------------------------------------
    def to_act(self):
        """The seat that must act now, or None (everyone rolls / reveals, or game over)."""
        return self._act

    def need(self):
        """What must happen now: SHAKE, BID, REVEAL or OVER (see need.py)."""
        return NEEDS[self.phase]

    def roll_size(self, seat):
        """Dice the seat's next roll uses: all its dice at the shake, else those still
        under its cup (a Bluff reroll)."""
        return self.dice[seat] if self.phase == ROLL else self.hidden(seat)

    def view(self, seat, hand=None):
        """What `seat` knows now (a View, built on demand); `hand`: its hidden dice."""
        from .view import View
        return View(self, seat, hand)

    def winner(self):
        if self.phase != OVER:
            return None
        for s in range(self.n):
            if self.dice[s]:
                return s
        return None

    def hidden(self, seat):
        """Dice still under the seat's cup (bluff's set-aside dice are face up)."""
        a = self.aside[seat]
        return self.dice[seat] - (len(unpack(a)) if a else 0)

    def next_active(self, seat, also):
        """The next seat after `seat` holding dice (or in the bitmask `also`), or -1."""
        n = self.n
        for i in range(1, n + 1):
            t = (seat + i) % n
            if self.dice[t] or also >> t & 1:
                return t
        return -1

    def history(self):
        """This round's bids in order, as (seat, q, f). Only the seat on turn bids and
        nobody drops out before the call (a forfeit at the reveal is kept in `gone`),
        so the bidders follow from the opener: each bid is by the next seat after the
        one before; a Bluff reroll does not move the turn."""
        out = []
        s = self.opener
        for b in self._said():
            out.append((s, b >> 3, b & 7))
            s = self.next_active(s, self.gone)
        return out

    def _said(self):
        """This round's bids in order, one byte each (q << 3 | f)."""
        out = []
        h = self.hist
        while h:
            h, b = h
            out.append(b)
        out.reverse()
        return bytes(out)

    def total(self):
        return sum(self.dice)

    # ----- bids ranking (rule sets override rank, WILD) ----------------------------
    def rank(self, q, f):
        return q << 3 | f

    def _constrained(self):
        """True when this round allows fewer bids than the ranking does."""
        return False

    def _bid_error(self, q, f):
        """(code, message) when a bid that outranks is still not allowed, else None."""
        return None if self.bid else self._opening_error(q, f)

    def _opening_error(self, q, f):
        """(code, message) when a round may not be opened with this bid, else None."""
        return None

    def _ladder_for(self):
        """The round's ladder as one tuple (L): L[0] all bids up to the dice on the
        table, lowest rank first; L[1] by bid (a _table: a bid fits a byte)
        its place in L[0] plus one, 0 = not on the ladder -- so also where the bids
        above it start; L[2] the bids that may open; L[3] L[0] as a list ending in
        CHALLENGE (what legal() slices: a list slice is a copy in C; None on a cup, whose
        legal() reads legal_run: 0.7 KB at a 30-dice table); L[4] the rule set
        is CONSTRAINED; L[5] an exact call is possible with these options; L[6] either
        (the list after a standing bid is not simply the bids above and CHALLENGE).
        Built without sorting or dicts, and cached on the class for one table's worth
        (the dice on the table, the round's special, the options), so the cup's heap
        stays small; L[7] is that key. Stored on the game until the round ends."""
        key = self.opts << 8 | self.special << 7 | sum(self.dice)
        L = self._cache
        if L is None or L[7] != key:
            cls = type(self)
            cls._cache = L = None
            top = key & 127
            size = 0
            for f in self.FACES:
                size = max(size, self.rank(top, f) + 1)
            by_rank = bytearray(size)  # ranks are distinct small ints
            for q in range(1, top + 1):
                for f in self.FACES:
                    by_rank[self.rank(q, f)] = q << 3 | f
            lad = _nonzero(by_rank, None)    # a bid fits a byte: a quarter of a list
            by_rank = None
            after = _table((top + 1) << 3)
            for i in range(len(lad)):
                after[lad[i]] = i + 1
            ll = None
            if not _UPY:          # for legal()'s slices (a search's); a cup's legal() needs none
                ll = list(lad)
                ll.append(CHALLENGE)  # after any bid: so the slice is the whole answer
            con = self.CONSTRAINED
            ex = self.EXACT and self.opts & self.EXACT_BIT == self.EXACT_BIT
            L = cls._cache = (lad, after, _nonzero(lad, self._opens) if con else lad, ll, con, ex, con or ex, key)
        self._lad = L
        return L

    def _opens(self, x):
        return self._opening_error(x >> 3, x & 7) is None

    def _bids(self):
        """Every bid that may follow the standing one (a new list)."""
        L = self._lad or self._ladder_for()
        ladder, index = L[0], L[1]
        b = self.bid
        if not b:
            return list(L[2])
        i = index[b]
        if i:
            cand = ladder[i:]
        else:
            r = self.rank(b >> 3, b & 7)
            cand = [x for x in ladder if self.rank(x >> 3, x & 7) > r]
        if L[4] and self._constrained():
            cand = [x for x in cand if self._bid_error(x >> 3, x & 7) is None]
        return cand

    # ----- legal actions -----------------------------------------------------------
    def _may_exact(self, seat):
        """None when allowed, else the error code for an exact call by `seat`."""
        return "exact-not-allowed"

    if _UPY:
        def legal(self, seat, hand=None):
            """Actions `seat` may take now, as a list. On a cup nothing searches (bots
            read a View's legal_run), so no list of the ladder is kept for slicing."""
            return list(self.legal_run(seat, hand))
    else:
        def legal(self, seat, hand=None):
            """Actions `seat` may take now, as a list (legal_run for what a View keeps).
            The seat on turn without a hand is what a search asks thousands of times: its
            list is cut from the ladder in one step."""
            if seat == self._act and seat is not None and hand is None:  # _act None: not bidding
                L = self._lad or self._ladder_for()
                i = L[1][self.bid]
                if i and not L[6]:  # the bids above the standing one, then CHALLENGE
                    return L[3][i:]
                if not self.bid:
                    return L[3][:-1] if L[2] is L[0] else list(L[2])
                if i:
                    if not (L[4] and self._constrained()):
                        out = L[3][i:]
                        if L[5] and self._may_exact(seat) is None:
                            out.append(EXACT)
                        return out
            return list(self.legal_run(seat, hand))

    def copy(self):
        """An independent copy of the game (what a search does per decision): faster
        than loads(dumps()). Each state attribute is stored by name: no __dict__ (on
        CPython an instance whose dict was taken reads slower after, and a setattr loop
        costs a call per attribute), and __init__ sets them all on the instance, so none
        is looked up on the class. The engine never changes dice, aside or hist in place
        (it replaces them), and the derived ladder is never changed, so a copy and its
        original share them all."""
        g = _new(type(self))
        g.n = self.n
        g.dice = self.dice
        g.aside = self.aside
        g.turn = self.turn
        g.opener = self.opener
        g.phase = self.phase
        g._act = self._act
        g.bid = self.bid
        g.hist = self.hist
        g.bidder = self.bidder
        g._lad = self._lad
        g.opts = self.opts
        g.round = self.round
        g.special = self.special
        g.rerolled = self.rerolled
        g.caller = self.caller
        g.call = self.call
        g.used = self.used
        g.gone = self.gone
        g.opening = self.opening
        return g

    def legal_run(self, seat, hand=None):
        """Actions `seat` may take now, as a Legal (engine/legal.py): the bids a run of
        the round's ladder, not a list of them. Bids go up to the dice on the table
        (higher ones are accepted too but can never be true). Bluff rerolls are listed
        only when the seat's own hidden `hand` is given, since the engine never sees it."""
        extra = []
        if self.phase != BID or not self.dice[seat]:
            return Legal(b"", 0, 0, extra)
        b = self.bid
        lad = b""
        start = stop = 0
        index = None
        if seat == self.turn:
            L = self._lad or self._ladder_for()
            ladder, idx = L[0], L[1]
            if not b:
                lad = L[2]
                stop = len(lad)
                index = idx if lad is ladder else None
            elif idx[b] and not (L[4] and self._constrained()):
                lad, start, stop, index = ladder, idx[b], len(ladder), idx
            else:
                lad = bytes(self._bids())
                stop = len(lad)
            if b:
                extra.append(CHALLENGE)
        if b and self.EXACT and self._may_exact(seat) is None:
            extra.append(EXACT)
        if hand is not None and self._may_reroll(seat) is None:
            seen = {}
            h = len(hand)
            for m in range(1, (1 << h) - 1):
                p = pack([hand[i] for i in range(h) if m >> i & 1])
                if p not in seen:
                    seen[p] = 1
                    extra.append(0x30000 | p)
        return Legal(lad, start, stop, extra, index)

    # ----- apply -------------------------------------------------------------------
    def apply(self, seat, action):
        """Apply `seat`'s action; returns public events. Raises IllegalAction, state kept."""
        # `is`: the seat on turn is a small int, so a bool or an int subclass is not it
        # (and _act is None when nobody bids)
        if seat is self._act and seat is not None and type(action) is int:
            b = self.bid
            # the common cases first: a bid on the round's ladder above the standing
            # one, and the challenge of a standing bid by the seat on turn
            L = self._lad
            if action > 7 and L is not None and not L[4]:
                idx = L[1]
                try:
                    i = idx[action]
                except IndexError:  # above the table: not a bid on this ladder
                    i = 0
                if i and (not b or 0 < idx[b] < i):
                    self.bid = action
                    self.hist = (self.hist, action)  # a new pair: copies share the old one
                    self.bidder = seat
                    if self.rerolled:
                        self.rerolled = 0
                    t = seat + 1
                    if t == self.n:
                        t = 0
                    if not self.dice[t]:
                        t = self.next_active(seat, 0)
                    self.turn = self._act = t
                    return [("bid", seat, action >> 3, action & 7)]
            elif action == CHALLENGE and b and self.dice[seat]:
                self.phase = REVEAL
                self._act = None
                self.caller = seat
                self.call = CHALLENGE
                return [("challenge", seat)]
            if 8 <= action < 0x10000:
                return self._apply_bid(seat, action >> 3, action & 7)
        if self.phase == OVER or type(seat) is not int or type(action) is not int or not 0 <= seat < self.n:
            self._reject(seat, action)
        if 8 <= action < 0x10000:
            return self._apply_bid(seat, action >> 3, action & 7)
        if action == CHALLENGE:
            return self._apply_call(seat, CHALLENGE)
        if action == EXACT:
            return self._apply_call(seat, EXACT)
        if action >> 16 == 3:
            return self._apply_reroll(seat, unpack(action & 0x7FFF))
        raise IllegalAction("unknown-action", "%s has no action %r" % (self.name, action), seat)

    def _reject(self, seat, action):
        if self.phase == OVER:
            raise IllegalAction("game-over", "the game is over", seat)
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalAction("not-your-turn", "no such seat %r" % (seat,), -1)
        raise IllegalAction("unknown-action", "an action is an int, not %r" % (action,), seat)

    def _on_turn(self, seat):
        if self.phase != BID:
            raise IllegalAction("wrong-phase", "no bidding now: waiting for the %s" % _PHASES[self.phase], seat)
        if not self.dice[seat]:
            raise IllegalAction("eliminated", "seat %d has no dice left" % seat, seat)
        if seat != self.turn:
            raise IllegalAction("not-your-turn", "seat %d acts, not seat %d" % (self.turn, seat), seat)

    def _apply_bid(self, seat, q, f):
        if self.phase != BID or seat != self.turn or not self.dice[seat]:
            self._on_turn(seat)
        if not 1 <= q <= MAX_QUANTITY:
            raise IllegalAction("bad-quantity", "quantity %d is not 1..%d" % (q, MAX_QUANTITY), seat)
        if not 1 <= f <= 6:
            raise IllegalAction("bad-face", "face %d cannot be bid in %s" % (f, self.name), seat)
        b = self.bid
        if b:
            index = (self._lad or self._ladder_for())[1]
            new = q << 3 | f
            if new < len(index) and index[new] and index[b]:
                low = index[new] <= index[b]  # same order as rank, looked up
            else:
                low = self.rank(q, f) <= self.rank(b >> 3, b & 7)
            if low:
                raise IllegalAction("bid-too-low", "%dx%d does not beat %dx%d" % (q, f, b >> 3, b & 7), seat)
        if self.CONSTRAINED:
            err = self._bid_error(q, f)
            if err is not None:
                raise IllegalAction(err[0], err[1], seat)
        self.bid = q << 3 | f
        self.hist = (self.hist, self.bid)
        self.bidder = seat
        self.rerolled = 0
        t = seat + 1
        self.turn = self._act = t if t < self.n and self.dice[t] else self.next_active(seat, 0)
        return [("bid", seat, q, f)]

    def _apply_call(self, seat, call):
        if call == CHALLENGE:
            self._on_turn(seat)
        else:
            if self.phase != BID:
                raise IllegalAction("wrong-phase", "no call now: waiting for the %s" % _PHASES[self.phase], seat)
            if not self.dice[seat]:
                raise IllegalAction("eliminated", "seat %d has no dice left" % seat, seat)
        if not self.bid:
            raise IllegalAction("no-bid", "there is no bid to call", seat)
        if call == EXACT:
            err = self._may_exact(seat)
            if err is not None:
                raise IllegalAction(err, "seat %d may not call exact now" % seat, seat)
        self.phase = REVEAL
        self._act = None
        self.caller = seat
        self.call = call
        return [("challenge" if call == CHALLENGE else "exact", seat)]

    def _may_reroll(self, seat):
        return "reroll-not-allowed"

    def _apply_reroll(self, seat, faces):
        err = self._may_reroll(seat)
        if err is not None:
            raise IllegalAction(err, "seat %d may not reroll now" % seat, seat)
        hidden = self.hidden(seat)
        if not faces or len(faces) >= hidden or len(unpack(self.aside[seat])) + len(faces) > 5:
            raise IllegalAction("reroll-count", "set aside 1..%d of %d hidden dice" % (hidden - 1, hidden), seat)
        for f in faces:
            if not 1 <= f <= 6:
                raise IllegalAction("bad-face", "face %d is not 1..6" % f, seat)
        aside = list(self.aside)  # replaced, not changed: copies share it
        aside[seat] = pack(unpack(aside[seat]) + faces)
        self.aside = aside
        self.rerolled = 1
        return [("reroll", seat, faces, hidden - len(faces))]

    # ----- rounds ------------------------------------------------------------------
    def start_round(self):
        """Every cup has rolled: bidding opens. Returns events."""
        if self.phase != ROLL:
            raise IllegalAction("wrong-phase", "a round is already under way", -1)
        self.phase = BID
        self.opener = self._act = self.turn
        return [("rolled", self.round, self.turn)]

    def restart_round(self):
        """Replay the round in progress with fresh rolls, same opener: for a reveal that
        never came, or a master that died mid-round. Nothing else changes."""
        if self.phase not in (BID, REVEAL):
            raise IllegalAction("wrong-phase", "no round in progress", -1)
        self.phase = ROLL
        self._act = None
        self._clear()
        self.turn = self.opener if self.dice[self.opener] else self.next_active(self.opener, 0)
        return [("replay", self.round, self.turn)]

    def forfeit(self, seat):
        """A cup whose reveal does not match its commitment loses all its dice; the
        round is then settled without them (their hand is [])."""
        if self.phase != REVEAL:
            raise IllegalAction("wrong-phase", "forfeits happen at the reveal", seat)
        lost = self.dice[seat]
        self.dice = list(self.dice)  # replaced, not changed: copies share them
        self.dice[seat] = 0
        self.aside = list(self.aside)
        self.aside[seat] = 0
        if lost:
            self.gone |= 1 << seat
        events = [("forfeit", seat, lost)]
        alive = self.n - self.dice.count(0)
        if alive <= 1:
            self.phase = OVER
            self.special = NORMAL
            self.turn = -1
            self._clear()
            self.round += 1
            if alive:
                events.append(("win", self.winner()))
        return events

    def check_hand(self, seat, faces):
        """Raise unless `faces` fits what `seat` holds hidden (count and faces 1..6)."""
        if len(faces) != self.hidden(seat):
            raise IllegalAction("dice-count", "seat %d holds %d dice, not %d" % (seat, self.hidden(seat), len(faces)), seat)
        for f in faces:
            if type(f) is not int or not 1 <= f <= 6:
                raise IllegalAction("bad-face", "face %r is not 1..6" % (f,), seat)

    def count(self, hands):
        """Dice on the whole table matching the standing bid (set-aside dice included).
        Raises IllegalAction when a hand does not fit what its seat holds."""
        dice = self.dice
        aside = self.aside
        f = self.bid & 7
        w = self.WILD
        w = 0 if self.special or w == f else w or 0  # as counts(f)
        n = 0
        faces = _FACES.issuperset
        try:
            for s in range(self.n):
                h = hands[s]
                # every die a face 1..6 in one C call (TypeError: an unhashable die)
                if aside[s] or len(h) != dice[s] or not faces(h):
                    self.check_hand(s, h)  # raises unless only dice are set aside
                    for d in unpack(aside[s]):
                        if d == f or d == w:
                            n += 1
                n += h.count(f) + h.count(w) if w else h.count(f)
        except TypeError:
            for s in range(self.n):
                self.check_hand(s, hands[s])
            raise
        return n

    def wild(self):
        """The face wild for number bids this round, or None (none, or a special round)."""
        return None if self.special else self.WILD

    def counts(self, face):
        """The die faces that count for a bid on `face` this round (wilds included)."""
        return counting(face, self.wild())

    counted = counts  # the older name

    def settle(self, hands):
        """Take every seat's revealed hidden dice (a list per seat, [] for none) and end
        the round: losses, gains, eliminations, the next opener. Returns events."""
        if self.phase != REVEAL:
            raise IllegalAction("wrong-phase", "no call to settle", -1)
        if len(hands) != self.n:
            raise IllegalAction("dice-count", "one hand per seat needed", -1)
        b = self.bid
        # count() inline for the common case (a call less per round): nothing set
        # aside, each hand its seat's dice of faces 1..6; else count() checks and counts
        f = b & 7
        w = self.WILD or 0
        if self.special or w == f:
            w = 0
        dice = self.dice
        aside = self.aside
        n = s = 0
        try:
            for h in hands:
                if aside[s] or len(h) != dice[s] or not _FACES.issuperset(h):
                    n = -1
                    break
                n += h.count(f) + h.count(w) if w else h.count(f)
                s += 1
        except TypeError:
            n = -1
        if n < 0:
            n = self.count(hands)
        changes, opener = self._resolve(n)
        return self._end_round(changes, opener, [("reveal", b >> 3, f, n)])

    def withheld(self, seats):
        """End the round without a count: the cups of `seats` never revealed after a
        certified call (net/hidden.py), so each loses the round as a challenge's loser
        would (its loss, `_loss`), and the first of them opens the next round."""
        if self.phase != REVEAL:
            raise IllegalAction("wrong-phase", "no call to settle", -1)
        if not seats:
            raise IllegalAction("no-seat", "no seat withheld", -1)
        deltas = [0] * self.n
        events = []
        for s in seats:
            if not 0 <= s < self.n or not self.dice[s]:
                raise IllegalAction("no-seat", "seat %d holds no dice" % s, s)
            deltas[s] += self._loss(s)[0][1]
            events.append(("withheld", s))
        return self._end_round([(s, deltas[s]) for s in range(self.n) if deltas[s]], seats[0], events)

    def _loss(self, seat):
        """What a round's loser loses, as _resolve's changes: one die, by default."""
        return ((seat, -1),)

    def _end_round(self, changes, opener, events):
        """`changes`: (seat, dice gained or lost) pairs in seat order, only for the
        seats whose dice change (mostly one: no pass over every seat)."""
        reduced = None
        dice = self.dice = list(self.dice)  # replaced, not changed: copies share it
        out = 0
        for s, d in changes:
            before = dice[s]
            after = before + d
            if after > _START_DICE:
                after = _START_DICE
            elif after < 0:
                after = 0
            if after < before:
                dice[s] = after
                events.append(("lose", s, before - after))
                if after == 1:
                    if reduced is None:
                        reduced = []
                    reduced.append(s)
                elif not after:
                    out = 1
                    events.append(("out", s))
            elif after > before:
                dice[s] = after
                events.append(("gain", s, after - before))
        # _clear() inline (a call less per round), and the round's ladder dropped
        self.bid = self.call = 0
        self.bidder = self.caller = -1
        self.hist = ()
        if self.rerolled:
            self.rerolled = 0
        if self.gone:
            self.gone = 0
        if self.aside.count(0) != self.n:
            self.aside = [0] * self.n
        self._lad = None
        self.round += 1
        # a call stands only while two seats or more hold dice: unless one went out,
        # the game goes on, and only _next_special asks how many are left
        if out or reduced:
            alive = len(dice) - dice.count(0)
            if alive <= 1:
                self.phase = OVER
                self.special = NORMAL
                self.turn = -1
                if alive:
                    events.append(("win", self.winner()))
                return events
        if not dice[opener]:
            opener = self.next_active(opener, 0)
        self.turn = opener
        sp = self._next_special(reduced, alive) if reduced else NORMAL
        if sp != self.special:  # mostly the class default: no store
            self.special = sp
        self.phase = ROLL
        events.append(("round", self.round, opener, self.SPECIAL_NAME if sp else None))
        return events

    def _clear(self):
        """Forget the round's bids and call: the round ended or is replayed."""
        self.bid = 0
        self.bidder = -1
        self.caller = -1
        self.call = 0
        self.hist = ()
        if self.rerolled:  # mostly already 0: no store
            self.rerolled = 0
        if self.gone:
            self.gone = 0
        if self.aside.count(0) != self.n:
            self.aside = [0] * self.n

    def _next_special(self, reduced, alive):
        return NORMAL

    def _resolve(self, count):
        """(changes, next opener) for the standing call: changes as (seat, dice
        gained or lost) pairs, in seat order (see _end_round)."""
        raise NotImplementedError

    # ----- the state as data -------------------------------------------------------
    def public(self):
        """The public state as plain data (the scenario output's fields, by seat)."""
        b = self.bid
        return {
            "dice": list(self.dice),
            "eliminated": [s for s in range(self.n) if not self.dice[s]],
            "winner": self.winner(),
            "round": self.round,
            "turn": None if self.phase == OVER else self.turn,
            "bid": [b >> 3, b & 7] if b else None,
            "special": self.SPECIAL_NAME if self.special else None,
            "phase": _PHASES[self.phase],
            "aside": [unpack(a) for a in self.aside],
        }

    def dumps(self):
        w = Writer()
        w.byte(_FORMAT << 4 | self.code)
        w.byte(self.opts)
        aside = any(self.aside)
        w.byte(self.n | self.phase << 3 | self.special << 5 | self.rerolled << 6 | (0x80 if aside else 0))
        w.uvar(self.round)
        hist = self.hist and self._said()
        w.byte((self.turn & 7) | (self.bidder & 7) << 3 | (0x40 if hist else 0) | (0x80 if self.gone else 0))
        w.byte((self.caller & 7) | self.call << 3 | (self.opener & 7) << 5)
        w.byte(self.bid)
        w.bits(self.dice, 3)
        w.byte(self.used)
        if aside:
            for a in self.aside:
                w.uvar(a)
        if self.gone:
            w.byte(self.gone)
        if hist:  # the round's bids, one byte each
            w.uvar(len(hist))
            w.buf.extend(hist)
        return bytes(w.buf)

    def _restore(self, r):
        self._lad = None
        self.opts = r.byte()
        if self.opts >> len(self.OPTIONS):
            raise BadState("unknown option bits")
        b = r.byte()
        n = b & 7
        if n != self.n:
            raise BadState("seat count mismatch")
        self.phase = b >> 3 & 3
        self.special = b >> 5 & 1
        self.rerolled = b >> 6 & 1
        self.round = r.uvar()
        t = r.byte()
        self.turn = -1 if t & 7 == 7 else t & 7
        self.bidder = -1 if t >> 3 & 7 == 7 else t >> 3 & 7
        c = r.byte()
        self.caller = -1 if c & 7 == 7 else c & 7
        self.call = c >> 3 & 3
        self.opener = c >> 5 & 7
        self.bid = r.byte()
        self.dice = r.bits(n, 3)
        self.used = r.byte()
        if b & 0x80:
            self.aside = [r.uvar() for _ in range(n)]
        self.gone = r.byte() if t & 0x80 else 0
        self.hist = ()
        if t & 0x40:
            for b in r.raw(r.uvar()):
                self.hist = (self.hist, b)
        r.end()
        self._validate()
        self._act = self.turn if self.phase == BID else None

    def _validate(self):
        n = self.n
        ok = self.round >= 1 and all(0 <= d <= _START_DICE for d in self.dice)
        ok = ok and all(len(unpack(a)) <= self.dice[i] and 0 <= a < 0x8000 for i, a in enumerate(self.aside))
        if self.phase != OVER:
            ok = ok and 0 <= self.turn < n and self.opener < n
            # the seat on turn holds dice (at the reveal it may have forfeited them)
            ok = ok and (self.dice[self.turn] > 0 or self.gone >> self.turn & 1)
        if self.bid:
            ok = ok and 1 <= self.bid >> 3 <= MAX_QUANTITY and 1 <= self.bid & 7 <= 6 and 0 <= self.bidder < n
        if self.phase == REVEAL:
            ok = ok and self.bid and 0 <= self.caller < n and self.call in (CHALLENGE, EXACT)
        else:
            ok = ok and not self.gone
        hist = self._said()
        # the bids so far end in the standing one, by the standing bidder
        ok = ok and (not hist) == (not self.bid) and self.gone < 1 << n
        if ok and hist:
            ok = hist[-1] == self.bid and self.history()[-1][0] == self.bidder
            for x in hist:
                ok = ok and 1 <= x >> 3 <= MAX_QUANTITY and 1 <= x & 7 <= 6
        for s in range(n):
            ok = ok and not (self.gone >> s & 1 and self.dice[s])
        if not ok:
            raise BadState("inconsistent state")
