"""The round's hidden dice: shaken, committed, seeded, revealed (the bluffing games).

A round opens with the master's commitment to its contribution m; every cup holding a
seat's dice waits for its player to shake, then draws the seat's root from the
hardware RNG and the shake's entropy (fair.shaken_root), keeps it in flash and
commits to its dice (COMMIT). The master holds the dice of seats with no cup behind
them (bots, away cups): those roots it draws at once and commits to in the round-open
op, and keeps them in flash too. Its own seat it shakes like any cup. When every digest
is in, the master's seed op publishes m and the digests: every cup derives its dice
(fair.faces) and nobody else can. At the call each cup publishes its root (REVEAL);
the settle op carries every root, and every replica re-derives and checks every die.

A call is never taken back: a new leader finishes the round (table.py refuses a
failover replay after a call), so a leader cannot escape a round it would lose by
getting itself deposed. The old master reveals its seat and the seats it rolled for,
from flash even after a reboot, like any cup; what never comes is withheld (watch.py).
Every root this cup may still have to reveal is kept in flash (net/kept.py).

A Bluff reroll is a shake too: the fresh dice under the cup get a fresh root, drawn
at that shake, committed in the reroll action (the set-aside dice are revealed there
against their commitments) and seeded by a witness's nonce (net/rolls.py).
"""
from ..engine import BID, REVEAL, SHAKE
from . import fair
from . import table as tbl
from . import wire
from . import timing
from .transport import BROADCAST
from .kept import Kept
from .rolls import reroll_extra
from . import watch


