"""`dicecup --help` and every subcommand's `--help` print their usage and exit 0 (a stray
`%` in a help text made argparse raise a TypeError for the whole command list)."""
import re
import subprocess
import sys
from pathlib import Path

DICECUP = str(Path(sys.executable).parent / "dicecup")


def test_help_lists_every_command_and_each_answers_help():
    r = subprocess.run([DICECUP, "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    commands = re.findall(r"^    ([a-z][a-z-]+)", r.stdout, re.M)
    assert {"sim", "flash", "vboard", "cards", "tournament", "log", "replay", "stats"} <= set(commands)
    for c in commands:
        r = subprocess.run([DICECUP, c, "--help"], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and r.stdout.startswith("usage: dicecup %s" % c), (c, r.stderr[-300:])
