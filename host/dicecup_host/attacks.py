"""Adversarial cups: one seat of a simulated table tries an attack all game long, and a
judge decides from the outside -- from what the honest cups logged, held and put on
air, never from what the adversary claims -- whether it worked.

    result = play_attack("peek", cups=4, rules="perudo", options=None, seed=1)
    result["tried"], result["succeeded"], result["honest_ok"], result["reasons"]

Every adversary is a host-side `Cup` subclass (some parts swapped) or, for
brute-join, a radio that is no member at all. It holds everything a dishonest member
holds and no more: its own X25519 key pair and so the pairwise key it shares with each
member (`cup.keys.ring.pair(me, j)`). It can build any frame under its own sender id,
or put another member's sender byte (any sequence number) on a frame tagged with its
own keys -- which honest cups refuse (bad-tag): such frames are counted as tried. It
hears the whole air (ESP-NOW unicasts go out on a shared channel: `Sniffer` reads the
medium's trace), and may send with another cup's radio address (a MAC is a setting on
an ESP32). Where it sits:

    leader   (cup 0, which creates the table and leads):  peek-leader, veto, bias
    outsider (a radio with no seat, never given the code): brute-join
    peer     (the last cup, a seated non-master member):   everything else

A leader that is deposed and a game that goes on without it is no success; a table
that stalls for good is one. Every judge also counts honest cups made to look like
cheats: an honest cup that gave up on an honest leader (a `forged` event: a false op,
or a round it "stalled").

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

from dicecup.engine import BANK_OR_ROLL, BID, REVEAL, ROLL, SHAKE, new_game
from dicecup.engine.actions import CHALLENGE, kind as action_kind
from dicecup.net import fair, vouch, wire
from dicecup.net import table as tbl
from dicecup.net.cup import Cup
from dicecup.net.deal import Deal
from dicecup.net.hidden import HiddenDice
from dicecup.net.rolls import Rolls
from dicecup.net.table import OpError, Table
from dicecup.net.timing import AHEAD, AWAY_MS, RESEND_MS, SNAP_CHUNK
from dicecup.net.turns import Turns
from dicecup.net.transport import BROADCAST

from . import checker

KINDS = ("peek", "peek-leader", "forge", "veto", "withhold", "never-reveal", "bias", "brute-join", "flood", "stale-term",
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
        self.leaders = leaders
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
    bugs are survived (strict off), not taken for the honest cups'. It holds only its
    own keys: the pairwise keys it shares with each member (cup.keys.ring)."""
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
            self.attack.watch_own(self)
            self.attack.act(self, now)
        except Exception:  # noqa: BLE001 - the adversary's failure is not the table's
            self.attack.own_errors += 1
        return min(due, now + self.STEP_MS)

    def forge(self, dest, ftype, body, sender=None, seq=None, ver=None):
        """A frame tagged with this cup's own pairwise keys (all it has), with any sender
        byte and sequence number: with another member's sender byte, every honest
        receiver checks the tag with the wrong key and refuses it. No frame budget."""
        t = self.table
        sender = self.me if sender is None else sender
        seq = self.keys.next_seq() if seq is None else seq
        ver = (t.version if t is not None else 0) if ver is None else ver
        key = self.keys.ring.receivers(self.me, dest) if wire.key_kind(ftype) == 2 else None
        frame = wire.encode(ftype, self.keys.tid, sender, seq, ver, body, key)
        self.out.append((dest, frame))
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
        self.my_roots = set()   # the adversary's own round roots (the judges' counterfactuals)
        self.held_roots = set()

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

    def watch_own(self, cup):
        """Keep the adversary's own secrets (its roots; as leader, the held seats'):
        ground truth for the judges' 'would it have lost' (never its claim)."""
        t = cup.table
        if t.game is None or not hasattr(t.game, "round"):
            return   # (Dix mille: no hidden dice)
        r = cup.hidden.my_root()
        if r is not None:
            self.my_roots.add(r)
        for r in cup.hidden.held_roots().values():
            self.held_roots.add(r)

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

    def honest_mids(self):
        return set(self.c.cups[i].cup.me for i in self.honest if self.c.cups[i].cup.me is not None)

    def framed(self, truth):
        """Honest cups that gave up on an honest leader (a `forged` event: a false op, or
        a round it 'stalled'): an honest cup made to look like a cheat."""
        honest = self.honest_mids()
        n = 0
        for i in self.honest:
            for line in self.c.cups[i].serial:
                if '"k":"forged"' not in line:
                    continue
                r = json.loads(line)
                lead = truth.leaders.get(r.get("tm"))
                if lead is not None and lead in honest:
                    n += 1
                    self.details.setdefault("framed", []).append((i, r.get("tm"), r.get("why")))
        return n


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


