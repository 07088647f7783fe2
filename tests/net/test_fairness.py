"""No single cup, the leader included, decides a random draw or a round's fate alone:
the game's seed mixes every cup's nonce, the master's own dice are fixed before it sees
any other commitment, a Dix mille roll waits for another cup's nonce, a round is
replayed (or lost by a silent cup) only when a majority of the cups attests it, and a
cup named for an attestation it never made refuses the op."""
import json

import pytest

from dicecup.engine import new_game
from dicecup.engine.actions import CHALLENGE, bid, kind
from dicecup.net import fair
from dicecup.net import table as tbl
from dicecup.net.cup import Cup
from dicecup.net.hidden import HiddenDice
from dicecup.net.deal import Deal
from dicecup.net.rolls import Rolls
from dicecup.net.turns import Turns
from dicecup.net import wire
from dicecup.net.table import OpError, Table
from dicecup_host import checker, simrun
from dicecup_host.cluster import Cluster


def _lobby_table(members=3):
    t = Table()
    for i in range(members):
        t.apply(tbl.op_join(i, bytes((i,)) * 6, "cup%d" % i, pk=bytes((9, i)) * 16))
    t.apply(tbl.op_rules("perudo", 0))
    return t


# ----- the game's seed ---------------------------------------------------------------------
def test_the_start_must_open_the_masters_ante_and_carry_every_named_cups_nonce():
    m = bytes(range(16))
    t = _lobby_table()
    with pytest.raises(OpError):
        t.apply(tbl.op_start(m))                        # no ante: the master alone would choose
    t.apply(tbl.op_ante(fair.master_commit(m), 0b110))
    with pytest.raises(OpError):
        t.apply(tbl.op_start(bytes(16), [b"a" * 16, b"b" * 16]))   # not the committed part
    with pytest.raises(OpError):
        t.apply(tbl.op_start(m, [b"a" * 16]))           # a named cup's nonce left out
    t.apply(tbl.op_start(m, [b"a" * 16, b"b" * 16]))
    assert t.gseed == fair.game_seed(m, [b"a" * 16, b"b" * 16])


def test_one_ante_per_term_unless_a_named_cup_left():
    t = _lobby_table()
    t.apply(tbl.op_ante(b"x" * 12, 0b110))
    with pytest.raises(OpError):
        t.apply(tbl.op_ante(b"y" * 12, 0b110))          # an ante again, to try another m
    t.apply(tbl.op_flags(2, tbl.AWAY))
    with pytest.raises(OpError):
        t.apply(tbl.op_ante(b"x" * 12, 0b010))          # away is the master's word: waited for
    t.apply(tbl.op_flags(2, tbl.LEFT))
    with pytest.raises(OpError):
        t.apply(tbl.op_ante(b"y" * 12, 0b010))          # without it, but another master part
    t.apply(tbl.op_ante(b"x" * 12, 0b010))              # cup 2 left: the same part, without it


def test_bots_and_the_master_itself_are_not_named_in_an_ante():
    t = _lobby_table()
    t.apply(tbl.op_join(3, bytes(6), "bot", tbl.BOT))
    for mask in (0b1, 0b1000):
        with pytest.raises(OpError):
            t.apply(tbl.op_ante(b"x" * 12, mask))


class Grinder(Deal):
    """A master that tries master seeds until the first opener is its own seat."""
    tried = 0

    def start(self):
        cup = self.cup
        for _ in range(50):
            Grinder.tried += 1
            m = cup.random_bytes(16)
            g = new_game(cup.table.rules, len(cup.table.seats), dict(cup.table.options()),
                         rng=fair.HashRng(fair.game_seed(m, [])))
            if g.to_act() == 0 or g.turn == 0:
                break
        self.m = m
        self.nonces = {}
        mask = sum(1 << i for i in range(1, len(cup.table.members)))
        cup.sync.commit(tbl.op_ante(fair.master_commit(m), mask))


class GrindingCup(Cup):
    Deal = Grinder


def test_a_master_grinding_its_part_of_the_seed_does_not_choose_the_opener():
    """Over 30 games a grinding master opens about a quarter of them (4 seats), not all."""
    own = 0
    for seed in range(30):
        c = Cluster(4, "perudo", seed=seed, cup_classes={0: GrindingCup})
        c.setup()
        g = c.cups[0].cup.table.game
        own += g.opener == c.cups[0].cup.seat()
    assert Grinder.tried >= 30
    assert own <= 15, "the grinding master opened %d of 30 games" % own


