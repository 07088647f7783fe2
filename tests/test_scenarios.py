"""Every scenario file gives its `expect`, through the real command, on CPython and
inside the heap-capped MicroPython, byte for byte the same."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "tests" / "scenarios" / "examples"   # copies of ../shared/scenarios
SHARED = ROOT.parent / "shared" / "scenarios"            # the originals, when beside us
_examples = {p.name: p for p in sorted(EXAMPLES.glob("*.json"))}
_examples.update({p.name: p for p in sorted(SHARED.glob("*.json"))} if SHARED.is_dir() else {})
FILES = sorted(_examples.values()) + sorted((ROOT / "tests" / "scenarios").glob("*.json"))


def dicecup(*args):
    return subprocess.run([sys.executable, "-m", "dicecup_host.cli", *args], capture_output=True)


def contains(expect, actual):
    """Every key listed in expect matches exactly (nested objects: their listed keys)."""
    if isinstance(expect, dict):
        return isinstance(actual, dict) and all(k in actual and contains(v, actual[k]) for k, v in expect.items())
    return expect == actual and type(expect) is type(actual)


@pytest.fixture(scope="module")
def built(mpy_dir):
    return mpy_dir


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_scenario_expect_on_cpython_and_micropython(path, built):
    expect = json.loads(path.read_text())["expect"]
    cpy = dicecup("scenario", str(path))
    upy = dicecup("scenario", "--micropython", str(path))
    assert cpy.stdout == upy.stdout, "CPython and MicroPython output differ"
    assert cpy.returncode == upy.returncode
    assert cpy.returncode == (3 if "error" in expect else 0), cpy.stderr.decode()
    out = json.loads(cpy.stdout)
    assert contains(expect, out), "expected %s, got %s" % (expect, out)


def test_output_is_canonical_ascii_compact():
    path = _examples["bluff-difference-loss.json"]
    out = dicecup("scenario", str(path)).stdout
    assert out.endswith(b"\n") and out.count(b"\n") == 1
    assert out.isascii() and b", " not in out and b": " not in out
    keys = list(json.loads(out))
    assert keys == ["dice", "eliminated", "winner", "round", "turn", "bid", "special"]


def test_non_ascii_names_are_escaped_identically(tmp_path, built):
    doc = json.loads(_examples["liars-basic.json"].read_text())
    text = json.dumps(doc).replace('"ana"', '"Ana\\u00efs \\ud83e\\udd9c"').replace('"ben"', '"B\\u00e9n"')
    path = tmp_path / "names.json"
    path.write_text(text)
    cpy = dicecup("scenario", str(path))
    upy = dicecup("scenario", "--micropython", str(path))
    assert cpy.returncode == 0, cpy.stderr
    assert cpy.stdout == upy.stdout
    assert cpy.stdout.isascii()
    assert json.loads(cpy.stdout)["dice"] == {"Ana\u00efs \U0001f99c": 4, "B\u00e9n": 5}


def test_malformed_file_exits_2_with_nothing_on_stdout(tmp_path, built):
    path = tmp_path / "bad.json"
    path.write_text('{"rules": "yahtzee", "players": ["a", "b"], "opener": "a", "steps": []}')
    for args in (("scenario", str(path)), ("scenario", "--micropython", str(path))):
        res = dicecup(*args)
        assert res.returncode == 2 and res.stdout == b"" and b"yahtzee" in res.stderr
