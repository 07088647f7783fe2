"""Adversarial cups: one seat of a simulated table tries an attack all game long, and a
judge decides from the outside -- from what the honest cups logged, held and put on
air, never from what the adversary claims -- whether it worked.

    result = play_attack("peek", cups=4, rules="perudo", options=None, seed=1)
    result["tried"], result["succeeded"], result["honest_ok"], result["reasons"]

Every adversary is a host-side `Cup` subclass (some parts swapped) or, for
brute-join, a radio that is no member at all. It holds everything a dishonest member
holds -- the table key (so it may tag any frame, with any sender byte and sequence
number) -- and it hears the whole air (ESP-NOW unicasts go out on a shared channel:
`Sniffer` reads the medium's trace). `high-seq` also sends with another cup's radio
address (a MAC is a setting on an ESP32). Where it sits:

    leader   (cup 0, which creates the table and stays master):  veto, bias
    outsider (a radio with no seat, never given the code):       brute-join
    peer     (the last cup, a seated non-master member):         everything else

What each kind counts is in its class docstring: `tried` is every attempt the
adversary made; `succeeded` is judged by `judge()` from the honest side. Every run
also checks the honest cups alone (`simrun.check_game` with the adversary left out:
one history, every log re-checks) and bounds simulated time (`limit_ms`): a table
that has not finished by then is reported as stalled, never waited on.
"""
import json
import random
import struct
import traceback

from dicecup.engine import BID, REVEAL, SHAKE, new_game
from dicecup.engine.actions import CHALLENGE, kind as action_kind
from dicecup.net import fair, wire
from dicecup.net import table as tbl
from dicecup.net.cup import Cup
from dicecup.net.hidden import HiddenDice
from dicecup.net.rolls import Rolls
from dicecup.net.table import OpError, Table
from dicecup.net.timing import AHEAD, SNAP_CHUNK
from dicecup.net.transport import BROADCAST

from . import checker

KINDS = ("peek", "forge", "veto", "withhold", "never-reveal", "bias", "brute-join", "flood", "stale-term",
         "high-seq", "fake-snapshot")
LIMIT_MS = 20 * 60 * 1000     # simulated: an honest 4-cup game takes 20 s to 2 min
SAMPLE_MS = 1000              # the judges look at the honest cups this often
FLOOD_BOUND = 8192            # bytes an honest cup's protocol state may grow by under a flood
RESTART_FAILOVER = 2


def parse_kinds(values):
    """--attack values -> a list of kinds ('all' is every kind); ValueError otherwise."""
    out = []
    for v in values:
        for k in (KINDS if v == "all" else (v,)):
            if k not in KINDS:
                raise ValueError("--attack %r: one of %s, or all" % (v, ", ".join(KINDS)))
            if k not in out:
                out.append(k)
    return out


# ----- what the honest side recorded ---------------------------------------------------
class Truth:
    """The table's committed history as the honest cups show it: per version the op,
    when it was first shown (committed) by an honest cup, and the replica's state right
    after it (replayed here from an honest snapshot and those ops)."""

    def __init__(self, c, honest):
        self.ops = {}        # version -> (hex, time, term)
        self.forks = 0       # versions at which honest cups showed different ops
        self.snapshots = []  # (cup index, time, snapshot bytes): replicas replaced by a snapshot
        leaders = {0: 0}     # term -> member id of its leader
        recs = {}
        last = {}            # cup -> the highest version it showed
        start = None
        for i in honest:
            sc = c.cups[i]
            for rec in checker.events(sc.serial, ("op",)):
                recs.setdefault(rec["v"], []).append((i, rec))
                last[i] = max(last.get(i, 0), rec["v"])
                op = bytes.fromhex(rec["hex"])
                if op and op[0] == tbl.OP_MASTER:
                    leaders[op[2] << 8 | op[3]] = op[1]
            for line in sc.serial:
                if "snapshot" not in line:
                    continue
                r = json.loads(line)
                if r.get("k") == "snapshot":
                    data = bytes.fromhex(r["hex"])
                    self.snapshots.append((i, r.get("t", 0), data))
                    v = struct.unpack(">I", data[:4])[0]
                    if start is None or v < start[0]:
                        start = (v, data)
        member_cup = dict((c.cups[i].cup.me, i) for i in honest if c.cups[i].cup.me is not None)
        for v, lst in recs.items():
            hexes = {}
            for i, rec in lst:
                hexes.setdefault(rec["hex"], []).append((i, rec))
            if len(hexes) > 1:
                self.forks += 1
            term = lst[0][1]["tm"]
            lead = member_cup.get(leaders.get(term))
            pick = None
            for hx, who in hexes.items():
                if any(i == lead for i, _ in who):
                    pick = hx
            if pick is None and lead is not None and last.get(lead, 0) < v:
                continue   # its honest leader never got there: only forged ops were shown at v
            if pick is None:   # the leader is the adversary (or passed v in a snapshot): the majority
                pick = max(hexes, key=lambda h: len(hexes[h]))
            t = min(rec.get("t", 0) for _, rec in hexes[pick])
            self.ops[v] = (pick, t, term)
        self.bogus = []      # (cup, version): an honest cup showed an op its honest leader never committed
        for v, lst in recs.items():
            for i, rec in lst:
                if v not in self.ops or rec["hex"] != self.ops[v][0]:
                    self.bogus.append((i, v))
        # replay: from v1 if an honest cup logged it, else from the earliest honest snapshot
        self.steps = []      # (version, time, op name, info, table after it, events)
        self.start = None    # (version, digest) the replay starts from, when not from nothing
        if 1 in self.ops:
            t = Table()
            v = 0
        elif start is not None:
            t = Table.from_snapshot(start[1])
            v = start[0]
            self.start = (v, t.digest_of())
        else:
            return
        while v + 1 in self.ops:
            hx, when, _ = self.ops[v + 1]
            try:
                name, events, info = t.apply(bytes.fromhex(hx))
            except OpError:
                break
            v += 1
            self.steps.append((v, when, name, info, Table.from_snapshot(t.snapshot()), events))

    def digest_at(self, v):
        if self.start is not None and self.start[0] == v:
            return self.start[1]
        for step in self.steps:
            if step[0] == v:
                return step[4].digest_of()
        return None


