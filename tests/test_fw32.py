"""The 32-bit unix MicroPython with the firmware frozen in (dicecup_host.fw32): the
stand-in for an ESP32 without PSRAM. It is 32-bit, imports only frozen code, enforces
the 110 KB heap, plays whole games like CPython, and the firmware's import RAM is
measured there.

The tests that use the `fw32` fixture build the binary once per session (about half a
minute cold) and are marked heavy; CI runs them and fails rather than skips them
(DICECUP_REQUIRE_FW32=1 in .ci/run)."""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dicecup.engine import RULES
from dicecup_host import fw32 as fw
from test_micropython import REPLAY, record_game

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.json"))

heavy = pytest.mark.heavy


def ok(res):
    assert res.returncode == 0, res.stderr.decode(errors="replace")
    return res.stdout.decode()


# --- cheap: no build ---------------------------------------------------------------

def test_check_names_a_missing_source_in_one_line(monkeypatch, tmp_path):
    missing = tmp_path / "nowhere" / "micropython.tar.gz"
    monkeypatch.setenv("DICECUP_MPY_SRC", str(missing))
    assert fw.source() == missing
    reason = fw.check()
    assert reason and "\n" not in reason
    assert str(missing) in reason and "DICECUP_MPY_SRC" in reason
    with pytest.raises(fw.Fw32Unavailable) as e:
        fw.build()
    assert str(e.value) == reason


def test_without_env_the_vendor_folders_are_tried_in_order(monkeypatch, tmp_path):
    monkeypatch.delenv("DICECUP_MPY_SRC", raising=False)
    monkeypatch.setattr(fw, "VENDOR_DIRS", (tmp_path / "a", tmp_path / "b"))
    reason = fw.check()
    assert fw.source() is None and "\n" not in reason
    assert str(tmp_path / "a") in reason and str(tmp_path / "b") in reason
    (tmp_path / "b").mkdir()
    tar = tmp_path / "b" / "micropython-1.29.0-x.tar.gz"
    tar.write_bytes(b"")
    assert fw.source() == tar


def test_stamp_hash_follows_firmware_content(tmp_path):
    firmware = tmp_path / "firmware"
    shutil.copytree(fw.FIRMWARE, firmware, ignore=shutil.ignore_patterns("__pycache__"))
    src = fw.source() or tmp_path / "none"
    before = fw.inputs_hash(firmware=firmware, src=src)
    assert fw.inputs_hash(firmware=firmware, src=src) == before       # stable
    engine = firmware / "dicecup" / "engine" / "__init__.py"
    engine.touch()                                                  # mtime alone: no rebuild
    assert fw.inputs_hash(firmware=firmware, src=src) == before
    engine.write_text(engine.read_text() + "\n# changed\n")
    assert fw.inputs_hash(firmware=firmware, src=src) != before
    (firmware / "dicecup" / "extra.py").write_text("X = 1\n")      # a new module is frozen too
    changed = fw.inputs_hash(firmware=firmware, src=src)
    (firmware / "dicecup" / "extra.py").unlink()
    engine.write_text(engine.read_text().replace("\n# changed\n", ""))
    assert fw.inputs_hash(firmware=firmware, src=src) == before != changed


def test_mem_info_parses_a_report_in_bytes():
    out = (b"hello\nmem: total=42147, current=21513, peak=21609\nstack: 576 out of 40000\n"
           b"GC: total: 110016, used: 21056, free: 88960\n"
           b" No. of 1-blocks: 477, 2-blocks: 77, max blk sz: 37, max free sz: 5554\n")
    info = fw.mem_info(out)
    assert info["total"] == 110016 and info["used"] == 21056 and info["free"] == 88960
    assert info["max_free"] == 5554 * 16 and info["max_block"] == 37 * 16
    assert info["mem_peak"] == 21609 and info["stack_limit"] == 40000
    assert fw.mem_info(out + out.replace(b"free: 88960", b"free: 1"))["free"] == 1   # the last one
    with pytest.raises(ValueError):
        fw.mem_info(b"no report")


# --- the binary itself -----------------------------------------------------------

@heavy
def test_binary_is_32_bit(fw32):
    out = ok(fw32.run_code("import sys\nprint(sys.maxsize == 2**31 - 1, sys.maxsize)"))
    assert out.split()[0] == "True", out


@heavy
def test_firmware_is_frozen_and_only_frozen_code_is_importable(fw32):
    out = ok(fw32.run_code(
        "import sys\nimport dicecup.engine, digitalio, asyncio\n"
        "from dicecup_host.emu import machine\n"
        "print(sys.path[1:])\nprint(dicecup.engine.__file__)\nprint(dicecup.engine.__path__)\n"
        "print(digitalio.__file__)\nprint(machine.__file__)\n"))
    path, file_, pkg_path, dio, mach = out.splitlines()
    assert path == "['.frozen']"
    # a frozen module's __file__ is its name inside the frozen image (a module read
    # from disk would carry the folder it was found in)
    assert file_ == "dicecup/engine/__init__.py"
    assert pkg_path == ".frozen/dicecup/engine"
    assert dio == "digitalio.py" and mach == "dicecup_host/emu/machine.py"


