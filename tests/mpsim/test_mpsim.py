"""`dicecup sim --headless --micropython` (host/dicecup_host/mpsim.py): each simulated
cup's whole app in its own 32-bit frozen MicroPython process, lock-stepped with the
host's clock and medium.

Cheap (no build): the exit-2 paths. Heavy (the `fw32` fixture: the build, once per
session, about 40 s cold; skipped with the reason when `gcc -m32` or the source is
missing, failed instead in CI): a 3-cup game and its heap figures (about 5 s), a cup
killed mid-game (about 5 s), the CLI's JSON summary for 2 cups (about 3 s)."""
import json
import re
import subprocess
import sys

import pytest

from dicecup_host import cli, fw32, mpsim

heavy = pytest.mark.heavy


def dicecup(*argv, env=None):
    return subprocess.run([sys.executable, "-m", "dicecup_host.cli"] + list(argv), capture_output=True,
                          text=True, env=env, timeout=600)


# --- cheap: what --micropython refuses, in one line, exit 2 -------------------------

@pytest.fixture(autouse=True)
def source_env(monkeypatch):
    """--mpy-src sets DICECUP_MPY_SRC for the process: put it back after each test."""
    import os
    monkeypatch.setenv("DICECUP_MPY_SRC", os.environ.get("DICECUP_MPY_SRC", ""))
    if not os.environ["DICECUP_MPY_SRC"]:
        monkeypatch.delenv("DICECUP_MPY_SRC")


def one_line_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as e:
        rc = cli.main(argv)
        raise SystemExit(rc)
    err = capsys.readouterr().err
    assert e.value.code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_a_missing_source_exits_2_naming_it(capsys, tmp_path):
    fake = tmp_path / "no-such-micropython.tar.gz"
    err = one_line_exit_2(capsys, ["sim", "--headless", "--micropython", "--mpy-src", str(fake)])
    assert "no MicroPython source" in err and str(fake) in err


def test_the_env_var_sets_the_source_too(capsys, tmp_path, monkeypatch):
    fake = tmp_path / "empty-dir"
    fake.mkdir()
    monkeypatch.setenv("DICECUP_MPY_SRC", str(fake))
    err = one_line_exit_2(capsys, ["sim", "--headless", "--micropython"])
    assert str(fake) in err and "ports/unix" in err


def test_no_32_bit_compiler_exits_2(capsys, monkeypatch):
    monkeypatch.setattr(fw32, "_m32_ok", False)
    monkeypatch.setattr(fw32, "_probe_m32", lambda: "no 32-bit C compiler: `gcc -m32` cannot build a program")
    err = one_line_exit_2(capsys, ["sim", "--headless", "--micropython"])
    assert "gcc -m32" in err


@pytest.mark.parametrize("argv, says", [
    (["--micropython"], "--micropython needs --headless"),
    (["--headless", "--micropython", "--attack", "peek"], "--attack is not available"),
    (["--headless", "--micropython", "--kill-master"], "--kill-master is not available"),
    (["--headless", "--micropython", "--partition", "master:5000@1000"], "--partition is not available"),
    (["--headless", "--micropython", "--cups", "5", "--bots", "2"], "2 to 6 seats"),
    (["--headless", "--micropython", "--cup-heap", "4"], "--cup-heap 4"),
    (["--headless", "--micropython", "--games", "2", "--trace", "x.trace"], "--game-index"),
])
def test_what_it_cannot_honour_exits_2(capsys, argv, says):
    assert says in one_line_exit_2(capsys, ["sim"] + argv)


def test_drives():
    assert mpsim.drive_unavailable("engine") is None
    assert mpsim.drive_unavailable("buttons") is None
    why = mpsim.drive_unavailable("feet")
    assert "engine" in why and "\n" not in why


# --- heavy: whole games in the 32-bit MicroPython ------------------------------------

@pytest.fixture(scope="module")
def liars3(request):
    """One 3-cup Liar's dice game at 110 KB, and again at 60 KB (run_batch)."""
    request.getfixturevalue("fw32")
    log = []
    total = mpsim.run_batch(3, "liars", games=1, seed=1, log=log.append)
    return total, log


