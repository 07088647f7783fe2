"""Whole simulated tables: cups find each other, play every rule set over a lossy radio,
survive a dead master, keep dice private, catch cheats, refuse foreign and replayed
frames. Each game runs on a simulated clock (milliseconds of real time)."""
import json
import subprocess
import sys

import pytest

from dicecup.autoplay import Autoplayer
from dicecup.engine.actions import EXACT
from dicecup.events import LOCAL, PRIVATE
from dicecup.net import fair, wire
from dicecup.net.cup import Cup
from dicecup.net.hidden import HiddenDice
from dicecup.seriallog import SerialLog
from dicecup_host import checker, simrun
from dicecup_host.cluster import Cluster

RULES = ("bluff", "perudo", "menteur", "liars", "dixmille")


def play_and_check(cups, rules, seed, loss=0.0, options=None, **kw):
    dup, reorder = (loss / 5, loss / 3) if loss else (0.0, 0.0)
    c, facts = simrun.play_one(cups, rules, options, seed, loss, dup, reorder, **kw)
    assert facts["finished"], "the game did not finish"
    ok, reasons = simrun.check_game(c)
    assert ok, reasons
    assert not checker.hidden_leaks(c.medium.trace, {sc.i: sc.serial for sc in c.cups})
    for sc in c.cups:
        assert "internal" not in sc.cup.errors and "refused" not in sc.cup.errors, sc.cup.errors
    return c, facts


def reference_state(cups, rules, seed, options=None, **kw):
    ref, _ = simrun.play_one(cups, rules, options, seed, **kw)
    return ref.cups[0].cup.table.snapshot()


@pytest.mark.parametrize("rules, cups, loss", [
    ("bluff", 3, 0.3), ("perudo", 4, 0.1), ("menteur", 2, 0.3), ("liars", 5, 0.3), ("dixmille", 3, 0.3),
    ("perudo", 6, 0.0),
])
def test_tables_play_whole_games_and_match_the_lossless_run(rules, cups, loss):
    c, _ = play_and_check(cups, rules, 7, loss)
    if loss:
        st = c.medium.stats
        assert st["dropped"] > 0 and sum(sc.cup.counts["retransmits"] for sc in c.cups) > 0
        assert c.cups[0].cup.table.snapshot() == reference_state(cups, rules, 7)
    assert c.medium.stats["max_frame_bytes"] <= 250


@pytest.mark.heavy
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("cups", [2, 4, 6])
@pytest.mark.parametrize("loss", [0.0, 0.1, 0.3])
def test_matrix_of_tables(rules, cups, loss):
    c, _ = play_and_check(cups, rules, 31 + cups, loss)
    if loss:
        assert c.medium.stats["dropped"] > 0
        assert c.cups[0].cup.table.snapshot() == reference_state(cups, rules, 31 + cups)


def test_bluff_rerolls_over_a_lossy_radio():
    opts = {"reroll": True}
    c, _ = play_and_check(4, "bluff", 3, 0.3, options=opts)
    rerolls = checker.events(c.cups[0].serial, ("reroll",))
    assert rerolls, "the bots never rerolled"
    assert c.cups[0].cup.table.snapshot() == reference_state(4, "bluff", 3, options=opts)


def game_state_around_failover(lines):
    """(state before the master op, state after the failover ops) from one cup's log."""
    before = after = None
    t = None
    recs = [json.loads(l) for l in lines]
    for i, rec in enumerate(recs):
        if rec.get("op") == "master":
            before = checker.recheck(lines[:i])
            j = i
            while j + 1 < len(recs) and recs[j + 1].get("op") in ("flags", "restart", "master"):
                j += 1
            after = checker.recheck(lines[:j + 1])
            break
    return before, after


def assert_nothing_lost(c):
    for sc in c.cups:
        if not sc.on or sc.cup.table is None:
            continue
        before, after = game_state_around_failover(sc.serial)
        if before is None or before.game is None:
            continue
        g0, g1 = before.game, after.game
        assert before.seats == after.seats and len(before.members) == len(after.members)
        if g0.name == "dixmille":
            assert g0.scores == g1.scores and g0.crosses == g1.crosses
        else:
            assert g0.dice == g1.dice
        return
    raise AssertionError("no failover in any log")


