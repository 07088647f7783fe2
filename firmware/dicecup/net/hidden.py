"""The round's hidden dice: shaken, committed, seeded, revealed (the bluffing games).

A round opens with the master's commitment to its contribution m; every cup holding a
seat's dice waits for its player to shake, then draws the seat's root from the
hardware RNG and the shake's entropy (fair.shaken_root), keeps it in flash and
commits to its dice (COMMIT). The master holds the dice of seats with no cup behind
them (bots, away cups): those roots it draws at once and commits to in the round-open
op. Its own seat it shakes like any cup. When every digest is in, the master's seed
op publishes m and the digests: every cup derives its dice (fair.faces) and nobody
else can. At the call each cup publishes its root (REVEAL); the settle op carries
every root, and every replica re-derives and checks every die.

A Bluff reroll is a shake too: the fresh dice under the cup get a fresh root, drawn
at that shake, committed in the reroll action (the set-aside dice are revealed there
against their commitments) and seeded by a witness's nonce (net/rolls.py).
"""
from ..engine import BID, REVEAL, SHAKE
from ..engine.actions import faces_of
from . import fair
from . import table as tbl
from . import wire
from .table import AWAY, NO_DIGEST, NO_ROOT, OpError, PLAYING, RESTART_COMMIT
from .timing import ATTEST_MS, RESEND_MS
from .transport import BROADCAST
from .watch import COMMITS, REVEALS


def reroll_extra(table, seat, action, root, new_root):
    """The extras of a Bluff reroll for `seat`, whose hidden dice come from `root` (of
    the seat's current generation): which hidden dice are set aside, with their
    secrets (they are now face up), the commitments of every hidden die (so every cup
    can check those secrets against the seat's digest) and the digest of the fresh
    dice under the cup, from `new_root`. The witness nonce goes in front, from the master."""
    g = table.game
    gen = table.gens[seat]
    n = g.hidden(seat)
    secrets = [fair.secret(root, gen, i) for i in range(n)]
    seed = table.dice_seed(seat)
    faces = [fair.face(x, seed) for x in secrets]
    aside = []
    for f in faces_of(action):
        for i in range(n):
            if faces[i] == f and i not in aside:
                aside.append(i)
                break
        else:
            raise OpError("not-your-dice")
    new = fair.seat_digest(new_root, gen + 1, n - len(aside))
    return (new + bytes((len(aside),)) + b"".join(bytes((i,)) + secrets[i] for i in aside)
            + b"".join(fair.commit(x) for x in secrets))