@heavy
def test_main_py_and_host_code_are_not_frozen(fw32):
    out = ok(fw32.run_code(
        "for m in ('main', 'dicecup_host.mpy', 'manifest_sim'):\n"
        "    try:\n        __import__(m)\n        print(m, 'frozen')\n"
        "    except ImportError:\n        print(m, 'absent')\n"))
    assert out.split() == ["main", "absent", "dicecup_host.mpy", "absent", "manifest_sim", "absent"]


@heavy
def test_heap_is_capped_at_110k(fw32):
    out = ok(fw32.run_code(
        "try:\n    b = bytearray(200 * 1024)\n    print('allocated')\n"
        "except MemoryError:\n    print('MemoryError')\n"))
    assert out.strip() == "MemoryError"
    assert fw32.mem_after("")["total"] < 110 * 1024 + 1


@heavy
def test_no_op_build_is_fast(fw32):
    import time
    t0 = time.monotonic()
    assert fw.build() == fw32.binary
    assert time.monotonic() - t0 < 1.0


# --- games inside it ---------------------------------------------------------------

@heavy
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_scenario_same_output_as_cpython(path, fw32):
    cpy = subprocess.run([sys.executable, "-m", "dicecup.scenario", str(path)], capture_output=True)
    upy = fw32.run(["-m", "dicecup.scenario", str(path)])
    assert (upy.returncode, upy.stdout) == (cpy.returncode, cpy.stdout), upy.stderr.decode()


@heavy
@pytest.mark.parametrize("rules", RULES)
def test_whole_game_replays_to_the_same_states_in_110k(rules, tmp_path, fw32):
    doc, states = record_game(rules, 4, seed=11)
    steps = doc.pop("steps")
    game = tmp_path / "game.json"
    game.write_text("\n".join(json.dumps(x) for x in [doc] + steps) + "\n")
    script = tmp_path / "code" / "replay.py"   # its folder is sys.path[0]: nothing else there
    script.parent.mkdir()
    script.write_text(REPLAY)
    out = ok(fw32.run([script, game], timeout=300))
    assert out.split() == states


# --- RAM ------------------------------------------------------------------------------

@heavy
def test_mem_info_of_a_real_report(fw32):
    info = fw32.mem_after("x = [0] * 100")
    assert 0 < info["used"] < info["total"] and info["free"] > 0
    assert info["used"] + info["free"] == info["total"]
    assert info["max_free"] > 0 and info["max_free"] % 16 == 0
    assert info["max_free"] <= info["free"]


IMPORT_RAM = """
import gc
gc.collect()
a0 = gc.mem_alloc()
import dicecup.engine
gc.collect()
a1 = gc.mem_alloc()
for r in dicecup.engine.RULES:   # each rule set is imported on first use
    dicecup.engine.new_game(r, 4, None, opener=0)
gc.collect()
a2 = gc.mem_alloc()
import dicecup.net.cup
gc.collect()
a3 = gc.mem_alloc()
print(a1 - a0, a2 - a0, a3 - a2, gc.mem_free())
"""


@heavy
def test_import_ram_of_frozen_firmware(fw32):
    """MICROPYTHON.md measured 2.7-6.3 KB for the engine frozen on a 32-bit build
    (40.7 KB as .mpy on the 64-bit wheel); figures are in the assertion messages."""
    start = fw32.mem_after("")
    engine, rules, net, free = (int(x) for x in ok(fw32.run_code(IMPORT_RAM)).split())
    figures = ("110K heap: total %d B, free at start %d B; import dicecup.engine %d B, with its "
               "%d rule sets %d B; then dicecup.net.cup %d B more; free after %d B"
               % (start["total"], start["free"], engine, len(RULES), rules, net, free))
    print(figures)
    assert 0 < engine <= rules < 10 * 1024, figures
    assert 0 < net < 40 * 1024, figures
    assert free > 60 * 1024, figures


# --- the join and the member keys ------------------------------------------------------

@heavy
def test_a_whole_cpace_join_runs_in_the_32_bit_build_and_its_cost_is_measured(fw32):
    """A master and a joiner inside the frozen 32-bit build, 110 KB heap: the CPace join,
    the welcome, the snapshot (host/dicecup_host/upy/joincost.py). The figures are
    printed; an ESP32 at 240 MHz runs this MicroPython code roughly 20x slower than
    this machine's unix build (bench's rule of thumb for HMAC), so the estimate is
    the figure times 20."""
    res = fw32.run([ROOT / "host" / "dicecup_host" / "upy" / "joincost.py"], timeout=300)
    out = ok(res)
    figs = dict((k, float(v)) for k, v in re.findall(r"(\w+)=([\d.]+)", out))
    print(out + "ESP32 estimate (x20): master %.0f ms, joiner %.0f ms, one pair key %.0f ms"
          % (figs["master_ms"] * 20, figs["joiner_ms"] * 20, figs["pair_ms"] * 20))
    assert figs["frames"] <= 12 and figs["largest"] <= 250
    assert 0 < figs["master_ms"] < 500 and 0 < figs["joiner_ms"] < 500, out
    # once joined, neither cup keeps CPace (pake, x25519, sha512: ~2.5 KB frozen) in RAM
    assert figs["held_modules"] == 0, out