class Air:
    """The frames on air (the medium's trace), decoded: what anyone nearby could hear."""

    def __init__(self, c):
        self.c = c
        self.pos = 0
        self.frames = []   # (time, src addr, dest addr, Frame, fid)
        self.by_type = {}  # frame type -> those frames
        self.spoofed = set()

    def update(self):
        tr = self.c.medium.trace
        while self.pos < len(tr):
            rec = tr[self.pos]
            self.pos += 1
            if rec[0] != "tx" or rec[6] != "sent":
                continue
            try:
                f = wire.decode(rec[7])
            except wire.FrameError:
                continue
            x = (rec[1], rec[3], rec[4], f, rec[2])
            self.frames.append(x)
            self.by_type.setdefault(f.type, []).append(x)
        return self.frames

    def of(self, ftype, src=None):
        self.update()
        return [x for x in self.by_type.get(ftype, ()) if (src is None or x[1] == src) and x[4] not in self.spoofed]

    def since(self, cursor):
        """The frames put on air since `cursor` (0 first), and the next cursor."""
        self.update()
        return self.frames[cursor:], len(self.frames)


def spoof_send(c, src, dest, frame):
    """Put a frame on air as if radio `src` sent it (a MAC is only a setting)."""
    m = c.medium
    m._fid += 1
    fid = m._fid
    m.stats["frames"] += 1
    m._log("tx", fid, src, dest, len(frame), "sent", frame)
    for r in m.radios():
        if r.address != src and (dest == BROADCAST or r.address == dest):
            m._copy(fid, src, r, frame)
    return fid


# ----- the adversary's cup ---------------------------------------------------------------
class AdversaryCup(Cup):
    """A member that plays its seat as usual and, every step, tries its attack. Its own
    bugs are survived (strict off), not taken for the honest cups'."""
    attack = None
    STEP_MS = 50

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.strict = False

    def tick(self, now):
        due = super().tick(now)
        if self.dead or self.table is None or self.me is None:
            return due
        try:
            self.attack.act(self, now)
        except Exception:  # noqa: BLE001 - the adversary's failure is not the table's
            self.attack.own_errors += 1
        return min(due, now + self.STEP_MS)

    def forge(self, dest, ftype, body, sender=None, seq=None, term_ver=None):
        """A frame tagged with the table key, with any sender byte and sequence number."""
        t = self.table
        sender = self.me if sender is None else sender
        seq = self.keys.next_seq() if seq is None else seq
        frame = wire.encode(ftype, self.keys.tid, sender, seq, t.version if term_ver is None else term_ver, body,
                            self.keys.key)
        self.out.append((dest, frame))   # no frame budget: it does not care
        return frame


class Attack:
    kind = None
    role = "peer"
    cup_parts = {}      # Cup part name -> class, for the adversary's cup

    def __init__(self, ncups, seed):
        self.c = None
        self.air = None
        self.seed = seed
        self.tried = 0
        self.own_errors = 0
        self.index = 0 if self.role == "leader" else ncups - 1
        self.details = {}

    def attach(self, c):
        self.c = c
        self.air = Air(c)

    def cup_class(self):
        attrs = dict(self.cup_parts)
        attrs["attack"] = self
        return type("Adversary_" + self.kind.replace("-", "_"), (AdversaryCup,), attrs)

    @property
    def honest(self):
        return [sc.i for sc in self.c.cups if sc.i != self.index]

    def cup(self):
        return self.c.cups[self.index].cup

    def before_setup(self):
        pass

    def act(self, cup, now):
        pass

    def sample(self):
        """Every SAMPLE_MS of simulated time: look at the honest cups."""

    def judge(self, truth, facts):
        """The successes, judged from the honest side."""
        return 0

    # helpers
    def master_cup(self):
        m = self.c.master()
        return m.cup if m is not None else None

    def leader_of(self, cup):
        t = cup.table
        return cup.election.leader if cup.election.leader is not None else t.master

    def honest_peers(self, cup):
        """Honest cups (member ids, addresses) that are not the leader."""
        lead = self.leader_of(cup)
        out = []
        for i in self.honest:
            sc = self.c.cups[i]
            if sc.on and sc.cup.me is not None and sc.cup.me != lead and sc.cup.me != cup.me:
                out.append((sc.cup.me, sc.addr))
        return out


