"""The lobby: a table is created, heard, joined with its code, arranged and started.

A cup creates a table (it becomes master) and beacons; others list the tables they
hear and join with the 4-digit code shown on the master: the JOIN is tagged with a
key from the code, and the WELCOME brings the salt of the table key. Seats are in
join order, reorderable on the master before the game, which also picks rule set and
options and can fill seats with bots it hosts. A member whose cup rebooted (RAM gone,
flash kept) says hello until it has the state again; a member re-sending JOIN (it
lost our welcome) is welcomed again, mid-game too.

The game's seed (the first opener, Bluff's roll-off, the Dix mille roll bases) is no
one cup's choice: the master first commits to its part m (the ante op, naming every
cup at the table), each named cup answers with a fresh nonce of its own (CONTRIB),
and the start op publishes m and every nonce; the seed hashes them all. The master
fixed m before it saw a nonce, and nobody else knew m before theirs were given.
"""
from . import fair
from . import table as tbl
from . import wire
from .table import BOT, LEFT, LOBBY, PLAYING, Table
from .timing import BEACON_MS, HELLO_MS, JOIN_MS, RESEND_MS
from .transport import BROADCAST

HEARD_MS = 3000  # a table not heard this long drops out of tables()
JOIN_FOR_MS = 20000  # a join that gets no welcome this long gives up (a "join_failed" event)