def _escaped(attack, truth):
    """Committed calls the adversary's seat would have lost (its true root and every
    other root, the honest settle's or heard on air) that ended without it losing:
    [(call version, how it ended)]. Calls whose roots are not all known are counted in
    details['unjudged']."""
    me = attack.cup().me
    heard = [f.body[2] for i in attack.honest for _, _, _, f, _ in attack.air.of(wire.REVEAL, attack.c.cups[i].addr)]
    out = []
    unjudged = 0
    for k, end in _calls(truth):
        if end is None:
            continue
        table = truth.steps[k][4]
        g = table.game
        seat = table.seat_of(me)
        if seat < 0 or not g.hidden(seat):
            continue
        settled = truth.steps[end][3].get("roots") if truth.steps[end][2] == "settle" else None
        roots = []
        for s in range(len(table.seats)):
            if not g.hidden(s):
                roots.append(tbl.NO_ROOT)
                continue
            cands = list(attack.my_roots) + list(attack.held_roots) + heard
            if settled is not None:
                cands.append(settled[s])
            r = next((x for x in cands if x != tbl.NO_ROOT and _seat_digest_ok(table, s, x)), None)
            roots.append(r)
        if any(r is None for r in roots):
            unjudged += 1
            continue
        trial = Table.from_snapshot(table.snapshot())
        before = g.dice[seat]
        try:
            trial.apply(tbl.op_settle(roots))
        except OpError:
            unjudged += 1
            continue
        if trial.game.dice[seat] >= before:
            continue   # it would not have lost this one
        after = truth.steps[end][4].game.dice[seat]
        if after >= before:
            out.append((truth.steps[k][0], truth.steps[end][2]))
    attack.details["unjudged"] = attack.details.get("unjudged", 0) + unjudged
    return out


# ----- peek -------------------------------------------------------------------------
class Peek(Attack):
    """A peer tries to make the honest peers reveal their roots before a real call: while
    bids are going it sends each honest peer a call op (the seat to act challenges) in an
    UPDATE, (a) under the leader's sender byte (tagged with its own keys: refused) and
    (b) under its own sender byte, as the leader of a newer term (refused: not the
    leader while the real one is alive).
    tried: each such UPDATE sent.
    succeeded: each honest seat's root that went on air (a REVEAL from that cup's own
    radio) before the honest history held a committed call of that round; honest cups
    made to look like cheats."""
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
        if t.version in self.done:
            return
        self.done.add(t.version)
        lead = self.leader_of(cup)
        op = tbl.op_act(seat, CHALLENGE)
        newer = max(t.term, cup.election.term) + 1
        for mid, addr in self.honest_peers(cup):
            cup.forge(addr, wire.UPDATE, (t.term, t.version + 1, t.term, t.term, t.version + 1, op), sender=lead)
            cup.forge(addr, wire.UPDATE, (newer, t.version + 1, newer, t.term, t.version + 1, op))
            self.tried += 2

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
        return n + self.framed(truth)


class FakeCallTurns(Turns):
    """The leader's turns part: while bids are going, it commits a call op for the honest
    seat to act, with a vouch of the right shape whose tags it cannot know (random)."""

    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        g = t.game
        a = cup.attack
        seat = g.to_act()
        if g.need() == BID and seat is not None and t.seats[seat] != cup.me and not t.bot_plays(seat) \
                and CHALLENGE in g.legal(seat) and t.version not in a.done:
            a.done.add(t.version)
            mid = t.seats[seat]
            mask = 0
            for m in cup.keys.ring.roster:
                if m != mid:
                    mask |= 1 << m
            n = bin(mask).count("1")
            fake = bytes((mask,)) + cup.random_bytes(4 * n)
            a.fakes.add((seat, t.version))
            a.tried += 1
            cup.sync.commit(tbl.op_act(seat, CHALLENGE, b"", fake))
            return now
        return super().master_tick(now)


class PeekLeader(Peek):
    """The leader makes a call for another seat (the honest seat to act challenges),
    to see the roots a reveal would show: its op carries a vouch it could not make.
    tried: each false call op committed.
    succeeded: as peek (an honest root on air before an honest committed call), plus
    each such call the honest history shows, plus one if the table stalled (the
    leader deposed and the game going on is no success)."""
    kind = "peek-leader"
    role = "leader"
    cup_parts = {"Turns": FakeCallTurns}

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.fakes = set()

    def act(self, cup, now):
        pass

    def judge(self, truth, facts):
        n = Peek.judge(self, truth, facts)
        for v, t, name, info, table, ev in truth.steps:
            if name == "act" and (info["seat"], v - 1) in self.fakes and info["action"] == CHALLENGE:
                n += 1
        return n + (0 if facts["finished"] else 1)