def _seat_digest_ok(table, seat, root):
    n = table.game.hidden(seat)
    return n and fair.seat_digest(root, table.gens[seat], n) == table.digests[seat]


def _committed_call_before(truth, when, rno, seat, root):
    """Whether, by `when`, the honest history held a committed call of the round in
    which `root` is `seat`'s committed root."""
    for v, t, name, info, table, ev in truth.steps:
        if t > when:
            return False
        g = table.game
        if g is not None and g.need() == REVEAL and g.round & 0xFFFF == rno and _seat_digest_ok(table, seat, root):
            return True
    return False


def _calls(truth):
    """Each committed call: (index in steps of the call, index of the op that ended the round)."""
    out = []
    steps = truth.steps
    for k in range(len(steps)):
        g = steps[k][4].game
        prev = steps[k - 1][4].game if k else None
        if g is not None and g.need() == REVEAL and not (prev is not None and prev.need() == REVEAL):
            end = None
            for j in range(k + 1, len(steps)):
                if steps[j][2] in ("settle", "restart"):
                    end = j
                    break
            out.append((k, end))
    return out


# ----- peek -------------------------------------------------------------------------
class Peek(Attack):
    """A peer forges the leader's UPDATE of a call (the seat to act challenges) and sends
    it, unicast, to each honest peer while bids are still going, so that it reveals its
    round root before the real call.
    tried: each forged call UPDATE sent.
    succeeded: each honest seat's root that went on air (a REVEAL from that cup's own
    radio) before the honest history held a committed call of that round."""
    kind = "peek"

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.done = set()

    def act(self, cup, now):
        t = cup.table
        g = t.game
        if g is None or t.phase != tbl.PLAYING or g.need() != BID or cup.sync.committed < t.version:
            return
        seat = g.to_act()
        if seat is None or CHALLENGE not in g.legal(seat):
            return
        key = (t.version,)
        if key in self.done:
            return
        self.done.add(key)
        lead = self.leader_of(cup)
        op = tbl.op_act(seat, CHALLENGE)
        for mid, addr in self.honest_peers(cup):
            cup.forge(addr, wire.UPDATE, (t.term, t.version + 1, t.term, t.term, t.version + 1, op), sender=lead)
            self.tried += 1

    def judge(self, truth, facts):
        n = 0
        seen = set()
        for i in self.honest:
            sc = self.c.cups[i]
            for when, src, dst, f, fid in self.air.of(wire.REVEAL, sc.addr):
                rno, seat, root = f.body
                if root in seen:
                    continue
                seen.add(root)
                if not _committed_call_before(truth, when, rno, seat, root):
                    n += 1
        return n


# ----- forge ------------------------------------------------------------------------
class Forge(Attack):
    """A peer sends frames as another member (an honest non-leader: its sender byte):
    an ACTION for its seat on its turn, a LEAVE, a COMMIT of a made-up digest once the
    round is open, a REVEAL of a made-up root at the call.
    tried: each forged frame sent.
    succeeded: honest members that the honest history shows leaving (no honest cup in the
    simulation ever leaves), honest seats named as cheats (a forfeit), and act ops for an
    honest seat that its own cup never sent (what the adversary forged, applied)."""
    kind = "forge"

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.done = set()
        self.actions = set()   # (seat, action, base version) forged
        self.left = False
        self.first = None

    def act(self, cup, now):
        t = cup.table
        g = t.game
        peers = self.honest_peers(cup)
        if not peers or g is None or t.phase != tbl.PLAYING:
            return
        mid, addr = peers[0]
        seat = t.seat_of(mid)
        master = t.members[self.leader_of(cup)].addr
        v = t.version
        if seat >= 0 and g.to_act() == seat and ("act", v) not in self.done:
            legal = [a for a in g.legal(seat) if action_kind(a) not in ("reroll", "roll")]
            if legal:
                a = CHALLENGE if CHALLENGE in legal else legal[0]
                self.done.add(("act", v))
                cup.forge(master, wire.ACTION, (seat, a, v, b""), sender=mid)
                self.actions.add((seat, a, v))
                self.tried += 1
        if seat >= 0 and g.need() == SHAKE and t.mc != tbl.NO_DIGEST and ("commit", v) not in self.done:
            self.done.add(("commit", v))
            cup.forge(master, wire.COMMIT, (g.round & 0xFFFF, seat, cup.random_bytes(12)), sender=mid)
            self.tried += 1
        if seat >= 0 and g.need() == REVEAL and ("reveal", v) not in self.done:
            self.done.add(("reveal", v))
            cup.forge(master, wire.REVEAL, (g.round & 0xFFFF, seat, cup.random_bytes(16)), sender=mid)
            self.tried += 1
        if self.first is None:
            self.first = v
        if not self.left and v >= self.first + 30:   # well into the game
            self.left = True
            cup.forge(master, wire.LEAVE, (mid,), sender=mid)
            self.tried += 1

    def judge(self, truth, facts):
        honest_mids = set(self.c.cups[i].cup.me for i in self.honest)
        n = 0
        sent = set()
        for i in self.honest:
            for when, src, dst, f, fid in self.air.of(wire.ACTION, self.c.cups[i].addr):
                sent.add((f.body[0], f.body[1], f.body[2]))
        for v, t, name, info, table, events in truth.steps:
            for e in events:
                if e[0] == "left" and e[1] in honest_mids:
                    n += 1
                if e[0] == "forfeit" and table.seats[e[1]] in honest_mids:
                    n += 1
            if name == "act" and (info["seat"], info["action"], v - 1) in self.actions \
                    and (info["seat"], info["action"], v - 1) not in sent:
                n += 1
        return n


