"""`dicecup shake-test`: the table, the confusion matrix, --json, and the exit codes."""
import json
import subprocess
import sys

from dicecup_host import cli, traces

LIB = traces.library(("lib",))


def shake_test(*args):
    return subprocess.run([sys.executable, "-m", "dicecup_host.cli", "shake-test"] + list(args),
                          capture_output=True, text=True, timeout=120)


def test_whole_library_exits_0_with_json():
    r = shake_test("--json")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1                      # --json alone: only the object
    res = json.loads(lines[-1])
    n = len(traces.library())
    assert res["traces"] == n and res["correct"] == n
    assert 0 < res["max_latency_ms"] <= 150
    assert res["confusion"]["roll"]["none"] == 0 and res["confusion"]["none"]["roll"] == 0


def test_table_and_confusion_matrix():
    r = shake_test(*[str(p) for p in LIB[:3] + [p for p in LIB if "shake" in p.name][:2]])
    assert r.returncode == 0
    out = r.stdout
    assert "lib/bump-01.txt" in out and "confusion" in out
    rows = [ln for ln in out.splitlines() if ln.startswith(("  roll ", "  none "))]
    assert rows == ["  roll         2      0", "  none         0      3"]
    assert "5/5 traces correct" in out and "ms" in out.splitlines()[-1]


def test_a_mislabelled_trace_fails(tmp_path):
    shake = traces.load(next(p for p in LIB if "shake-gentle" in p.name))
    bump = traces.load(next(p for p in LIB if "bump" in p.name))
    bad1 = tmp_path / "shake-labelled-none.txt"
    shake.expect, shake.settled_at_ms = "none", None
    traces.save(shake, bad1)
    bad2 = tmp_path / "bump-labelled-roll.txt"
    bump.expect, bump.settled_at_ms = "roll", 1000
    traces.save(bump, bad2)
    r = shake_test(str(bad1), str(bad2), str(LIB[0]), "--json", "-v")
    assert r.returncode == 1
    assert "WRONG: rolled at" in r.stdout and "WRONG: never rolled" in r.stdout
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["traces"] == 3 and res["correct"] == 1
    assert res["confusion"]["none"]["roll"] == 1 and res["confusion"]["roll"]["none"] == 1


def test_late_settle_label_is_a_failure(tmp_path):
    """The label says the cup settled 300 ms later than it did: the roll is 'early'."""
    tr = traces.load(next(p for p in LIB if "shake-vigorous" in p.name))
    tr.settled_at_ms += 300
    p = tmp_path / "late-label.txt"
    traces.save(tr, p)
    r = shake_test(str(p))
    assert r.returncode == 1 and "early" in r.stdout


def test_unreadable_file_fails(tmp_path):
    p = tmp_path / "broken.txt"
    p.write_text("rate_hz 100\nexpect roll\n0 0 1\n")
    r = shake_test(str(p), str(LIB[0]), "--json")
    assert r.returncode == 2                     # a bad input, though the others are judged
    assert "no range_g" in r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1])["unreadable"] == 1
    assert shake_test(str(tmp_path / "missing.txt")).returncode == 2


def test_micropython_flag_gives_the_same_verdicts():
    picks = [str(p) for p in LIB[::6]]
    a = json.loads(shake_test("--json", *picks).stdout.strip().splitlines()[-1])
    b = json.loads(shake_test("--json", "--micropython", *picks).stdout.strip().splitlines()[-1])
    assert a == b and a["correct"] == len(picks)


def test_registered_in_cli():
    p = cli.build_parser()
    assert p.parse_args(["shake-test", "--json"]).json
    assert p.parse_args(["shake-record", "--port", "/dev/null"]).port == "/dev/null"