# ----- forge ------------------------------------------------------------------------
class Forge(Attack):
    """A peer tries to act as another member (an honest non-leader): an ACTION for its
    seat on its turn, a LEAVE, a COMMIT of a made-up digest once the round is open, a
    REVEAL of a made-up root at the call -- each (a) under the victim's sender byte
    (tagged with the adversary's own keys), (b) under its own sender byte naming the
    victim's seat (an ACTION with a made-up vouch); and (c) the victim's own latest
    ACTION, COMMIT and REVEAL frames heard on air, replayed from its own radio a second later.
    tried: each frame sent.
    succeeded: honest members that the honest history shows leaving (no honest cup in the
    simulation ever leaves), honest seats named as cheats (a forfeit) or losing a round
    for a withheld reveal, act ops for an honest seat that its own cup never sent,
    honest cups made to look like cheats."""
    kind = "forge"

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.done = set()
        self.actions = set()   # (seat, action, base version) forged
        self.left = False
        self.first = None
        self.cursor = 0
        self.replays = []      # (due, frame)

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
        rno = getattr(g, "round", 0) & 0xFFFF
        if seat >= 0 and g.to_act() == seat and ("act", v) not in self.done:
            legal = [a for a in g.legal(seat) if action_kind(a) not in ("reroll", "roll")]
            if legal:
                a = CHALLENGE if CHALLENGE in legal else legal[0]
                self.done.add(("act", v))
                mask = sum(1 << m for m in cup.keys.ring.roster if m != mid)
                fake = vouch.pack(bytes((mask,)) + cup.random_bytes(4 * bin(mask).count("1")))
                cup.forge(master, wire.ACTION, (seat, a, v, fake), sender=mid)
                cup.forge(master, wire.ACTION, (seat, a, v, fake))
                self.actions.add((seat, a, v))
                self.tried += 2
        if seat >= 0 and g.need() == SHAKE and t.mc != tbl.NO_DIGEST and ("commit", v) not in self.done:
            self.done.add(("commit", v))
            d = cup.random_bytes(12)
            cup.forge(BROADCAST, wire.COMMIT, (rno, seat, d), sender=mid)
            cup.forge(BROADCAST, wire.COMMIT, (rno, seat, d))
            self.tried += 2
        if seat >= 0 and g.need() == REVEAL and ("reveal", v) not in self.done:
            self.done.add(("reveal", v))
            r = cup.random_bytes(16)
            cup.forge(BROADCAST, wire.REVEAL, (rno, seat, r), sender=mid)
            cup.forge(BROADCAST, wire.REVEAL, (rno, seat, r))
            self.tried += 2
        if seat >= 0 and g.to_act() == seat and g.need() in (ROLL, BANK_OR_ROLL) and ("roll", v) not in self.done:
            self.done.add(("roll", v))   # Dix mille: its roll's commitment and root, as it
            mask = sum(1 << m for m in cup.keys.ring.roster if m != mid)
            fake = bytes((mask,)) + cup.random_bytes(4 * bin(mask).count("1"))
            d = cup.random_bytes(12)
            for sender in (mid, cup.me):
                cup.forge(master, wire.ROLLC, (v, seat, d, fake), sender=sender)
                cup.forge(master, wire.ROLLR, (v, seat, cup.random_bytes(16)), sender=sender)
                self.tried += 2
        if self.first is None:
            self.first = v
        if not self.left and v >= self.first + 30:   # well into the game
            self.left = True
            cup.forge(master, wire.LEAVE, (mid,), sender=mid)
            cup.forge(master, wire.LEAVE, (mid,))
            self.tried += 2
        # the victim's real frames, replayed from our radio (the window is per radio address)
        new, self.cursor = self.air.since(self.cursor)
        for when, src, dst, f, fid in new:
            if src == addr and f.type in (wire.ACTION, wire.COMMIT, wire.REVEAL, wire.AUTO, wire.ROLLC, wire.ROLLR):
                self.replays.append((now + 1000, dst, f.raw))
        while self.replays and self.replays[0][0] <= now:
            _, dst, raw = self.replays.pop(0)
            cup.out.append((dst, raw))
            self.tried += 1

    def judge(self, truth, facts):
        honest_mids = self.honest_mids()
        n = 0
        sent = set()
        for i in self.honest:
            for when, src, dst, f, fid in self.air.of(wire.ACTION, self.c.cups[i].addr):
                sent.add((f.body[0], f.body[1], f.body[2]))
        for v, t, name, info, table, events in truth.steps:
            for e in events:
                if e[0] == "left" and e[1] in honest_mids:
                    n += 1
                if e[0] in ("forfeit", "withheld") and table.seats[e[1]] in honest_mids:
                    n += 1
            if name == "act" and (info["seat"], info["action"], v - 1) in self.actions \
                    and (info["seat"], info["action"], v - 1) not in sent:
                n += 1
        return n + self.framed(truth)


# ----- veto -------------------------------------------------------------------------
def _would_lose(t, mine, roots):
    trial = Table.from_snapshot(t.snapshot())
    before = trial.game.dice[mine]
    try:
        trial.apply(tbl.op_settle(roots))
    except OpError:
        return False
    return trial.game.dice[mine] < before or trial.game.winner() not in (None, mine)