class Lobby:
    def __init__(self, cup):
        self.cup = cup
        self.heard = {}          # beacons: tid -> (addr, name, rules, members, flags, at)
        self.joining = None      # (tid, code, nonce, master addr, last sent, first sent)
        self.master_hint = None  # the master's address, from its beacon (before we have the state)
        self.last_beacon = -BEACON_MS
        self.last_hello = -HELLO_MS
        self.m = None            # master: its part of the next game's seed, committed in the ante
        self.nonces = {}         # master: member -> nonce for that game's seed
        self.nonce = None        # a named cup: (ante version, its nonce), until the game starts
        self.last_contrib = -RESEND_MS

    # ----- the master's side ----------------------------------------------------------
    def create(self, tid, code, rules, opts):
        cup = self.cup
        salt = cup.random_bytes(8)
        cup.keys.use(tid, code, salt)
        cup.me = 0
        cup.flash.put_table(tid, 0, salt, code)
        cup.flash.forget_secret()
        cup.flash.forget_roll()
        cup.election.new_table()
        cup.election.leader = 0
        cup.election.majority_at = cup.now
        cup.table = Table()
        cup.become_master()
        cup.sync.commit(tbl.op_join(0, cup.addr, cup.name))
        cup.sync.commit(tbl.op_rules(rules, opts))

    def seats_left(self):
        return min(6, self.cup.max_cups) - len(self.cup.table.members)

    def add_bot(self, name):
        cup = self.cup
        t = cup.table
        if not cup.is_master() or t.phase != LOBBY or self.seats_left() <= 0:
            raise ValueError("bots join in the lobby, up to %d seats" % min(6, cup.max_cups))
        cup.sync.commit(tbl.op_join(len(t.members), bytes(6), name, BOT))

    def on_join(self, src, f):
        cup = self.cup
        if not cup.is_master():
            return
        nonce, name = f.body
        t = cup.table
        for i in range(len(t.members)):  # a retransmitted join, or a member that lost our welcome
            if t.members[i].addr == src:
                self.welcome(src, i, nonce)
                return
        if t.phase != LOBBY or self.seats_left() <= 0:
            return  # a full table (the beacon says so) or a game under way
        mid = len(t.members)
        cup.sync.commit(tbl.op_join(mid, src, tbl.text(name)))
        self.welcome(src, mid, nonce)

    def welcome(self, src, mid, nonce):
        cup = self.cup
        cup.send(src, wire.WELCOME, (mid, nonce, cup.keys.salt), key=cup.keys.jkey)
        cup.sync.acks[mid] = 0
        cup.election.seen[mid] = cup.now

    def start(self):
        """Master: ante for a game with every cup at the table (they add their nonces)."""
        cup = self.cup
        t = cup.table
        if t.phase == PLAYING:
            raise ValueError("a game is on")
        self.m = cup.random_bytes(16)
        self.nonces = {}
        mask = 0
        for i in range(len(t.members)):
            if i != cup.me and t.members[i].present():
                mask |= 1 << i
        cup.sync.commit(tbl.op_ante(fair.master_commit(self.m), mask))
        self._deal()

    def _deal(self):
        """Master: start once every named cup has added its nonce."""
        cup = self.cup
        t = cup.table
        if self.m is None or t.ante != fair.master_commit(self.m):
            return
        nonces = []
        for i in range(8):
            if t.ante_mask >> i & 1:
                if i not in self.nonces:
                    return
                nonces.append(self.nonces[i])
        m = self.m
        self.m = None
        self.nonces = {}
        cup.sync.commit(tbl.op_start(m, nonces))

    def on_contrib(self, src, f):
        cup = self.cup
        t = cup.table
        if t is None or not t.ante_mask >> f.sender & 1:
            return "not-named"
        if not cup.is_master() or self.m is None:
            return
        if f.sender not in self.nonces:
            self.nonces[f.sender] = f.body[1]   # the first stands
        self._deal()

    def peer_tick(self, now):
        """A cup named in an ante sends its nonce until the game starts."""
        cup = self.cup
        t = cup.table
        if t.phase == PLAYING or t.ante == tbl.NO_DIGEST or cup.me is None or not t.ante_mask >> cup.me & 1:
            self.nonce = None
            return None
        key = t.ante + bytes((t.ante_term >> 8 & 0xFF, t.ante_term & 0xFF))
        if self.nonce is None or self.nonce[0] != key:
            self.nonce = (key, cup.random_bytes(16))
        if now - self.last_contrib >= RESEND_MS:
            self.last_contrib = now
            cup.send(cup.master_addr(), wire.CONTRIB, (t.version, self.nonce[1]))
        return self.last_contrib + RESEND_MS

    def on_leave(self, src, f):
        cup = self.cup
        if not cup.is_master():
            return
        (mid,) = f.body
        t = cup.table
        if mid == f.sender and mid < len(t.members) and not t.members[mid].flags & LEFT:
            cup.sync.commit(tbl.op_flags(mid, t.members[mid].flags | LEFT))

    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        if self.m is not None and t.phase != PLAYING:
            gone = [i for i in range(len(t.members)) if t.ante_mask >> i & 1 and not t.members[i].present()]
            if gone and t.ante == fair.master_commit(self.m):
                self.start()   # a named cup went away before it gave its nonce: ante again without it
        due = self.last_beacon + BEACON_MS
        if now >= due:
            full = len(t.members) >= min(6, cup.max_cups)
            flags = (1 if t.phase == PLAYING else 0) | (2 if full else 0)
            cup.send_beacon((tbl.RULES.index(t.rules) + 1, len(t.members), flags, cup.name.encode()[:8]))
            self.last_beacon = now
            due = now + BEACON_MS
        return due

    # ----- a cup looking for a table ------------------------------------------------------
    def on_beacon(self, src, f):
        rules, members, flags, name = f.body
        self.heard[f.table] = (src, tbl.text(name), rules, members, flags, self.cup.now)

    def tables(self):
        """Tables heard recently: [(tid, master name, rules code, members, playing)]."""
        now = self.cup.now
        return [(tid, v[1], v[2], v[3], bool(v[4] & 1)) for tid, v in self.heard.items() if now - v[5] < HEARD_MS]

    def join(self, tid, code):
        cup = self.cup
        info = self.heard.get(tid)
        if info is None:
            raise ValueError("no beacon heard from table %d" % tid)
        cup.keys.use(tid, code)
        nonce = cup.random_bytes(8)
        self.joining = (tid, code, nonce, info[0], cup.now, cup.now)
        self._send_join()

    def _send_join(self):
        cup = self.cup
        tid, code, nonce, maddr = self.joining[:4]
        cup.send(maddr, wire.JOIN, (nonce, cup.name.encode()[:8]), key=cup.keys.jkey)

    def on_welcome(self, src, f):
        cup = self.cup
        if self.joining is None:
            return
        mid, nonce, salt = f.body
        tid, code, want, maddr = self.joining[:4]
        if nonce != want or mid >= 6:
            return
        self.joining = None
        cup.me = mid
        cup.keys.use(tid, code, salt)
        cup.flash.put_table(tid, mid, salt, code)
        cup.flash.forget_secret()
        cup.flash.forget_roll()
        cup.election.new_table()
        cup.table = None
        self.master_hint = maddr
        self.hello(maddr)

    def hello(self, dest):
        """We are a member without the state: ask for it."""
        cup = self.cup
        self.last_hello = cup.now
        cup.send(dest, wire.HELLO, (0,))

    def tick(self, now):
        """A cup without the table's state: say hello (member) or ask to join again."""
        cup = self.cup
        if cup.me is not None and cup.keys.key is not None:
            if now - self.last_hello >= HELLO_MS:
                self.hello(self.master_hint or BROADCAST)
            return self.last_hello + HELLO_MS
        if self.joining is not None:
            tid, code, nonce, maddr, last, first = self.joining
            if now - first >= JOIN_FOR_MS:
                self.joining = None   # no welcome: a wrong code, a full table, or no radio contact
                cup.emit_local("join_failed", (tid, "no welcome from the table's master"))
                return now + 1000
            if now - last >= JOIN_MS:
                heard = self.heard.get(tid)
                if heard is not None:
                    maddr = heard[0]   # the table's master now (it may have changed since)
                self.joining = (tid, code, nonce, maddr, now, first)
                self._send_join()
            return self.joining[4] + JOIN_MS
        return now + 1000
