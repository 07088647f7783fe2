"""`dicecup sim --headless --drive buttons`: seeded games where every seat is a simulated
cup running the app, played by virtual buttons and the emulated accelerometer
(appsim.run_batch), summarised with the same keys as the engine-driven batch."""
import json
import subprocess
import sys

import pytest

from dicecup_host import cli, simrun


def sim(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "dicecup_host.cli", "sim"] + list(args),
                          capture_output=True, text=True, timeout=timeout)


def test_games_played_by_buttons_summarised_as_the_engine_batch_is():
    res = sim("--headless", "--drive", "buttons", "--cups", "3", "--rules", "liars", "--games", "2",
              "--seed", "4", "--options", '{"spot_on": true}', "--json")
    assert res.returncode == 0, res.stdout + res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert set(simrun.SUMMARY) <= set(out)
    assert out["games"] == out["finished"] == out["consistent"] == 2 and out["hidden_leaks"] == 0
    assert out["frames"] > 0 and out["presses"] > 0 and out["shakes"] >= 2 * 3
    assert out["sent"]["bid"] > 0 and out["sent"]["challenge"] + out["sent"]["exact"] > 0


def test_the_default_drive_is_the_engine():
    assert cli.build_parser().parse_args(["sim", "--headless"]).drive == "engine"


@pytest.mark.parametrize("args", [
    ["--headless", "--drive", "buttons", "--attack", "peek"],
    ["--headless", "--drive", "buttons", "--kill-master"],
    ["--headless", "--drive", "buttons", "--partition", "master:5000@1000"],
    ["--drive", "buttons"],
    ["--headless", "--drive", "thumbs"],
], ids=["attack", "kill-master", "partition", "not-headless", "unknown"])
def test_what_buttons_cannot_drive_exits_2_with_one_line(args):
    res = sim(*args, timeout=60)
    assert res.returncode == 2 and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dicecup sim:") and "Traceback" not in res.stderr, res.stderr
