"""Play: every seat's action becomes an op on the master.

A cup's own action goes to the master in an ACTION frame (resent until its effect
shows); the master turns it into an op if it is the seat's turn and the action was
made on the current version (an out-of-turn exact call that lost the race is stale).
A bid may carry the reroll made right after it, so no other player can act between.
Every move a cup makes carries its vouch (net/vouch.py), copied into the op, so every
cup can check the move is that seat's own; the master vouches for its own seat's moves.
The master itself plays the seats no cup plays -- bots, away and gone players --
with the bots (dicecup/players/: a bot seat at its level, a stand-in for an away or
gone player at easy), from what those seats know (the engine's view).
"""
import struct

from ..engine import BANK_OR_ROLL, ROLL
from ..engine.actions import EXACT, kind
from . import table as tbl
from . import vouch
from . import wire
from .timing import THINK_MS


class Turns:
    def __init__(self, cup):
        self.cup = cup
        self.on = -1      # the version a stand-in bot is thinking on
        self.due = None   # when it acts
        self.callers = [] # bot seats still to be asked whether they call exact out of turn
        self.made = []    # (base version, action) of the moves this cup vouched for, the last few

    # ----- this cup's own seat ----------------------------------------------------------
    def play(self, seat, action, extra, then, then_extra):
        cup = self.cup
        if cup.is_master():
            if then is not None:
                self.act_for(seat, then, then_extra, action)
            else:
                self.act_for(seat, action, extra, None)
            return
        t = cup.table
        base = t.version
        if then is not None:   # the reroll right after the bid is the next version's move
            body = struct.pack(">I", then) + vouch.pack(self._vouch(seat, base + 1, then, then_extra)) + then_extra
            mine = vouch.pack(self._vouch(seat, base, action, b"")) + body
        else:
            mine = vouch.pack(self._vouch(seat, base, action, extra)) + extra
        cup.seat_part.send_input(wire.ACTION, (seat, action, base, mine))

    def _vouch(self, seat, base, action, extra):
        cup = self.cup
        self.made = self.made[-3:] + [(base, action)]
        return vouch.make(cup, vouch.act_message(cup.keys.tid or 0, seat, base, action, extra))

    def commit_act(self, seat, action, extra, w, mine, witness):
        """Master: an act op. `mine`: the seat's cup's vouch; for its own seat the master
        vouches now, on the version the op goes on; its bots' moves need none. A reroll's
        nonce w comes with its `witness` (member, roll id, vouch); none given: ours."""
        cup = self.cup
        t = cup.table
        if mine is None:
            mine = self._vouch(seat, t.version, action, extra) if t.seats[seat] == cup.me else b""
        if w and witness is None:
            witness = (cup.me, cup.rolls.witness_vouch(extra[:12], w))
        cup.sync.commit(tbl.op_act(seat, action, w + extra, mine, witness if w else None))

    # ----- the master -------------------------------------------------------------------
    def act_for(self, seat, action, extra, bid):
        """Master: an action for a seat it plays or holds; a reroll waits for a witness
        (with the bid it was made with, if any)."""
        cup = self.cup
        try:
            if kind(action) == "reroll":
                if not extra:
                    if seat not in cup.hidden.held_roots():
                        raise tbl.OpError("reroll-not-allowed")
                    extra = cup.hidden.reroll_for_held(seat, action)
                cup.rolls.reroll(seat, action, extra, bid)
            else:
                self.commit_act(seat, action, b"", b"", None, None)
        except tbl.OpError as e:
            cup.rejected(seat, action, str(e).split(": ")[-1])

    def on_action(self, src, f):
        cup = self.cup
        if not cup.is_master():
            return
        seat, action, base, extra = f.body
        mine, extra = vouch.split(extra)
        t = cup.table
        if seat >= len(t.seats) or t.seats[seat] != f.sender or t.game is None:
            cup.send(src, wire.REJECT, (base, b"not-your-seat"))
            return "not-your-seat"
        if base != t.version:
            # a later copy of an action already applied, or a call that lost the race
            for v, _, _, op in cup.sync.ops(base + 1):
                if op[:6] == tbl.op_act(seat, action)[:6] and op[7:7 + len(mine)] == mine:
                    return
            if kind(action) == "exact":
                cup.counts["races"] += 1
            cup.send(src, wire.REJECT, (base, b"stale"))
            return
        if cup.rolls.busy():
            return  # a reroll of the last bet waits for its witness: it came first
        then = None
        if kind(action) == "bid" and len(extra) >= 4:  # a bid with the reroll right after it
            then = struct.unpack(">I", extra[:4])[0]
            theirs, rextra = vouch.split(extra[4:])
            extra = b""
        member = t.seats[seat]
        why = vouch.check(cup, member, vouch.act_message(cup.keys.tid or 0, seat, base, action, extra), mine)
        if why is None and then is not None:
            why = vouch.check(cup, member, vouch.act_message(cup.keys.tid or 0, seat, base + 1, then, rextra), theirs)
        if why is not None:
            cup.send(src, wire.REJECT, (base, b"unvouched"))
            return "unvouched"
        try:
            self.commit_act(seat, action, extra, self._witness(action), mine, None)
            if then is not None:
                self.commit_act(seat, then, rextra, self._witness(then), theirs, None)
        except tbl.OpError as e:
            code = str(e).split(": ")[-1]
            cup.counts["rejects"] += 1
            cup.send(src, wire.REJECT, (base, code.encode()[:40]))

    def _witness(self, action):
        """A cup's reroll gets the master's fresh nonce as its witness (the master has
        no dice in that roll)."""
        return self.cup.random_bytes(16) if kind(action) == "reroll" else b""

    def master_tick(self, now):
        """The master's bots play the seats no cup plays: the seat on turn, and, while a
        bid stands where the rules let anyone call exact (Menteur's tout pile, Perudo's
        calza_anyone), each other bot seat is asked once per move whether it calls, in
        turn order after the seat on turn, after the same pause."""
        cup = self.cup
        t = cup.table
        g = t.game
        if g is None or t.phase != tbl.PLAYING or cup.rolls.busy():
            return None
        seat = g.to_act()
        if seat is None:
            return None
        if self.on != t.version:
            self.on = t.version
            self.due = now + THINK_MS
            self.callers = self._callers(g, t, seat)
        mine = t.bot_plays(seat)
        if not mine and not self.callers:
            return None
        if self.due is None or now < self.due:
            return self.due
        from .. import players      # (here: a table with no bot seat never loads the bots)
        if self.callers:
            callers, self.callers = self.callers, []
            for s in callers:
                v = g.view(s, cup.hidden.held_hand(s))
                if EXACT in v.legal and players.get(t.member_of(s).level()).act(v, cup.rng) == EXACT:
                    self.act_for(s, EXACT, b"", None)
                    return now
            if not mine:
                return None
        self.due = now + THINK_MS  # thinks again if what it does changes nothing
        v = g.view(seat, cup.hidden.held_hand(seat))
        bots = players.get(t.member_of(seat).level())
        a = bots.act(v, cup.rng)
        if a is None:
            return self.due
        if kind(a) == "roll":
            if g.need() in (ROLL, BANK_OR_ROLL):
                cup.rolls.start(seat, cup.random_bytes(16), False)
            return now
        then = bots.reroll(v, a, cup.rng) if kind(a) == "bid" and seat in cup.hidden.held_roots() else None
        if then is not None:
            self.act_for(seat, then, b"", a)
        else:
            self.act_for(seat, a, b"", None)
        return now

    @staticmethod
    def _callers(g, t, seat):
        """The bot seats other than `seat` that may call exact out of turn now."""
        if not getattr(g, "bid", 0):
            return []
        n = len(t.seats)
        out = []
        for i in range(1, n):
            s = (seat + i) % n
            if t.bot_plays(s) and g.dice[s] and EXACT in g.legal_run(s):
                out.append(s)
        return out

    def on_auto(self, src, f):
        """Master: a cup says its own bot plays its seat now (or its player again)."""
        cup = self.cup
        if not cup.is_master():
            return
        mid, on = f.body
        t = cup.table
        if mid != f.sender or mid >= len(t.members):
            return "not-your-seat"
        flags = t.members[mid].flags
        want = flags | tbl.AUTO if on else flags & ~tbl.AUTO
        if want != flags:
            cup.sync.commit(tbl.op_flags(mid, want))