# ----- veto -------------------------------------------------------------------------
class VetoDice(HiddenDice):
    """The leader's dice part: once every root is in, it settles only if its seat does
    not lose; else it restarts the round."""

    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        g = t.game
        if g.need() == REVEAL and cup.sync.committed >= self.called_v:
            for s in self.held:
                self.reveals[s] = self.held[s]
            mine = self.mine()
            if mine >= 0 and self.my_root() is not None:
                self.reveals[mine] = self.my_root()
            if all(s in self.reveals for s in range(len(t.seats)) if g.dice[s]) and mine >= 0:
                roots = [self.reveals.get(s, tbl.NO_ROOT) if g.dice[s] else tbl.NO_ROOT for s in range(len(t.seats))]
                trial = Table.from_snapshot(t.snapshot())
                before = trial.game.dice[mine]
                try:
                    trial.apply(tbl.op_settle(roots))
                except OpError:
                    return super().master_tick(now)
                if trial.game.dice[mine] < before or (trial.game.winner() not in (None, mine)):
                    cup.attack.tried += 1
                    cup.sync.commit(tbl.op_restart(1))
                    return now
        return super().master_tick(now)


class Veto(Attack):
    """The leader restarts every round it would lose, once every root is in (it settles
    the others).
    tried: each round it vetoed.
    succeeded: each committed restart after a committed call by which every honest seat
    holding dice had put its root on air (so nothing was missing but the leader's will)."""
    kind = "veto"
    role = "leader"
    cup_parts = {"HiddenDice": VetoDice}

    def judge(self, truth, facts):
        honest_mids = set(self.c.cups[i].cup.me for i in self.honest)
        reveals = []
        for i in self.honest:
            reveals += self.air.of(wire.REVEAL, self.c.cups[i].addr)
        n = 0
        for k, end in _calls(truth):
            if end is None or truth.steps[end][2] != "restart":
                continue
            table = truth.steps[k][4]
            t_end = truth.steps[end][1]
            g = table.game
            ok = True
            for s in range(len(table.seats)):
                if not g.dice[s] or table.seats[s] not in honest_mids or not table.members[table.seats[s]].present():
                    continue
                if not any(when <= t_end and f.body[1] == s and _seat_digest_ok(table, s, f.body[2])
                           for when, src, dst, f, fid in reveals):
                    ok = False
            if ok:
                n += 1
        return n


# ----- withhold / never-reveal -------------------------------------------------------
class WithholdDice(HiddenDice):
    """A peer's dice part that reveals only when `reveal_now()` says so."""

    def peer_tick(self, now):
        cup = self.cup
        t = cup.table
        g = t.game
        if g is not None and t.phase == tbl.PLAYING and g.need() == REVEAL and self.mine() >= 0 \
                and cup.sync.committed >= self.called_v and self.my_root() is not None:
            if not cup.attack.reveal_now(cup, now):
                return None
        return super().peer_tick(now)


