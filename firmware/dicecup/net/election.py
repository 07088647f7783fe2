"""Who is alive and who leads: heartbeats, silence, votes, one leader per term.

Raft's ideas, sized for a table of at most six cups. The table's *voters* are its
members with a cup (not bot seats, not players who left). A leader is elected for a
term by a majority of them, and only the leader of a cup's current term is listened
to (net/sync.py). The current term and the cup's vote in it are kept in flash, so a
cup that reboots never votes twice in one term.

* The leader sends a heartbeat every HEART_MS (skipped when an update just went out)
  carrying the commit, and marks a cup away once it has been silent AWAY_MS (the
  leader's bot then plays its seat); any frame from it brings it back. A leader that
  has not heard a majority of the voters for FAIL_MS stops leading: nothing it does
  could be committed. Its cups, and it, then wait for the table (a "quorum" event).
* A cup that has not heard its leader for FAIL_MS stands for election, after a
  stagger by member order (STAGGER_MS each), so that cups rarely stand together. It
  first asks for *pre-votes* (would you vote for me in the next term?) without
  changing its term, so a cup cut off from the table never inflates the term and
  disrupts the table when it comes back; with a majority of pre-votes it asks for
  votes in the next term. A cup votes for at most one candidate per term, only for
  one whose history is at least as new as its own, and never while it still hears a
  leader. A candidate with a majority of votes leads: its first op is the master op
  of the new term; a round caught mid-way is replayed with fresh rolls.
* A master or candidate that hears a leader of a newer term follows it.

A two-cup table needs both cups for a majority: when one is cut off, both wait
(nothing is decided) until they hear each other again.
"""
from ..engine import BID, SHAKE
from . import table as tbl
from . import wire
from . import timing
from .transport import BROADCAST