class HiddenDice:
    def __init__(self, cup):
        self.cup = cup
        # this cup's own seat
        self.round_no = -1     # the round (low 16 bits) my roots belong to
        self.roots = []        # [(gen, root)]: the current generation's, then a reroll's fresh one
        self.hand = []         # my hidden faces, once the round is seeded
        self.reroll = None     # (action, then): a reroll the player chose, waiting for the shake
        self.last_commit = -RESEND_MS
        self.last_reveal = -RESEND_MS
        self.asked = (-1, -1)  # (round, version) of the last "shake" event
        self.revealed = -1     # the round this cup last sent its reveal in
        # the master's books
        self.m = None          # its contribution to this round's seed
        self.commits = {}      # seat -> digest
        self.reveals = {}      # seat -> root
        self.held = {}         # seat -> root of dice it holds (bots', away cups')
        self.held_next = {}    # seat -> a held seat's reroll root, until the reroll is applied
        self.opened_at = 0     # (every cup) when the round op was applied here
        self.called_at = 0
        self.called_v = 0      # the version of the call: roots go out only once a majority holds it
        s = cup.flash.secret()
        if s is not None:
            self.round_no, self.roots = s

    # ----- this cup's own dice ----------------------------------------------------------
    def root_for(self, gen):
        t = self.cup.table
        if t is None or t.game is None or self.round_no != t.game.round & 0xFFFF:
            return None
        for g, r in self.roots:
            if g == gen:
                return r
        return None

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
        if t is None or t.game is None or t.phase != PLAYING:
            return None
        if self.reroll is not None:
            return "reroll"
        g = t.game
        seat = self.mine()
        if seat < 0 or g.need() != SHAKE or not g.dice[seat]:
            return None   # (a cup may shake before the round opens: it commits once it has)
        if self.round_no == g.round & 0xFFFF and self.roots:
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
            self.round_no = g.round & 0xFFFF
            self.roots = [(0, root)]
            cup.flash.put_secret(self.round_no, self.roots)
            d = fair.seat_digest(root, 0, g.dice[seat])
            cup.emit_private("committed", ("round", d))
            if cup.is_master():
                self.commits[seat] = d   # it goes into the round op, before any other digest
            elif t.mc != NO_DIGEST:
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
            raise OpError("no dice of ours to reroll")
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
        except OpError as e:
            cup.emit_local("rejected", (rr, str(e)))
            return
        self.roots = [(gen, cur), (gen + 1, new)]
        cup.flash.put_secret(self.round_no, self.roots)
        cup.emit_private("committed", ("reroll", extra[:12]))
        if then is None:
            cup.turns.play(seat, action, extra)
        else:
            cup.turns.play(seat, action, b"", then, extra)

    def my_root(self):
        """The root this cup publishes at the reveal (its current generation's, from flash)."""
        t = self.cup.table
        seat = self.mine()
        return self.root_for(t.gens[seat]) if seat >= 0 else None

    def _refresh(self, emit=True):
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
        if emit and self.hand and self.hand != old:
            cup.emit_private("dice", (list(self.hand),))

    def held_hand(self, seat):
        """Dice the master can see for a seat it holds (a bot's, an away cup's), else None."""
        t = self.cup.table
        root = self.held.get(seat)
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
            if t.mc == NO_DIGEST:
                mine = self.mine()
                if mine >= 0 and g.dice[mine] and mine not in self.commits:
                    if self.round_no == g.round & 0xFFFF and self.roots:   # shaken as a peer
                        self.commits[mine] = fair.seat_digest(self.roots[0][1], 0, g.dice[mine])
                    else:
                        return None   # the master's own dice are committed first: its player shakes
                self.open_round()
                return now
            n = len(t.seats)
            waiting = [s for s in range(n) if g.dice[s] and not t.held >> s & 1 and s not in self.commits]
            if not waiting:
                digests = [t.digests[s] if t.held >> s & 1 else self.commits.get(s, NO_DIGEST) for s in range(n)]
                cup.sync.commit(tbl.op_seed(self.m, digests))
                return now
            late = [s for s in waiting if now >= cup.watch.owed_by(s)]
            if late and len(late) == len(waiting):
                missing = sum(1 << s for s in late)
                mask = cup.watch.attesters(COMMITS, missing)
                if mask is not None:   # a majority never heard them: the round again
                    for s in late:
                        h = t.holders[s]
                        if t.members[h].present():
                            cup.sync.commit(tbl.op_flags(h, t.members[h].flags | AWAY))
                    cup.sync.commit(tbl.op_restart(RESTART_COMMIT, mask, missing))
                    return now
                return now + ATTEST_MS
            return min(cup.watch.owed_by(s) for s in waiting)
        if need == REVEAL:
            if cup.sync.committed < self.called_v:
                return self.called_at + RESEND_MS   # the call first counts, then the roots
            for s in self.held:
                self.reveals[s] = self.held[s]
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
            roots = [self.reveals.get(s, NO_ROOT) if g.dice[s] else NO_ROOT for s in range(len(t.seats))]
            if not missing:
                cup.sync.commit(tbl.op_settle(roots))
                return now
            due = self.called_at + cup.waits["reveal_ms"]
            if now < due:
                return due
            mask = cup.watch.attesters(REVEALS, sum(1 << s for s in missing))
            if mask is not None:   # a majority never heard them: they lose the round
                cup.sync.commit(tbl.op_settle(roots, mask))
                return now
            return now + ATTEST_MS
        return None

    def open_round(self):
        cup = self.cup
        t = cup.table
        g = t.game
        own = self.mine()
        self.m = cup.random_bytes(16)
        self.commits = {own: self.commits[own]} if own >= 0 and own in self.commits else {}
        self.reveals = {}
        self.held = {}
        self.held_next = {}
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
                self.held[s] = root
                digests[s] = fair.seat_digest(root, 0, g.dice[s])
        self.opened_at = cup.now
        cup.sync.commit(tbl.op_round(g.round, fair.master_commit(self.m), holders, digests))

    def reroll_for_held(self, seat, action):
        """Master: the extras for a reroll of a seat it holds; the fresh root waits
        until the reroll is applied."""
        cup = self.cup
        new = cup.random_bytes(16)
        extra = reroll_extra(cup.table, seat, action, self.held[seat], new)
        self.held_next[seat] = new
        return extra

    def on_commit(self, src, f):
        rno, seat, d = f.body
        cup = self.cup
        t = cup.table
        if t is None or t.game is None or t.mc == NO_DIGEST or t.seed != NO_ROOT:
            return
        if seat >= len(t.seats) or t.holders[seat] != f.sender:
            return "not-your-seat"
        if rno != t.game.round & 0xFFFF:
            return
        cup.watch.commit_heard(seat, d)
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
        cup.watch.reveal_heard(seat, root)

    def reset_master(self):
        self.m = None
        self.commits = {}
        self.reveals = {}
        self.held = {}
        self.held_next = {}

    # ----- a peer ------------------------------------------------------------------------
    def peer_tick(self, now):
        cup = self.cup
        t = cup.table
        g = t.game
        if g is None or t.phase != PLAYING:
            return None
        due = cup.watch.peer_tick(now)
        seat = self.mine()
        if seat < 0:
            return due
        need = g.need()
        if need == SHAKE and t.mc != NO_DIGEST and self.round_no == g.round & 0xFFFF and self.roots:
            if now - self.last_commit >= RESEND_MS:
                self._send_commit(seat, fair.seat_digest(self.roots[0][1], 0, g.dice[seat]))
            return _first(due, self.last_commit + RESEND_MS)
        if need == REVEAL and cup.sync.committed >= self.called_v:
            root = self.my_root()   # only against a call a majority holds: it cannot be taken back
            if root is not None:
                if now - self.last_reveal >= RESEND_MS:
                    self.last_reveal = now
                    self.revealed = g.round
                    cup.watch.heard_r[seat] = root
                    cup.send(BROADCAST, wire.REVEAL, (g.round & 0xFFFF, seat, root))
                return _first(due, self.last_reveal + RESEND_MS)
        return due

    # ----- after every op -----------------------------------------------------------------
    def on_op(self, name, info):
        cup = self.cup
        t = cup.table
        if name == "round":
            self.hand = []
            self.reroll = None
            self.opened_at = cup.now
            seat = self.mine()
            if seat < 0 or self.round_no != t.game.round & 0xFFFF:
                self.roots = []      # (shaken for this round before it opened: kept)
                self.round_no = -1
            elif self.roots and not cup.is_master():
                self._send_commit(seat, fair.seat_digest(self.roots[0][1], 0, t.game.dice[seat]))
        elif name == "seed":
            self._refresh()
        elif name == "act":
            g = t.game
            if "w" in info:   # a reroll went through
                s = info["seat"]
                if s == self.mine():
                    gen = t.gens[s]
                    self.roots = [(g_, r) for g_, r in self.roots if g_ == gen]
                    self.cup.flash.put_secret(self.round_no, self.roots)
                    self._refresh()
                elif s in self.held_next:
                    self.held[s] = self.held_next.pop(s)
            if g is not None and g.need() == REVEAL:
                self.called_at = cup.now
                self.called_v = t.version
        elif name in ("settle", "restart"):
            self.roots = []
            self.round_no = -1
            self.hand = []
            self.reroll = None
            self.commits = {}
            self.reveals = {}
            self.held = {}
            self.held_next = {}
            cup.flash.forget_secret()
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