# ----- the round's dice ----------------------------------------------------------------------
def test_the_masters_own_dice_are_committed_before_any_other_cup_commits():
    c = Cluster(3, "perudo", seed=4)
    c.setup()
    master = c.cups[0].cup
    peer = c.cups[1].cup
    commits_seen_first = []

    def on_frame(src, data, now, orig=master.on_frame):
        t = master.table
        if t is not None and t.game is not None and t.mc != tbl.NO_DIGEST and t.seed == tbl.NO_ROOT:
            commits_seen_first.append(t.digests[master.seat()] != tbl.NO_DIGEST)
        orig(src, data, now)
    master.on_frame = on_frame
    assert c.run(30000, lambda: peer.table.seed != tbl.NO_ROOT)
    t = peer.table
    assert t.held >> master.seat() & 1                      # in the round op, on every replica
    assert commits_seen_first and all(commits_seen_first)


# ----- certified restarts and withheld reveals -------------------------------------------------
class SilentDice(HiddenDice):
    """A cup that answers the radio but never commits its dice."""

    def _send_commit(self, seat, d):
        pass


class SilentCup(Cup):
    HiddenDice = SilentDice


def test_a_cup_that_never_commits_replays_the_round_on_a_majoritys_word():
    c = Cluster(3, "perudo", seed=6, cup_classes={2: SilentCup}, waits={"commit_ms": 8000})
    c.setup()
    assert c.run(60000, lambda: checker.events(c.cups[1].serial, ("replay",)))
    t = c.cups[0].cup.table
    assert checker.events(c.cups[1].serial, ("replay",))[0]["reason"] == tbl.RESTART_COMMIT
    ops = [e for e in checker.events(c.cups[1].serial, ("op",)) if e["op"] == "restart"]
    op = bytes.fromhex(ops[0]["hex"])
    assert op[1] == tbl.RESTART_COMMIT and op[2] == 1 << 1 and op[3] == 1 << t.seat_of(2)
    assert c.clock.now >= 8000                      # not before the wait ran out
    # it was marked away first: it answers the radio, so it is back at once, and waited for again
    assert [e for e in checker.events(c.cups[1].serial, ("away",)) if e["member"] == 2]


class ForgingDice(HiddenDice):
    """A master that replays every round as soon as it is open, naming cup 1 as the
    cup that attests a missing commitment (a veto it hopes the table takes)."""

    def master_tick(self, now):
        t = self.cup.table
        g = t.game
        if g.need() == "shake" and t.mc != tbl.NO_DIGEST:
            other = t.seat_of(2)
            self.cup.sync.commit(tbl.op_restart(tbl.RESTART_COMMIT, 1 << 1, 1 << other))
            return now
        return super().master_tick(now)


class ForgingMaster(Cup):
    HiddenDice = ForgingDice


def test_a_restart_in_a_cups_name_it_never_attested_is_refused_by_that_cup():
    c = Cluster(3, "perudo", seed=7, cup_classes={0: ForgingMaster})
    c.setup()
    named = c.cups[1].cup
    assert c.run(60000, lambda: named.errors.get("forged"))
    forged = [json.loads(x) for x in c.cups[1].serial if '"k":"forged"' in x]
    assert forged and "never did" in forged[0]["why"]
    # it never applied the false op, and it follows that master no more in its term
    assert not [e for e in checker.events(c.cups[1].serial, ("replay",)) if e["reason"] == tbl.RESTART_COMMIT]
    assert named.election.distrust == 0


def test_a_restart_or_withheld_settle_without_a_majoritys_word_is_refused_by_every_replica():
    t = _lobby_table()
    t.apply(tbl.op_ante(fair.master_commit(bytes(16)), 0b110))
    t.apply(tbl.op_start(bytes(16), [bytes(16), bytes(16)]))
    t.apply(tbl.op_round(t.game.round, fair.master_commit(bytes(16)), [0, 1, 2], {}))
    with pytest.raises(OpError):
        t.apply(tbl.op_restart(tbl.RESTART_COMMIT, 0, 0b100))       # nobody attests
    with pytest.raises(OpError):
        t.apply(tbl.op_restart(tbl.RESTART_COMMIT, 0b100, 0b100))   # the silent cup itself
    with pytest.raises(OpError):
        t.apply(tbl.op_restart(tbl.RESTART_FAILOVER))               # no new leader since
    t.apply(tbl.op_restart(tbl.RESTART_COMMIT, 0b010, 0b100))