class VetoDice(HiddenDice):
    """The leader's dice part: once every root is in, if its seat loses the round it
    tries to get out of it, by turns:
      term    it commits a master op naming itself for a newer term (no election), then
              a failover restart (a replay that a new leader may make);
      settle  it settles the round with an honest seat's root left out, "attested" by
              just enough honest cups (not that seat's): that seat loses instead."""
    MODES = ("term", "settle")

    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        g = t.game
        a = cup.attack
        if g.need() == REVEAL and cup.sync.committed >= self.called_v and t.version not in a.vetoed:
            self.reveals.update(self.held_roots())
            mine = self.mine()
            if mine >= 0 and self.my_root() is not None:
                self.reveals[mine] = self.my_root()
            if mine >= 0 and all(s in self.reveals for s in range(len(t.seats)) if g.dice[s]):
                roots = [self.reveals.get(s, tbl.NO_ROOT) if g.dice[s] else tbl.NO_ROOT for s in range(len(t.seats))]
                if _would_lose(t, mine, roots):
                    mode = self.MODES[len(a.vetoed) % len(self.MODES)]
                    a.vetoed[t.version] = mode
                    if self._veto(mode, mine, roots):
                        a.tried += 1
                        a.by_mode[mode] = a.by_mode.get(mode, 0) + 1
                        return now
        return super().master_tick(now)

    def _veto(self, mode, mine, roots):
        cup = self.cup
        t = cup.table
        g = t.game
        if mode == "term":
            term = max(t.term, cup.election.term) + 1
            cup.sync.commit(tbl.op_master(cup.me, term))
            el = cup.election
            el.term = term
            el.leader = cup.me
            el.voted = cup.me
            el._save()
            cup.sync.commit(tbl.op_restart(tbl.RESTART_FAILOVER))
            return True
        # settle: leave out the root of an honest seat whose loss saves ours
        voters = t.voters()
        need = len(voters) // 2 + 1 - 1
        for s in range(len(t.seats)):
            if s == mine or not g.hidden(s) or s in self.held_roots():
                continue
            trial_roots = list(roots)
            trial_roots[s] = tbl.NO_ROOT
            others = [m for m in voters if m != t.master and m != t.holders[s]]
            if len(others) < need:
                continue
            mask = sum(1 << m for m in others[:need])
            if _would_lose(t, mine, trial_roots):
                continue
            try:
                Table.from_snapshot(t.snapshot()).apply(tbl.op_settle(trial_roots, mask))
            except OpError:
                continue
            cup.sync.commit(tbl.op_settle(trial_roots, mask))
            return True
        return False


class Veto(Attack):
    """The leader gets out of every round it would lose, once every root is in (see
    VetoDice: a self-made newer term and a failover replay; a settle that leaves an
    honest seat's root out, in the name of honest cups that never attested it).
    tried: each round it vetoed (details by_mode).
    succeeded: each committed call the adversary's seat would have lost (all roots
    known) that ended without it losing (a replay, another seat losing); each restart
    after a committed call by which every honest seat holding dice had put its root on
    air; honest cups made to look like cheats; plus one if the table stalled."""
    kind = "veto"
    role = "leader"
    cup_parts = {"HiddenDice": VetoDice}

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.vetoed = {}
        self.by_mode = {}

    def judge(self, truth, facts):
        honest_mids = self.honest_mids()
        reveals = []
        for i in self.honest:
            reveals += self.air.of(wire.REVEAL, self.c.cups[i].addr)
        calls = set()
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
                calls.add(truth.steps[k][0])
        esc = _escaped(self, truth)
        self.details["escaped"] = esc
        self.details["by_mode"] = dict(self.by_mode)
        calls |= set(v for v, how in esc)
        n = len(calls)
        return n + self.framed(truth) + (0 if facts["finished"] else 1)


# ----- withhold / never-reveal -------------------------------------------------------
class WithholdDice(HiddenDice):
    """A peer's dice part that reveals as `reveal_mode()` says: to everyone ("all"),
    to nobody ("none"), or only to the honest cups that are not the leader ("split")."""

    def peer_tick(self, now):
        cup = self.cup
        t = cup.table
        g = t.game
        if g is not None and t.phase == tbl.PLAYING and g.need() == REVEAL and self.mine() >= 0 \
                and cup.sync.committed >= self.called_v and self.my_root() is not None:
            mode = cup.attack.reveal_mode(cup, now)
            if mode == "all":
                return super().peer_tick(now)
            if mode == "split" and now - self.last_reveal >= RESEND_MS:
                self.last_reveal = now
                body = (g.round & 0xFFFF, self.mine(), self.my_root())
                for mid, addr in cup.attack.honest_peers(cup):
                    cup.forge(addr, wire.REVEAL, body)
            return now + RESEND_MS
        return super().peer_tick(now)


