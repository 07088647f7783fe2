"""Who is alive and who is master: heartbeats, silence, the election and the take-over.

The master sends a heartbeat every HEART_MS and marks a cup away once it has been
silent AWAY_MS (the master's bot then plays its seat); any frame from it brings it
back. A peer that has not heard the master for FAIL_MS gives it up and elects the
first present member in member order (the next one if that one stays silent too). The
elected cup becomes a candidate: it announces a higher term, learns the newest
(term, version) any cup holds and fetches what it lacks, then takes the table with a
master op of the new term; a round caught mid-way is replayed with fresh rolls. A
master or candidate that hears a higher term steps down.

The link: a cup that has heard nothing from the table for LOST_MS emits a local
"link" event (lost), and another when it hears the table again.
"""
from . import table as tbl
from . import wire
from .table import AWAY, BOT, LEFT, NO_DIGEST
from .timing import AWAY_MS, FAIL_MS, HEART_MS, KEEPALIVE_MS, LOST_MS, RETX_MS
from .transport import BROADCAST

RESTART_FAILOVER = 2


class Election:
    def __init__(self, cup):
        self.cup = cup
        self.seen = {}          # member -> when last heard (any frame)
        self.last_master = 0    # peer: when the master was last heard
        self.last_heart = -HEART_MS
        self.suspects = []      # peer: masters given up on, in order
        self.waited_for = None  # peer: the member expected to take over
        self.candidacy = None   # [since, best term, best version, who has it, last NEED]
        self.up = True          # the link to the table, as last reported
        self.heard_at = 0       # when the table (master, or any present peer) was last heard
        self.leader = None      # (term, address) of a master of a newer term than our replica's

    # ----- what every frame tells ------------------------------------------------
    def heard(self, sender, now):
        self.seen[sender] = now
        cup = self.cup
        if cup.is_master():
            self.heard_at = now
            self._link(True)

    def leader_addr(self):
        """The address of a newer master than our replica knows of, or None."""
        lead = self.leader
        if lead is None:
            return None
        if lead[0] <= self.cup.table.term:
            self.leader = None
            return None
        return lead[1]

    def heard_master(self):
        now = self.cup.now
        self.last_master = now
        self.heard_at = now
        self._link(True)

    def _link(self, up):
        if up != self.up:
            self.up = up
            self.cup.emit_local("link", (up,))

    def reset_peer_clock(self):
        self.last_master = self.cup.now
        self.heard_at = self.cup.now

    # ----- the master ------------------------------------------------------------------
    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        due = self.last_heart + HEART_MS
        if now >= due:
            cup.send(BROADCAST, wire.HEART, (t.term, t.version, cup.me))
            self.last_heart = now
            due = now + HEART_MS
        peers = cup.present_peers()
        for mid in peers:
            last = self.seen.get(mid)
            if last is None:
                self.seen[mid] = now
                continue
            if now - last > AWAY_MS:
                cup.sync.commit(tbl.op_flags(mid, t.members[mid].flags | AWAY))
                return now
            if last + AWAY_MS < due:
                due = last + AWAY_MS + 1
        if peers and now - self.heard_at >= LOST_MS:
            self._link(False)
        return due

    def alive(self, mid):
        """Master: a member acknowledged or said hello: not away any longer."""
        cup = self.cup
        t = cup.table
        self.seen[mid] = cup.now
        if mid < len(t.members) and t.members[mid].flags & AWAY and not t.members[mid].flags & LEFT:
            cup.sync.commit(tbl.op_flags(mid, t.members[mid].flags & ~AWAY))

    # ----- heartbeats in -------------------------------------------------------------
    def on_heart(self, src, f):
        term, ver, master = f.body
        cup = self.cup
        t = cup.table
        if t is None or cup.me is None or master == cup.me:
            return
        if cup.role != cup.PEER:
            if term > t.term or (term == t.term and master < cup.me):
                self.step_down(term)
            else:
                return
        if term < t.term:
            return  # an old master's heartbeat
        if term > t.term:
            self.leader = (term, src)  # ask it, not the old master, for what we miss
        self.heard_master()  # the master, or a candidate whose master op is on its way
        if ver > t.version:
            cup.sync.need(src)
        if cup.now - cup.sync.last_ack >= KEEPALIVE_MS:
            cup.send(src, wire.ACK, (t.term, t.version))
            cup.sync.last_ack = cup.now

    def step_down(self, term):
        """A newer master exists: stop acting as master (its ops and state will follow)."""
        cup = self.cup
        if cup.role == cup.PEER:
            return
        self.candidacy = None
        cup.become_peer()
        self.reset_peer_clock()

    # ----- a peer watching the master ------------------------------------------------
    def peer_tick(self, now):
        if now - self.heard_at >= LOST_MS:
            self._link(False)
        if now - self.last_master < FAIL_MS:
            return self.last_master + FAIL_MS
        self.last_master = now
        cup = self.cup
        t = cup.table
        if t.master not in self.suspects:
            self.suspects.append(t.master)
        cands = [i for i in range(len(t.members)) if i not in self.suspects
                 and not t.members[i].flags & (BOT | LEFT) and not (t.members[i].flags & AWAY and i != cup.me)]
        if cands:
            if cands[0] == cup.me:
                self.take_over()
            elif self.waited_for == cands[0]:
                self.suspects.append(cands[0])  # it had its chance to take over: the next in line
                self.waited_for = None
            else:
                self.waited_for = cands[0]
        return now + FAIL_MS

    def take_over(self):
        """Start taking the table over: first learn the newest state any cup holds."""
        cup = self.cup
        t = cup.table
        cup.role = cup.CANDIDATE
        self.candidacy = [cup.now, t.term, t.version, None, -RETX_MS]
        cup.send(BROADCAST, wire.HEART, (t.term + 1, t.version, cup.me))

    def offer(self, src, term, ver):
        """Candidate: a cup's acknowledgement tells what it holds."""
        c = self.candidacy
        if c is not None and (term, ver) > (c[1], c[2]):
            c[1], c[2], c[3] = term, ver, src

    def candidate_tick(self, now):
        cup = self.cup
        t = cup.table
        c = self.candidacy
        since = c[0]
        if (c[1], c[2]) > (t.term, t.version) and c[3] is not None and now - since < RETX_MS * 10:
            if now - c[4] >= RETX_MS:
                c[4] = now
                cup.send(c[3], wire.NEED, (t.version + 1,))
            if now - since < RETX_MS * 6:
                return now + RETX_MS
        if now - since < RETX_MS * 3:
            return since + RETX_MS * 3
        self.install(max(t.term, c[1]) + 1)
        return now

    def install(self, term):
        """Become the master of `term`: the master op, the old master away, and a round
        caught mid-way replayed (its master's contribution died with it)."""
        cup = self.cup
        t = cup.table
        old = t.master
        self.candidacy = None
        self.suspects = []
        self.waited_for = None
        self.seen = {}
        cup.become_master()
        cup.sync.commit(tbl.op_master(cup.me, term))
        if old < len(t.members) and old != cup.me and t.members[old].present():
            cup.sync.commit(tbl.op_flags(old, t.members[old].flags | AWAY))
        g = t.game
        if g is not None and t.phase == tbl.PLAYING:
            need = g.need()
            if need in (cup.BID, cup.REVEAL) or (need == cup.SHAKE and t.mc != NO_DIGEST):
                cup.sync.commit(tbl.op_restart(RESTART_FAILOVER))
        self.heard_at = cup.now