class Withhold(Attack):
    """A peer reveals its root only when it does not lose the round: it hears the other
    roots on air and fills in the ones it cannot hear (the leader's own, the bots') by
    sampling; when it more likely loses, it stays silent.
    tried: each committed call it withheld its root from.
    succeeded: each committed call of the honest history, with the adversary's seat
    holding dice and its root never on air, that ended without the adversary paying: a
    restart, no forfeit of its seat, its dice count unchanged."""
    kind = "withhold"
    cup_parts = {"HiddenDice": WithholdDice}

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.decided = {}   # call version -> reveal?

    def reveal_now(self, cup, now):
        t = cup.table
        v = cup.hidden.called_v
        if v not in self.decided:
            d = self.decide(cup)
            self.decided[v] = d
            if not d:
                self.tried += 1
        return self.decided[v]

    def decide(self, cup):
        t = cup.table
        g = t.game
        mine = cup.hidden.mine()
        known = {mine: cup.hidden.my_root()}
        for when, src, dst, f, fid in self.air.of(wire.REVEAL):
            rno, seat, root = f.body
            if rno == g.round & 0xFFFF and seat < len(t.seats) and _seat_digest_ok(t, seat, root):
                known[seat] = root
        rng = random.Random(t.version)
        lose = 0
        trials = 24
        for _ in range(trials):
            roots = []
            for s in range(len(t.seats)):
                roots.append(known.get(s, tbl.NO_ROOT) if g.dice[s] else tbl.NO_ROOT)
            trial = Table.from_snapshot(t.snapshot())
            hands = trial.hands(roots)
            for s in range(len(hands)):
                if hands[s] is None:
                    hands[s] = [rng.randrange(6) + 1 for _ in range(trial.game.hidden(s))]
            before = trial.game.dice[mine]
            try:
                trial.game.settle(hands)
            except Exception:  # noqa: BLE001
                return True
            if trial.game.dice[mine] < before:
                lose += 1
        return lose * 2 <= trials

    def judge(self, truth, facts):
        me = self.cup().me
        mine_addr = self.c.cups[self.index].addr
        reveals = self.air.of(wire.REVEAL, mine_addr)
        n = 0
        for k, end in _calls(truth):
            table = truth.steps[k][4]
            seat = table.seat_of(me)
            if seat < 0 or not table.game.dice[seat] or end is None:
                continue
            t_end = truth.steps[end][1]
            if any(when <= t_end and f.body[1] == seat and _seat_digest_ok(table, seat, f.body[2])
                   for when, src, dst, f, fid in reveals):
                continue
            after = truth.steps[end][4].game
            named = any(e[0] == "forfeit" and e[1] == seat for e in truth.steps[end][5])
            if truth.steps[end][2] == "restart" and not named and after.dice[seat] >= table.game.dice[seat]:
                n += 1
        return n


class NeverReveal(Withhold):
    """A peer never reveals its root.
    tried: each committed call it held dice at (and kept its root).
    succeeded: as withhold (each call that ended with no cost to it), plus one when the
    table stalled (the game did not end within the time bound)."""
    kind = "never-reveal"

    def decide(self, cup):
        return False

    def judge(self, truth, facts):
        return Withhold.judge(self, truth, facts) + (0 if facts["finished"] else 1)


# ----- bias -------------------------------------------------------------------------
GRIND = 64


def _score(faces):
    """What a Dix mille roller wants: scoring dice (ones and fives)."""
    return sum(1 for f in faces if f in (1, 5)) + (3 if max(faces.count(x) for x in set(faces)) >= 3 else 0)


class BiasRolls(Rolls):
    """The leader's rolls part: once the witness's nonce is in for its own Dix mille roll,
    it draws another root until the faces please it (the witness's nonce is not bound
    to the digest it was asked with)."""

    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        for rid, r in list(self.rolls.items()):
            if r.get("cup") or "reroll" in r or r["w"] is None or r.get("ground"):
                continue
            if t.seats[r["seat"]] != cup.me:
                continue
            n = t.game.roll_size(r["seat"])
            base = t.gseed + struct.pack(">I", t.version)
            best = (_score(fair.faces(r["root"], 0, n, fair.roll_seed(base, r["w"]))), r["root"])
            for _ in range(GRIND):
                root = cup.random_bytes(16)
                s = _score(fair.faces(root, 0, n, fair.roll_seed(base, r["w"])))
                if s > best[0]:
                    best = (s, root)
            r["ground"] = True
            cup.attack.tried += 1
            if best[1] != r["root"]:
                r["root"] = best[1]
                r["d"] = fair.seat_digest(best[1], 0, n)
        return super().master_tick(now)


class BiasCup(AdversaryCup):
    def start(self):
        """Grind the game's start seed until its own seat opens (and, in Bluff, wins the roll-off)."""
        self._master_only()
        t = self.table
        me = t.seat_of(self.me)
        seed = self.random_bytes(16)
        for _ in range(GRIND):
            g = new_game(t.rules, len(t.seats), dict(t.options()), rng=fair.HashRng(seed))
            if g.turn == me:
                break
            seed = self.random_bytes(16)
        self.attack.tried += 1
        self.sync.commit(tbl.op_start(seed))