def test_a_call_is_never_replayed_by_a_failover():
    t = _lobby_table()
    t.apply(tbl.op_ante(fair.master_commit(bytes(16)), 0b110))
    t.apply(tbl.op_start(bytes(16), [bytes(16), bytes(16)]))
    t.apply(tbl.op_round(t.game.round, fair.master_commit(bytes(16)), [0, 1, 2], {}))
    t.apply(tbl.op_seed(bytes(16), [bytes(12)] * 3))
    first = t.game.to_act()
    t.apply(tbl.op_act(first, bid(2, 3)))
    t.apply(tbl.op_act(t.game.to_act(), CHALLENGE))
    assert t.game.need() == "reveal"
    t.apply(tbl.op_master(1, t.term + 1, 0b011))
    with pytest.raises(OpError, match="never replayed"):
        t.apply(tbl.op_restart(tbl.RESTART_FAILOVER))


class DeposedDice(HiddenDice):
    """A master that, once a call is in, makes itself a newer term without any votes (a
    false master op: the cups give up on it) and never reveals its own dice."""

    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        if t.game.need() == "reveal" and cup.sync.committed >= self.called_v and not cup.errors.get("deposed"):
            cup.errors["deposed"] = 1
            self.calls = t.game.round
            cup.sync.commit(tbl.op_master(cup.me, t.term + 1, 0b111))   # votes it never had
            return now
        return super().master_tick(now)

    def peer_tick(self, now):
        return self.cup.watch.peer_tick(now)   # it never reveals


class DeposedMaster(Cup):
    HiddenDice = DeposedDice


def test_a_master_deposed_after_a_call_loses_that_round_and_the_game_goes_on():
    c = Cluster(3, "perudo", seed=11, cup_classes={0: DeposedMaster})
    c.setup()
    old = c.cups[0].cup
    assert c.run(120000, lambda: old.errors.get("deposed"))
    rno = old.hidden.calls
    honest = c.cups[1]
    assert c.run(60000, lambda: checker.events(honest.serial, ("withheld", "reveal")))   # (the first call)
    assert honest.cup.table.game.round > rno
    # the round was settled by the new leader, not played again: the old master's
    # seat, which never revealed, lost it
    assert not [e for e in checker.events(honest.serial, ("replay", "restart"))]
    withheld = checker.events(honest.serial, ("withheld",))
    assert [e["seat"] for e in withheld] == [honest.cup.table.seat_of(0)]
    assert not c.cups[0].cup.is_master()


def test_a_master_that_dies_after_a_call_reveals_from_flash_when_it_is_back():
    c = Cluster(3, "liars", seed=12)
    c.setup()
    m = c.cups[0]
    assert c.run(120000, lambda: m.cup.table.game is not None and m.cup.table.game.need() == "reveal"
                 and m.cup.sync.committed >= m.cup.hidden.called_v)
    rno = m.cup.table.game.round
    seat = m.cup.table.seat_of(0)
    m.power_off()
    assert c.run(30000, lambda: c.master() is not None)
    m.power_on()
    honest = c.cups[1]
    assert c.run(60000, lambda: len(checker.events(honest.serial, ("withheld", "reveal"))) >= rno)
    assert not checker.events(honest.serial, ("replay", "restart", "withheld"))
    reveal = checker.events(honest.serial, ("reveal",))[rno - 1]
    assert reveal["hands"][seat], "the old master's dice were counted"
    assert c.run(3_600_000, c.finished)
    assert simrun.check_game(c)[0]


class StallingDice(HiddenDice):
    """A master that holds every commitment and never seeds the round."""

    def master_tick(self, now):
        t = self.cup.table
        if t.game.need() == "shake" and t.mc != tbl.NO_DIGEST:
            return None
        return super().master_tick(now)


class StallingMaster(Cup):
    HiddenDice = StallingDice


def test_a_master_that_stalls_a_round_is_replaced_and_the_game_goes_on():
    c, facts = simrun.play_one(3, "perudo", None, 8, cup_classes={0: StallingMaster})
    assert facts["finished"]
    ok, reasons = simrun.check_game(c)
    assert ok, reasons
    assert any(sc.cup.errors.get("stalled") for sc in c.cups[1:])


# ----- Dix mille witnesses -----------------------------------------------------------------------
class SlowWitness(Rolls):
    """A witness whose answers do not get through until `until` (ms)."""
    until = 0
    given = []

    def on_rollc(self, src, f):
        if self.cup.now < SlowWitness.until:
            return
        super().on_rollc(src, f)
        SlowWitness.given.extend(w for d, w in self.witnessed.values())


