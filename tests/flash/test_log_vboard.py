"""`dicecup log` on the virtual board: the real firmware, inside MicroPython, plays a game
as master of a table of bots on a pseudo-terminal; the cable is pulled and put back
(a new pty behind the same link) and the cup is reset, with the logger reading all along.
No event is recorded twice, the game played to its end is in a game file the replay
re-checks, and games.db holds the same events as the files."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from procout import Reader
from vboards import DICECUP, Board

from dicecup_host import gamelog

pytestmark = pytest.mark.heavy


def test_the_logger_records_a_vboard_game_through_an_unplug_and_a_reset(tmp_path):
    out = tmp_path / "games"
    board = Board(tmp_path, "--play", "liars", "--bots", "2", "--unplug-s", "0.5")
    log = subprocess.Popen([DICECUP, "log", "--port", board.link, "--out", str(out)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    so, se = Reader(log.stdout), Reader(log.stderr)
    so.start()
    se.start()
    try:
        assert so.wait_for("logging " + board.link, 20), se.lines
        assert so.wait_for(" bids ", 90), so.lines[-5:] + se.lines[-5:]
        board.signal(signal.SIGUSR1)                 # the cable out, and back in
        board.status("unplugged")
        board.status("plugged in")
        assert so.wait_for("the port is back", 30), so.lines[-5:]
        time.sleep(2)
        board.signal(signal.SIGUSR2)                 # the reset button, mid-game
        board.status("reset")
        assert so.wait_for("the cup rebooted", 60), so.lines[-8:]
        assert so.wait_for(" wins!", 240), so.lines[-8:]
        time.sleep(1)
        log.send_signal(signal.SIGINT)               # Ctrl-C: flushed and closed
        assert log.wait(timeout=20) == 130
    finally:
        if log.poll() is None:
            log.kill()
        board.stop()
    errs = "\n".join(se.lines)
    assert "Traceback" not in errs, errs

    files = sorted(p for p in out.iterdir() if p.suffix == ".jsonl")
    assert files, so.lines[-8:]
    keys = []
    for p in files:
        keys += [gamelog.key(json.loads(x)) for x in p.read_text().splitlines()]
    assert len(keys) == len(set(keys)), "an event recorded twice"

    # the game played after the reset ran to its end and re-checks against the rules
    won = [p for p in files if '"k":"win"' in p.read_text().replace(" ", "")]
    assert won, [p.name for p in files]
    r = subprocess.run([sys.executable, "-m", "dicecup_host.cli", "replay", str(won[-1])],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    assert sum(x.endswith(" wins!") for x in r.stdout.splitlines()) == 1
    assert any(" bids " in x for x in r.stdout.splitlines())

    db = sqlite3.connect(str(out / "games.db"))
    assert set(k for (k,) in db.execute("SELECT key FROM events")) == set(keys)
    (games,) = db.execute("SELECT COUNT(*) FROM games WHERE rules = 'liars' AND winner IS NOT NULL").fetchone()
    assert games >= 1