class Withhold(Attack):
    """A peer reveals its root only when it does not lose the round. It waits (up to
    WAIT_MS) to hear the other peers' roots on air and samples the ones it cannot hear
    (the leader's own, the bots'); when it more likely loses it reveals to the honest
    cups that are not the leader only ("split"): they hold every root and will not
    attest it missing, so the leader has no majority to make it lose the round for a
    withheld reveal, and they see their leader hold every root and not go on. (Staying
    silent costs the round: never-reveal measures that.)
    tried: each committed call it withheld its root from the leader.
    succeeded: each committed call of the honest history the adversary's seat would have
    lost (its true root) that ended without it losing; honest cups made to look like
    cheats (they gave up on an honest leader); plus one if the table stalled."""
    kind = "withhold"
    cup_parts = {"HiddenDice": WithholdDice}
    WAIT_MS = 3000
    HIDE = "split"

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.decided = {}   # call version -> mode

    def reveal_mode(self, cup, now):
        v = cup.hidden.called_v
        if v not in self.decided:
            d = self.decide(cup, now)
            if d is None:
                return None
            self.decided[v] = d
            if d != "all":
                self.tried += 1
        return self.decided[v]

    def decide(self, cup, now):
        t = cup.table
        g = t.game
        mine = cup.hidden.mine()
        known = {mine: cup.hidden.my_root()}
        for when, src, dst, f, fid in self.air.of(wire.REVEAL):
            rno, seat, root = f.body
            if rno == g.round & 0xFFFF and seat < len(t.seats) and _seat_digest_ok(t, seat, root):
                known[seat] = root
        lead = self.leader_of(cup)
        owed = [s for s in range(len(t.seats)) if g.hidden(s) and s not in known and t.holders[s] != lead]
        if owed and now - cup.hidden.called_at < self.WAIT_MS:
            return None   # the other peers' roots first
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
                return "all"
            if trial.game.dice[mine] < before:
                lose += 1
        return "all" if lose * 2 <= trials else self.HIDE

    def judge(self, truth, facts):
        esc = _escaped(self, truth)
        self.details["escaped"] = esc
        return len(esc) + self.framed(truth) + (0 if facts["finished"] else 1)


class NeverReveal(Withhold):
    """A peer never reveals its root, to anyone.
    tried: each committed call it held dice at (and kept its root).
    succeeded: as withhold (each call it would have lost that ended without it losing,
    honest cups made to look like cheats), plus one if the table stalled."""
    kind = "never-reveal"

    def decide(self, cup, now):
        return "none"


# ----- bias -------------------------------------------------------------------------
GRIND = 64
ANTES = 12


def _score(faces):
    """What a Dix mille roller wants: scoring dice (ones and fives)."""
    return sum(1 for f in faces if f in (1, 5)) + (3 if max(faces.count(x) for x in set(faces)) >= 3 else 0)


REFUSED_MS = 1500   # a re-asked witness that has not answered in this long refused


class BiasRolls(Rolls):
    """The leader's rolls part: for a Dix mille roll it makes (its own seat's, a bot's),
    once the witness has given its nonce w, it grinds roots for ones whose faces under
    w please it, and asks the same witness again, under the same roll id, with the new
    root's digest (a witness that gives the same nonce to a second digest lets it)."""

    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        a = cup.attack
        for rid, r in list(self.rolls.items()):
            if r.get("cup") or "reroll" in r or r["w"] is None or r.get("ground") or r.get("of") == cup.me:
                continue
            n = t.game.roll_size(r["seat"])
            base = t.gseed + struct.pack(">I", t.version)
            w = r["w"]
            best = (_score(fair.faces(r["root"], 0, n, fair.roll_seed(base, w))), r["root"])
            for _ in range(GRIND):
                root = cup.random_bytes(16)
                s = _score(fair.faces(root, 0, n, fair.roll_seed(base, w)))
                if s > best[0]:
                    best = (s, root)
            r["ground"] = True
            if best[1] != r["root"]:
                a.tried += 1
                r["orig"] = (r["root"], r["d"], w, now)   # to fall back on if the witness refuses
                r["root"] = best[1]
                r["d"] = fair.seat_digest(best[1], 0, n)
                r["w0"] = w
                r["w"] = None
                r["asked"] = -10 ** 9
        for rid, r in self.rolls.items():
            orig = r.get("orig")
            if orig is not None and r["w"] is None and now - orig[3] > REFUSED_MS:
                # the witness will not give a nonce to a second digest: roll the first one
                r["root"], r["d"], r["w"] = orig[:3]
                r["orig"] = None
                a.details["refused"] = a.details.get("refused", 0) + 1
        for rid, r in self.rolls.items():
            if r.get("w0") is not None and r["w"] is not None and r["w"] != r["w0"]:
                a.details["fresh_nonce"] = a.details.get("fresh_nonce", 0) + 1   # the witness saw through it
                r["w0"] = None
        return super().master_tick(now)


