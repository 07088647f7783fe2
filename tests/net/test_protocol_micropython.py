"""The protocol's own code inside real MicroPython: a whole simulated table ends in the
same state bytes as on CPython, and one cup's protocol fits an ESP32's heap."""
import re
import subprocess
import sys

import pytest

from dicecup_host import mpy

SCRIPT = str(mpy.ROOT / "host" / "dicecup_host" / "upy" / "tablegame.py")


@pytest.mark.parametrize("rules, cups, loss", [("liars", 3, 10), ("dixmille", 2, 20), ("bluff", 4, 0)])
def test_a_table_plays_the_same_game_in_micropython(rules, cups, loss, mpy_dir):
    args = [rules, str(cups), "5", str(loss)]
    cpy = subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True, timeout=600)
    assert cpy.returncode == 0, cpy.stderr
    # several cups share this one process: more heap than one cup has (see below)
    upy = mpy.run([SCRIPT] + args, heap="1M", path=mpy_dir, timeout=600)
    assert upy.returncode == 0, upy.stdout.decode() + upy.stderr.decode()
    out = upy.stdout.decode()
    assert "same=1" in out
    state = re.search(r"state=(\w+)", out).group(1)
    assert state == re.search(r"state=(\w+)", cpy.stdout).group(1)


def test_one_cup_runs_the_protocol_inside_micropython(mpy_dir):
    """Imports as .mpy plus one master cup with five bots. On the 64-bit unix port the
    imports take about 93 KB (see make bench); an ESP32 without PSRAM runs the firmware
    frozen into its build (firmware/manifest.py), where the code stays in flash."""
    res = mpy.run([str(mpy.ROOT / "host/dicecup_host/upy/stackheap.py")], heap="256K", path=mpy_dir)
    assert res.returncode == 0, res.stdout.decode() + res.stderr.decode()
    figs = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", res.stdout.decode()))
    assert figs["cup"] < 40 * 1024  # the cup's own state: table, history, round secrets