@heavy
def test_a_3_cup_game_finishes_inside_micropython_with_a_heap_figure_per_cup(fw32, liars3):
    total, log = liars3
    assert total["games"] == total["finished"] == total["consistent"] == 1, (total, log)
    assert total["hidden_leaks"] == 0 and total["crashed"] == 0 and total["memory_errors"] == 0, log
    assert total["frames"] > 100 and total["sim_s"] > 10
    peaks = total["peak_heap_bytes"]
    emu = total["emulator_heap_bytes"]
    assert len(peaks) == len(emu) == 3
    # the app's live heap: more than the modules and drivers alone, less than the cap
    assert all(30 * 1024 < p < total["heap_cap_bytes"] for p in peaks), peaks
    # the emulation's share is measured (not the app's) and fits the room it is given
    assert all(4 * 1024 < e < mpsim.EMU_ROOM for e in emu), emu


@heavy
def test_every_game_also_completes_in_60_kb(fw32, liars3):
    total, log = liars3
    assert all(p < 60 * 1024 for p in total["peak_heap_bytes"]), total["peak_heap_bytes"]
    assert total["completed_at_60k"] == total["games"], log


@heavy
@pytest.mark.parametrize("bots", [0, 1])
def test_the_simulated_persons_bot_is_the_emulations_not_the_cups(fw32, bots):
    # A person at a real cup brings no code into it: the bot playing the simulated
    # person is measured apart (stage "person") and given back to the app's heap --
    # except on a table with bot seats, whose master needs those modules itself.
    g = mpsim.Game(fw32.binary, 2, "liars", None, seed=1, bots=bots)
    try:
        g.start()
        stages = [c.stages for c in g.cups]
    finally:
        g.quit()
    assert all("app" in s for s in stages), stages
    if bots:
        assert all("person" not in s for s in stages), stages
    else:
        assert all(256 < s["person"] < 4096 for s in stages), stages


def test_a_cup_killed_mid_game_is_reported_not_waited_for(fw32):
    log = []
    killed = []

    def kill_cy(game):
        if not killed and game.clock.now > 15000:
            killed.append(game.clock.now)
            game.cups[2].p.kill()

    f = mpsim.play_one(fw32.binary, 3, "liars", None, seed=2, on_step=kill_cy, log=log.append,
                       limit_ms=180000)
    assert killed
    assert f["crashed"] == [2] and not f["finished"] and not f["ok"]
    said = [line for line in log if "cup 2 (cy) died" in line]
    assert said and "it exited" in said[0], log
    assert f["sim_ms"] <= 180000 + mpsim.LATENCY_MS


@heavy
def test_the_cli_prints_the_summary_with_the_heap_figures(fw32):
    r = dicecup("sim", "--headless", "--micropython", "--cups", "2", "--rules", "bluff", "--seed", "3", "--json")
    total = json.loads(r.stdout.strip().splitlines()[-1])
    assert total["games"] == total["finished"] == total["consistent"] == 1, r.stderr
    assert len(total["peak_heap_bytes"]) == 2 and len(total["emulator_heap_bytes"]) == 2
    all_good = total["completed_at_60k"] == 1
    assert r.returncode == (0 if all_good else 1)
    if not all_good:   # a cup that failed at 60 KB says why: its traceback when it died, else
        # the file and line of each MemoryError it survived (its `internal` events), or that
        # memory ran out even for writing that event
        assert "MemoryError" in r.stderr and "60 KB heap" in r.stderr
        assert "Traceback" in r.stderr or re.search(
            r"survived a MemoryError .*(@ \S+\.py:\d+|@ \(no room to say where\)|line cut short: out of memory)", r.stderr), r.stderr


@heavy
@pytest.mark.parametrize("rules, options", [("perudo", {"calza_anyone": True}), ("dixmille", {})])
def test_cups_played_by_buttons_inside_micropython(fw32, rules, options):
    """--drive buttons --micropython: the lobby (create, options, join code, start) and
    every move by gestures on the emulated buttons, rolls by shakes, in each cup's own
    32-bit MicroPython."""
    log = []
    cups = 2 if rules == "dixmille" else 3     # Dix mille's games are the longest
    total = mpsim.run_batch(cups, rules, options, games=1, seed=4, drive="buttons", log=log.append)
    assert total["games"] == total["finished"] == total["consistent"] == 1, (total, log[-20:])
    assert total["hidden_leaks"] == 0 and total["crashed"] == 0 and total["memory_errors"] == 0, log
