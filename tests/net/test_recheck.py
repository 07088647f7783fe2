"""The log re-check verifies, it does not trust: a snapshot that rewrites a log's own
history, or that is not the table's state at its version as the other cups logged it,
and an op one cup shows that the others did not (a fake call made to one cup), are
flagged with the cup and the line."""
import json

from dicecup.engine.actions import CHALLENGE
from dicecup.net import table as tbl
from dicecup.net.table import Table
from dicecup_host import checker, simrun


def _game():
    c, facts = simrun.play_one(3, "perudo", None, 12)
    assert facts["finished"]
    return dict((sc.i, list(sc.serial)) for sc in c.cups)


def _ops(lines):
    return [(n, json.loads(x)) for n, x in enumerate(lines) if '"k":"op"' in x]


def test_honest_logs_tell_one_history():
    assert checker.crosscheck(_game()) == []


def test_a_fake_call_shown_by_one_cup_is_flagged_with_where():
    logs = _game()
    n, rec = [(n, r) for n, r in _ops(logs[2]) if r["op"] == "act"][3]
    fake = tbl.op_act(bytes.fromhex(rec["hex"])[1], CHALLENGE)
    rec = dict(rec, hex=fake.hex())
    logs[2][n] = json.dumps(rec)
    problems = checker.crosscheck(logs)
    assert problems and problems[0].startswith("cup 2 line %d: another op at version %d" % (n + 1, rec["v"]))


def test_a_forged_snapshot_is_flagged_by_the_log_itself_and_against_the_others():
    logs = _game()
    n, rec = _ops(logs[1])[-10]
    t = checker.recheck(logs[1][:n + 1])
    forged = Table.from_snapshot(t.snapshot())
    forged.members[2].name = "mallory"
    forged.version += 1   # a jump ahead, as a cup that fell behind takes
    line = json.dumps({"k": "snapshot", "tb": rec["tb"], "tm": rec["tm"], "v": rec["v"], "boot": 1, "n": 99,
                       "t": rec["t"], "cup": 1, "hex": forged.snapshot().hex(), "state": forged.digest_of().hex()})
    lines = logs[1][:n + 1] + [line]
    try:
        checker.recheck(lines)
        raise AssertionError("a snapshot changing a member went through")
    except checker.LogError as e:
        assert "line %d" % (n + 2) in str(e) and "changes member 2" in str(e)
    logs[1] = lines
    problems = checker.crosscheck(logs)
    assert any(p.startswith("cup 1 line %d: a snapshot at version %d differs" % (n + 2, rec["v"] + 1)) for p in problems)


def test_a_snapshot_going_back_is_flagged():
    logs = _game()
    ops = _ops(logs[0])
    n0, early = ops[5]
    t = checker.recheck(logs[0][:n0 + 1])
    line = json.dumps({"k": "snapshot", "v": t.version, "hex": t.snapshot().hex(), "state": t.digest_of().hex()})
    try:
        checker.recheck(logs[0] + [line])
        raise AssertionError("a snapshot going back went through")
    except checker.LogError as e:
        assert "goes back" in str(e)
