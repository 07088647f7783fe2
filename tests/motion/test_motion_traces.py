"""The trace format (host/dicecup_host/traces.py) and the synthetic library
(host/dicecup_host/tracegen.py): parsing, writing, and regenerating byte for byte."""
import filecmp

import pytest

from dicecup_host import tracegen, traces

GOOD = """# a comment
rate_hz 100
range_g 8
expect roll
settled_at_ms 20
kind test
0 0 1
0.5 -0.25 1.5
# comments may sit among the samples
-1 .5 +0.25
0 0 1
"""


def test_parse_and_write_round_trip():
    tr = traces.parse(GOOD, "good")
    assert (tr.rate_hz, tr.range_g, tr.expect, tr.settled_at_ms) == (100, 8, "roll", 20)
    assert tr.meta == {"kind": "test"}
    assert tr.samples[1] == (0.5, -0.25, 1.5) and tr.samples[2] == (-1.0, 0.5, 0.25)
    assert tr.time_ms(3) == 30.0 and tr.duration_ms() == 40
    again = traces.parse(traces.dumps(tr))
    assert again.samples == tr.samples and again.meta == tr.meta
    assert (again.rate_hz, again.range_g, again.expect, again.settled_at_ms) == (100, 8, "roll", 20)


def test_exact_mg_formatting():
    assert [traces.fmt_mg(v) for v in (0, 1000, -1000, 4, -20, 1004, -15996, 120)] == \
        ["0", "1", "-1", "0.004", "-0.02", "1.004", "-15.996", "0.12"]
    assert [traces.fmt_g(v) for v in (0.0, -0.0001, 1.0, -0.0204, 2.5)] == ["0", "0", "1", "-0.02", "2.5"]


@pytest.mark.parametrize("text, words", [
    ("range_g 8\nexpect none\n0 0 1\n", "no rate_hz"),
    ("rate_hz 100\nrange_g 8\nexpect maybe\n0 0 1\n", "roll or none"),
    ("rate_hz 100\nrange_g 8\nexpect roll\n0 0 1\n", "needs settled_at_ms"),
    ("rate_hz 100\nrange_g 8\nexpect none\nsettled_at_ms 0\n0 0 1\n", "only goes with expect roll"),
    ("rate_hz 100\nrange_g 8\nexpect roll\nsettled_at_ms 900\n0 0 1\n", "outside the trace"),
    ("rate_hz 100\nrange_g 3\nexpect none\n0 0 1\n", "range_g must be"),
    ("rate_hz 100.5\nrange_g 8\nexpect none\n0 0 1\n", "whole number"),
    ("rate_hz 100\nrange_g 8\nexpect none\n0 0\n", "three numbers"),
    ("rate_hz 100\nrange_g 8\nexpect none\n0 0 x1\n", "not a number"),
    ("rate_hz 100\nrange_g 8\nexpect none\n0 0 1\nkind late\n", "after the samples"),
    ("rate_hz 100\nrate_hz 100\nrange_g 8\nexpect none\n0 0 1\n", "given twice"),
    ("rate_hz 100\nRange 8\nexpect none\n0 0 1\n", "key value"),
    ("rate_hz 100\nrange_g 8\nexpect none\n", "no samples"),
])
def test_malformed_traces_are_named_errors(text, words):
    with pytest.raises(traces.TraceError) as e:
        traces.parse(text, "t.txt")
    assert words in str(e.value) and "t.txt" in str(e.value)


def test_find_settle():
    rest = [(0.0, 0.0, 1.0)] * 50
    moving = [(0.5, 0.0, 1.0), (-0.5, 0.0, 1.0)] * 10
    ringing = [(0.0, 0.0, 1.2), (0.0, 0.0, 0.9), (0.0, 0.0, 1.04), (0.0, 0.0, 0.98)]
    assert traces.find_settle(moving + ringing + rest, 100) == 230
    assert traces.find_settle(rest + moving, 100) is None          # not at rest at the end
    assert traces.find_settle(rest, 100) == 0


def test_every_committed_trace_parses_and_ends_at_rest_when_it_rolls():
    paths = traces.library()
    assert paths
    for p in paths:
        tr = traces.load(p)
        assert tr.meta["source"].startswith("tracegen/")
        if tr.expect == "roll":
            assert traces.find_settle(tr.samples, tr.rate_hz, tol_g=0.08) is not None, p.name
            assert tr.duration_ms() - tr.settled_at_ms >= 500


def test_regenerating_the_library_gives_the_same_bytes(tmp_path):
    for s in ("lib", "heldout"):
        made = tracegen.generate(tmp_path / s, s)
        committed = traces.library_dir() / s
        names = sorted(p.name for p in made)
        assert names == sorted(p.name for p in committed.glob("*.txt"))
        match, mismatch, errors = filecmp.cmpfiles(tmp_path / s, committed, names, shallow=False)
        assert not mismatch and not errors, (s, mismatch, errors)


def test_heldout_seeds_and_ranges_differ_from_lib():
    lib = {traces.load(p).meta["seed"] for p in traces.library(("lib",))}
    held = {traces.load(p).meta["seed"] for p in traces.library(("heldout",))}
    assert lib and held and not lib & held
    assert tracegen.COMMON["lib"] != tracegen.COMMON["heldout"]
    for style in tracegen.SHAKES.values():
        assert style["lib"] != style["heldout"]
    for kind in tracegen.OTHERS.values():
        assert kind["lib"] != kind["heldout"]


def test_the_model_measures_gravity_and_motion():
    """Physics sanity: at rest 1 g along +z; a cup tilted 90 deg reads 1 g sideways; a
    minimum-jerk lift shows up as a z bump above then below 1 g."""
    import math
    import random
    rng = random.Random(1)
    common = tracegen.Params(rng, dict(tracegen.COMMON["lib"], noise_mg=(0, 0), offset_mg=(0, 0),
                                       misalign_deg=(0, 0)))
    cup = tracegen.Cup(rng, 100, common)
    cup.rest(0.2)
    cup.move(0.5, (0.0, 0.0, 0.2), held=0)
    cup.rest(0.2)
    cup.move(0.5, r_to=(math.pi / 2, 0.0), held=0)
    cup.rest(0.2)
    mg, clean = cup.render(8)
    assert abs(clean[10][2] - 1.0) < 1e-6 and abs(clean[10][0]) < 1e-6
    lift = [c[2] for c in clean[20:70]]
    assert max(lift) > 1.1 and min(lift) < 0.9           # 5.77 * 0.2 / 0.25 = 4.6 m/s^2 peak
    end = clean[-5]
    assert abs(math.hypot(end[0], end[1]) - 1.0) < 1e-6 and abs(end[2]) < 1e-6