class GrindDeal(Deal):
    """The leader's seed part: when every named nonce is in and the start would not make
    its own seat open, it marks a named cup away (a flags op: the master's to make) and
    antes again without it -- the table allows a new ante once a named cup is gone --
    then marks it back; up to ANTES times."""

    def deal(self):
        cup = self.cup
        t = cup.table
        a = cup.attack
        nonces = self.ready()
        if nonces is None:
            return
        g = new_game(t.rules, len(t.seats), dict(t.options()), rng=fair.HashRng(fair.game_seed(self.m, nonces)))
        named = [i for i in range(8) if t.ante_mask >> i & 1]
        if g.turn != t.seat_of(cup.me) and a.antes < ANTES and named:
            a.antes += 1
            a.tried += 1
            victim = named[-1]
            back = [i for i in range(len(t.members)) if i != victim and t.members[i].flags & tbl.AWAY
                    and not t.members[i].flags & (tbl.LEFT | tbl.BOT)]
            for i in back:   # the one made away last time: back first, so it is named again
                cup.sync.commit(tbl.op_flags(i, t.members[i].flags & ~tbl.AWAY))
            cup.sync.commit(tbl.op_flags(victim, t.members[victim].flags | tbl.AWAY))
            self.start()
            return
        super().deal()


class Bias(Attack):
    """The leader steers chance: (a) the game's seed -- it antes again (GrindDeal) until
    the start would make its own seat open; (b) Dix mille rolls it makes -- it re-draws
    the root after the witness's nonce and asks the witness again (BiasRolls).
    tried: each ante it threw away, each roll it re-drew.
    succeeded: the first opener is the adversary's seat after it threw away an ante by
    making away a named cup that was on air within AWAY_MS (details: antes); plus
    each committed roll of a seat it rolls whose digest is not the one its witness was
    first asked with under that roll id (ROLLC on air), i.e. dice chosen after the
    witness spoke; plus honest cups made to look like cheats."""
    kind = "bias"
    role = "leader"
    cup_parts = {"Rolls": BiasRolls, "Deal": GrindDeal}

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.antes = 0

    def judge(self, truth, facts):
        n = 0
        me = self.cup().me
        c = self.c
        false_away = 0
        antes = 0
        for v, t, name, info, table, ev in truth.steps:
            if name == "ante":
                antes += 1
            elif name == "flags" and antes and table.phase != tbl.PLAYING and info["flags"] & tbl.AWAY \
                    and info["member"] != me and self._on_air(table.members[info["member"]].addr, t):
                false_away += 1
            elif name == "start":
                opener = new_game(table.rules, len(table.seats), dict(table.options()), rng=fair.HashRng(info["seed"])).turn
                self.details["opener_mine"] = opener == table.seat_of(me)
                self.details["antes"] = antes
                self.details["false_away"] = false_away
                if opener == table.seat_of(me) and false_away:
                    n += 1
                antes = false_away = 0
        asked = {}
        for when, src, dst, f, fid in self.air.of(wire.ROLLC, c.cups[self.index].addr):
            asked.setdefault(f.body[0], f.body[2])
        for v, t, name, info, table, ev in truth.steps:
            if name == "roll":
                op = bytes.fromhex(truth.ops[v][0])
                d = op[2:14]
                rid = struct.unpack(">I", op[46:50])[0]
                if rid in asked and asked[rid] != d:
                    n += 1
        return n + self.framed(truth)

    def _on_air(self, addr, t):
        self.air.update()
        for when, src, dst, f, fid in self.air.frames:
            if src == addr and t - AWAY_MS <= when <= t:
                return True
        return False


