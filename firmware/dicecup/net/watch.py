"""Every cup watches the round for itself, so the leader cannot decide alone that a cup
was silent.

Commitments and reveals go to the whole table (broadcast), so every cup knows which it
heard. When a seat's commitment (or, after a certified call, its reveal) is late, each
cup that never heard it *attests* so to the leader (ATTEST); the leader may replay the
round (a commitment never came) or settle it with that seat losing the round (a
reveal never came) only with the attestations of enough cups to make a majority with
it, and the op names them. A cup named in such an op that never attested refuses the
op and gives up on that leader (`vet`); a cup that heard every commitment (or reveal)
and sees the leader still not going on gives up on it too -- a leader cannot stall a
round, or replay one it would lose, by pretending not to hear.

    late commitment:  after commit_ms (settings), AWAY_MS for an away cup, at once for one that left
    late reveal:      reveal_ms (settings) after the call is committed
"""
from micropython import const
from ..engine import REVEAL, SHAKE
from . import table as tbl
from . import fair
from . import vouch
from . import wire
from ..engine.actions import kind
from . import timing

_RELAY_MS = const(1000)   # a cup holding every reveal passes them on to a leader that has not settled

COMMITS = 1   # what an attestation is about: commitments never heard,
REVEALS = 2   # or reveals never heard