class SlowWitnessCup(Cup):
    Rolls = SlowWitness


def test_a_slow_witness_is_waited_for_the_master_never_uses_its_own_nonce():
    """The witness's answers are lost for 8 s: the master's roll waits, and the nonce in
    the roll op is the witness's."""
    c = Cluster(2, "dixmille", seed=3, cup_classes={1: SlowWitnessCup})
    c.setup()
    master = c.cups[0].cup
    assert c.run(600000, lambda: master.rolls.busy() and master.table.game.to_act() == master.seat())
    SlowWitness.until = c.clock.now + 8000
    assert c.run(30000, lambda: not master.rolls.busy())
    assert c.clock.now >= SlowWitness.until

    def mine():
        rolls = [bytes.fromhex(e["hex"]) for e in checker.events(c.cups[1].serial, ("op",)) if e["op"] == "roll"]
        return [op for op in rolls if op[1] == master.seat()]
    assert c.run(5000, mine)
    assert mine()[0][14:30] in SlowWitness.given   # op: kind, seat, digest(12), w(16), root


def test_withheld_reveal_costs_the_round_loss_in_every_bidding_game():
    for rules, opts, lost in (("perudo", {}, 1), ("liars", {"one_life": True}, 5), ("menteur", {}, 1),
                              ("bluff", {}, 1)):
        g = new_game(rules, 3, opts, opener=0)
        g.start_round()
        g.apply(0, next(a for a in g.legal(0) if kind(a) == "bid"))
        g.apply(1, CHALLENGE)
        before = g.dice[2]
        ev = g.withheld([2])
        assert ("withheld", 2) in ev
        assert g.dice[2] == max(0, before - lost)
        assert g.need() in ("shake", "over")


# ----- moves the leader did not make ----------------------------------------------------------
class FakeCallTurns(Turns):
    """A leader that makes a peer's seat challenge (to see the dice a reveal would show)."""
    tried = 0
    at = None

    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        g = t.game
        seat = g.to_act()
        if g.need() == "bid" and seat is not None and t.seats[seat] != cup.me and t.member_of(seat).present() \
                and g.bid:
            FakeCallTurns.tried += 1
            if FakeCallTurns.at is None:
                FakeCallTurns.at = now
            cup.sync.commit(tbl.op_act(seat, CHALLENGE, b"", b"\x06" + bytes(6)))
            return now
        return super().master_tick(now)


class FakeCaller(Cup):
    Turns = FakeCallTurns


def test_a_call_the_leader_makes_for_another_seat_is_refused_and_no_dice_are_revealed():
    c = Cluster(3, "perudo", seed=11, cup_classes={0: FakeCaller})
    c.setup()
    peers = [sc.cup for sc in c.cups[1:]]
    assert c.run(60000, lambda: all(p.errors.get("forged") for p in peers))
    assert FakeCallTurns.tried
    at = FakeCallTurns.at
    reveals = [rec for rec in c.medium.trace if rec[0] == "tx" and rec[7][1] == wire.REVEAL and at <= rec[1] < at + 3000]
    assert not reveals, "a cup revealed against a call its caller never made"
    # the two honest cups give that leader up and go on without it
    assert c.run(30000, lambda: c.master() is not None and c.master().i != 0)


def test_a_master_op_names_the_majority_that_elected_it():
    t = _lobby_table()
    with pytest.raises(OpError):
        t.apply(tbl.op_master(1, 1, 0b010))     # its own vote only: no majority of three
    with pytest.raises(OpError):
        t.apply(tbl.op_master(1, 1, 0b101))     # a majority, but not naming itself
    t.apply(tbl.op_master(1, 1, 0b011))


def test_a_witness_gives_one_nonce_per_roll_never_one_for_a_second_digest():
    from dicecup.net.wire import Frame
    c = Cluster(2, "dixmille", seed=3)
    c.setup()
    peer = c.cups[1].cup
    rid = peer.table.version
    master = peer.table.master
    first = Frame(wire.ROLLC, c.tid, master, 1, rid, (rid, 0, b"a" * 12, b""))
    second = Frame(wire.ROLLC, c.tid, master, 2, rid, (rid, 0, b"b" * 12, b""))
    assert peer.rolls.on_rollc(c.cups[0].addr, first) is None
    assert peer.rolls.on_rollc(c.cups[0].addr, second) == "second-digest"