class HiddenDice:
    def __init__(self, cup):
        self.cup = cup
        self.kept = Kept(cup.flash)   # the roots: this cup's seat's, and those it rolled for
        # this cup's own seat
        self.hand = []         # my hidden faces, once the round is seeded
        self.reroll = None     # (action, then): a reroll the player chose, waiting for the shake
        self.last_commit = -timing.RESEND_MS
        self.last_reveal = -timing.RESEND_MS
        self.asked = (-1, -1)  # (round, version) of the last "shake" event
        self.revealed = -1     # the round this cup last sent its reveal in
        # the master's books
        self.m = None          # its contribution to this round's seed
        self.commits = {}      # seat -> digest
        self.reveals = {}      # seat -> root
        self.held_next = {}    # seat -> a held seat's reroll root, until the reroll is applied
        self.opened_at = 0     # (every cup) when the round op was applied here
        self.called_at = 0
        self.called_v = 0      # the version of the call: roots go out only once a majority holds it

    # ----- this cup's own dice ----------------------------------------------------------
    def rno(self):
        """This round's number as the roots are kept (low 16 bits), or None."""
        t = self.cup.table
        g = t.game if t is not None else None
        return g.round & 0xFFFF if g is not None and hasattr(g, "round") else None

    def roots(self):
        """[(gen, root)] of this cup's seat this round: the first one it shook first."""
        rno = self.rno()
        return self.kept.roots(rno) if rno is not None else []

    def root_for(self, gen):
        rno = self.rno()
        return self.kept.root(rno, gen) if rno is not None else None

    def mine(self):
        """My seat, when this cup holds its dice this round (or will: the round is not
        open yet and my cup is at the table), else -1."""
        cup = self.cup
        t = cup.table
        seat = cup.seat()
        if seat < 0 or not t.holders:
            return -1
        h = t.holders[seat]
        if h == cup.me or (h == 0xFF and t.members[cup.me].present()):
            return seat
        return -1

    def wants(self):
        """'round' or 'reroll' when a shake of this cup is awaited, else None."""
        t = self.cup.table
        if t is None or t.game is None or t.phase != tbl.PLAYING:
            return None
        if self.reroll is not None:
            return "reroll"
        g = t.game
        seat = self.mine()
        if seat < 0 or g.need() != SHAKE or not g.dice[seat]:
            return None   # (a cup may shake before the round opens: it commits once it has)
        if self.roots():
            return None
        return "round"

    def shake(self, entropy):
        """The player shook: roll what was waiting. True when something was rolled."""
        w = self.wants()
        if w == "round":
            cup = self.cup
            t = cup.table
            g = t.game
            seat = self.mine()
            root = fair.shaken_root(cup.random_bytes(16), entropy)
            self.kept.keep(self.rno(), [(0, root)])
            d = fair.seat_digest(root, 0, g.dice[seat])
            cup.emit_private("committed", ("round", d))
            if cup.is_master():
                self.commits[seat] = d   # it goes into the round op, before any other digest
            elif t.mc != tbl.NO_DIGEST:
                self._send_commit(seat, d)
            return True
        if w == "reroll":
            self._shake_reroll(entropy)
            return True
        return False

    def _send_commit(self, seat, d):
        """To the whole table: every cup can then attest, or deny, that it was sent."""
        cup = self.cup
        self.last_commit = cup.now
        cup.watch.heard_c[seat] = d
        cup.send(BROADCAST, wire.COMMIT, (cup.table.game.round & 0xFFFF, seat, d))

    def request_reroll(self, action, then):
        """The player chose a reroll (alone, or right after the bid `action`): it goes
        out when the cup is shaken."""
        if self.mine() < 0 or not self.hand:
            raise tbl.OpError("no dice of ours to reroll")
        self.reroll = (action, then)

    def _shake_reroll(self, entropy):
        cup = self.cup
        t = cup.table
        action, then = self.reroll
        self.reroll = None
        seat = self.mine()
        gen = t.gens[seat]
        cur = self.root_for(gen)
        rr = then if then is not None else action
        if seat < 0 or cur is None:
            cup.emit_local("rejected", (rr, "no-dice"))
            return
        new = fair.shaken_root(cup.random_bytes(16), entropy)
        try:
            extra = reroll_extra(t, seat, rr, cur, new)
        except tbl.OpError as e:
            cup.emit_local("rejected", (rr, str(e)))
            return
        self.kept.keep(self.rno(), [(gen, cur), (gen + 1, new)])
        cup.emit_private("committed", ("reroll", extra[:12]))
        if then is None:
            cup.turns.play(seat, action, extra, None, b"")
        else:
            cup.turns.play(seat, action, b"", then, extra)

    def my_root(self):
        """The root this cup publishes at the reveal (its current generation's, from flash)."""
        t = self.cup.table
        seat = self.mine()
        return self.root_for(t.gens[seat]) if seat >= 0 else None

    def _refresh(self):
        """My dice, from my root (after the seed, a reroll, a reboot or a resync)."""
        cup = self.cup
        t = cup.table
        old = self.hand
        self.hand = []
        g = t.game if t is not None else None
        seat = self.mine() if g is not None else -1
        if seat >= 0 and g.need() in (BID, REVEAL):
            gen = t.gens[seat]
            root = self.root_for(gen)
            n = g.hidden(seat)
            if root is not None and fair.seat_digest(root, gen, n) == t.digests[seat]:
                self.hand = fair.faces(root, gen, n, t.dice_seed(seat))
        if self.hand and self.hand != old:
            cup.emit_private("dice", (list(self.hand),))

    def held_roots(self):
        """{seat: root} of this round's seats this cup rolled for as the master and still
        holds, each matching its seat's digest (a root from flash may be a stale round's)."""
        cup = self.cup
        t = cup.table
        rno = self.rno()
        if rno is None or not t.holders:
            return {}
        g = t.game
        out = {}
        for s, root in self.kept.held_of(rno).items():
            if s < len(t.seats) and t.holders[s] == cup.me and g.hidden(s) and \
                    fair.seat_digest(root, t.gens[s], g.hidden(s)) == t.digests[s]:
                out[s] = root
        return out

    def held_hand(self, seat):
        """Dice the master can see for a seat it holds (a bot's, an away cup's), else None."""
        t = self.cup.table
        root = self.held_roots().get(seat)
        if root is None:
            return None
        return fair.faces(root, t.gens[seat], t.game.hidden(seat), t.dice_seed(seat))

    # ----- the master ---------------------------------------------------------------------
    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        g = t.game
        need = g.need()
        if need == SHAKE:
            if t.mc == tbl.NO_DIGEST:
                mine = self.mine()
                if mine >= 0 and g.dice[mine] and mine not in self.commits:
                    if self.roots():   # shaken as a peer
                        self.commits[mine] = fair.seat_digest(self.roots()[0][1], 0, g.dice[mine])
                    else:
                        return None   # the master's own dice are committed first: its player shakes
                self.open_round()
                return now
            n = len(t.seats)
            waiting = [s for s in range(n) if g.dice[s] and not t.held >> s & 1 and s not in self.commits]
            if not waiting:
                digests = [t.digests[s] if t.held >> s & 1 else self.commits.get(s, tbl.NO_DIGEST) for s in range(n)]
                cup.sync.commit(tbl.op_seed(self.m, digests))
                return now
            late = [s for s in waiting if now >= cup.watch.owed_by(s)]
            if late and len(late) == len(waiting):
                missing = sum(1 << s for s in late)
                mask = cup.watch.attesters(watch.COMMITS, missing)
                if mask is not None:   # a majority never heard them: the round again
                    for s in late:
                        h = t.holders[s]
                        if t.members[h].present():
                            cup.sync.commit(tbl.op_flags(h, t.members[h].flags | tbl.AWAY))
                    cup.sync.commit(tbl.op_restart(tbl.RESTART_COMMIT, mask, missing))
                    return now
                return now + timing.ATTEST_MS
            return min(cup.watch.owed_by(s) for s in waiting)
        if need == REVEAL:
            if cup.sync.committed < self.called_v:
                return self.called_at + timing.RESEND_MS   # the call first counts, then the roots
            self.reveals.update(self.held_roots())
            mine = self.mine()
            if mine >= 0:
                root = self.my_root()
                if root is not None:
                    self.reveals[mine] = root
            heard = cup.watch.heard_r
            for s in heard:   # (heard before we led: every reveal goes to the whole table)
                if s not in self.reveals:
                    self.reveals[s] = heard[s]
            missing = [s for s in range(len(t.seats)) if g.dice[s] and s not in self.reveals]
            roots = [self.reveals.get(s, tbl.NO_ROOT) if g.dice[s] else tbl.NO_ROOT for s in range(len(t.seats))]
            if not missing:
                cup.sync.commit(tbl.op_settle(roots))
                return now
            due = self.called_at + cup.waits["reveal_ms"]
            if now < due:
                return due
            mask = cup.watch.attesters(watch.REVEALS, sum(1 << s for s in missing))
            if mask is not None:   # a majority never heard them: they lose the round
                cup.sync.commit(tbl.op_settle(roots, mask))
                return now
            return now + timing.ATTEST_MS
        return None

    def open_round(self):
        cup = self.cup
        t = cup.table
        g = t.game
        own = self.mine()
        self.m = cup.random_bytes(16)
        self.commits = {own: self.commits[own]} if own >= 0 and own in self.commits else {}
        self.reveals = {}
        self.held_next = {}
        held = {}
        holders = []
        digests = {}
        if own >= 0 and own in self.commits:
            # The master's own seat is committed here, before it sees any other digest: it
            # knows m, so a digest it chose after seeing the others' could steer its dice.
            digests[own] = self.commits[own]
        for s in range(len(t.seats)):
            mid = t.seats[s]
            here = t.members[mid].present()
            holders.append(mid if here else cup.me)
            if not here and g.dice[s]:   # a bot's, an away or gone player's: the master rolls them now
                root = cup.random_bytes(16)
                held[s] = root
                digests[s] = fair.seat_digest(root, 0, g.dice[s])
        self.kept.keep_held(g.round & 0xFFFF, held)   # (before the op is on air: ours to reveal, come what may)
        self.opened_at = cup.now
        cup.sync.commit(tbl.op_round(g.round, fair.master_commit(self.m), holders, digests))

    def reroll_for_held(self, seat, action):
        """Master: the extras for a reroll of a seat it holds; the fresh root waits
        until the reroll is applied."""
        cup = self.cup
        new = cup.random_bytes(16)
        extra = reroll_extra(cup.table, seat, action, self.held_roots()[seat], new)
        self.held_next[seat] = new
        return extra

    def on_commit(self, src, f):
        rno, seat, d = f.body
        cup = self.cup
        t = cup.table
        if t is None or t.game is None or t.mc == tbl.NO_DIGEST or t.seed != tbl.NO_ROOT:
            return
        if seat >= len(t.seats) or t.holders[seat] != f.sender:
            return "not-your-seat"
        if rno != t.game.round & 0xFFFF:
            return
        cup.watch.heard_c.setdefault(seat, d)   # the first commitment heard stands
        if cup.is_master() and seat not in self.commits:
            self.commits[seat] = d   # the first commitment stands

    def on_reveal(self, src, f):
        rno, seat, root = f.body
        cup = self.cup
        t = cup.table
        if t is None or t.game is None or t.game.need() != REVEAL:
            return
        if seat >= len(t.seats) or rno != t.game.round & 0xFFFF:
            return
        if t.holders[seat] != f.sender:
            # another cup passes on a reveal it heard (net/watch.py): a root checks itself
            if cup.is_master() and seat not in self.reveals and \
                    fair.seat_digest(root, t.gens[seat], t.game.hidden(seat)) == t.digests[seat]:
                self.reveals[seat] = root
            return
        if cup.is_master() and seat not in self.reveals:
            self.reveals[seat] = root   # the first stands: one that does not match is a cheat
        if fair.seat_digest(root, t.gens[seat], t.game.hidden(seat)) == t.digests[seat]:
            cup.watch.heard_r[seat] = root     # heard: the watch no longer waits for it

    # ----- a peer ------------------------------------------------------------------------
    def peer_tick(self, now):
        cup = self.cup
        t = cup.table
        g = t.game
        if g is None or t.phase != tbl.PLAYING:
            return None
        due = cup.watch.peer_tick(now)
        seat = self.mine()
        need = g.need()
        if need == SHAKE and seat >= 0 and t.mc != tbl.NO_DIGEST and self.roots():
            if now - self.last_commit >= timing.RESEND_MS:
                self._send_commit(seat, fair.seat_digest(self.roots()[0][1], 0, g.dice[seat]))
            return _first(due, self.last_commit + timing.RESEND_MS)
        if need == REVEAL and cup.sync.committed >= self.called_v:
            # only against a call a majority holds: it cannot be taken back. Our seat's
            # root, and those of seats we rolled for as the master before a failover.
            roots = self.held_roots()
            root = self.my_root() if seat >= 0 else None
            if root is not None:
                roots[seat] = root
            if roots:
                if now - self.last_reveal >= timing.RESEND_MS:
                    self.last_reveal = now
                    if root is not None:
                        self.revealed = g.round
                    for s in roots:
                        cup.watch.heard_r[s] = roots[s]
                        cup.send(BROADCAST, wire.REVEAL, (g.round & 0xFFFF, s, roots[s]))
                return _first(due, self.last_reveal + timing.RESEND_MS)
        return due

    # ----- after every op -----------------------------------------------------------------
    def on_op(self, name, info):
        cup = self.cup
        t = cup.table
        if name == "round":
            self.hand = []
            self.reroll = None
            self.opened_at = cup.now
            seat = self.mine()   # (shaken for this round before it opened: kept)
            if seat >= 0 and self.roots() and not cup.is_master():
                self._send_commit(seat, fair.seat_digest(self.roots()[0][1], 0, t.game.dice[seat]))
        elif name == "seed":
            self._refresh()
        elif name == "act":
            g = t.game
            if "w" in info:   # a reroll went through
                s = info["seat"]
                if s == self.mine():
                    gen = t.gens[s]
                    self.kept.keep(self.rno(), [(g_, r) for g_, r in self.roots() if g_ == gen])
                    self._refresh()
                elif s in self.held_next:
                    held = dict(self.kept.held_of(self.rno()))
                    held[s] = self.held_next.pop(s)
                    self.kept.keep_held(self.rno(), held)
            if g is not None and g.need() == REVEAL:
                self.called_at = cup.now
                self.called_v = t.version
        elif name in ("settle", "restart"):
            self.hand = []
            self.reroll = None
            self.commits = {}
            self.reveals = {}
            self.held_next = {}
            if name == "restart":   # the round again, with fresh dice
                self.kept.forget(self.rno())
        elif name == "start":
            self.kept.clear()
        if name in ("start", "settle", "restart", "round") and self.wants() == "round":
            key = (t.game.round, t.version if name != "round" else self.asked[1])
            if name != "round" or self.asked[0] != t.game.round:
                self.asked = key
                cup.emit_local("shake", ("round",))   # shake now: the round opens when the master has

    def resynced(self):
        t = self.cup.table
        if t.game is not None and t.game.need() == REVEAL:
            self.called_at = self.cup.now
            self.called_v = t.version
        self._refresh()


def _first(a, b):
    return b if a is None or b < a else a
