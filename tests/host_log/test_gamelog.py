"""The logger's logic without a port: lines from bytes, each event once, holes filled
by the cup's resend, a broken log flagged by the replay, stats from what was recorded."""
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from dicecup.events import LOCAL, Event
from dicecup_host.cluster import Lines as CupLines
from dicecup.seriallog import SerialLog
from dicecup_host import gamelog, replay, stats
from dicecup_host.cluster import Cluster
from dicecup_host.cmd_log import Logger


@pytest.fixture(scope="module")
def game():
    """A finished 3-cup Perudo game; cup 0's serial log (and a resend log attached)."""
    c = Cluster(3, "perudo", seed=4)
    c.play()
    return c


def take_all(lines):
    r = gamelog.Recorder()
    out = []
    for line in lines:
        out += r.take(gamelog.parse(line))
    return r, out


def test_lines_split_bytes_report_garbage_and_cut_lines():
    ls = gamelog.Lines()
    got = ls.feed(b'{"k":"a"}\r\n\xff\xfe garbage\n{"k":')
    assert got[0] == ('{"k":"a"}', None)
    assert got[1][0] is None and "garbage" in got[1][1]
    assert ls.feed(b'"b"}\n') == [('{"k":"b"}', None)]
    ls.feed(b'{"k":"half')
    cut = ls.cut()
    assert len(cut) == 1 and "cut off" in cut[0][1]


def test_a_line_cut_by_a_memory_error_is_ended_and_the_next_line_reads(game):
    """A cup that runs out of memory halfway through an event line ends that line, so
    the next line (an event, or the simulator's own) starts on a line of its own."""
    out = []
    pieces = [3]     # the port takes this many pieces, then memory runs out

    def port(s):
        if s != "\n" and pieces[0] <= 0:
            raise MemoryError("memory allocation failed")
        pieces[0] -= 1
        out.append(s)

    log = SerialLog(port, game.cups[0].cup)
    ev = Event("internal", ("task radio", "MemoryError: memory allocation failed"), 0, 0, 1, 7, 0, scope=LOCAL)
    with pytest.raises(MemoryError):
        log(ev)
    pieces[0] = 100
    log(ev)
    first, second, rest = "".join(out).split("\n")
    assert rest == ""
    with pytest.raises(gamelog.BadLine):
        gamelog.parse(first)                     # the cut line: reported, not taken
    assert gamelog.parse(second)["where"] == "task radio"
    assert log.lines == 1


def test_parse_tells_text_from_broken_json():
    assert gamelog.parse("dicecup: no radio: this cup plays alone") == "dicecup: no radio: this cup plays alone"
    with pytest.raises(gamelog.BadLine):
        gamelog.parse('{"k":"bid","tb":1')
    with pytest.raises(gamelog.BadLine):
        gamelog.parse('{"k":"bid","tb":1,"tm":0}')      # a public event without its version


def test_every_line_once_even_fed_twice(game):
    lines = game.cups[0].serial
    r, out = take_all(lines + lines[10:80] + lines)
    keys = [gamelog.key(x) for x in out]
    assert len(keys) == len(set(keys))
    assert set(gamelog.key(json.loads(x)) for x in lines) <= set(keys)
    assert not r.problems


def test_a_reboot_counter_keeps_local_events_apart():
    a = {"k": "shake", "tb": 5, "tm": 0, "v": 3, "boot": 1, "n": 1, "t": 0, "cup": 1, "what": "round"}
    b = dict(a, boot=2)
    r = gamelog.Recorder()
    assert r.take(a) == [a] and r.take(b) == [b] and r.take(dict(a)) == []
    assert any("rebooted" in n for n in r.notes)


