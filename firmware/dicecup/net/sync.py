"""Replication and resends: the master's ops reach every cup, in order, once, and count
once a majority of the table's cups holds them.

The master applies each op to its own replica and broadcasts it as an UPDATE carrying
its term, its version, the term of the version before it and the highest version
*committed* -- held by a majority of the table's cups (net/election.py `voters`). It
resends what a present cup has not acknowledged. A cup applies UPDATEs in version
order: it drops duplicates, keeps a few early ones (at most AHEAD) and asks for what
it missed (NEED, answered from any cup's recent history), and takes a snapshot when
too far behind.

Terms keep one history: an op is applied only on top of the entry it was built on
(same version, same term). A cup whose last entries came from an older master than
the one now leading -- a dead or cut-off master's ops that never reached a majority --
drops its state for the leader's snapshot rather than stacking the new ops on top.
Updates and snapshots are taken only from the leader of the cup's current term.

An op's events go out to the listeners only once it is committed, so no screen and no
log ever shows a move that a failover later takes back.

Every resend goes through the cup's frame budget (net/budget.py) and is rate-limited
per cup asking, so a lossy table cannot grow into a storm.
"""
from micropython import const
from . import timing, wire
from .table import OpError, Table
from .transport import BROADCAST

_UNSHOWN = const(64)   # applied ops whose events wait for the commit, at most (then: a snapshot)
_ROOM = const(1024)    # the history's buffer, made once: growing, it asked a fragmented heap for more


