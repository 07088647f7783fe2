"""One cup's side of the table protocol: a pure state machine, fed frames and time.

    cup = Cup(addr, store, random_bytes, name, log=print)
    cup.create(table_id, code, "perudo", opts)     # become master of a new table
    cup.join(table_id, code)                       # or join one heard in a beacon
    cup.on_frame(src, frame_bytes, now_ms)         # every frame the radio hands over
    cup.tick(now_ms)                               # often (every few ms)
    cup.out                                        # (dest, frame) pairs to put on air

It never sleeps and never touches a radio, so the same code runs on the cup (an
asyncio loop around a transport) and in the host simulation (a simulated clock).

Roles. The master turns inputs (joins, actions, commitments, reveals) into ops,
applies them to its `Table` and broadcasts each as an UPDATE with the new version; it
retransmits until every present cup has acknowledged that version. A peer applies
UPDATEs in version order (dropping duplicates and stale ones, buffering early ones and
asking for what it missed), acknowledges, and sends its own inputs to the master until
it sees their effect. When the master falls silent, the peers elect the first present
member in member order; it takes the table over from the latest state any cup holds.
"""
import struct

from ..engine import IllegalAction, loads
from ..engine.actions import faces_of, kind, to_json
from ..jsonw import Obj, dumps
from . import fair, table, wire
from .table import AWAY, BOT, DONE, LEFT, LOBBY, NO_DIGEST, NO_ROOT, PLAYING, Table, OpError
from .transport import BROADCAST

# timing (ms)
RETX_MS = 40          # master: resend what a present cup has not acknowledged
HEART_MS = 150       # master: heartbeat (peers judge it alive by any frame)
BEACON_MS = 500       # master: beacon for cups looking for a table
KEEPALIVE_MS = 250    # peer: acknowledgement even with nothing new
AWAY_MS = 4000       # master: a cup silent this long is away, a bot plays its seat
FAIL_MS = 3000       # peer: a master silent this long has failed
COMMIT_MS = 2500      # master: wait this long for the round's commitments
REVEAL_MS = 2500      # master: wait this long for the reveals, then replay the round
THINK_MS = 250        # autoplay: a bot's "thinking" before it acts
HISTORY = 48          # ops kept for cups that missed some
SNAP_CHUNK = 200

RESTART_REVEAL = 1
RESTART_FAILOVER = 2
RESTART_COMMIT = 3