class Election:
    def new_table(self):
        """A table created or joined: elections start over."""
        self.term = 0
        self.voted = None
        self.leader = None
        self._save()

    def __init__(self, cup):
        self.cup = cup
        self.term, self.voted = cup.flash.vote()   # the current term, and our vote in it
        self.leader = None      # member id of our current term's leader, when known
        self.seen = {}          # member -> when last heard (any frame)
        self.last_master = 0    # when our leader was last heard (or our election clock reset)
        self.last_heart = -timing.HEART_MS
        self.candidacy = None   # [since, term, pre (bool), granted members]
        self.up = True          # the link to the table, as last reported
        self.quorum = True      # a working table, as last reported
        self.heard_at = 0       # when the table (master, or any present peer) was last heard
        self.majority_at = 0    # leader: when a majority of the voters last followed us
        self.followed = {}      # leader: member -> when it last acknowledged our term's history
        self.distrust = None    # a leader caught sending a false op: never followed again this game
        self.shunned = None     # a leader this cup gave up on: no vote for it until another leads

    # ----- the table's voters -------------------------------------------------------------
    def voters(self):
        """Members with a cup behind them; we count ourselves."""
        t = self.cup.table
        out = []
        for i in range(len(t.members)):
            if not t.members[i].flags & (tbl.BOT | tbl.LEFT) or i == self.cup.me:
                out.append(i)
        return out

    def _save(self):
        self.cup.flash.put_vote(self.term, self.voted)

    def _newer(self, term):
        """A term newer than ours exists: it is ours now, with no vote cast in it yet."""
        if term > self.term:
            self.term = term
            self.voted = None
            self.leader = None
            self.candidacy = None if self.candidacy is None or self.candidacy[1] <= term else self.candidacy
            self.cup.sync.new_leader()
            self._save()
            if self.cup.role != self.cup.PEER and self.cup.table is not None:
                self.candidacy = None
                self.cup.become_peer(False)

    # ----- what every frame tells ------------------------------------------------
    def heard(self, sender, now):
        self.seen[sender] = now
        if self.cup.is_master():
            self.heard_at = now
            self._link(True)

    def from_leader(self, sender, term):
        """Whether a frame claiming to lead `term` is from the leader we follow; a newer
        term's leader becomes ours (unless we still hear our own, alive and leading)."""
        if term < self.term or sender == self.distrust:
            return False
        cup = self.cup
        if term > self.term:
            # nobody can have been elected while we lead a majority, or while the leader we
            # follow is alive: a cup cannot depose it just by claiming a newer term
            if cup.is_master():
                if self.leading():
                    return False
            elif self.leader is not None and self.leader != sender and cup.now - self.last_master < timing.FAIL_MS:
                return False
            self._newer(term)
        if self.leader is None:
            self.leader = sender
            cup.sync.new_leader()
        elif self.leader != sender:
            return False
        if cup.role == cup.CANDIDATE:
            self.candidacy = None
            cup.become_peer(False)
        if cup.is_master():
            return sender == cup.me
        self.heard_master()
        return True

    def give_up(self, why, forged):
        """A peer stops following a leader it caught out: it stands for election at once
        and never votes for that cup until another leads (the others do the same if they
        saw it too). `forged`: the leader sent a false op, a proof of cheating: it is
        never followed, nor voted for, again this game (a stalled round alone may be our
        own loss: we follow it again if the table keeps it)."""
        cup = self.cup
        if self.leader is None or cup.is_master():
            return
        cup.emit_local("forged", (cup.table.version if cup.table else 0, why))
        if forged:
            self.distrust = self.leader
            self.shunned = self.leader
        self.shunned = self.leader
        self.last_master = cup.now - timing.FAIL_MS
        self.leader = None

    def heard_master(self):
        now = self.cup.now
        self.last_master = now
        self.heard_at = now
        self._link(True)
        self._quorum(True)

    def _link(self, up):
        if up != self.up:
            self.up = up
            self.cup.emit_local("link", (up,))

    def _quorum(self, ok):
        if ok != self.quorum:
            self.quorum = ok
            self.cup.emit_local("quorum", (ok,))

    # ----- the leader -------------------------------------------------------------------
    def heartbeat(self):
        cup = self.cup
        t = cup.table
        cup.send(BROADCAST, wire.HEART, (t.term, t.version, cup.sync.committed, cup.me))
        self.last_heart = cup.now

    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        due = self.last_heart + timing.HEART_MS
        if now >= due:
            self.heartbeat()
            due = now + timing.HEART_MS
        voters = self.voters()
        heard = 1
        count = len(voters)
        for mid in voters:   # who follows us: acknowledgements of our term, not any frame
            if mid == cup.me:
                continue
            last = self.followed.get(mid)
            if last is None and cup.sync.acks.get(mid, 0) == 0:
                count -= 1   # just joined, still fetching the state: it cannot follow us yet
            elif last is not None and now - last < timing.FAIL_MS:
                heard += 1
        if heard >= count // 2 + 1:
            self.majority_at = now
            self._quorum(True)
        elif now - self.majority_at >= timing.FAIL_MS:
            # nothing we decide could be committed: stop leading, say so, wait for the table
            cup.send(BROADCAST, wire.HEART, (t.term, t.version, cup.sync.committed, wire.NOBODY))
            self._quorum(False)
            self.candidacy = None
            cup.become_peer(False)
            self.leader = None
            self.last_master = now
            return now
        peers = cup.present_peers()
        for mid in peers:
            last = self.seen.get(mid)
            if last is None:
                self.seen[mid] = now
                continue
            if now - last > timing.AWAY_MS:
                cup.sync.commit(tbl.op_flags(mid, t.members[mid].flags | tbl.AWAY))
                return now
            if last + timing.AWAY_MS < due:
                due = last + timing.AWAY_MS + 1
        if peers and now - self.heard_at >= timing.LOST_MS:
            self._link(False)
        return due

    def leading(self):
        """Whether we lead with a majority heard recently (else we decide nothing new)."""
        return self.cup.is_master() and self.cup.now - self.majority_at < timing.FAIL_MS

    def alive(self, mid):
        """Master: a member acknowledged or said hello: not away any longer."""
        cup = self.cup
        t = cup.table
        self.seen[mid] = cup.now
        if mid < len(t.members) and t.members[mid].flags & tbl.AWAY and not t.members[mid].flags & tbl.LEFT:
            cup.sync.commit(tbl.op_flags(mid, t.members[mid].flags & ~tbl.AWAY))

    # ----- heartbeats in -------------------------------------------------------------
    def challenged(self, sender, term):
        """Leader: a voter is in a newer term than ours (it stood for election while cut
        off from us): take that term and stand at once -- our history is the newest,
        so the table follows us again within a round trip."""
        if sender not in self.voters() or term <= self.term:
            return
        self._newer(term)
        self.stand(pre=False)

    def on_heart(self, src, f):
        term, ver, commit, master = f.body
        cup = self.cup
        t = cup.table
        if t is None or cup.me is None or f.sender == cup.me:
            return
        if master == wire.NOBODY:   # our leader lost the majority: the table waits
            if f.sender == self.leader and term == self.term and not cup.is_master():
                self.leader = None
                self.last_master = cup.now - timing.FAIL_MS   # stand as soon as our turn comes
                self._quorum(False)
            return
        if master != f.sender or not self.from_leader(f.sender, term):
            return "not-leader"
        if t.term == term and t.version > cup.sync.matched and t.version <= ver:
            cup.sync.matched = t.version   # our last entry is of this leader's term: its own
        cup.sync.learn(commit)
        if ver > t.version:
            cup.sync.need(src)
        if cup.now - cup.sync.last_ack >= timing.KEEPALIVE_MS:
            cup.sync.ack()

    # ----- elections --------------------------------------------------------------------
    def peer_tick(self, now):
        cup = self.cup
        if now - self.heard_at >= timing.LOST_MS:
            self._link(False)
        c = self.candidacy
        if c is not None:
            if now - c[0] >= timing.ELECTION_MS:
                self.candidacy = None          # no majority: the table waits, we try again later
                cup.role = cup.PEER if cup.role == cup.CANDIDATE else cup.role
                self._quorum(False)
                self.last_master = now - timing.FAIL_MS + timing.ELECTION_MS
            return now + timing.ELECTION_MS // 4
        wait = timing.FAIL_MS + timing.STAGGER_MS * self._rank()
        if now - self.last_master < wait:
            return self.last_master + wait
        self.stand(pre=True)
        return now + timing.ELECTION_MS // 4

    def _rank(self):
        """Our place among the voters who might stand (member order, our leader left out)."""
        cup = self.cup
        t = cup.table
        if t is None:
            return 0
        order = [m for m in self.voters() if m != self.leader and m != t.master
                 and not (t.members[m].flags & tbl.AWAY and m != cup.me)]
        return order.index(cup.me) if cup.me in order else len(order)

    def stand(self, pre):
        """Ask the voters for their (pre-)votes in the next term."""
        cup = self.cup
        t = cup.table
        term = max(self.term, t.term) + 1
        if not pre:
            self.term = term
            self.voted = cup.me
            self.leader = None
            self._save()
            cup.role = cup.CANDIDATE
        self.candidacy = [cup.now, term, pre, [cup.me]]
        cup.send(BROADCAST, wire.VOTE_REQ, (term, t.version, t.term, 1 if pre else 0))
        self._count()

    def on_vote_req(self, src, f):
        term, lv, lt, pre = f.body
        cup = self.cup
        t = cup.table
        cand = f.sender
        if cand == cup.me or cup.me is None:
            return
        if cand == self.shunned or cand == self.distrust:
            cup.send(src, wire.VOTE, (self.term, 0, pre))
            return
        if t is not None and (cand >= len(t.members) or t.members[cand].flags & tbl.BOT):
            return
        if cup.is_master() and term > self.term:
            self.challenged(cand, term)   # a cup back from a cut-off: we stand again at once
            return
        # a leader we still hear (other than this candidate), or our own leading, wins
        live = cup.is_master() and self.leading() or (self.leader is not None and self.leader != cand
                                                     and not cup.is_master()
                                                     and cup.now - self.last_master < timing.FAIL_MS)
        mine = (t.term, t.version) if t is not None else (0, 0)
        fresh = (lt, lv) >= mine
        if pre:
            grant = not live and term > self.term and fresh
            cup.send(src, wire.VOTE, (term, 1 if grant else 0, 1))
            return
        if live or term < self.term:
            cup.send(src, wire.VOTE, (self.term, 0, 0))
            return
        self._newer(term)
        grant = fresh and self.voted in (None, cand)
        if grant:
            self.voted = cand
            self._save()
            self.last_master = cup.now   # a vote cast: give the candidate its time
            if self.candidacy is not None and cand != cup.me:
                self.candidacy = None    # we vote for another: we do not stand ourselves
        cup.send(src, wire.VOTE, (self.term, 1 if grant else 0, 0))

    def on_vote(self, src, f):
        term, granted, pre = f.body
        cup = self.cup
        c = self.candidacy
        if not pre and term > self.term:
            self._newer(term)
            return
        if c is None or cup.table is None or term != c[1] or bool(pre) != c[2] or not granted:
            return
        if f.sender not in c[3] and f.sender in self.voters():
            c[3].append(f.sender)
            self._count()

    def _count(self):
        c = self.candidacy
        if len(c[3]) < len(self.voters()) // 2 + 1:
            return
        if c[2]:
            if c[1] != max(self.term, self.cup.table.term) + 1:
                self.candidacy = None  # the table moved on meanwhile (we voted, a leader came)
                return
            self.stand(pre=False)      # a majority would vote for us: stand for real
        else:
            self.install(c[1], c[3])

    def install(self, term, granted):
        """Lead `term`: the master op, the old master away, and a round caught before
        its call replayed (what it needs may have died with the old master: its
        contribution, the dice it held for bots and away cups). A round after its call
        goes on: every cup reveals to us, the old master too, from flash (net/hidden.py),
        and what never comes is withheld -- so no leader escapes a call it would lose by
        getting itself deposed."""
        cup = self.cup
        t = cup.table
        old = t.master
        self.candidacy = None
        self.leader = cup.me
        self.shunned = None
        self.seen = {}
        self.followed = {}
        self.majority_at = cup.now
        cup.become_master()
        cup.sync.commit(tbl.op_master(cup.me, term, sum(1 << m for m in granted)))
        if old < len(t.members) and old != cup.me and t.members[old].present():
            cup.sync.commit(tbl.op_flags(old, t.members[old].flags | tbl.AWAY))
        g = t.game
        if g is not None and t.phase == tbl.PLAYING and not (old == cup.me and cup.hidden.m is not None):
            need = g.need()   # (re-elected, we still hold our contribution: the round goes on)
            if need == BID or (need == SHAKE and t.mc != tbl.NO_DIGEST):
                cup.sync.commit(tbl.op_restart(tbl.RESTART_FAILOVER))
        self.heard_at = cup.now
        self._quorum(True)