# ----- brute-join ---------------------------------------------------------------------
class BruteJoin(Attack):
    """A radio that was never told the code guesses it online, with real CPace sessions:
    a JOIN (a fresh nonce, the CPace share of its next 4-digit guess) to the master;
    on its CHALLENGE it finishes the session and checks the master's confirmation tag
    itself (a right guess shows there), then sends its own confirmation. It guesses from
    the first beacon of a game under way, with the static key of a member heard in a
    JOIN on air (the master runs a session even in play for a known member's key);
    refused ("busy", "locked"), it sends the same JOIN again every RETRY_MS, the guess
    untested.
    tried: each JOIN put on air (details: guesses, the sessions the master answered).
    succeeded: the honest master committed a join of its address or sent it a WELCOME,
    or one of its guesses was the code (a confirmation tag that checked); honest cups
    made to look like cheats.
    No offline judge: a recorded session (JOIN, CHALLENGE, CONFIRM) gives no test of a
    guess -- the ISK and so both confirmation tags need one side's secret CPace scalar,
    and the shares are uniform points whatever the code -- so there is nothing to try
    the 10,000 codes against (the old JOIN tag under a key from the code is gone)."""
    kind = "brute-join"
    RETRY_MS = 500
    ADDR = bytes((0x02, 0xBA, 0xD0, 0, 0, 0x66))

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.index = None
        self.order = list(range(10000))
        random.Random(seed ^ 0xB0).shuffle(self.order)
        self.tid = None
        self.master = None
        self.session = None    # (code, nonce, Cpace, JOIN body, sent at)
        self.guesses = 0
        self.refused = {}
        self.learned = None
        self.welcomed = False

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

    def _new_session(self):
        from dicecup.net.lobby import _ci, _sid
        from dicecup.net.pake import Cpace
        code = "%04d" % self.order.pop()
        nonce = self.rng.randbytes(8)
        pk = self.pk
        name = b"mallory"
        cp = Cpace(code.encode(), _sid(self.tid, nonce), _ci(self.tid, self.ADDR, self.master), True,
                   self.rng.randbytes, pk + name)
        self.session = [code, nonce, cp, (nonce, cp.message()[:32], pk, name), 0]

    def _send(self, ftype, body):
        self.radio.send(self.master, wire.encode(ftype, self.tid, wire.NOBODY, self.rng.randrange(1 << 30), 0, body))

    def _step(self):
        from dicecup.net.lobby import REASONS
        from dicecup.net.pake import PakeError
        c = self.c
        now = c.clock.now
        while True:
            item = self.radio.recv()
            if item is None:
                break
            try:
                f = wire.decode(item[1])
            except wire.FrameError:
                continue
            if f.type == wire.BEACON and f.body[2] & 1:
                self.tid = f.table
                self.master = item[0]
            s = self.session
            if s is None or f.table != self.tid or not f.body or f.body[0] != s[1]:
                if f.type == wire.WELCOME and item[0] == self.master:
                    self.welcomed = True
                continue
            if f.type == wire.CHALLENGE:
                nonce, share, theirs, tag = f.body
                self.guesses += 1
                try:
                    s[2].finish(share + theirs)
                    if s[2].check_confirm(tag):
                        self.learned = s[0]
                    self._send(wire.CONFIRM, (nonce, s[2].confirm_tag()))
                except PakeError:
                    pass
                self.session = None
            elif f.type == wire.REFUSE:
                why = REASONS[f.body[1]] if 0 < f.body[1] < len(REASONS) else "?"
                self.refused[why] = self.refused.get(why, 0) + 1
                if why not in ("busy", "locked"):
                    self.session = None
            elif f.type == wire.WELCOME:
                self.welcomed = True
        if self.tid is not None and not hasattr(self, "pk"):
            joins = [x for x in self.air.of(wire.JOIN) if x[1] != self.ADDR]
            if joins:
                self.pk = joins[-1][3].body[2]
        if self.tid is not None and hasattr(self, "pk") and self.order and self.learned is None:
            if self.session is None:
                self._new_session()
            if now - self.session[4] >= self.RETRY_MS:
                self.session[4] = now
                self._send(wire.JOIN, self.session[3])
                self.tried += 1
        c.clock.call_later(100, self._step)

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
        if self.learned is not None and self.learned == c.code:
            n = 1
        self.details.update(guesses=self.guesses, refused=dict(self.refused), learned=self.learned)
        return n + self.framed(truth)


# ----- flood --------------------------------------------------------------------------
def footprint(cup):
    """A rough byte count of an honest cup's protocol state that frames can make grow."""
    s = cup.sync
    n = sum(16 + len(op) for term, prev, op in s.pending.values())
    if s.parts is not None:
        n += sum(16 + len(ch) for ch in s.parts[3].values())
    n += 64 * len(cup.lobby.heard)
    n += len(cup.keys.window.seen)
    n += 16 * (len(cup.election.seen) + len(s.answered) + len(s.snapped) + len(cup.errors))
    n += 32 * (len(cup.rolls.witnessed) + len(cup.hidden.commits) + len(cup.hidden.reveals))
    n += 24 * len(s.unshown) + len(s.history)
    n += 64 * len(cup.lobby.sessions) + (8 * len(cup.lobby.gate.started) if cup.lobby.gate else 0)
    n += 16 * sum(len(x) for x in cup.watch.attests.values())
    return n