class Bias(Attack):
    """The leader steers chance: it grinds the start seed (the first opener, Bluff's
    roll-off) and, in Dix mille, re-draws its own roll after the witness's nonce.
    tried: each start it ground, each own roll it re-drew.
    succeeded: the first opener is the adversary's seat where an honest run of the same
    seed opens with another seat (one extra game, no adversary, to the start); plus each
    committed roll of its seat whose digest is not the one its witness was asked with
    (ROLLC on air), i.e. dice chosen after the witness spoke."""
    kind = "bias"
    role = "leader"
    cup_parts = {"Rolls": BiasRolls}

    def cup_class(self):
        attrs = dict(self.cup_parts)
        attrs["attack"] = self
        return type("Adversary_bias", (BiasCup,), attrs)

    def judge(self, truth, facts):
        from .cluster import Cluster
        n = 0
        me = self.cup().me
        c = self.c
        ref = Cluster(len(c.cups), c.rules, c.options, seed=c.seed)
        ref.setup()
        ref_open = ref.cups[0].cup.table.game.turn
        for v, t, name, info, table, ev in truth.steps:
            if name == "start":
                opener = new_game(table.rules, len(table.seats), dict(table.options()),
                                  rng=fair.HashRng(info["seed"])).turn
                if opener == table.seat_of(me) and ref_open != opener:
                    n += 1
                break
        asked = {}
        for when, src, dst, f, fid in self.air.of(wire.ROLLC, c.cups[self.index].addr):
            asked.setdefault(f.body[0], f.body[2])
        for v, t, name, info, table, ev in truth.steps:
            if name == "roll" and table.seats[info["seat"]] == me:
                op = bytes.fromhex(truth.ops[v][0])
                d = op[2:14]
                if v - 1 in asked and asked[v - 1] != d:
                    n += 1
        return n