class Watch:
    def __init__(self, cup):
        self.cup = cup
        self.heard_c = {}      # seat -> digest heard this round
        self.heard_r = {}      # seat -> root heard this round (matching its digest)
        self.heard_all = None  # when every commitment (or reveal) the round needs was heard
        self.attested = {}     # (round, what) -> seats (bits) this cup attested it never heard
        self.last_attest = -timing.ATTEST_MS
        self.relayed = -1      # the round whose reveals this cup passed on to the leader
        self.attests = {}      # leader: (round, what) -> {member: seats it attests}

    # ----- what this cup hears ---------------------------------------------------------
    def owed_by(self, seat):
        """When a seat's commitment is late: at once for a cup that left, after AWAY_MS
        for one that is away, else after the long wait on a broken cup."""
        cup = self.cup
        t = cup.table
        opened = cup.hidden.opened_at
        flags = t.members[t.holders[seat]].flags
        if flags & tbl.LEFT:
            return opened
        return opened + (timing.AWAY_MS if flags & tbl.AWAY else cup.waits["commit_ms"])

    # ----- a peer ------------------------------------------------------------------------
    def peer_tick(self, now):
        """Attest the late commitments (or reveals) never heard; give up on a leader that
        holds every one of them and still does not go on."""
        cup = self.cup
        t = cup.table
        g = t.game
        need = g.need()
        if need == SHAKE and t.mc != tbl.NO_DIGEST and t.seed == tbl.NO_ROOT:
            owed = [s for s in range(len(t.seats)) if g.dice[s] and not t.held >> s & 1]
            what, heard = COMMITS, self.heard_c
            pending = [s for s in owed if s not in heard]
            late = [s for s in pending if now >= self.owed_by(s)]
        elif need == REVEAL and cup.sync.committed >= cup.hidden.called_v:
            # every seat's reveal but the leader's own (it settles with them): after a
            # failover, the old leader's seat owes its reveal like any other
            owed = [s for s in range(len(t.seats)) if g.hidden(s) and t.holders[s] != t.master]
            what, heard = REVEALS, self.heard_r
            pending = [s for s in owed if s not in heard]
            late = pending if now >= cup.hidden.called_at + cup.waits["reveal_ms"] else []
        else:
            self.heard_all = None
            return None
        if not pending:
            if self.heard_all is None:
                self.heard_all = now
            elif what == REVEALS and self.relayed != g.round and now - self.heard_all >= _RELAY_MS:
                # the leader may not have them all (a cup revealed to some cups only):
                # pass them on -- a root checks itself against its seat's digest
                self.relayed = g.round
                for s in owed:
                    if t.holders[s] != cup.me:
                        cup.send(cup.master_addr(), wire.REVEAL, (g.round & 0xFFFF, s, heard[s]))
                return self.heard_all + timing.SEED_WAIT_MS
            elif now - self.heard_all >= timing.SEED_WAIT_MS:
                self.heard_all = now
                cup.errors["stalled"] = cup.errors.get("stalled", 0) + 1
                cup.election.give_up("the leader holds every %s and does not go on" %
                                     ("commitment" if what == COMMITS else "reveal"), False)
            return self.heard_all + timing.SEED_WAIT_MS
        self.heard_all = None
        late = [s for s in late if t.holders[s] != cup.me]
        if late:
            key = (g.round & 0xFFFF, what)
            self.attested[key] = self.attested.get(key, 0) | sum(1 << s for s in late)
            if len(self.attested) > 4:
                self.attested = {key: self.attested[key]}
            if now - self.last_attest >= timing.ATTEST_MS:
                self.last_attest = now
                cup.send(cup.master_addr(), wire.ATTEST, (key[0], what, self.attested[key]))
            return self.last_attest + timing.ATTEST_MS
        if what == REVEALS:
            return cup.hidden.called_at + cup.waits["reveal_ms"]
        return min(self.owed_by(s) for s in pending)

    def vet(self, op):
        """Why an op is false, as far as this cup itself can tell, else None: a replay
        or a settle naming this cup among those attesting a silence it never attested."""
        cup = self.cup
        t = cup.table
        g = t.game if t is not None else None
        if g is None or cup.me is None or len(op) < 2:
            return None
        if op[0] == tbl.OP_ACT:
            return self._vet_move(op)
        if op[0] == tbl.OP_ROLL:
            return self._vet_roll(op)
        if op[0] == tbl.OP_MASTER and len(op) == 5:
            return self._vet_master(op[1], op[2] << 8 | op[3], op[4])
        if op[0] == tbl.OP_RESTART and op[1] == tbl.RESTART_COMMIT and len(op) == 4:
            what, mask, seats = COMMITS, op[2], op[3]
        elif op[0] == tbl.OP_SETTLE and len(op) == 2 + 16 * len(t.seats) and g.need() == REVEAL:
            what, mask = REVEALS, op[1]
            seats = 0
            for s in range(len(t.seats)):
                if g.hidden(s) and op[2 + 16 * s:18 + 16 * s] == tbl.NO_ROOT:
                    seats |= 1 << s
        else:
            return None
        if mask >> cup.me & 1 and not self.vouches(g.round, what, seats):
            return "a %s names this cup as attesting what it never did" % tbl.OP_NAMES[op[0]]
        mine = cup.hidden.mine()
        if what == REVEALS and mine >= 0 and seats >> mine & 1 and cup.hidden.revealed == g.round:
            return "a settle says this cup never revealed, and it did"
        return None

    def _vet_master(self, mid, term, voted):
        """A new leader names the cups that voted for it: a cup named checks its vote."""
        cup = self.cup
        e = cup.election
        if mid == cup.me or not voted >> cup.me & 1 or e.term > term:
            return None   # (a newer term since: our vote in that one is no longer kept)
        if e.term == term and e.voted == mid:
            return None
        return "a master op names this cup among its voters, and it never voted for it"

    def _vet_move(self, op):
        """A move must carry its seat's own vouch (net/vouch.py), unless the leader's bot
        plays the seat (a bot, an away cup)."""
        cup = self.cup
        t = cup.table
        if len(op) < 7 or op[1] >= len(t.seats):
            return None   # malformed: the table refuses it
        seat = op[1]
        action = op[2] << 24 | op[3] << 16 | op[4] << 8 | op[5]
        n = op[6]
        mine = op[7:7 + n]
        rest = op[7 + n:]
        if kind(action) == "reroll":   # the witness's nonce first: not the seat's to choose
            if len(rest) < 2:
                return None
            wid = rest[0]
            wv, rest = vouch.split(rest[1:])
            why = self._vet_witness(seat, wid, rest[16:28], rest[:16], wv)
            if why is not None:
                return why
            rest = rest[16:]
        if not mine and t.bot_plays(seat):
            return None
        if t.seats[seat] == cup.me:   # our own seat: only a move we made ourselves
            if (t.version, action) in cup.turns.made:
                return None
            return "a move for this cup's own seat it never made"
        why = vouch.check(cup, t.seats[seat], vouch.act_message(cup.keys.tid or 0, seat, t.version, action, rest), mine)
        return None if why is None else "a move for seat %d its cup never made: %s" % (seat, why)

    def _vet_roll(self, op):
        """A Dix mille roll: the roller's own commitment (unless the leader's bot rolls),
        and a nonce from a witness other than the roller, with its vouch."""
        cup = self.cup
        t = cup.table
        if len(op) < 52 or op[1] >= len(t.seats):
            return None   # malformed: the table refuses it
        seat = op[1]
        d, w = op[2:14], op[14:30]
        rid = op[46] << 24 | op[47] << 16 | op[48] << 8 | op[49]
        wid = op[50]
        rv, rest = vouch.split(op[51:])
        wv, _ = vouch.split(rest)
        tid = cup.keys.tid or 0
        roller = t.seats[seat]
        leader = t.master
        if not rv and t.bot_plays(seat):
            pass   # the leader's bot rolls for a seat no cup plays
        elif roller == cup.me:
            if (rid, d) not in cup.rolls.made:
                return "a roll for this cup's own seat it never made"
        else:
            why = vouch.check(cup, roller, vouch.roll_message(tid, rid, seat, d), rv)
            if why is not None:
                return "a roll for seat %d its cup never made: %s" % (seat, why)
        return self._vet_witness(seat, wid, d, w, wv)

    def _vet_witness(self, seat, wid, d, w, wv):
        """A roll's nonce must come from a cup other than the one rolling (unless no
        other cup is at the table), with that witness's vouch."""
        cup = self.cup
        t = cup.table
        mover = t.seats[seat] if not t.bot_plays(seat) else t.master
        others = [m for m in t.voters() if m != mover and t.members[m].present()]
        if wid == mover and others:
            return "a roll witnessed by its own roller"
        if wid == cup.me:
            return None   # ours: the other cups check our vouch (a rebooted cup forgot its nonces)
        if wid >= len(t.members):
            return "a roll with no witness"
        why = vouch.check(cup, wid, vouch.witness_message(cup.keys.tid or 0, d, w), wv)
        return None if why is None else "a roll's witness nonce not its witness's: %s" % why

    def vouches(self, rno, what, seats):
        """Whether this cup attested it never heard `seats` (bits) in round rno."""
        return self.attested.get((rno & 0xFFFF, what), 0) & seats == seats

    # ----- the leader ----------------------------------------------------------------------
    def on_attest(self, src, f):
        """Leader: a cup attests it never heard these seats' commitments (or reveals)."""
        rno, what, seats = f.body
        cup = self.cup
        t = cup.table
        if what not in (COMMITS, REVEALS) or f.sender >= len(t.members):
            return "malformed"
        if not cup.is_master() or t.game is None or rno != t.game.round & 0xFFFF:
            return
        self.attests.setdefault((rno, what), {})[f.sender] = seats
        for k in [k for k in self.attests if k[0] != rno]:
            del self.attests[k]   # only this round's are of use: at most two kinds kept

    def attesters(self, what, missing):
        """Leader: the cups (bits) attesting they never heard `missing` either, if they
        make a majority with it; else None (it waits: the table decides, not it)."""
        t = self.cup.table
        got = self.attests.get((t.game.round & 0xFFFF, what), {})
        mask = 0
        for m in got:
            if got[m] & missing == missing:
                mask |= 1 << m
        try:
            t.attested(mask, missing)
        except tbl.OpError:
            return None
        return mask

    def on_op(self, name):
        if name in ("round", "settle", "restart", "start"):
            self.heard_c = {}
            self.heard_r = {}
            self.heard_all = None
            if name != "round":
                self.attests = {}
