"""One leader, one history: partitions of the leader, of one peer and of half the
table, at 0 and 30 % loss, for every rule set and 3-6 cups. A leader needs a majority
of the table's cups; a leader cut off from it stops, and its cups wait (a "quorum"
event); after the partition heals there is one table and one history, the same on
every cup's log, and the game goes on to its end."""
import json

import pytest

from dicecup_host import checker, simrun
from dicecup_host.cluster import Cluster

RULES = ("bluff", "perudo", "menteur", "liars", "dixmille")


def _game(args):
    rules, cups, loss, who, ms, seed = args
    c, facts = simrun.play_one(cups, rules, None, seed, loss, loss / 5, loss / 3, partitions=[(who, ms, 6000)])
    ok, reasons = simrun.check_game(c)
    masters = sum(1 for sc in c.cups if sc.on and sc.cup.is_master())
    return args, facts["finished"], ok, reasons[:2], masters, c.medium.max_frames_per_s(), bool(facts["partitions"])


def _matrix(seeds, every_size=True, lengths=(2000, 5000, 10000), losses=(0.0, 0.3)):
    from multiprocessing import Pool
    jobs = [(r, n, loss, who, ms, 300 + s) for r in RULES for n in (3, 4, 5, 6) for loss in losses
            for who in ("master", "peer", "half") for ms in lengths for s in seeds]
    if not every_size:   # each case once, the table size going round 3, 4, 5, 6
        jobs = [j for i, j in enumerate(jobs) if j[1] == 3 + (i // 4) % 4]
    with Pool(2) as pool:
        results = pool.map(_game, jobs)
    bad = [r for r in results if not (r[1] and r[2] and r[4] == 1 and r[5] <= 100)]
    assert not bad, bad[:5]
    assert sum(r[6] for r in results) >= len(jobs) * 9 // 10   # the cut came while the game was on


def test_partitions_end_in_one_table_with_one_history():
    _matrix([0], every_size=False)


@pytest.mark.heavy
def test_partitions_end_in_one_table_with_one_history_every_size():
    # the longest cut under loss (the matrix above has every length and 0 %; CI's 15 minutes)
    _matrix([1], lengths=(10000,), losses=(0.3,))


def test_the_bluff_seed_301_kill_master_case_returns():
    """It never returned before: a cup kept the dead master's last op and applied the
    new master's next one on top."""
    c, facts = simrun.play_one(3, "bluff", None, 301, 0.3, 0.06, 0.1, kill_master=True)
    assert facts["finished"] and simrun.check_game(c)[0]


def quorum_events(sc):
    return [(rec["t"], rec["ok"]) for rec in map(json.loads, sc.serial) if rec["k"] == "quorum"]


def test_a_cut_off_master_stops_and_its_cups_wait_then_the_table_goes_on():
    c, facts = simrun.play_one(4, "perudo", None, 7, partitions=[("half", 8000, 5000)], record=True)
    assert facts["finished"] and simrun.check_game(c)[0]
    cut_at = facts["partitions"][0][0]
    # half of four is no majority: nothing was committed while the table was split
    for sc in c.cups:
        shown = [ev.t for ev in sc.events if ev.kind == "op"]
        assert not [t for t in shown if cut_at + 3500 < t < cut_at + 8000], "an op counted without a majority"
        assert (False in [ok for _, ok in quorum_events(sc)]), "cup %d never said it waits" % sc.i


def test_a_two_cup_table_waits_while_one_cup_is_cut_off():
    """Two cups are a majority only together: a cut-off cup and the one left both wait,
    and the game goes on when they hear each other again."""
    c, facts = simrun.play_one(2, "liars", None, 9, partitions=[("peer", 10000, 4000)], record=True)
    assert facts["finished"] and simrun.check_game(c)[0]
    cut_at = facts["partitions"][0][0]
    for sc in c.cups:
        assert [ok for t, ok in quorum_events(sc) if t > cut_at][:2] == [False, True]
        ops = [ev.t for ev in sc.events if ev.kind == "op"]
        assert not [t for t in ops if cut_at + 3500 < t < cut_at + 10000]


def test_a_rejoining_cup_does_not_unseat_a_working_leader_for_long():
    """A peer cut off long enough to stand for election (and fail) comes back with a
    newer term: the leader takes that term and is elected again at once, and the
    round in play goes on (no replay)."""
    c, facts = simrun.play_one(4, "perudo", None, 11, partitions=[("peer", 12000, 5000)], record=True)
    assert facts["finished"] and simrun.check_game(c)[0]
    masters = checker.events(c.cups[0].serial, ("master",))
    assert all(m["member"] == 0 for m in masters)   # the same cup leads every term
    replays = checker.events(c.cups[0].serial, ("replay",))
    assert not [r for r in replays if r["reason"] == 2]   # (a reveal the cut-off cup owed may replay one)


def test_partition_option_is_checked():
    assert simrun.parse_partition("master:5000@20000") == ("master", 5000, 20000)
    for bad in ("master", "boss:1@2", "half:0@1", "peer:5@-1", "peer:x@1"):
        with pytest.raises(ValueError):
            simrun.parse_partition(bad)


def test_updates_from_an_old_term_are_refused():
    c = Cluster(3, "liars", seed=4)
    c.setup()
    c.run(3000)
    victim = c.cups[1].cup
    before = (victim.table.version, victim.table.snapshot())
    # a replay of the master's own first update, re-tagged, with an older term than the cup's
    victim.election.term = 5
    from dicecup.net import wire
    op = list(victim.sync.ops(0))[-1][3]
    frame = wire.encode(wire.UPDATE, c.tid, 0, 10 ** 7, 0, (0, victim.table.version + 1, 0, 0, 0, op),
                        [(victim.me, victim.keys.ring.pair(victim.me, 0))])
    victim.on_frame(c.cups[0].addr, frame, c.clock.now)
    assert (victim.table.version, victim.table.snapshot()) == before


def test_the_sim_command_takes_partitions():
    import subprocess
    import sys
    res = subprocess.run([sys.executable, "-m", "dicecup_host.cli", "sim", "--headless", "--cups", "4", "--rules",
                          "liars", "--games", "2", "--seed", "3", "--partition", "half:5000@3000", "--json"],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["finished"] == out["consistent"] == 2
    bad = subprocess.run([sys.executable, "-m", "dicecup_host.cli", "sim", "--headless", "--partition", "boss:1@2"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "WHO is one of" in bad.stderr