# ----- brute-join ---------------------------------------------------------------------
class BruteJoin(Attack):
    """A radio that was never told the code guesses it online: JOIN frames, each tagged
    with the join key of another 4-digit guess, RATE a second, from the first beacon it
    hears to the end of the game.
    tried: each guess put on air.
    succeeded: the honest master committed a join of its address or sent it a WELCOME
    (it is in). Also reported: `offline`, whether the code falls out of one JOIN frame
    heard on air by trying all 10,000 codes against its tag (no guess on air at all)."""
    kind = "brute-join"
    role = "outsider"
    RATE = 50
    ADDR = bytes((0x02, 0xBA, 0xD0, 0, 0, 0x66))

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.index = None
        self.order = list(range(10000))
        random.Random(seed ^ 0xB0).shuffle(self.order)
        self.tid = None

    def cup_class(self):
        return None

    @property
    def honest(self):
        return [sc.i for sc in self.c.cups]

    def before_setup(self):
        c = self.c
        self.radio = c.medium.attach(self.ADDR)
        self.rng = random.Random(c.seed ^ 0xB1)
        c.clock.call_later(1, self._step)

    def _step(self):
        c = self.c
        while True:
            item = self.radio.recv()
            if item is None:
                break
            try:
                f = wire.decode(item[1])
            except wire.FrameError:
                continue
            if f.type == wire.BEACON and self.tid is None:
                self.tid = f.table
                self.master = item[0]
        if self.tid is not None and self.order:
            code = "%04d" % self.order.pop()
            k = wire.join_key(self.tid, code)
            frame = wire.encode(wire.JOIN, self.tid, wire.NOBODY, self.rng.randrange(1 << 30), 0,
                                (self.rng.randbytes(8), b"mallory"), k)
            self.radio.send(self.master, frame)
            self.tried += 1
        c.clock.call_later(1000 // self.RATE, self._step)

    def judge(self, truth, facts):
        c = self.c
        n = 0
        for sc in c.cups:
            t = sc.cup.table
            if t is not None and any(m.addr == self.ADDR for m in t.members):
                n = 1
        for when, src, dst, f, fid in self.air.of(wire.WELCOME):
            if dst == self.ADDR:
                n = 1
        joins = [x for x in self.air.of(wire.JOIN) if x[1] != self.ADDR]
        self.details["offline"] = False
        if joins:
            f = joins[0][3]
            for i in range(10000):
                try:
                    wire.check(f, wire.join_key(f.table, "%04d" % i))
                except wire.FrameError:
                    continue
                self.details["offline"] = "%04d" % i == c.code
                break
        return n


# ----- flood --------------------------------------------------------------------------
def footprint(cup):
    """A rough byte count of an honest cup's protocol state that frames can make grow."""
    s = cup.sync
    n = sum(16 + len(op) for term, prev, op in s.pending.values())
    if s.parts is not None:
        n += sum(16 + len(ch) for ch in s.parts[3].values())
    n += 64 * len(cup.lobby.heard)
    n += 32 * len(cup.keys.window.top)
    n += 16 * (len(cup.election.seen) + len(s.answered) + len(s.snapped) + len(cup.errors))
    n += 32 * (len(cup.rolls.witnessed) + len(cup.hidden.commits) + len(cup.hidden.reveals))
    n += 24 * len(s.unshown) + sum(len(e[3]) + 16 for e in s.history)
    return n


class Flood(Attack):
    """A peer floods every honest cup, FRAMES a second: snapshot parts of ever newer
    snapshots that never complete and far-ahead updates (both as the leader, sender
    byte forged), and beacons of made-up tables (beacons carry no tag).
    tried: each flood frame sent.
    succeeded: one per game in which an honest cup's protocol state grew by more than
    FLOOD_BOUND bytes, an honest cup raised, or the table stalled."""
    kind = "flood"
    FRAMES = 60

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.base = {}
        self.growth = 0
        self.last = 0
        self.k = 0

    def act(self, cup, now):
        t = cup.table
        if t.game is None:
            return
        n = max(1, self.FRAMES * (now - self.last) // 1000) if self.last else 1
        self.last = now
        lead = self.leader_of(cup)
        peers = self.honest_peers(cup)
        for _ in range(n):
            self.k += 1
            kind = self.k % 3
            if kind == 0:
                tid = 0x1000 + self.k % 0xE000
                cup.out.append((BROADCAST, wire.encode(wire.BEACON, tid, 1, self.k, 0,
                                                              (1, 2, 0, b"x%d" % self.k))))
            elif peers:
                mid, addr = peers[self.k % len(peers)]
                if kind == 1:
                    cup.forge(addr, wire.SNAP, (t.term, t.version + 1000 + self.k, self.k % 7, 8,
                                               cup.random_bytes(SNAP_CHUNK)), sender=lead)
                else:
                    v = t.version + 2 + self.k % AHEAD
                    cup.forge(addr, wire.UPDATE, (t.term, v, t.term, t.term, t.version, cup.random_bytes(180)),
                              sender=lead)
            self.tried += 1

    def sample(self):
        for i in self.honest:
            sc = self.c.cups[i]
            if not sc.on or sc.cup.table is None:
                continue
            f = footprint(sc.cup)
            b = self.base.setdefault(i, f)
            self.growth = max(self.growth, f - b)

    def judge(self, truth, facts):
        self.details["max_growth"] = self.growth
        return 1 if self.growth > FLOOD_BOUND or facts.get("exception") or not facts["finished"] else 0


# ----- stale-term -----------------------------------------------------------------------
class StaleTerm(Attack):
    """A peer keeps claiming newer terms, once a second: a heartbeat as leader of a higher
    term, a vote request for it, an acknowledgement saying it is in it.
    tried: each such frame sent.
    succeeded: each round the honest history threw away for an election (a failover
    restart: no cup fails in these runs), plus one if the table stalled."""
    kind = "stale-term"
    EVERY_MS = 1000

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.last = -self.EVERY_MS

    def act(self, cup, now):
        t = cup.table
        if t.game is None or now - self.last < self.EVERY_MS:
            return
        self.last = now
        term = max(cup.election.term, t.term) + 1
        b = BROADCAST
        cup.forge(b, wire.HEART, (term, t.version, cup.sync.committed, cup.me))
        cup.forge(b, wire.VOTE_REQ, (term, t.version, t.term, 0))
        master = t.members[self.leader_of(cup)].addr
        cup.forge(master, wire.ACK, (t.term, t.version, term))
        self.tried += 3

    def judge(self, truth, facts):
        n = 0
        elections = 0
        started = False
        for v, t, name, info, table, ev in truth.steps:
            started = started or name == "start"
            if name == "restart" and info["reason"] == RESTART_FAILOVER:
                n += 1
            if name == "master" and started:
                elections += 1
        self.details["elections"] = elections
        return n + (0 if facts["finished"] else 1)


# ----- high-seq -------------------------------------------------------------------------
class HighSeq(Attack):
    """A peer sends, with an honest cup's radio address and sender byte, a frame whose
    sequence number is as far ahead of that cup's last heard number as the replay window
    allows (wire.Window.JUMP), every EVERY_MS, to everyone; it hears the real numbers on air.
    tried: each such frame sent.
    succeeded: each (honest receiver, honest sender) pair in which the receiver's window
    was found (every second) past the sender's real counter by more than the window
    (its real frames refused from then on), plus one if the table stalled."""
    kind = "high-seq"
    EVERY_MS = 700

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.last = 0
        self.k = 0
        self.blocked = set()
        self.top = {}
        self.cursor = 0

    def act(self, cup, now):
        t = cup.table
        if t.game is None or now - self.last < self.EVERY_MS:
            return
        self.last = now
        new, self.cursor = self.air.since(self.cursor)
        for when, src, dst, f, fid in new:
            if fid in self.air.spoofed:
                continue
            key = (f.sender, src)
            if f.seq > self.top.get(key, -1):
                self.top[key] = f.seq
        victims = [(self.c.cups[i].cup.me, self.c.cups[i].addr) for i in self.honest
                   if self.c.cups[i].cup.me is not None]
        if not victims:
            return
        self.k += 1
        mid, addr = victims[self.k % len(victims)]
        top = self.top.get((mid, addr))
        if top is None:
            return
        seq = top + wire.Window.JUMP
        self.top[(mid, addr)] = seq
        frame = wire.encode(wire.HELLO, cup.keys.tid, mid, seq, t.version, (t.version,), cup.keys.key)
        self.air.spoofed.add(spoof_send(self.c, addr, BROADCAST, frame))
        self.tried += 1

    def sample(self):
        for r in self.honest:
            rc = self.c.cups[r]
            if not rc.on:
                continue
            for s in self.honest:
                sc = self.c.cups[s]
                if s == r or not sc.on or sc.cup.me is None:
                    continue
                top = rc.cup.keys.window.top.get((sc.cup.me, sc.addr))
                if top is not None and top - sc.cup.keys.seq > wire.Window.SIZE:
                    self.blocked.add((r, s))

    def judge(self, truth, facts):
        return len(self.blocked) + (0 if facts["finished"] else 1)


# ----- fake-snapshot ----------------------------------------------------------------------
class FakeSnapshot(Attack):
    """A peer, no leader, sends each honest peer a snapshot of a table of its own making
    (its replica a version on, with that peer's player renamed "cheat"), once under the
    leader's sender byte and term, once under its own sender byte and a newer term;
    every EVERY_MS.
    tried: each complete fake snapshot sent.
    succeeded: each time an honest cup took a snapshot that is not the honest history's
    state at that version (or of a version it never committed), plus one if honest
    cups' histories forked."""
    kind = "fake-snapshot"
    EVERY_MS = 3000

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.last = 0

    def act(self, cup, now):
        t = cup.table
        if t.game is None or now - self.last < self.EVERY_MS:
            return
        self.last = now
        lead = self.leader_of(cup)
        for mid, addr in self.honest_peers(cup):
            for sender, term in ((lead, t.term), (cup.me, max(t.term, cup.election.term) + 1)):
                fake = Table.from_snapshot(t.snapshot())
                fake.version = t.version + 1
                fake.term = term
                fake.members[mid].name = "cheat"
                data = fake.snapshot()
                parts = (len(data) + SNAP_CHUNK - 1) // SNAP_CHUNK
                for i in range(parts):
                    cup.forge(addr, wire.SNAP, (term, fake.version, i, parts,
                                                data[i * SNAP_CHUNK:(i + 1) * SNAP_CHUNK]), sender=sender)
                self.tried += 1

    def judge(self, truth, facts):
        n = 0
        for i, when, data in truth.snapshots:
            try:
                st = Table.from_snapshot(data)
            except OpError:
                n += 1
                continue
            if truth.digest_at(st.version) != st.digest_of():
                n += 1
        return n + (1 if truth.forks else 0)


ATTACKS = dict((cls.kind, cls) for cls in (Peek, Forge, Veto, Withhold, NeverReveal, Bias, BruteJoin, Flood,
                                           StaleTerm, HighSeq, FakeSnapshot))


# ----- one game with an adversary ------------------------------------------------------------
def _culprit(exc):
    """The Cup whose code raised (the innermost frame with a Cup `self`)."""
    found = None
    for frame, _ in traceback.walk_tb(exc.__traceback__):
        obj = frame.f_locals.get("self")
        if isinstance(obj, Cup):
            found = obj
        elif obj is not None and isinstance(getattr(obj, "cup", None), Cup):
            found = obj.cup
    return found


def play_attack(kind, cups, rules, options, seed, limit_ms=LIMIT_MS, cup_classes=None, loss=0.0, bots=0,
                shake_ms=0):
    """Play game `seed` with an adversary trying `kind`; returns a dict: tried,
    succeeded, details, finished (the honest cups), honest_ok and reasons (the honest
    cups' checks), exception (an honest cup raised). `cup_classes`: other seats' classes
    (a test's deliberately broken honest cup)."""
    from . import simrun
    from .cluster import Cluster
    cls = ATTACKS[kind]
    attack = cls(cups, seed)
    classes = dict(cup_classes or {})
    cc = attack.cup_class()
    if cc is not None:
        classes[attack.index] = cc
    c = Cluster(cups, rules, options, seed=seed, cup_classes=classes, loss=loss, dup=loss / 5, reorder=loss / 3,
                bots=bots, shake_ms=shake_ms)
    attack.attach(c)
    facts = {"finished": False, "exception": None}
    honest = attack.honest

    def honest_done():
        live = [c.cups[i] for i in honest if c.cups[i].on and c.cups[i].cup.table is not None]
        return bool(live) and all(sc.cup.table.phase == tbl.DONE and sc.cup.sync.shown == sc.cup.table.version
                                  for sc in live)

    try:
        attack.before_setup()
        c.setup()
        attack.sample()
        while c.clock.now < limit_ms:
            if c.run(SAMPLE_MS, honest_done):
                break
            attack.sample()
        facts["finished"] = honest_done()
    except Exception as e:  # noqa: BLE001 - an honest cup raised: the attack broke it
        who = _culprit(e)
        if who is not None and isinstance(who, AdversaryCup):
            raise
        facts["exception"] = "%s: %s" % (type(e).__name__, e)
    attack.sample()
    skip = () if attack.index is None else (attack.index,)
    if facts["exception"] is None:
        ok, reasons = simrun.check_game(c, skip=skip, final=facts["finished"])
    else:
        ok, reasons = False, ["an honest cup raised: " + facts["exception"]]
    truth = Truth(c, honest)
    for i, v in truth.bogus[:3]:
        reasons.append("cup %d showed an op at version %d that the table never committed" % (i, v))
    ok = ok and not truth.bogus
    succeeded = attack.judge(truth, facts)
    return {"kind": kind, "tried": attack.tried, "succeeded": succeeded, "details": attack.details,
            "finished": facts["finished"], "exception": facts["exception"], "honest_ok": ok, "reasons": reasons,
            "cluster": c, "attack": attack, "truth": truth}