@pytest.mark.parametrize("rules, seed", [("perudo", 101), ("dixmille", 102), ("bluff", 103)])
def test_master_killed_mid_game(rules, seed):
    c, facts = play_and_check(4, rules, seed, kill_master=True)
    assert facts["failovers"] >= 1
    assert_nothing_lost(c)


@pytest.mark.heavy
def test_master_killed_at_random_points_in_30_games():
    for i in range(30):
        rules = RULES[i % len(RULES)]
        c, facts = play_and_check(3 + i % 4, rules, 1000 + i, kill_master=True)
        if facts["failovers"]:
            assert_nothing_lost(c)


class LeakyCup(Cup):
    """Puts its round secret on air as soon as it has its dice (what a buggy cup might do)."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.listen(self.leak, private=True)

    def leak(self, ev):
        if ev.kind == "dice" and self.hidden.my_root() is not None:
            self.send(self.master_addr(), wire.REVEAL, (self.table.game.round, 0, self.hidden.my_root()))


class LeakySerialLog(SerialLog):
    """A serial log that forgets to leave private events out."""

    def __call__(self, ev):
        if ev.scope == PRIVATE:
            ev.scope = LOCAL
        super().__call__(ev)


class LoggingLeakyCup(Cup):
    """Writes its own dice to the serial log."""

    def listen(self, fn, private=False):
        if isinstance(fn, SerialLog):
            fn.__class__ = LeakySerialLog
            private = True
        super().listen(fn, private)


def test_no_hidden_die_is_ever_on_air_or_in_a_log_before_its_reveal():
    c, _ = play_and_check(4, "bluff", 12, 0.1, options={"reroll": True})
    assert checker.secrets_of_game(c.medium.trace)  # the checker did learn the dice


@pytest.mark.parametrize("cls", [LeakyCup, LoggingLeakyCup])
def test_the_leak_checker_catches_a_leaky_cup(cls):
    c, facts = simrun.play_one(3, "perudo", None, 5, cup_classes={2: cls})
    leaks = checker.hidden_leaks(c.medium.trace, {sc.i: sc.serial for sc in c.cups})
    assert leaks, "a leaky cup went unnoticed"


class CheatingDice(HiddenDice):
    """Reveals a different root than it committed to (to claim better dice)."""

    def my_root(self):
        return bytes(16)[:-1] + b"\x01"


class CheatingCup(Cup):
    HiddenDice = CheatingDice


def test_a_cheating_reveal_loses_all_dice_and_every_log_says_so():
    c, facts = simrun.play_one(3, "perudo", None, 9, cup_classes={1: CheatingCup})
    assert facts["finished"]
    t = c.cups[0].cup.table
    for sc in c.cups:
        cheats = checker.events(sc.serial, ("forfeit",))
        assert cheats and cheats[0]["seat"] == t.seat_of(1), "cup %d's log does not name the cheat" % sc.i
    assert t.game.dice[t.seat_of(1)] == 0


def test_frames_from_another_table_and_replayed_frames_are_refused():
    c = Cluster(3, "liars", seed=4)
    c.setup()
    c.run(3000)
    victim = c.cups[1].cup
    before = victim.table.snapshot()
    # a cup of another table, same table id even: its key is no member's
    other = wire.encode(wire.ACTION, c.tid, 0, 10**6, 0, (0, 0x1B, 0, b""),
                        [(victim.me, wire.pair_key(c.tid, 0, victim.me, b"x" * 32))])
    victim.on_frame(c.cups[2].addr, other, c.clock.now)
    assert victim.errors.get("bad-tag", 0) >= 1
    foreign = wire.encode(wire.HEART, 0x7777, 0, 10**6, 0, (9, 999, 990, 0), [(1, wire.Key(b"y" * 32))])
    victim.on_frame(c.cups[2].addr, foreign, c.clock.now)
    assert victim.errors.get("foreign-table", 0) == 1
    # replay a frame the master really sent earlier
    sent = [rec for rec in c.medium.trace if rec[0] == "tx" and rec[3] == c.cups[0].addr]
    updates = [rec[7] for rec in sent if wire.decode(rec[7]).type == wire.UPDATE]
    n = victim.errors.get("replay", 0)
    victim.on_frame(c.cups[0].addr, updates[3], c.clock.now)
    assert victim.errors.get("replay", 0) == n + 1
    assert victim.table.snapshot() == before


def test_bots_hosted_on_the_master_fill_empty_seats():
    c, _ = play_and_check(2, "menteur", 21, 0.1, bots=3)
    t = c.cups[0].cup.table
    assert len(t.seats) == 5 and sum(1 for m in t.members if m.flags & 1) == 3


def test_a_rebooted_cup_rejoins_and_gets_the_state_back():
    c = Cluster(4, "perudo", seed=33)
    c.setup()
    c.run(6000)
    peer = c.cups[2]
    peer.power_off()
    c.run(6000)  # silent past the timeout: a bot on the master plays its seat
    t = c.master().cup.table
    assert t.members[peer.cup.me].flags & 2
    peer.power_on()  # RAM gone: only flash is left
    assert c.run(3000, lambda: peer.cup.table is not None)
    c.run(2000)
    assert not c.master().cup.table.members[peer.cup.me].flags & 2, "still away after coming back"
    assert c.run(3_600_000, c.finished)
    ok, reasons = simrun.check_game(c)
    assert ok, reasons


def test_a_cup_that_reboots_mid_round_still_reveals_from_flash():
    c = Cluster(3, "liars", seed=8)
    c.setup()
    peer = c.cups[1]
    # wait until the cup holds dice in a round under way, then reboot it at once
    assert c.run(20000, lambda: peer.cup.table is not None and peer.cup.table.game is not None
                 and peer.cup.need() == "bid" and bool(peer.cup.hand))
    hand = list(peer.cup.hand)
    peer.power_off()
    peer.power_on()
    assert peer.cup.hidden.kept.own, "the round secret was not kept in flash"
    assert c.run(3000, lambda: peer.cup.table is not None and peer.cup.table.seed != bytes(16))
    t = peer.cup.table
    seat = t.seat_of(peer.cup.me)
    assert fair.faces(peer.cup.hidden.roots()[0][1], 0, t.game.hidden(seat), t.seed) == hand
    assert peer.cup.hand == hand, "the rebooted cup should show its dice again"
    assert c.run(3_600_000, c.finished)
    assert simrun.check_game(c)[0]


class EagerCaller(Autoplayer):
    """A player who calls tout pile on every bid they see, out of turn, as fast as they can."""

    def step(self, cup, now):
        due = super().step(cup, now)
        v = cup.view()
        if v is None or v.need != "bid" or v.bid is None or cup.busy() or EXACT not in v.legal:
            return due
        if getattr(self, "called", None) != cup.table.version:
            self.called = cup.table.version
            cup.act(EXACT)
        return due


def test_out_of_turn_exact_calls_race_and_only_the_first_counts():
    eager = dict((i, lambda sc, rng: EagerCaller(rng)) for i in (1, 2, 3))
    c, facts = simrun.play_one(4, "menteur", None, 14, players=eager)
    assert facts["finished"]
    ok, reasons = simrun.check_game(c)
    assert ok, reasons
    log = checker.events(c.cups[0].serial)
    exacts = [i for i, r in enumerate(log) if r["k"] == "exact"]
    assert exacts
    # a round has one call: after an exact the round is settled, never a second exact
    for i in exacts:
        assert [r["k"] for r in log[i + 1:i + 3]] == ["op", "reveal"]
    assert sum(sc.cup.counts["races"] for sc in c.cups) > 0


def test_a_player_who_leaves_is_played_by_a_bot():
    c = Cluster(3, "liars", seed=6)
    c.setup()
    c.run(3000)
    c.cups[2].cup.leave()
    c.cups[2].flush()
    assert c.run(2000, lambda: c.cups[0].cup.table.members[2].flags & 4)
    assert c.run(3_600_000, c.finished)


def test_sim_command_json_summary():
    res = subprocess.run([sys.executable, "-m", "dicecup_host.cli", "sim", "--headless", "--cups", "3",
                          "--rules", "liars", "--games", "2", "--seed", "3", "--loss", "0.1", "--json"],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    for key in ("games", "finished", "consistent", "races", "failovers", "frames", "dropped", "retransmits",
                "max_frame_bytes", "hidden_leaks"):
        assert key in out
    assert out["games"] == out["finished"] == out["consistent"] == 2 and out["hidden_leaks"] == 0


def test_the_master_reorders_seats_and_picks_rules_in_the_lobby():
    c = Cluster(3, "liars", seed=2)
    host = c.cups[0].cup
    host.create(c.tid, c.code, "liars", 0)
    c.cups[0].flush()
    for sc in c.cups[1:]:
        assert c.run(3000, lambda: c.tid in sc.cup.heard)
        assert [t[0] for t in sc.cup.tables()] == [c.tid]
        sc.cup.join(c.tid, c.code)
        sc.flush()
        assert c.run(3000, lambda: sc.cup.table is not None)
    host.set_seats([2, 0, 1])
    host.set_rules("menteur")
    c.cups[0].flush()
    assert c.run(2000, lambda: all(sc.cup.table.seats == [2, 0, 1] and sc.cup.table.rules == "menteur"
                                   for sc in c.cups))
    host.start()
    c.cups[0].flush()
    assert c.run(3_600_000, c.finished)
    assert c.cups[1].cup.table.name_of(0) == "cy"


def test_a_wrong_code_does_not_get_in():
    c = Cluster(2, "liars", seed=3, record=True)
    host = c.cups[0].cup
    host.create(c.tid, "1111", "liars", 0)
    c.cups[0].flush()
    guest = c.cups[1].cup
    assert c.run(3000, lambda: c.tid in guest.heard)
    guest.join(c.tid, "2222")
    c.cups[1].flush()
    c.run(3000)
    assert guest.table is None and len(host.table.members) == 1
    assert host.errors.get("join-bad-code", 0) == 1   # counted at once: the guest confirms even so
    assert [ev.values[1] for ev in c.cups[1].events if ev.kind == "join_failed"] == ["wrong-code"]


def test_a_small_radio_caps_the_lobby():
    c = Cluster(3, "liars", seed=4)
    c.cups[0].cup.max_cups = 2
    host = c.cups[0].cup
    host.create(c.tid, c.code, "liars", 0)
    c.cups[0].flush()
    for sc in c.cups[1:]:
        assert c.run(3000, lambda: c.tid in sc.cup.heard)
        sc.cup.join(c.tid, c.code)
        sc.flush()
    c.run(3000)
    assert len(host.table.members) == 2 and c.cups[2].cup.table is None
    assert c.cups[2].cup.tables()[0][3] == 2  # the beacon says how many are in


def test_a_reveal_that_never_comes_loses_the_round_once_a_majority_attests_it():
    c = Cluster(3, "perudo", seed=10)
    c.setup()
    peer = c.cups[2]
    # a round is on: the peer dies for good right after a call, before it can reveal
    assert c.run(60000, lambda: c.cups[0].cup.need() == "reveal")
    seat = c.cups[0].cup.table.seat_of(2)
    dice = c.cups[0].cup.table.game.dice[seat]
    peer.power_off()
    wait = c.cups[0].cup.waits["reveal_ms"]
    # nothing before the wait runs out: a cup out of range for a moment loses nothing
    assert not c.run(wait - 1000, lambda: checker.events(c.cups[0].serial, ("withheld",)))
    assert c.run(5000, lambda: checker.events(c.cups[1].serial, ("withheld",)))
    for sc in c.cups[:2]:
        rec = checker.events(sc.serial, ("withheld",))[0]
        assert rec["seat"] == seat
        assert not checker.events(sc.serial, ("forfeit",))   # not named a cheat
    assert c.cups[0].cup.table.game.dice[seat] == dice - 1   # one die, as a challenge's loser
    assert c.run(3_600_000, c.finished)


def test_one_game_rerun_with_its_radio_traffic_saved(tmp_path):
    from dicecup.net.sim import load_trace
    path = tmp_path / "game3.trace"
    res = subprocess.run([sys.executable, "-m", "dicecup_host.cli", "sim", "--headless", "--cups", "2",
                          "--rules", "perudo", "--games", "5", "--seed", "10", "--game-index", "3",
                          "--trace", str(path), "--json"], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1])["games"] == 1
    trace = load_trace(str(path))
    assert trace and not checker.hidden_leaks(trace, {})
    assert any(r[0] == "tx" and wire.decode(r[7]).type == wire.UPDATE for r in trace)


def test_the_written_out_zeros():
    from dicecup.net import table
    assert table.NO_DIGEST == bytes(12) and table.NO_ROOT == bytes(16)
