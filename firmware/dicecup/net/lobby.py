"""The lobby: a table is created, heard, joined with its code, arranged and started.

A cup creates a table (it becomes master) and beacons; others list the tables they
hear and join with the 4-digit code shown on the master, through a CPace session
(net/pake.py), so a recording of a join gives no offline test of a code guess:

    joiner -> master   JOIN       nonce, CPace share Ya, static public key, name
                                  (key and name are Ya's associated data: in the transcript)
    master -> joiner   CHALLENGE  nonce, share Yb, master id + static key (Yb's data),
                                  the master's confirmation tag
    joiner -> master   CONFIRM    nonce, the joiner's confirmation tag (sent even when
                                  the master's tag was wrong, so the master counts at once)
    master -> joiner   WELCOME    member id, nonce; tagged with a key from the ISK
    master -> joiner   REFUSE     nonce, why: locked, busy, full, closed (not authenticated:
                                  it only ends a join early, as jamming could)

sid = "dicecup" | tid | nonce, CI = tid | joiner address | master address. Only after
the joiner's confirmation does the master commit the join op with the joiner's key;
the joiner then has its member id and the master's key (both authenticated by the
session) and asks for the table's state, which brings every member's key. Every
session the master answers is one online guess: net/gate.py rations them (rate limit,
lockout). A join is accepted only in the lobby, or from a cup whose static key is
already a member's (it lost its welcome: welcomed again with its own id). A member
that rebooted (or joins its own table again) needs no code: its static key and flash
roster tag its HELLO, and the master sends it the state.

Seats are in join order, reorderable on the master before the game, which also picks
rule set and options and can fill seats with bots it hosts. The joiner's side of a join
is net/joining.py, loaded only while a join is under way; the master's is net/admit.py,
loaded at a JOIN and unloaded with CPace.
"""
from micropython import const
from .. import unload
from . import table as tbl
from . import wire
from . import timing

_HEARD_MS = const(3000)  # a table not heard this long drops out of tables()
_DONE_MS = const(60000)  # a confirmed session is kept this long, to welcome its joiner again
REASONS = ("", "locked", "busy", "full", "closed")   # REFUSE's codes; join_failed's reasons too
# CPace is imported for a session and unloaded when no session needs it (`_settle`):
# with its curve and hash it is ~2.5 KB of a frozen cup's RAM, used only to join; the
# master's side of a join (net/admit.py) goes with it (a lost welcome loads it again).
JOIN_MODULES = ("dicecup.net.pake", "dicecup.net.x25519", "dicecup.net.sha512", "dicecup.net.admit")


def _sid(tid, nonce):
    return b"dicecup" + bytes((tid >> 8 & 0xFF, tid & 0xFF)) + nonce


def _ci(tid, joiner, master):
    return bytes((tid >> 8 & 0xFF, tid & 0xFF)) + joiner + master


