"""One cup's side of the table protocol: a thin facade over one module per concern.

    cup = Cup(addr, store, random_bytes, name)
    cup.listen(SerialLog(sys.stdout.write, cup))   # events out (dicecup/events.py)
    cup.create(table_id, code, rules, opts)        # become master of a new table
    cup.join(table_id, code)                       # or join one heard in a beacon
    pump(cup, radio, now_ms)                       # frames in, tick, frames out (net/pump.py)
    cup.wants_shake() / cup.shake(entropy)         # shakes in
    cup.view() / cup.act(action)                   # what my seat knows / my player's move

It never sleeps and never touches a radio, so the same code runs on the cup (an asyncio
loop around a transport) and in the host simulation (a simulated clock).

The concerns, each a module with its own state:
    keys      net/keys.py      frame tags, sequence numbers, replay window
              net/keyring.py   this cup's key pair, members' keys, pairwise keys
    flash     net/flash.py     what survives a reboot
    lobby     net/lobby.py     beacons, joining (CPace), seats and rules, bots, leaving
    joining   net/joining.py   the joiner's session, only while a join is under way
    deal      net/deal.py      the game's seed, from every cup's nonce
              net/gate.py      the master's ration of join sessions (rate, lockout)
    sync      net/sync.py      replication: ops out in order, resends, snapshots
    election  net/election.py  heartbeats, away, failure, election, take-over
    hidden    net/hidden.py    the round's hidden dice: shake, commit, seed, reveal
    rolls     net/rolls.py     witnessed rolls: Dix mille rolls, Bluff rerolls
    turns     net/turns.py     actions into ops; the master's bots for empty seats
    seat      net/seat.py      my seat: inputs, reminders, my own bot
    watch     net/watch.py     what this cup heard of the round: attestations, false ops
and events (dicecup/events.py) out to whoever listens.

Errors. A frame the codec or the keys refuse is a FrameError, counted by code; the
join's refusals are counted as join-<code> (bad-code, expired, abandoned, busy, locked,
lockout, full, closed; net/gate.py, net/lobby.py). An op
or action the table refuses is counted ("refused"). Anything else raised while a frame
is handled or the cup ticks is a bug: with `strict` (tests, the simulator) it is
raised; on a cup (`strict=False`) it is counted ("internal"), reported as an event
(the serial log shows it) and survived -- the radio loop goes on.
"""
from micropython import const
from ..engine import IllegalAction
from ..engine.actions import kind
from .. import events as evm
from ..settings import waits as _waits
from . import table as tbl
from . import wire
from .budget import Budget
from .deal import Deal
from .election import Election
from .flash import Flash
from .hidden import HiddenDice
from .keys import Keys
from .lobby import Lobby
from .rolls import Rolls
from .seat import Seat
from .sync import Sync
from .timing import IDLE_MS
from .transport import BROADCAST
from .turns import Turns
from .watch import Watch


class BytesRng:
    """randrange from random bytes (the cup's hardware RNG), for a bot on the cup."""

    def __init__(self, random_bytes):
        self.rb = random_bytes

    def randrange(self, n):
        return self.rb(1)[0] * n // 256


# Who handles a frame, by frame type (net/wire.py: BEACON = 1 ... CONTRIB = 25): the
# part's attribute and its method's name, looked up per frame (getattr) rather than a
# dict of bound methods per cup -- constant tuples stay in flash when frozen.
_ON = const((None,
             ("lobby", "on_beacon"), ("lobby", "on_join"), ("joining", "on_welcome"),     # 1-3
             ("sync", "on_hello"), ("sync", "on_update"), ("sync", "on_ack"),             # 4-6
             ("sync", "on_need"), ("sync", "on_snap"), ("turns", "on_action"),            # 7-9
             ("seat_part", "on_reject"), ("hidden", "on_commit"), ("hidden", "on_reveal"),  # 10-12
             ("election", "on_heart"), ("rolls", "on_rollc"), ("rolls", "on_witness"),    # 13-15
             ("rolls", "on_rollr"), ("lobby", "on_leave"), ("turns", "on_auto"),          # 16-18
             ("election", "on_vote_req"), ("election", "on_vote"), ("joining", "on_challenge"),  # 19-21
             ("lobby", "on_confirm"), ("joining", "on_refuse"), ("watch", "on_attest"),   # 22-24
             ("deal", "on_contrib")))                                                       # 25
# What a tick runs, by role and whether a game is on: (part, method); "" is the cup
# (in play: the lobby's parts, then the game's).
_MASTER_LOBBY = const((("election", "master_tick"), ("lobby", "master_tick"), ("sync", "master_tick")))
_MASTER_PLAY = const((("election", "master_tick"), ("lobby", "master_tick"), ("sync", "master_tick"),
                      ("rolls", "master_tick"), ("", "hidden_master_tick"), ("turns", "master_tick")))