class Cup:
    def __init__(self, addr, store, random_bytes, name="cup", log=print, autoplay=False, rng=None, max_cups=6):
        self.addr = addr
        self.store = store
        self.random_bytes = random_bytes
        self.name = name
        self.log = log or (lambda line: None)  # default: one JSON line per event on serial
        self.max_cups = max_cups   # what the radio allows (BLE: 5), bots included
        self.autoplay = autoplay   # a bot plays this cup's own seat (simulation, demo)
        self.rng = rng             # for the autoplay bot's choices
        self.out = []
        self.now = 0
        self.table = None
        self.tid = None
        self.key = None
        self.jkey = None
        self.me = None
        self.code = None
        self.joining = None        # (tid, code, nonce, master addr, since)
        self.heard = {}            # beacons: tid -> (addr, name, rules, members, flags, at)
        self.window = wire.Window()
        self.pending = {}          # version -> op, ahead of ours
        self.history = []          # (version, op) recently applied
        self.errors = {}           # frame rejections by code
        self.counts = {"races": 0, "retransmits": 0, "rejects": 0, "resyncs": 0}
        self.dead = False
        # master's books
        self.acks = {}             # member -> version acknowledged
        self.seen = {}             # member -> last time heard
        self.last_retx = 0
        self.last_heart = -HEART_MS
        self.last_beacon = -BEACON_MS
        self.last_master = 0       # peer: last time the master was heard
        self.last_keepalive = 0
        self.suspects = []         # peer: masters given up on, in order
        self._waited_for = None    # peer: the member expected to take over
        self._last_commit = -RETX_MS * 2   # peer: when our COMMIT / REVEAL last went out
        self._last_reveal = -RETX_MS * 2
        self._master_hint = None   # joining: the master's address, from its beacon
        self.takeover = None       # new master: (since, best version seen, from whom)
        self.m = None              # master's round contribution
        self.commits = {}          # seat -> digest (round being opened)
        self.reveals = {}          # seat -> root
        self.held = {}             # seat -> root of dice the master holds (its own, bots')
        self.opened_at = 0
        self.called_at = 0
        self.rolls = {}            # roll id -> dict (dix mille / reroll witness flow)
        self._witnessed = {}       # roll id -> the nonce we gave as a witness
        self._reroll_checked = -1  # version at which the autoplay last thought of a reroll
        # this cup's own seat
        self.root = None           # (round, root) of my dice this round
        self.hand = []
        self.sent = None           # (frame kind, payload, base version, at): resent until seen
        self.bot_due = None        # time the autoplay bot acts
        self.reject = None
        self.snap = {}             # incoming snapshot parts
        self._boot()

    # ----- persistence -----------------------------------------------------------
    def _boot(self):
        """Read what flash kept: keys, membership, sequence epoch, round secrets."""
        st = self.store
        epoch = st.get("epoch")
        epoch = (epoch[0] << 8 | epoch[1]) + 1 if epoch else 1
        st.put("epoch", bytes((epoch >> 8 & 0xFF, epoch & 0xFF)))
        self.seq = (epoch & 0xFFF) << 18
        t = st.get("table")
        if t:
            self.tid = t[0] << 8 | t[1]
            self.me = t[2]
            salt = t[3:11]
            self.code = t[11:].decode()
            self.key = wire.table_key(self.tid, self.code, salt)
            self.jkey = wire.join_key(self.tid, self.code)
            r = st.get("root")
            if r:
                self.root = (r[0] << 8 | r[1], r[2:18])
            self.rejoin = True
        else:
            self.rejoin = False

    def _save_table(self, salt):
        self.store.put("table", bytes((self.tid >> 8, self.tid & 0xFF, self.me)) + salt + self.code.encode())

    # ----- sending ---------------------------------------------------------------
    def _frame(self, ftype, body, key=None):
        self.seq += 1
        if self.seq & 0x3FFFF == 0:  # epoch exhausted: next epoch, persisted
            ep = (self.seq >> 18) & 0xFFF
            self.store.put("epoch", bytes((ep >> 8, ep & 0xFF)))
        sender = self.me if self.me is not None else wire.NOBODY
        ver = self.table.version if self.table else 0
        return wire.encode(ftype, self.tid or 0, sender, self.seq, ver, body, key or self.key)

    def send(self, dest, ftype, body, key=None):
        if self.dead:
            return
        self.out.append((dest, self._frame(ftype, body, key)))

    def master_addr(self):
        t = self.table
        if t is None or t.master >= len(t.members):
            return BROADCAST
        return t.members[t.master].addr

    def is_master(self):
        return self.table is not None and self.me is not None and self.table.master == self.me and self.takeover is None

    # ----- the serial event log --------------------------------------------------
    def _log(self, pairs):
        self.log(dumps(Obj([("t", self.now), ("cup", self.me if self.me is not None else -1)] + pairs)))

    def _log_op(self, name, events, info, op):
        t = self.table
        pairs = [("v", t.version), ("op", name)]
        for k in ("seat", "member", "name", "round", "rules", "master", "old", "term", "reason", "flags", "seats"):
            if k in info:
                pairs.append((k, info[k]))
        if "action" in info:
            pairs.append(("action", to_json(info["action"])))
        if "faces" in info:
            pairs.append(("faces", info["faces"]))
        if name == "settle":
            pairs.append(("hands", info["hands"]))
            pairs.append(("cheats", info["cheats"]))
        pairs.append(("events", [_ev_json(e) for e in events]))
        pairs.append(("hex", _hex(op)))
        pairs.append(("state", _hex(t.digest_of())))
        self._log(pairs)
        for s in info.get("cheats", ()):
            self._log([("v", t.version), ("cheat", s), ("name", t.name_of(s)),
                       ("note", "reveal does not match its commitment: all dice lost")])

    # ----- table life cycle --------------------------------------------------------
    def create(self, tid, code, rules="perudo", opts=0):
        """Become the master of a new table; `code` is what joiners type in."""
        self.tid = tid
        self.code = code
        salt = self.random_bytes(8)
        self.salt = salt
        self.key = wire.table_key(tid, code, salt)
        self.jkey = wire.join_key(tid, code)
        self.me = 0
        self.table = Table()
        self._save_table(salt)
        self.store.delete("root")
        self._commit(table.op_join(0, self.addr, self.name))
        self._commit(table.op_rules(rules, opts))

    def join(self, tid, code):
        """Ask the master of table `tid` (heard in a beacon) to let this cup in."""
        info = self.heard.get(tid)
        if info is None:
            raise ValueError("no beacon heard from table %d" % tid)
        self.tid = tid
        self.code = code
        self.jkey = wire.join_key(tid, code)
        nonce = self.random_bytes(8)
        self.joining = (tid, code, nonce, info[0], self.now)
        self.send(info[0], wire.JOIN, (nonce, self.name.encode()[:8]), key=self.jkey)

    def tables(self):
        """Tables heard recently: [(tid, master name, rules code, members, playing)]."""
        return [(tid, v[1], v[2], v[3], bool(v[4] & 1)) for tid, v in self.heard.items() if self.now - v[5] < 3000]

    def add_bot(self, name):
        t = self.table
        if not self.is_master() or t.phase != LOBBY or len(t.members) >= min(6, self.max_cups):
            raise ValueError("bots join in the lobby, up to %d seats" % min(6, self.max_cups))
        self._commit(table.op_join(len(t.members), bytes(6), name, BOT))

    def set_rules(self, rules, opts=0):
        self._commit(table.op_rules(rules, opts))

    def set_seats(self, order):
        self._commit(table.op_seats(order))

    def start(self):
        """Master: start the game with the seats and rules of the lobby."""
        if not self.is_master():
            raise ValueError("only the master starts the game")
        self._commit(table.op_start(self.random_bytes(16)))

    def leave(self):
        """This player leaves: in the lobby the seat goes, in a game a bot plays it."""
        if self.is_master():
            self._commit(table.op_flags(self.me, LEFT))
        elif self.table is not None:
            self.send(self.master_addr(), wire.LEAVE, (self.me,))

    def act(self, action, then=None):
        """The player's action (from the buttons or the autoplay bot). `then`: a Bluff
        reroll to make right after this bid, sent in the same frame so that no other
        player can act in between."""
        t = self.table
        seat = t.seat_of(self.me)
        if kind(action) == "roll" and t.game.name == "dixmille":
            return self._start_roll(seat)
        if self.is_master():
            self.act_for(seat, action)
            return
        extra = self._reroll_extra(seat, action) if kind(action) == "reroll" else b""
        if then is not None:
            extra = struct.pack(">I", then) + self._reroll_extra(seat, then)
        body = (seat, action, t.version, extra)
        self.sent = (wire.ACTION, body, t.version, self.now)
        self.send(self.master_addr(), wire.ACTION, body)

    # ----- receiving -----------------------------------------------------------------
    def on_frame(self, src, data, now):
        """One frame from the radio. Bad frames are counted and dropped, never raised."""
        self.now = now
        if self.dead:
            return
        try:
            f = wire.decode(data, self.tid if self.key or self.jkey else None)
            kind_ = wire.key_kind(f.type)
            if kind_ == 1:
                if self.jkey is None:
                    raise wire.FrameError("foreign-table")
                wire.check(f, self.jkey)
            elif kind_ == 2:
                if self.key is None:
                    raise wire.FrameError("bad-tag", "not a member yet")
                wire.check(f, self.key)
            if kind_ and not self.window.accept((f.sender, src), f.seq):
                raise wire.FrameError("replay")
        except wire.FrameError as e:
            self.errors[e.code] = self.errors.get(e.code, 0) + 1
            return
        h = _HANDLERS.get(f.type)
        if h is not None:
            if f.sender != wire.NOBODY:
                self.seen[f.sender] = now
            try:
                h(self, src, f)
            except (OpError, IllegalAction, ValueError, IndexError, KeyError, TypeError) as e:
                # a frame that authenticated but makes no sense here: drop it, keep going
                self.errors["refused"] = self.errors.get("refused", 0) + 1
                self._log([("error", "frame"), ("type", f.name()), ("reason", repr(e)[:80])])

    def _on_beacon(self, src, f):
        rules, members, flags, name = f.body
        self.heard[f.table] = (src, table.text(name), rules, members, flags, self.now)

    def _on_join(self, src, f):
        if not self.is_master():
            return
        nonce, name = f.body
        t = self.table
        for i in range(len(t.members)):  # a retransmitted join: welcome again
            if t.members[i].addr == src:
                self._welcome(src, i, nonce)
                return
        if t.phase != LOBBY or len(t.members) >= min(6, self.max_cups):
            return  # a full table (the lobby says so in the beacon) or a game under way
        mid = len(t.members)
        self._commit(table.op_join(mid, src, table.text(name)))
        self._welcome(src, mid, nonce)

    def _welcome(self, src, mid, nonce):
        self.send(src, wire.WELCOME, (mid, nonce, self.salt), key=self.jkey)
        self.acks[mid] = 0
        self.seen[mid] = self.now

    def _on_welcome(self, src, f):
        if self.joining is None:
            return
        mid, nonce, salt = f.body
        tid, code, want, maddr, _ = self.joining
        if nonce != want:
            return
        self.joining = None
        self.me = mid
        self.salt = salt
        self.key = wire.table_key(tid, code, salt)
        self._save_table(salt)
        self.store.delete("root")
        self.table = None
        self._master_hint = maddr
        self.send(maddr, wire.HELLO, (0,))

    def _on_hello(self, src, f):
        """A member is (back): send it the state and take it off 'away'."""
        if not self.is_master():
            return
        t = self.table
        mid = f.sender
        if mid >= len(t.members) or t.members[mid].addr != src:
            return
        (ver,) = f.body
        self.acks[mid] = ver
        self._send_snapshot(src)
        flags = t.members[mid].flags
        if flags & AWAY:
            self._commit(table.op_flags(mid, flags & ~AWAY))

    def _send_snapshot(self, dest):
        snap = self.table.snapshot()
        parts = [snap[i:i + SNAP_CHUNK] for i in range(0, len(snap), SNAP_CHUNK)]
        for i in range(len(parts)):
            self.send(dest, wire.SNAP, (self.table.term, self.table.version, i, len(parts), parts[i]))

    def _on_snap(self, src, f):
        term, ver, part, parts, chunk = f.body
        if self.table is not None and ver <= self.table.version:
            return
        got = self.snap.setdefault(ver, {})
        got[part] = chunk
        if len(got) < parts:
            return
        data = b"".join(got[i] for i in range(parts))
        self.snap = {}
        try:
            t = Table.from_snapshot(data)
        except OpError:
            self.errors["snapshot"] = self.errors.get("snapshot", 0) + 1
            return
        self.table = t
        self.pending = {}
        self.history = []
        self.counts["resyncs"] += 1
        self.last_master = self.now
        self._log([("v", t.version), ("snap", _hex(data)), ("state", _hex(t.digest_of()))])
        self._refresh_hand()
        self._ack()

    def _on_update(self, src, f):
        term, ver, op = f.body
        t = self.table
        if t is None:
            self.send(src, wire.HELLO, (0,))
            return
        self.last_master = self.now
        if self.is_master():
            if term > t.term:  # a newer master exists: step down
                self.takeover = None
                self._become_peer()
            else:
                return
        if ver <= t.version:
            self._ack()  # a duplicate or stale version: acknowledge so the master stops
            return
        self.pending[ver] = op
        self._drain()
        if self.pending and self.table is not None:
            self.send(self.master_addr(), wire.NEED, (self.table.version + 1,))

    def _drain(self):
        changed = False
        while self.table is not None and (self.table.version + 1) in self.pending:
            op = self.pending.pop(self.table.version + 1)
            if not self._apply(op):
                self.pending = {}
                self.send(self.master_addr(), wire.HELLO, (self.table.version,))
                break
            changed = True
        if changed:
            self._ack()

    def _apply(self, op):
        t = self.table
        try:
            name, events, info = t.apply(op)
        except OpError as e:
            self.errors["op"] = self.errors.get("op", 0) + 1
            self._log([("v", t.version), ("error", "op"), ("reason", str(e))])
            return False
        self.history.append((t.version, op))
        if len(self.history) > HISTORY:
            self.history.pop(0)
        self._log_op(name, events, info, op)
        self._on_op(name, info)
        return True

    def _ack(self):
        if self.table is not None and not self.is_master() and self.me is not None:
            self.send(self.master_addr(), wire.ACK, (self.table.version,))
            self.last_keepalive = self.now

    def _on_ack(self, src, f):
        (ver,) = f.body
        mid = f.sender
        if self.takeover is not None:
            since, best, who = self.takeover
            if ver > best:
                self.takeover = (since, ver, src)
            return
        if not self.is_master():
            return
        if ver > self.acks.get(mid, -1):
            self.acks[mid] = ver
        self._note_alive(mid)

    def _note_alive(self, mid):
        t = self.table
        if mid < len(t.members) and t.members[mid].flags & AWAY and not t.members[mid].flags & LEFT:
            self._commit(table.op_flags(mid, t.members[mid].flags & ~AWAY))

    def _on_need(self, src, f):
        (first,) = f.body
        ops = [(v, op) for v, op in self.history if v >= first]
        if self.table is None:
            return
        if not ops or ops[0][0] != first:
            if self.is_master():
                self._send_snapshot(src)
            return
        for v, op in ops[:8]:
            self.send(src, wire.UPDATE, (self.table.term, v, op))

    def _on_heart(self, src, f):
        term, ver, master = f.body
        t = self.table
        if t is None or self.me is None:
            return
        if self.is_master() or self.takeover is not None:
            if term > t.term or (term == t.term and master < self.me):
                self.takeover = None
                self._become_peer()
            else:
                return
        if term >= t.term:  # the master, or a new one whose master op is on its way
            self.last_master = self.now
            if ver > t.version:
                self.send(src, wire.NEED, (t.version + 1,))
        if self.now - self.last_keepalive >= KEEPALIVE_MS:
            self.send(src, wire.ACK, (t.version,))
            self.last_keepalive = self.now

    def _on_action(self, src, f):
        if not self.is_master():
            return
        seat, action, base, extra = f.body
        t = self.table
        mid = f.sender
        if seat >= len(t.seats) or t.seats[seat] != mid or t.game is None:
            self.send(src, wire.REJECT, (base, b"not-your-seat"))
            return
        if base != t.version:
            # a later frame of an action already applied, or a call that lost the race
            for v, op in self.history:
                if v > base and op == table.op_act(seat, action, extra):
                    return
            if kind(action) == "exact":
                self.counts["races"] += 1
            self.send(src, wire.REJECT, (base, b"stale"))
            return
        if self.rolls:
            return  # a reroll of the last bet waits for its witness: it came first
        then = None
        if kind(action) == "bid" and len(extra) >= 4:  # a bid with the reroll right after it
            then = struct.unpack(">I", extra[:4])[0]
            extra, rextra = b"", extra[4:]
        try:
            self._commit(table.op_act(seat, action, self._with_witness(action, extra)))
            if then is not None:
                self._commit(table.op_act(seat, then, self._with_witness(then, rextra)))
        except OpError as e:
            code = str(e).split(": ")[-1]
            self.counts["rejects"] += 1
            self.send(src, wire.REJECT, (base, code.encode()[:40]))

    def _on_reject(self, src, f):
        base, code = f.body
        if self.sent is not None and self.sent[2] == base:
            self.sent = None
            self.reject = table.text(code)
            self._log([("v", self.table.version), ("reject", self.reject)])
            if code == b"stale":
                self.bot_due = None  # think again on the newer state

    def _on_commit(self, src, f):
        rno, seat, d = f.body
        t = self.table
        if not self.is_master() or t.game is None or t.mc == NO_DIGEST or t.seed != NO_ROOT:
            return
        if rno != t.game.round & 0xFFFF or seat >= len(t.seats) or t.holders[seat] != f.sender:
            return
        self.commits[seat] = d

    def _on_reveal(self, src, f):
        rno, seat, root = f.body
        t = self.table
        if not self.is_master() or t.game is None or t.game.phase != 2:
            return
        if rno != t.game.round & 0xFFFF or seat >= len(t.seats) or t.holders[seat] != f.sender:
            return
        self.reveals[seat] = root

    def _on_leave(self, src, f):
        if not self.is_master():
            return
        (mid,) = f.body
        t = self.table
        if mid == f.sender and mid < len(t.members):
            self._commit(table.op_flags(mid, t.members[mid].flags | LEFT))

    # ----- the master's side -----------------------------------------------------------
    def _commit(self, op):
        """Master: apply an op to our replica and put it on air (OpError if refused)."""
        t = self.table
        name, events, info = t.apply(op)
        self.history.append((t.version, op))
        if len(self.history) > HISTORY:
            self.history.pop(0)
        self._log_op(name, events, info, op)
        self.send(BROADCAST, wire.UPDATE, (t.term, t.version, op))
        self.last_retx = self.now
        self._on_op(name, info)

    def _present_peers(self):
        t = self.table
        return [i for i in range(len(t.members)) if i != self.me and t.members[i].present()]

    def _master_tick(self):
        t = self.table
        now = self.now
        if now - self.last_heart >= HEART_MS:
            self.send(BROADCAST, wire.HEART, (t.term, t.version, self.me))
            self.last_heart = now
        if now - self.last_beacon >= BEACON_MS and (t.phase == LOBBY or self.tid is not None):
            flags = (1 if t.phase == PLAYING else 0) | (2 if len(t.members) >= min(6, self.max_cups) else 0)
            self.out.append((BROADCAST, wire.encode(wire.BEACON, self.tid, self.me, self._next_seq(), t.version,
                                                    (_rules_code(t.rules), len(t.members), flags,
                                                     self.name.encode()[:8]))))
            self.last_beacon = now
        # who is silent, who is behind
        behind = []
        for mid in self._present_peers():
            last = self.seen.get(mid)
            if last is None:
                self.seen[mid] = now
                continue
            if now - last > AWAY_MS:
                self._commit(table.op_flags(mid, t.members[mid].flags | AWAY))
                return
            v = self.acks.get(mid, 0)
            if v < t.version:
                behind.append(v)
        if behind and now - self.last_retx >= RETX_MS:
            # resend what each lagging cup needs next (its next three ops), lowest first;
            # a cup past our history gets a snapshot when it says hello or asks
            want = []
            for a in sorted(set(behind)):
                for v in range(a + 1, min(a + 3, t.version) + 1):
                    if v not in want:
                        want.append(v)
            for v, op in self.history:
                if v in want[:6]:
                    self.send(BROADCAST, wire.UPDATE, (t.term, v, op))
                    self.counts["retransmits"] += 1
            self.last_retx = now
        self._drive()

    def _next_seq(self):
        self.seq += 1
        return self.seq

    def _drive(self):
        """Master: move the game on — open rounds, seed them, settle, bots' turns."""
        t = self.table
        g = t.game
        if t.phase != PLAYING or g is None:
            return
        now = self.now
        if g.name == "dixmille":
            self._drive_dixmille()
            return
        if self.rolls:
            self._drive_rolls()  # a reroll of ours waits for its witness nonce
            return
        if g.phase == 0:
            if t.mc == NO_DIGEST:
                self._open_round()
                return
            waiting = [s for s in range(len(t.seats)) if g.dice[s] and t.holders[s] != self.me and s not in self.commits]
            if not waiting:
                digests = []
                for s in range(len(t.seats)):
                    digests.append(t.digests[s] if t.holders[s] == self.me else self.commits.get(s, NO_DIGEST))
                self._commit(table.op_seed(self.m, digests))
            elif now - self.opened_at > COMMIT_MS:
                for s in waiting:  # silent cups: away, and the round opens again
                    mid = t.holders[s]
                    self._commit(table.op_flags(mid, t.members[mid].flags | AWAY))
                self._commit(table.op_restart(RESTART_COMMIT))
            return
        if g.phase == 1:
            b = g.bidder
            if b >= 0 and self._reroll_checked != t.version and not self.rolls and \
                    (t.bot_plays(b) or t.seats[b] == self.me and self.autoplay) and b in self.held:
                self._reroll_checked = t.version
                from .. import bots
                a = bots.reroll(g, b, self._hand_of(b), self.rng or _BytesRng(self.random_bytes))
                if a is not None:
                    self.act_for(b, a)
                    return
            seat = g.to_act()
            if t.bot_plays(seat) or t.seats[seat] == self.me and self.autoplay:
                if self.bot_due is None:
                    self.bot_due = now + _think(g)
                elif now >= self.bot_due:
                    self.bot_due = None
                    self._bot_act(seat)
            return
        if g.phase == 2:
            for s, root in self.held.items():
                self.reveals[s] = root
            need = [s for s in range(len(t.seats)) if g.dice[s] and s not in self.reveals]
            if not need:
                roots = [self.reveals.get(s, NO_ROOT) if g.dice[s] else NO_ROOT for s in range(len(t.seats))]
                self._commit(table.op_settle(roots))
            elif now - self.called_at > REVEAL_MS:
                self._commit(table.op_restart(RESTART_REVEAL))

    def _open_round(self):
        t = self.table
        g = t.game
        self.m = self.random_bytes(16)
        self.commits = {}
        self.reveals = {}
        self.held = {}
        holders = []
        digests = []
        for s in range(len(t.seats)):
            mid = t.seats[s]
            holder = mid if t.members[mid].present() or mid == self.me else self.me
            holders.append(holder)
            if holder == self.me and g.dice[s]:
                root = self.random_bytes(16)
                self.held[s] = root
                digests.append(fair.seat_digest(root, 0, g.dice[s]))
        # the master's secrets stay in RAM: if it dies, the round is replayed anyway
        self.opened_at = self.now
        self._commit(table.op_round(g.round, fair.master_commit(self.m), holders, digests))

    def _bot_act(self, seat):
        from .. import bots
        t = self.table
        g = t.game
        hand = self._hand_of(seat)
        rng = self.rng or _BytesRng(self.random_bytes)
        action = bots.act(g, seat, hand, rng)
        if action is None:
            return
        self.act_for(seat, action)

    def _hand_of(self, seat):
        """Dice the master can see for a seat it holds (its own, bots'), else []."""
        t = self.table
        root = self.held.get(seat)
        if root is None:
            return []
        n = t.game.hidden(seat)
        return fair.faces(root, t.gens[seat], n, t.dice_seed(seat))

    def _my_root(self, seat):
        if self.is_master():
            return self.held.get(seat)
        return self.root[1] if self.root else None

    def _reroll_extra(self, seat, action):
        """Bluff reroll extras for an action of ours (b"" for any other action): which
        hidden dice are set aside, with their secrets (they are now face up), the
        commitments of every hidden die (so all can check those secrets against the
        seat's digest) and the digest of the fresh dice under the cup. The witness
        nonce that seeds the fresh dice is put in front by the master."""
        if kind(action) != "reroll":
            return b""
        t = self.table
        g = t.game
        root = self._my_root(seat)
        if root is None:
            raise OpError("no dice of ours to reroll")
        gen = t.gens[seat]
        n = g.hidden(seat)
        secrets = [fair.secret(root, gen, i) for i in range(n)]
        seed = t.dice_seed(seat)
        faces = [fair.face(x, seed) for x in secrets]
        aside = []
        for f in faces_of(action):
            for i in range(n):
                if faces[i] == f and i not in aside:
                    aside.append(i)
                    break
            else:
                raise OpError("not-your-dice")
        new = fair.seat_digest(root, gen + 1, n - len(aside))
        return (new + bytes((len(aside),)) + b"".join(bytes((i,)) + secrets[i] for i in aside)
                + b"".join(fair.commit(x) for x in secrets))

    def _with_witness(self, action, extra):
        """Master: a cup's reroll gets our fresh nonce as its witness."""
        if kind(action) != "reroll":
            return extra
        return self.random_bytes(16) + extra

    # ----- dix mille rolls ---------------------------------------------------------------
    def act_for(self, seat, action):
        """Master: an action for a seat it holds (its own, a bot's); a reroll waits
        for a witness cup's nonce first."""
        t = self.table
        try:
            extra = self._reroll_extra(seat, action)
            if extra:
                self.rolls = {t.version: {"seat": seat, "d": extra[:12], "w": None, "root": None,
                                          "at": self.now, "reroll": (action, extra)}}
                self._drive_rolls()
            else:
                self._commit(table.op_act(seat, action))
        except OpError as e:
            self._log([("v", t.version), ("error", "master"), ("reason", str(e))])

    def _drive_dixmille(self):
        t = self.table
        g = t.game
        seat = g.to_act()
        if seat is None:
            return
        if t.bot_plays(seat) or (t.seats[seat] == self.me and self.autoplay):
            if self.bot_due is None:
                self.bot_due = self.now + THINK_MS
            elif self.now >= self.bot_due and not self.rolls:
                self.bot_due = None
                from .. import bots
                rng = self.rng or _BytesRng(self.random_bytes)
                action = bots.dixmille(g, seat, rng)
                if kind(action) == "roll":
                    self._start_roll(seat)
                else:
                    self._commit(table.op_act(seat, action))
        self._drive_rolls()

    def _start_roll(self, seat):
        """A Dix mille roll for `seat`: commit now, reveal after the witness nonce."""
        t = self.table
        root = self.random_bytes(16)
        d = fair.seat_digest(root, 0, t.game.left)
        rid = t.version
        self.rolls = {rid: {"seat": seat, "root": root, "d": d, "w": None, "at": self.now}}
        if self.is_master():
            return
        body = (rid, seat, d)
        self.sent = (wire.ROLLC, body, t.version, self.now)
        self.send(self.master_addr(), wire.ROLLC, body)

    def _drive_rolls(self):
        """Master: a roll it holds needs a witness cup's nonce, then it is applied."""
        for rid, r in list(self.rolls.items()):
            if r.get("cup"):
                continue  # a cup's own roll: it reveals after our witness nonce
            if r["w"] is None:
                peers = self._present_peers()
                if not peers or self.now - r["at"] > COMMIT_MS:
                    r["w"] = self.random_bytes(16)  # nobody else to witness: our own nonce
                elif self.now - r.get("asked", -RETX_MS * 3) >= RETX_MS * 3:
                    r["asked"] = self.now
                    self.send(self.table.members[peers[0]].addr, wire.ROLLC, (rid, r["seat"], r["d"]))
                    continue
                else:
                    continue
            self.rolls = {}
            if "reroll" in r:
                action, extra = r["reroll"]
                try:
                    self._commit(table.op_act(r["seat"], action, r["w"] + extra))
                except OpError as e:
                    self._log([("v", self.table.version), ("error", "reroll"), ("reason", str(e))])
            else:
                self._commit(table.op_roll(r["seat"], r["d"], r["w"], r["root"]))
            return

    def _on_rollc(self, src, f):
        rid, seat, d = f.body
        t = self.table
        if t is None:
            return
        if self.is_master():
            # a cup commits to its roll: we witness it with a fresh nonce
            if t.game is None or t.game.name != "dixmille" or t.game.to_act() != seat or t.seats[seat] != f.sender:
                return
            if rid != t.version:
                return  # a late copy of a roll already made
            r = self.rolls.get(rid)
            if r is None or r["seat"] != seat:
                r = {"seat": seat, "d": d, "w": self.random_bytes(16), "root": None, "at": self.now, "cup": True}
                self.rolls = {rid: r}
            self.send(src, wire.WITNESS, (rid, r["w"]))
        else:
            # the master asks us to witness one of its rolls (same nonce if it asks again)
            w = self._witnessed.get(rid)
            if w is None:
                w = self.random_bytes(16)
                self._witnessed = {rid: w}
            self.send(src, wire.WITNESS, (rid, w))

    def _on_witness(self, src, f):
        rid, w = f.body
        r = self.rolls.get(rid)
        if r is None:
            return
        if self.is_master():
            if r["w"] is None:
                r["w"] = w
            return
        r["w"] = w
        body = (rid, r["seat"], r["root"])
        self.sent = (wire.ROLLR, body, self.table.version, self.now)
        self.send(self.master_addr(), wire.ROLLR, body)

    def _on_rollr(self, src, f):
        rid, seat, root = f.body
        r = self.rolls.get(rid)
        if not self.is_master() or r is None or r["seat"] != seat or not r.get("cup"):
            return
        self.rolls = {}
        try:
            self._commit(table.op_roll(seat, r["d"], r["w"], root))
        except OpError as e:
            self._log([("v", self.table.version), ("error", "roll"), ("reason", str(e))])

    # ----- after every change ------------------------------------------------------------
    def _on_op(self, name, info):
        t = self.table
        g = t.game
        if name == "round" and t.seats and self.me is not None:
            seat = t.seat_of(self.me)
            if seat >= 0 and t.holders[seat] == self.me and g.dice[seat] and not self.is_master():
                root = self.random_bytes(16)
                self.root = (g.round, root)
                self.store.put("root", bytes((g.round >> 8 & 0xFF, g.round & 0xFF)) + root)
        if name == "seed":
            seat = t.seat_of(self.me) if self.me is not None else -1
            self.hand = []
            if seat >= 0 and t.holders[seat] == self.me:
                root = self.held.get(seat) if self.is_master() else (self.root[1] if self.root else None)
                if root is not None:
                    self.hand = fair.faces(root, 0, g.hidden(seat), t.seed)
        if name in ("settle", "restart", "master"):
            self.hand = []
            if name != "master":
                self.commits = {}
                self.reveals = {}
        if name == "act" and g is not None and g.phase == 2:
            self.called_at = self.now
        if name == "act" and "w" in info and self.me is not None and info["seat"] == t.seat_of(self.me):
            root = self._my_root(info["seat"])  # my reroll went through: my new dice
            if root is not None:
                s_ = info["seat"]
                self.hand = fair.faces(root, t.gens[s_], g.hidden(s_), t.dice_seed(s_))
        if name in ("act", "roll", "settle", "restart"):
            self.sent = None
            self.rolls = {} if name == "roll" else self.rolls
        self.bot_due = None

    # ----- the peer's side ----------------------------------------------------------------
    def _peer_tick(self):
        t = self.table
        now = self.now
        g = t.game
        if now - self.last_keepalive >= KEEPALIVE_MS:
            self._ack()
        # a roll committed before the table moved on (a failover): commit it again
        # under the new version with the same root, so the new master can witness it
        for rid, r in list(self.rolls.items()):
            if rid != t.version and not self.is_master():
                g_ = t.game
                seat_ = t.seat_of(self.me)
                self.rolls = {}
                self.sent = None
                if g_ is not None and g_.name == "dixmille" and g_.to_act() == seat_ and g_.phase in (0, 2) \
                        and fair.seat_digest(r["root"], 0, g_.left) == r["d"]:
                    r["w"] = None
                    self.rolls = {t.version: r}
                    body = (t.version, r["seat"], r["d"])
                    self.sent = (wire.ROLLC, body, t.version, now)
                    self.send(self.master_addr(), wire.ROLLC, body)
        # inputs in flight: resend until their effect shows
        if self.sent is not None and now - self.sent[3] >= RETX_MS * 2:
            ftype, body, base, _ = self.sent
            if t.version == base or ftype != wire.ACTION:
                self.sent = (ftype, body, base, now)
                self.send(self.master_addr(), ftype, body)
                self.counts["retransmits"] += 1
            else:
                self.sent = None
        if g is None or t.phase != PLAYING:
            self._check_master()
            return
        seat = t.seat_of(self.me)
        if g.name != "dixmille" and seat >= 0 and t.holders and t.holders[seat] == self.me:
            if g.phase == 0 and t.mc != NO_DIGEST and self.root is not None and self.root[0] == g.round & 0xFFFF:
                if now - self._last_commit >= RETX_MS * 2:
                    self._last_commit = now
                    d = fair.seat_digest(self.root[1], 0, g.dice[seat])
                    self.send(self.master_addr(), wire.COMMIT, (g.round & 0xFFFF, seat, d))
            if g.phase == 2 and self.root is not None and self.root[0] == g.round & 0xFFFF:
                if now - self._last_reveal >= RETX_MS * 2:
                    self._last_reveal = now
                    self.send(self.master_addr(), wire.REVEAL, (g.round & 0xFFFF, seat, self.reveal_root()))
        if self.autoplay and seat >= 0 and not t.bot_plays(seat) and self.sent is None:
            mine = g.to_act() == seat
            if mine and (g.name == "dixmille" or g.phase == 1) and not self.rolls:
                if self.bot_due is None:
                    self.bot_due = now + _think(g)
                elif now >= self.bot_due:
                    self.bot_due = None
                    self._autoplay(seat)
        self._check_master()

    def _refresh_hand(self):
        """My dice, recomputed from my round secret (after a reboot or a resync)."""
        t = self.table
        g = t.game
        self.hand = []
        if g is None or g.name == "dixmille" or g.phase not in (1, 2) or self.me is None:
            return
        seat = t.seat_of(self.me)
        root = self._my_root(seat)
        if seat >= 0 and root is not None and t.holders[seat] == self.me and self.root and \
                self.root[0] == g.round & 0xFFFF:
            self.hand = fair.faces(root, t.gens[seat], g.hidden(seat), t.dice_seed(seat))

    def reveal_root(self):
        """The root this cup publishes at the reveal (its round secret, from flash)."""
        return self.root[1]

    def _autoplay(self, seat):
        from .. import bots
        g = self.table.game
        rng = self.rng or _BytesRng(self.random_bytes)
        if g.name == "dixmille":
            action = bots.dixmille(g, seat, rng)
        else:
            action = bots.bluffing(g, seat, self.hand, rng)
            if action is not None and kind(action) == "bid" and g.name == "bluff" and g.opts & 2:
                after = loads(g.dumps())  # would it set dice aside after this bid?
                after.apply(seat, action)
                rr = bots.reroll(after, seat, self.hand, rng)
                if rr is not None:
                    return self.act(action, then=rr)
        if action is not None:
            self.act(action)

    def _check_master(self):
        """Peer: a silent master has failed; elect the first present member after it."""
        t = self.table
        if self.now - self.last_master < FAIL_MS:
            return
        self.last_master = self.now
        if t.master not in self.suspects:
            self.suspects.append(t.master)
        cands = [i for i in range(len(t.members)) if i not in self.suspects
                 and not t.members[i].flags & (BOT | LEFT) and not (t.members[i].flags & AWAY and i != self.me)]
        if not cands:
            return
        if cands[0] == self.me:
            self._take_over()
        elif self._waited_for == cands[0]:
            self.suspects.append(cands[0])  # it had its chance to take over: the next in line
            self._waited_for = None
        else:
            self._waited_for = cands[0]

    def _take_over(self):
        """Start taking the table over: first learn the newest version any cup holds."""
        t = self.table
        self.takeover = (self.now, t.version, None)
        self.send(BROADCAST, wire.HEART, ((t.term + 1) & 0xFF, t.version, self.me))

    def _takeover_tick(self):
        since, best, who = self.takeover
        t = self.table
        if best > t.version and who is not None and self.now - since < RETX_MS * 10:
            self.send(who, wire.NEED, (t.version + 1,))
            if self.now - since < RETX_MS * 6:
                return
        if self.now - since < RETX_MS * 3:
            return
        old = t.master
        self.takeover = None
        self.suspects = []
        self.acks = {}
        self.seen = {}
        self._commit(table.op_master(self.me, (t.term + 1) & 0xFF))
        if old < len(t.members) and t.members[old].present():
            self._commit(table.op_flags(old, t.members[old].flags | AWAY))
        g = t.game
        if g is not None and t.phase == PLAYING and g.name != "dixmille" and (g.phase in (1, 2) or t.mc != NO_DIGEST):
            self._commit(table.op_restart(RESTART_FAILOVER))
        self.rolls = {}

    def _become_peer(self):
        self.acks = {}
        self.held = {}
        self.rolls = {}
        self.last_master = self.now

    # ----- the clock -----------------------------------------------------------------------
    def tick(self, now):
        self.now = now
        if self.dead:
            return
        if self.table is None:
            if self.me is not None and self.key is not None and now - self.last_keepalive >= 300:
                # rebooted member, or joined and waiting for the state: say hello
                self.last_keepalive = now
                dest = self._master_hint or BROADCAST
                self.send(dest, wire.HELLO, (0,))
            elif self.joining is not None and now - self.joining[4] >= 300:
                tid, code, nonce, maddr, _ = self.joining
                self.joining = (tid, code, nonce, maddr, now)
                self.send(maddr, wire.JOIN, (nonce, self.name.encode()[:8]), key=self.jkey)
            return
        if self.takeover is not None:
            self._takeover_tick()
        elif self.is_master():
            self._master_tick()
        else:
            self._peer_tick()