class Sync:
    def __init__(self, cup):
        self.cup = cup
        self.history = h = bytearray(_ROOM)   # the last HISTORY ops applied here, oldest first (_keep)
        h[:] = b""            # empty, its room kept (fewer ops when they are long)
        self.first = 0        # the version of the history's first op
        self.before = 0       # the term of the version before it
        self.pending = {}     # version -> (term, prev term, op): our leader's early ops, at most AHEAD ahead
        self.acks = {}        # master: member -> version it holds of our term's history
        self.answered = {}    # member -> when its last NEED was answered
        self.snapped = {}     # member -> when it was last sent a snapshot
        self.snap_from = {}   # member -> (version, the part its next snapshot starts with), while one is cut short
        self.parts = None     # an incoming snapshot: [term, version, parts, {index: chunk}]
        self.resync = False   # our last entries conflict with the master's: waiting for its snapshot
        self.committed = 0    # the highest version a majority holds (as far as we know)
        self.matched = 0      # peer: the highest version known to be the leader's too
        self.unshown = []     # (version, name, events, op, state): applied, events not yet out
        self.shown = 0        # the highest version whose events went out
        self.commit_due = False   # master: the commit moved, tell the table
        self.last_retx = 0
        self.last_need = -timing.NEED_MS
        self.last_ack = -timing.KEEPALIVE_MS
        self.ack_due = False
        self.last_hello = -timing.HELLO_MS

    # ----- the history --------------------------------------------------------------
    def term_at(self, version):
        """The term of our entry at `version`, or None when it is no longer kept."""
        t = self.cup.table
        if version == t.version:
            return t.term
        h = self.history
        i = 0
        k = version - self.first
        while i < len(h) and k >= 0:
            if not k:
                return h[i + 1] << 8 | h[i + 2]
            k -= 1
            i += 3 + h[i]
        return None

    def ops(self, first):
        """Our history from version `first` on: (version, term, term before, op) each."""
        h = self.history
        v = self.first
        prev = self.before
        i = 0
        while i < len(h):
            n = h[i]
            term = h[i + 1] << 8 | h[i + 2]
            if v >= first:
                yield v, term, prev, bytes(h[i + 3:i + 3 + n])
            prev = term
            v += 1
            i += 3 + n

    def _keep(self, version, term, prev, op):
        """Keep an op just applied, a record (op length u8, term u16, the op) in one
        buffer: versions follow on from `first`, each op built on the term of the one
        before (`before` for the first), so neither is stored; else it starts again."""
        h = self.history
        n = i = 0
        last = self.before
        while i < len(h):
            last = h[i + 1] << 8 | h[i + 2]
            i += 3 + h[i]
            n += 1
        if version != self.first + n or prev != last:
            h[:] = b""
            self.first, self.before, n = version, prev, 0
        while h and (n >= timing.HISTORY or len(h) + 3 + len(op) > _ROOM):
            self.before = h[1] << 8 | h[2]
            h[:3 + h[0]] = b""   # (a bytearray takes no del)
            self.first += 1
            n -= 1
        h.extend(bytes((len(op), term >> 8, term & 0xFF)))
        h.extend(op)

    def reset(self, version):
        """A new replica (a snapshot at `version`, or none): nothing pending, no history
        to offer, nothing left to show from before it."""
        self.history[:] = b""
        self.pending = {}
        self.parts = None
        self.resync = False
        self.unshown = []
        self.shown = version
        self.matched = version
        if self.committed > version:
            self.committed = version

    def new_leader(self):
        """Another leader: what we hold beyond the commit is not known to be its, and
        the early ops we kept were the old one's."""
        if self.matched > self.committed:
            self.matched = self.committed
        self.pending = {}

    # ----- events out, once committed -------------------------------------------------
    def hold(self, version, name, events, op, state):
        """An op was applied: its events wait for the commit."""
        self.unshown.append((version, name, events, op, state))
        if len(self.unshown) > _UNSHOWN:
            self.unshown.pop(0)

    def learn(self, commit):
        """The table has committed up to `commit`: show the events of what we hold of it."""
        if commit > self.matched:
            commit = self.matched
        if commit <= self.committed:
            return
        self.committed = commit
        self._show()

    def _show(self):
        cup = self.cup
        while self.unshown and self.unshown[0][0] <= self.committed:
            version, name, events, op, state = self.unshown.pop(0)
            if version > self.shown:
                self.shown = version
                cup.show(version, name, events, op, state)
        if self.committed > self.shown:
            self.shown = self.committed   # nobody listens: nothing was held, all the same shown

    # ----- the master's side ----------------------------------------------------------
    def commit(self, op):
        """Master: apply an op to our replica and put it on air (OpError if refused)."""
        cup = self.cup
        t = cup.table
        prev = t.term
        name, events, info = t.apply(op)
        self._keep(t.version, t.term, prev, op)
        self.matched = t.version
        cup.send(BROADCAST, wire.UPDATE, (t.term, t.version, t.term, prev, self.committed, op))
        self.last_retx = cup.now
        cup.election.last_heart = cup.now  # an update says "alive" as well as a heartbeat
        cup.applied(name, events, info, op)
        self.advance()

    def advance(self):
        """Master: the highest version of our term a majority holds is committed."""
        cup = self.cup
        t = cup.table
        voters = cup.election.voters()
        need = len(voters) // 2 + 1
        held = [t.version if m == cup.me else self.acks.get(m, 0) for m in voters]
        held.sort()
        c = held[len(held) - need] if len(held) >= need else 0
        if c > self.committed and self.term_at(c) == t.term:
            self.committed = c
            self.commit_due = True
            self._show()

    def master_tick(self, now):
        """Say a new commit at once; resend what each lagging present cup needs next."""
        cup = self.cup
        t = cup.table
        if self.commit_due:
            self.commit_due = False
            cup.election.heartbeat()
        if now - self.last_retx < timing.RETX_MS:
            return self.last_retx + timing.RETX_MS
        behind = []
        for mid in cup.present_peers():
            v = self.acks.get(mid, 0)
            if v < t.version and v not in behind:
                behind.append(v)
        if not behind:
            return now + timing.RETX_MS
        self.last_retx = now
        behind.sort()
        want = []
        for a in behind:
            for v in range(a + 1, min(a + timing.RESENDS, t.version) + 1):
                if v not in want and len(want) < timing.RESENDS:
                    want.append(v)
        for v, term, prev, op in self.ops(want[0]):  # a cup past our history gets a snapshot when it asks
            if v in want:
                if cup.send(BROADCAST, wire.UPDATE, (t.term, v, term, prev, self.committed, op), resend=True):
                    cup.counts["retransmits"] += 1
        return now + timing.RETX_MS

    def on_ack(self, src, f):
        term, ver, eterm = f.body
        cup = self.cup
        if not cup.is_master():
            return
        if eterm > cup.election.term:
            cup.election.challenged(f.sender, eterm)
            return
        if term != cup.table.term:
            cup.election.alive(f.sender)
            return  # it holds another term's history: it will take ours (or our snapshot)
        if ver > self.acks.get(f.sender, -1):
            self.acks[f.sender] = min(ver, cup.table.version)
            self.advance()
        cup.election.followed[f.sender] = cup.now
        cup.election.alive(f.sender)

    def on_hello(self, src, f):
        """A member is (back) and has nothing or an old state: send it the state."""
        cup = self.cup
        if not cup.is_master():
            return
        t = cup.table
        mid = f.sender
        if mid >= len(t.members) or t.members[mid].addr != src:
            return
        self.send_snapshot(src, mid)
        cup.election.alive(mid)

    def send_snapshot(self, dest, mid):
        cup = self.cup
        now = cup.now
        last = self.snapped.get(mid)
        if last is not None and now - last < timing.SNAP_MS:
            return
        self.snapped[mid] = now
        t = cup.table
        snap = t.snapshot()
        parts = (len(snap) + timing.SNAP_CHUNK - 1) // timing.SNAP_CHUNK
        # Parts ask as fresh frames: a snapshot is rationed already (one per member per
        # SNAP_MS), and one part held back by the retransmissions' share of the budget
        # is the whole snapshot lost. Should the budget still refuse one, the next time
        # starts there, so every part gets out in turn (the receiver keeps what it has).
        ver, first = self.snap_from.get(mid, (None, 0))
        first = first % parts if ver == t.version else 0
        for k in range(parts):
            i = (first + k) % parts
            if not cup.send(dest, wire.SNAP, (t.term, t.version, i, parts,
                                              snap[i * timing.SNAP_CHUNK:(i + 1) * timing.SNAP_CHUNK])):
                self.snap_from[mid] = (t.version, i)
                return
        self.snap_from.pop(mid, None)   # all out: the next starts at part 0 (no entry kept)

    def on_need(self, src, f):
        """The master answers from its history, or with a snapshot to a cup past it."""
        (first,) = f.body
        cup = self.cup
        t = cup.table
        if not cup.is_master() or first > t.version:
            return
        now = cup.now
        last = self.answered.get(f.sender)
        if last is not None and now - last < timing.NEED_MS // 2:
            return
        self.answered[f.sender] = now
        sent = 0
        for v, term, prev, op in self.ops(first):
            if v != first + sent or sent == timing.ANSWER:
                break   # (the first one kept is after `first`: a snapshot)
            cup.send(src, wire.UPDATE, (t.term, v, term, prev, self.committed, op), resend=True)
            sent += 1
        if not sent and f.sender < len(t.members):
            self.send_snapshot(src, f.sender)

    # ----- the peer's side ----------------------------------------------------------------
    def on_update(self, src, f):
        lead, ver, term, prev, commit, op = f.body
        cup = self.cup
        t = cup.table
        if t is None:
            cup.lobby.hello(src)
            return
        if term > lead or not cup.election.from_leader(f.sender, lead):
            return "not-leader"  # an old or a would-be master's: refused
        if ver <= t.version:
            mine = self.term_at(ver)
            if mine is None or mine == term:
                if mine == term and ver > self.matched:
                    self.matched = ver
                self.ack()  # a duplicate: acknowledge so the master stops resending
            elif term > mine:
                self.want_resync(src)
            self.learn(commit)
            return
        if ver == t.version + 1:
            if prev != t.term:
                self.want_resync(src)  # our last entry is not the one this op was built on
                return
            if self.apply(op, term):
                self.matched = ver
                self.drain()
            self.ack()
            self.learn(commit)
            return
        if ver - t.version <= timing.AHEAD:
            held = self.pending.get(ver)
            if held is None or held[0] < term:
                self.pending[ver] = (term, prev, op)
        self.need(src)

    def drain(self):
        cup = self.cup
        while cup.table is not None and self.pending:
            t = cup.table
            nxt = self.pending.pop(t.version + 1, None)
            if nxt is None:
                break
            term, prev, op = nxt
            if prev != t.term or term < t.term:
                self.pending = {}
                break
            if not self.apply(op, term):
                break
            self.matched = t.version
        t = cup.table
        if t is not None:
            for v in [v for v in self.pending if v <= t.version]:
                del self.pending[v]

    def apply(self, op, term):
        """Peer: apply the next op. False (and a resync) when our replica refuses it."""
        cup = self.cup
        t = cup.table
        prev = t.term
        why = cup.watch.vet(op)
        if why is not None:   # an op naming us for what we never said: never applied
            cup.errors["forged"] = cup.errors.get("forged", 0) + 1
            self.pending = {}
            cup.election.give_up(why, True)
            return False
        try:
            name, events, info = t.apply(op)
        except OpError as e:
            cup.errors["op"] = cup.errors.get("op", 0) + 1
            cup.emit_local("internal", ("op", str(e)))
            self.want_resync(cup.master_addr())
            return False
        if t.term != term:
            # an op of another term than its frame said: our replica went its own way
            cup.errors["op"] = cup.errors.get("op", 0) + 1
            self.want_resync(cup.master_addr())
            return False
        self._keep(t.version, term, prev, op)
        cup.applied(name, events, info, op)
        return True

    def need(self, src):
        cup = self.cup
        if cup.now - self.last_need >= timing.NEED_MS and cup.table is not None:
            self.last_need = cup.now
            cup.send(src if src else cup.master_addr(), wire.NEED, (cup.table.version + 1,))

    def want_resync(self, src):
        """Our history conflicts with the current master's: ask for its state."""
        self.resync = True
        self.pending = {}
        self.hello(src)

    def hello(self, dest):
        cup = self.cup
        if cup.now - self.last_hello >= timing.HELLO_MS // 3:
            self.last_hello = cup.now
            t = cup.table
            cup.send(dest, wire.HELLO, (t.version if t is not None else 0,))

    def ack(self):
        """Acknowledge what we hold: once, at the end of this step, however many
        updates it brought (net/pump.py ticks the cup right after the frames)."""
        self.ack_due = True

    def peer_tick(self, now):
        due = self.last_ack + timing.KEEPALIVE_MS
        if self.ack_due or now >= due:
            self.ack_due = False
            cup = self.cup
            t = cup.table
            if t is not None and not cup.is_master() and cup.me is not None:
                cup.send(cup.master_addr(), wire.ACK, (t.term, t.version, cup.election.term))
                self.last_ack = cup.now
            due = now + timing.KEEPALIVE_MS
        if self.resync and now - self.last_hello >= timing.HELLO_MS:
            self.hello(self.cup.master_addr())
        if self.pending and now - self.last_need >= timing.NEED_MS:
            self.need(self.cup.master_addr())
        return due

    def on_snap(self, src, f):
        term, ver, part, parts, chunk = f.body
        cup = self.cup
        t = cup.table
        # a cup with no state takes the master's, whatever its own term (its next
        # acknowledgement tells the master of a newer term, if it holds one)
        if t is not None and not cup.election.from_leader(f.sender, term):
            return "not-leader"
        if t is not None and (term, ver) <= (t.term, t.version) and not (self.resync and term >= t.term):
            return
        if not 1 <= parts <= 8 or part >= parts:
            cup.errors["snapshot"] = cup.errors.get("snapshot", 0) + 1
            return
        p = self.parts
        if p is None or (p[0], p[1]) < (term, ver) or (p[2] != parts or p[4] != f.sender) and (p[0], p[1]) == (term, ver):
            p = self.parts = [term, ver, parts, {}, f.sender]   # parts of one sender's snapshot only
        elif (p[0], p[1]) != (term, ver):
            return  # an older snapshot than the one being gathered
        p[3][part] = chunk
        if len(p[3]) < parts:
            return
        data = b"".join(p[3][i] for i in range(parts))
        self.parts = None
        try:
            nt = Table.from_snapshot(data)
        except OpError:
            cup.errors["snapshot"] = cup.errors.get("snapshot", 0) + 1
            return
        if nt.term != term or nt.version != ver:
            cup.errors["snapshot"] = cup.errors.get("snapshot", 0) + 1
            return
        if t is None and (nt.master != f.sender or term < cup.election.term or f.sender == cup.election.distrust):
            return "not-leader"   # a cup with no state takes it only from the leader it names
        cup.counts["resyncs"] += 1
        self.reset(ver)
        cup.resynced(nt, data)
        if t is None:
            cup.election.from_leader(f.sender, term)
        self.ack()