def test_a_logger_plugged_in_late_learns_the_boot_and_tells_the_next_reset(game):
    """The cup's boot line went out before the cable was in, and its seat is out (it
    writes no local lines): the answer to the logger's first question says which boot
    this is, so the hello after a reset reads as one."""
    cup = game.cups[0].cup
    public = [x for x in game.cups[0].serial if '"i":' in x]
    r, _ = take_all(public[len(public) // 2:])     # plugged in mid-game: asks from the start
    assert r.since == 0 and not r.boots
    answer = []
    assert SerialLog(CupLines(answer), cup).heard("#dicecup since %d" % r.since)
    for x in answer:
        r.take(gamelog.parse(x))
    hello = json.loads(answer[0])
    assert hello["k"] == "hello" and r.boots == {hello["cup"]: cup.boot}
    assert not any("rebooted" in n for n in r.notes)
    r.take(dict(hello, boot=cup.boot + 1, v=0, t=0))   # the reset button
    assert any("rebooted (boot %d after %d)" % (cup.boot + 1, cup.boot) in n for n in r.notes)


def test_event_lines_lost_to_garbage_are_derived_from_their_op(game):
    lines = game.cups[0].serial
    kept = [x for x in lines if '"k":"bid"' not in x]
    r, out = take_all(kept)
    bids = [x for x in out if x["k"] == "bid"]
    truth = [json.loads(x) for x in lines if '"k":"bid"' in x]
    assert len(bids) == len(truth) and all(b.get("derived") for b in bids)
    assert [gamelog._fields(b) for b in bids] == [gamelog._fields(t) for t in truth]


def test_a_hole_asks_the_cup_and_its_resend_fills_it(game):
    cup = game.cups[0].cup
    lines = game.cups[0].serial
    ops = [i for i, x in enumerate(lines) if '"k":"op"' in x]
    a, b = ops[-20], ops[-5]                       # lines a+1..b never arrive
    r, out = take_all(lines[:a + 1] + lines[b + 1:])
    assert r.since is not None and r.since < json.loads(lines[b])["v"]
    resent = []
    log = SerialLog(CupLines(resent), cup)         # the cup answers `#dicecup since V`
    assert log.heard("#dicecup since %d" % r.since)
    more = []
    for x in resent:
        more += r.take(gamelog.parse(x))
    got = set(gamelog.key(x) for x in out + more)
    assert set(gamelog.key(json.loads(x)) for x in lines if '"i":' in x) <= got
    assert not r.problems


def test_replay_flags_a_changed_reveal_with_its_line(game):
    lines = list(game.cups[0].serial)
    n = next(i for i, x in enumerate(lines) if '"k":"reveal"' in x)
    rec = json.loads(lines[n])
    rec["count"] += 1
    lines[n] = json.dumps(rec, separators=(",", ":"))
    r, _ = replay.check_bytes(("\n".join(lines) + "\n").encode())
    assert len(r.broken) == 1 and "count" in r.broken[0] and "version %d" % rec["v"] in r.broken[0]


def test_replay_flags_an_op_the_rules_refuse(game):
    lines = list(game.cups[0].serial)
    n = next(i for i, x in enumerate(lines) if '"op":"act"' in x)
    rec = json.loads(lines[n])
    rec["hex"] = rec["hex"][:2] + "07" + rec["hex"][4:]      # another seat acts out of turn
    lines[n] = json.dumps(rec, separators=(",", ":"))
    r, _ = replay.check_bytes(("\n".join(lines) + "\n").encode())
    assert r.broken and ("line %d" % (n + 1)) in r.broken[0]


def test_replay_tells_a_trace_like_the_log(game, tmp_path):
    path = tmp_path / "t.trace"
    game.medium.save_trace(str(path))
    from dicecup.net.sim import load_trace
    r, rec = replay.check_trace(load_trace(str(path)))
    told = [x.split("s ", 1)[1] for x in r.told]
    r2, _ = replay.check_bytes(("\n".join(game.cups[0].serial) + "\n").encode())
    assert not r.broken and not r2.broken
    assert [x for x in told if "wins" in x] == [x.split("s ", 1)[1] for x in r2.told if "wins" in x]


def test_stats_from_recorded_games(tmp_path):
    out = str(tmp_path / "games")
    log = Logger("unused", 115200, out, quiet=True)
    winners = []
    for seed in (1, 2, 3):
        c = Cluster(2, "liars", seed=seed, bots=1)
        c.play()
        log.feed(("\n".join(c.cups[0].serial) + "\n").encode())
        t = c.cups[0].cup.table
        winners.append(t.game.winner())
    log.close()
    s = stats.summary(sqlite3.connect(os.path.join(out, "games.db")))
    assert s["games"] == 3 and s["by_rules"] == {"liars": 3}
    assert sum(r["wins"] for r in s["seats"].values()) == 3
    for seat in range(3):
        assert s["seats"][seat]["wins"] == winners.count(seat)
    assert s["kinds"]["bot"]["games"] == 3 and s["kinds"]["cup"]["games"] == 6
    assert 0 < s["bids"]["true"] <= s["bids"]["total"]
    assert s["challenges"]["total"] + s["exacts"]["total"] == s["called"]["total"]
    r = subprocess.run([sys.executable, "-m", "dicecup_host.cli", "stats", out, "--out", str(tmp_path / "plots")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    pngs = sorted(os.listdir(tmp_path / "plots"))
    assert pngs == ["bids.png", "length.png", "wins.png"]
    for p in pngs:
        assert (tmp_path / "plots" / p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