def _think(g):
    """Autoplay thinking time; longer when the last bettor may still reroll (Bluff's
    extension allows it only until the next player acts, and a person takes a while)."""
    return THINK_MS * 3 if g.name == "bluff" and g.opts & 2 else THINK_MS


class _BytesRng:
    """randrange from random bytes (the cup's hardware RNG) for the autoplay bot."""

    def __init__(self, random_bytes):
        self.rb = random_bytes

    def randrange(self, n):
        return self.rb(1)[0] * n // 256


def _rules_code(rules):
    from ..engine import RULES
    return RULES.index(rules) + 1


def _hex(b):
    return "".join("%02x" % x for x in b)


def _ev_json(e):
    out = [e[0]]
    for x in e[1:]:
        out.append(x if x is None or type(x) in (int, str, bool, list) else list(x))
    return out


_HANDLERS = {
    wire.BEACON: Cup._on_beacon,
    wire.JOIN: Cup._on_join,
    wire.WELCOME: Cup._on_welcome,
    wire.HELLO: Cup._on_hello,
    wire.UPDATE: Cup._on_update,
    wire.ACK: Cup._on_ack,
    wire.NEED: Cup._on_need,
    wire.SNAP: Cup._on_snap,
    wire.ACTION: Cup._on_action,
    wire.REJECT: Cup._on_reject,
    wire.COMMIT: Cup._on_commit,
    wire.REVEAL: Cup._on_reveal,
    wire.HEART: Cup._on_heart,
    wire.ROLLC: Cup._on_rollc,
    wire.WITNESS: Cup._on_witness,
    wire.ROLLR: Cup._on_rollr,
    wire.LEAVE: Cup._on_leave,
}