_PEER_LOBBY = const((("sync", "peer_tick"), ("election", "peer_tick"), ("deal", "peer_tick")))
_PEER_PLAY = const((("sync", "peer_tick"), ("election", "peer_tick"), ("deal", "peer_tick"),
                    ("rolls", "peer_tick"), ("hidden", "peer_tick")))


class Cup:
    NONE = 0        # roles: no table state yet
    PEER = 1
    MASTER = 2
    CANDIDATE = 3   # taking a silent master's place

    # the parts, as classes a test may swap (a cheating cup, a leaky one)
    Keys = Keys
    Lobby = Lobby
    Deal = Deal
    Sync = Sync
    Election = Election
    HiddenDice = HiddenDice
    Rolls = Rolls
    Turns = Turns
    Seat = Seat
    Watch = Watch

    def __init__(self, addr, store, random_bytes, name="cup", max_cups=6, strict=True, waits=None, rng=None):
        self.addr = addr
        self.name = name
        self.random_bytes = random_bytes
        self.max_cups = max_cups    # what the radio allows (BLE: 5), bots included
        self.strict = strict
        self.waits = _waits(waits)
        self.rng = rng or BytesRng(random_bytes)   # the choices of this cup's bots
        self.now = 0
        self.out = []               # (dest, frame): what to put on air
        self.dead = False
        self.table = None           # our replica of the table (net/table.py)
        self.role = self.NONE
        self.bus = evm.Bus()
        self.budget = Budget()
        self.counts = {"races": 0, "retransmits": 0, "rejects": 0, "resyncs": 0, "budget": 0}
        self.errors = {}            # refusals and errors by code
        self.flash = Flash(store)
        self.boot = self.flash.boot()
        self.keys = self.Keys(self.flash, self.boot, random_bytes)
        self.me = self.keys.restore()          # our member id: a member that rebooted rejoins from flash
        self.joining = None         # net/joining.py's Joining while this cup joins a table
        self.lobby = self.Lobby(self)
        self.deal = self.Deal(self)
        self.sync = self.Sync(self)
        self.election = self.Election(self)
        self.hidden = self.HiddenDice(self)
        self.rolls = self.Rolls(self)
        self.turns = self.Turns(self)
        self.seat_part = self.Seat(self)
        self.watch = self.Watch(self)

    # ----- roles ------------------------------------------------------------------------
    def is_master(self):
        return self.role == self.MASTER

    def become_master(self):
        self.role = self.MASTER
        self.sync.acks = {}
        self.seat_part.clear()   # what we sent the old master is void: decide again

    def become_peer(self, forget):
        """Stop leading. `forget=False` keeps what only the master knew of the round (its
        contribution, the bots' dice): it may well be elected again at once."""
        self.role = self.PEER
        self.sync.acks = {}
        self.sync.new_leader()
        self.seat_part.clear()
        if forget:
            # the round's books go, but not the dice we rolled for others (hidden.held):
            # a call after this still asks us for them
            h = self.hidden
            h.m = None
            h.commits = {}
            h.reveals = {}
            h.held_next = {}
            self.rolls.reset()

    def master_addr(self):
        t = self.table
        if t is None or t.master >= len(t.members):
            return self.lobby.master_hint or BROADCAST
        lead = self.election.leader     # the leader of our term, when not the replica's master
        if lead is not None and lead != t.master and lead < len(t.members):
            return t.members[lead].addr
        return t.members[t.master].addr

    def present_peers(self):
        t = self.table
        return [i for i in range(len(t.members)) if i != self.me and t.members[i].present()]

    def seat(self):
        """My seat number, or -1 (no table, no game, not seated)."""
        t = self.table
        if t is None or self.me is None:
            return -1
        return t.seat_of(self.me)

    # ----- sending ----------------------------------------------------------------------
    def send(self, dest, ftype, body, key=None, resend=False):
        """Put a frame on air if the frame budget allows (False when it does not)."""
        if self.dead:
            return False
        if not self.budget.take(self.now, resend):
            self.counts["budget"] += 1
            return False
        sender = self.me if self.me is not None else wire.NOBODY
        ver = self.table.version if self.table else 0
        self.out.append((dest, self.keys.frame(ftype, sender, ver, body, dest, key)))
        return True

    def count(self, code):
        """One more refusal or error of this code (cup.errors)."""
        self.errors[code] = self.errors.get(code, 0) + 1

    def send_beacon(self, body):
        if self.dead or not self.budget.take(self.now, False):
            return
        self.out.append((BROADCAST, wire.encode(wire.BEACON, self.keys.tid, self.me, self.keys.next_seq(),
                                                self.table.version, body)))

    # ----- events out -------------------------------------------------------------------
    def listen(self, fn, private=False):
        """fn(event) for every public and local event (and private ones if asked)."""
        self.bus.listen(fn, private)

    def emit_local(self, kind, values, scope=evm.LOCAL):
        bus = self.bus
        if not bus.wanted(scope):
            return
        t = self.table
        bus.count += 1
        bus.emit(evm.Event(kind, values, self.keys.tid or 0, t.term if t else 0, t.version if t else 0, bus.count,
                       self.now, scope))

    def emit_private(self, kind, values):
        self.emit_local(kind, values, evm.PRIVATE)

    def applied(self, name, events, info, op):
        """An op was applied to our replica: every part's own follow-up now; its public
        events wait until the table has committed it (net/sync.py)."""
        t = self.table
        bus = self.bus
        if bus.listeners and bus.wanted(evm.PUBLIC):
            self.sync.hold(t.version, name, events, op, t.digest_of())
        if name == "join" and self.keys.ring.learn(t):
            self.count("key-changed")
        if name == "master" and info["master"] != self.election.shunned:
            self.election.shunned = None
        if name == "master" and info["master"] != self.me and self.role in (self.MASTER, self.CANDIDATE):
            self.become_peer(True)
        self.watch.on_op(name)
        self.hidden.on_op(name, info)
        self.rolls.on_op(name, info)
        self.seat_part.on_op(name, info)

    def show(self, version, name, events, op, state):
        """A committed op's public events, to the listeners (`state`: the replica's
        fingerprint right after the op)."""
        bus = self.bus
        tid = self.keys.tid or 0
        term = self.sync.term_at(version) if self.table is not None else 0
        if term is None:
            term = self.table.term
        i = 0
        for e in events:
            bus.emit(evm.Event(e[0], e[1:], tid, term, version, i, self.now))
            i += 1
        bus.emit(evm.Event("op", (name, op, state), tid, term, version, i, self.now))

    def resynced(self, table, data):
        """A snapshot replaced our replica."""
        self.table = table
        if self.keys.ring.learn(table):
            self.count("key-changed")   # a member's key is not the one we know: ours is kept
        if self.role == self.NONE or self.role == self.CANDIDATE:
            self.role = self.PEER
        e = self.election
        e.last_master = e.heard_at = self.now     # the master's clock starts now
        if self.bus.wanted(evm.LOCAL):
            self.emit_local("snapshot", (data, None))
        self.hidden.resynced()

    def rejected(self, seat, action, code):
        """Master: an action of a seat it plays was refused."""
        self.counts["rejects"] += 1
        if seat == self.seat():
            self.seat_part.refused(action, code)

    # ----- the lobby ----------------------------------------------------------------------
    def create(self, tid, code, rules, opts=0):
        """Become the master of a new table; `code` is what joiners type in."""
        self.lobby.create(tid, code, rules, opts)

    def join(self, tid, code):
        """Ask the master of table `tid` (heard in a beacon) to let this cup in."""
        self.lobby.join(tid, code)

    def tables(self):
        return self.lobby.tables()

    @property
    def heard(self):
        return self.lobby.heard

    def add_bot(self, name, level="easy"):
        self.lobby.add_bot(name, level)

    def drop_bot(self, mid):
        self.lobby.drop_bot(mid)

    def set_rules(self, rules, opts=0):
        self._master_only()
        self.sync.commit(tbl.op_rules(rules, opts))

    def set_seats(self, order):
        self._master_only()
        self.sync.commit(tbl.op_seats(order))

    def start(self):
        """Master: start the game with the seats and rules of the lobby."""
        self._master_only()
        self.deal.start()

    def leave(self):
        """This player leaves: in the lobby the seat goes, in a game a bot plays it."""
        t = self.table
        if self.is_master():
            self.sync.commit(tbl.op_flags(self.me, t.members[self.me].flags | tbl.LEFT))
        elif t is not None:
            self.send(self.master_addr(), wire.LEAVE, (self.me,))

    def _master_only(self):
        if not self.is_master():
            raise ValueError("only the table master does that")

    # ----- my seat: shakes and actions in, the view out ------------------------------
    def view(self):
        """What my seat knows now (the engine's view, with my dice), or None."""
        t = self.table
        seat = self.seat()
        if seat < 0 or t.game is None:
            return None
        hand = self.hidden.hand if self.hidden.mine() >= 0 else None
        return t.game.view(seat, list(hand) if hand else None)

    def need(self):
        """What the game waits for now (engine words: shake, bid, reveal, roll, keep,
        bank-or-roll, over), or None without a game."""
        t = self.table
        return t.game.need() if t is not None and t.game is not None else None

    def on_turn(self):
        """Whether my seat is the one to act now (cheap: no view built)."""
        t = self.table
        if t is None or t.game is None or self.me is None:
            return False
        s = t.game.to_act()
        return s is not None and s == t.seat_of(self.me)

    @property
    def hand(self):
        return self.hidden.hand

    def wants_shake(self):
        """What a shake would roll now: 'round' (my dice for the round), 'reroll' (the
        reroll I chose), 'roll' (my Dix mille roll), or None."""
        return self.hidden.wants() or self.rolls.wants()

    def shake(self, entropy=b"", player=True):
        """The cup was shaken (the motion detector saw a roll; `entropy` is the shake's
        own). Rolls what was waiting; False when nothing was."""
        if player:
            self.seat_part.touched()
        if self.table is None:
            return False
        return self.hidden.shake(entropy) or self.rolls.shake(entropy)

    def act(self, action, then=None, player=True):
        """My player's move. `then`: a Bluff reroll to make right after this bid, sent
        with it (no other player can act between). A reroll waits for a shake; a Dix
        mille roll is a shake."""
        if player:
            self.seat_part.touched()
        t = self.table
        seat = self.seat()
        if seat < 0 or t.game is None:
            raise ValueError("not seated at a game")
        k = kind(action)
        if k == "roll":
            return   # shaking rolls
        if k == "reroll" or (then is not None and kind(then) == "reroll"):
            self.hidden.request_reroll(action, then)
            self.emit_local("shake", ("reroll",))
            return
        self.turns.play(seat, action, b"", None, b"")

    def touch(self):
        """The player pressed something: they are at the cup (a button, a peek)."""
        self.seat_part.touched()

    def busy(self):
        """An input of mine is on its way to the master."""
        return self.seat_part.busy() or self.rolls.busy()

    def rejects(self):
        return self.seat_part.rejects

    # ----- frames in, the clock -----------------------------------------------------------
    def on_frame(self, src, data, now):
        """One frame from the radio. Refused frames are counted and dropped."""
        self.now = now
        if self.dead:
            return
        try:
            f = self.keys.accept(src, data)
        except wire.FrameError as e:
            self.errors[e.code] = self.errors.get(e.code, 0) + 1
            return
        t = f.type
        if not 0 < t < len(_ON):
            return
        part = getattr(self, _ON[t][0])
        if wire.key_kind(f.type) == 2:   # the sender is authenticated: it is alive
            self.election.heard(f.sender, now)
        if part is None:   # a joiner's frame with no join under way (`joining`)
            return
        try:
            why = getattr(part, _ON[t][1])(src, f)
            if why:   # a frame refused for what it claims (not the sender's seat, not our leader...)
                self.errors[why] = self.errors.get(why, 0) + 1
        except (tbl.OpError, IllegalAction):
            # authenticated, but the table or the engine refuses what it asks
            self.errors["refused"] = self.errors.get("refused", 0) + 1
        except Exception as e:  # noqa: BLE001 - a bug: raised in tests, survived on a cup
            self._internal("frame %s" % f.name(), e)

    def tick(self, now):
        """Move time on; returns when the cup next wants a tick (ms)."""
        self.now = now
        due = now + IDLE_MS
        if self.dead:
            return due
        try:
            d = self._tick(now)
        except Exception as e:  # noqa: BLE001
            self._internal("tick", e)
            d = None
        if d is not None and d < due:
            due = d if d > now else now + 1
        return due

    def _tick(self, now):
        t = self.table
        if t is None:
            return self.lobby.tick(now)
        role = self.role
        due = None
        if role == self.MASTER:
            playing = t.game is not None and t.phase == tbl.PLAYING and self.election.leading()
            parts = _MASTER_PLAY if playing else _MASTER_LOBBY
        else:
            parts = _PEER_PLAY if t.game is not None else _PEER_LOBBY
        for part, name in parts:
            d = getattr(getattr(self, part) if part else self, name)(now)
            if self.table is not t or self.role != role:
                return now   # a snapshot or a change of role: look again at once
            if d is not None and (due is None or d < due):
                due = d
        if t.game is not None and self.me is not None:
            d = self.seat_part.tick(now)
            if d is not None and (due is None or d < due):
                due = d
        return due

    def hidden_master_tick(self, now):
        if self.rolls.busy():
            return None
        return self.hidden.master_tick(now)

    def _internal(self, where, e):
        if self.strict:
            raise e
        self.errors["internal"] = self.errors.get("internal", 0) + 1
        from ..errtext import describe
        self.emit_local("internal", (where, describe(e)))