class Lobby:
    def __init__(self, cup):
        self.cup = cup
        self.heard = {}          # beacons: tid -> (addr, name, rules, members, flags, at)
        self.sessions = {}       # master: joiner address -> net/gate.py's Session
        self.gate = None         # master: net/gate.py's Gate, made at the first join it hears
        self.master_hint = None  # the master's address, from its beacon (before we have the state)
        self.last_beacon = -timing.BEACON_MS
        self.last_hello = -timing.HELLO_MS

    # ----- the master's side ----------------------------------------------------------
    def create(self, tid, code, rules, opts):
        cup = self.cup
        cup.keys.use(tid, code, 0, {})
        cup.me = 0
        cup.flash.put_table(tid, 0, code)
        cup.hidden.kept.clear()
        cup.flash.forget_roll()
        cup.election.new_table()
        cup.election.leader = 0
        cup.election.majority_at = cup.now
        cup.table = tbl.Table()
        self.sessions = {}
        self.gate = None
        cup.become_master()
        cup.sync.commit(tbl.op_join(0, cup.addr, cup.name, 0, cup.keys.ring.public()))
        cup.sync.commit(tbl.op_rules(rules, opts))

    def seats_left(self):
        return min(6, self.cup.max_cups) - len(self.cup.table.members)

    def add_bot(self, name, level):
        """Master, in the lobby: a bot of `level` (players.KINDS, one this firmware has)
        takes the next seat; the master's cup hosts it."""
        from .. import players
        cup = self.cup
        t = cup.table
        if not cup.is_master() or t.phase != tbl.LOBBY or self.seats_left() <= 0:
            raise ValueError("bots join in the lobby, up to %d seats" % min(6, cup.max_cups))
        if level not in players.available():
            raise ValueError("no %r bot on this cup (there are: %s)" % (level, ", ".join(players.available())))
        flags = tbl.BOT | players.KINDS.index(level) << tbl.LEVEL_SHIFT
        cup.sync.commit(tbl.op_join(len(t.members), bytes(6), name, flags))

    def drop_bot(self, mid):
        """Master, in the lobby: the bot `mid` leaves its seat (a player's seat is theirs
        to leave, never the master's to take)."""
        cup = self.cup
        t = cup.table
        if not cup.is_master() or t.phase != tbl.LOBBY:
            raise ValueError("bots leave in the lobby, by the master")
        if not (0 <= mid < len(t.members)) or not t.members[mid].flags & tbl.BOT or t.members[mid].flags & tbl.LEFT:
            raise ValueError("member %r is no seated bot" % (mid,))
        cup.sync.commit(tbl.op_flags(mid, t.members[mid].flags | tbl.LEFT))

    # (the master's side of a join is net/admit.py, loaded at the first JOIN it hears)
    def on_join(self, src, f):
        if self.cup.is_master():
            from .admit import on_join
            on_join(self, src, f)

    def on_confirm(self, src, f):
        if self.cup.is_master():
            from .admit import on_confirm
            on_confirm(self, src, f)

    def _settle(self):
        """Unload CPace, and the master's side of a join, once no session holds one
        (JOIN_MODULES)."""
        j = self.cup.joining
        if j is not None and j.cp is not None:
            return
        for s in self.sessions.values():
            if s.cp is not None:
                return
        unload(*JOIN_MODULES)

    def on_leave(self, src, f):
        cup = self.cup
        if not cup.is_master():
            return
        (mid,) = f.body
        t = cup.table
        if mid == f.sender and mid < len(t.members) and not t.members[mid].flags & tbl.LEFT:
            cup.sync.commit(tbl.op_flags(mid, t.members[mid].flags | tbl.LEFT))

    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        if self.sessions:
            acks = cup.sync.acks
            for src in list(self.sessions):
                s = self.sessions[src]
                if s.mid is None and now - s.at >= timing.SESSION_MS:
                    del self.sessions[src]
                    self.gate.failed(now, "join-expired")
                elif s.mid is not None and (now - s.at >= _DONE_MS or acks.get(s.mid, 0) > 0):
                    # done: kept DONE_MS for a lost welcome, or until the member acknowledges
                    # the table's ops (it has its welcome: admit.welcome set its ack back to 0)
                    del self.sessions[src]
            self._settle()
        g = self.gate
        if g is not None and t.phase == tbl.PLAYING and not self.sessions and not g.started and not g.failures \
                and g.locked_until is None:
            self.gate = None      # nothing to remember (no failure, no lockout): made again at a join
            unload("dicecup.net.gate")
        cup.deal.master_tick(now)
        due = self.last_beacon + timing.BEACON_MS
        if now >= due:
            full = len(t.members) >= min(6, cup.max_cups)
            flags = (1 if t.phase == tbl.PLAYING else 0) | (2 if full else 0)
            cup.send_beacon((tbl.RULES.index(t.rules) + 1, len(t.members), flags, cup.name.encode()[:8]))
            self.last_beacon = now
            due = now + timing.BEACON_MS
        return due

    # ----- a cup looking for a table ------------------------------------------------------
    def on_beacon(self, src, f):
        rules, members, flags, name = f.body
        self.heard[f.table] = (src, tbl.text(name), rules, members, flags, self.cup.now)

    def tables(self):
        """Tables heard recently: [(tid, master name, rules code, members, playing)]."""
        now = self.cup.now
        return [(tid, v[1], v[2], v[3], bool(v[4] & 1)) for tid, v in self.heard.items() if now - v[5] < _HEARD_MS]

    def join(self, tid, code):
        cup = self.cup
        info = self.heard.get(tid)
        if info is None:
            raise ValueError("no beacon heard from table %d" % tid)
        keys = cup.keys
        if keys.member() and keys.tid == tid and keys.ring.roster:
            # a member already: its static key is its proof, not the code
            self.hello(cup.master_addr() if cup.table is not None else info[0])
            return
        keys.use(tid, code)
        cup.me = None
        from .joining import Joining   # (here: unloaded once the join is over)
        cup.joining = Joining(self, tid, code, info[0], cup.now)
        cup.joining.start()

    def hello(self, dest):
        """We are a member without the state: ask for it."""
        cup = self.cup
        self.last_hello = cup.now
        cup.send(dest, wire.HELLO, (0,))

    def tick(self, now):
        """A cup without the table's state: say hello (member) or ask to join again."""
        cup = self.cup
        if cup.me is not None and cup.keys.member():
            if now - self.last_hello >= timing.HELLO_MS:
                from .transport import BROADCAST   # (not a global: the module's table a size smaller)
                self.hello(self.master_hint or BROADCAST)
            return self.last_hello + timing.HELLO_MS
        if cup.joining is not None:
            return cup.joining.tick(now)
        return now + 1000