class Flood(Attack):
    """A peer floods every honest cup, FRAMES a second, by turns: beacons of made-up
    tables (no tag); snapshot parts of ever newer snapshots and far-ahead updates under
    the leader's sender byte (bad tags) and under its own, as leader of a newer term
    (valid tags: refused as not the leader); and, to the leader under its own sender,
    NEEDs of version 1 and HELLOs of version 0 (each asks it for updates or a whole
    snapshot: its frame budget is the honest peers' too).
    tried: each flood frame sent.
    succeeded: one per game in which an honest cup's protocol state grew by more than
    FLOOD_BOUND bytes, an honest cup raised, or the table stalled; honest cups made to
    look like cheats (a leader whose budget the flood ate, given up on)."""
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
        newer = max(t.term, cup.election.term) + 1
        for _ in range(n):
            self.k += 1
            kind = self.k % 7
            if kind == 0:
                tid = 0x1000 + self.k % 0xE000
                cup.out.append((BROADCAST, wire.encode(wire.BEACON, tid, 1, self.k, 0, (1, 2, 0, b"x%d" % self.k))))
            elif kind == 5:
                cup.forge(t.members[lead].addr, wire.NEED, (1,))
            elif kind == 6:
                cup.forge(t.members[lead].addr, wire.HELLO, (0,))
            elif peers:
                mid, addr = peers[self.k % len(peers)]
                if kind in (1, 3):
                    term, sender = (t.term, lead) if kind == 1 else (newer, cup.me)
                    cup.forge(addr, wire.SNAP, (term, t.version + 1000 + self.k, self.k % 7, 8,
                                                cup.random_bytes(SNAP_CHUNK)), sender=sender)
                else:
                    term, sender = (t.term, lead) if kind == 2 else (newer, cup.me)
                    v = t.version + 2 + self.k % AHEAD
                    cup.forge(addr, wire.UPDATE, (term, v, term, term, t.version, cup.random_bytes(180)),
                              sender=sender)
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
        return (1 if self.growth > FLOOD_BOUND or facts.get("exception") or not facts["finished"] else 0) \
            + self.framed(truth)


# ----- stale-term -----------------------------------------------------------------------
class StaleTerm(Attack):
    """A peer keeps claiming newer terms, once a second, under its own sender byte (its
    tags check): a heartbeat as leader of a higher term, a vote request for it, an
    acknowledgement saying it is in it.
    tried: each such frame sent.
    succeeded: each round the honest history threw away for an election (a failover
    restart: no cup fails in these runs), honest cups made to look like cheats, plus
    one if the table stalled."""
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
        return n + self.framed(truth) + (0 if facts["finished"] else 1)


# ----- high-seq -------------------------------------------------------------------------
class HighSeq(Attack):
    """A peer tries to push an honest sender's replay window past its real frames: every
    EVERY_MS it sends, with that honest cup's radio address and sender byte, a frame whose
    sequence number is as far ahead of that cup's last heard number as the window allows
    (wire.Window.JUMP) -- tagged with the adversary's own keys, all it has; and it
    replays that cup's latest real frame (its real tag) from another radio address
    (a window is kept per sender and address).
    tried: each such frame sent.
    succeeded: each (honest receiver, honest sender) pair in which the receiver's window
    was found (every second) past the sender's real counter by more than the window
    (its real frames refused from then on), plus one if the table stalled."""
    kind = "high-seq"
    EVERY_MS = 700
    OTHER = bytes((0x02, 0x5E, 0x0F, 0, 0, 0x77))

    def __init__(self, ncups, seed):
        super().__init__(ncups, seed)
        self.last = 0
        self.k = 0
        self.blocked = set()
        self.top = {}
        self.latest = {}
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
                if wire.key_kind(f.type) == 2:
                    self.latest[key] = (dst, f.raw)
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
        key = cup.keys.ring.receivers(cup.me, BROADCAST)
        frame = wire.encode(wire.HELLO, cup.keys.tid, mid, seq, t.version, (t.version,), key)
        self.air.spoofed.add(spoof_send(self.c, addr, BROADCAST, frame))
        self.tried += 1
        real = self.latest.get((mid, addr))
        if real is not None:
            self.air.spoofed.add(spoof_send(self.c, self.OTHER, real[0], real[1]))
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
                w = rc.cup.keys.window
                i = w.find(sc.cup.me, sc.addr)
                top = struct.unpack_from(">I", w.seen, i + 2 + len(sc.addr))[0] if i >= 0 else None
                if top is not None and top - sc.cup.keys.seq > wire.Window.SIZE:
                    self.blocked.add((r, s))

    def judge(self, truth, facts):
        return len(self.blocked) + self.framed(truth) + (0 if facts["finished"] else 1)


# ----- fake-snapshot ----------------------------------------------------------------------
class FakeSnapshot(Attack):
    """A peer, no leader, sends each honest peer a snapshot of a table of its own making
    (its replica a version on, with that peer's player renamed "cheat"), once under the
    leader's sender byte and term (tagged with its own keys), once under its own sender
    byte and a newer term (its tags check; it is not the leader); every EVERY_MS.
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
        return n + self.framed(truth) + (1 if truth.forks else 0)


ATTACKS = dict((cls.kind, cls) for cls in (Peek, PeekLeader, Forge, Veto, Withhold, NeverReveal, Bias, BruteJoin, Flood,
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
