"""`dicecup sim --headless`: what the summary tells about the games, the progress bar
on a terminal, and Ctrl-C ending the batch with the games finished so far."""
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time

import pytest

from dicecup_host import simrun, tally

DICECUP = [sys.executable, "-m", "dicecup_host.cli"]


@pytest.mark.parametrize("rules,cups,bots", [("perudo", 3, 0), ("dixmille", 2, 1)])
def test_summary_counts_wins_per_seat_rounds_and_game_length(rules, cups, bots):
    total = simrun.run_batch(cups, rules, None, 3, seed=5, bots=bots)
    assert total["finished"] == 3
    assert len(total["winners"]) == cups + bots          # one count per seat, bots included
    assert sum(total["winners"]) == 3                    # every finished game has one winner
    assert total["rounds"] >= 1 and total["mean_game_s"] > 1
    assert total["interrupted"] is False


def test_rounds_are_bidding_rounds_or_turns_around_the_table():
    c, facts = simrun.play_one(3, "liars", None, 2)
    f = tally.game_facts(sc.serial for sc in c.cups)
    opens = sum(1 for line in c.cups[0].serial if line.startswith('{"k":"open"'))
    assert facts["finished"] and f["rounds"] == opens and f["seats"] == 3
    won = [json.loads(line) for line in c.cups[1].serial if line.startswith('{"k":"win"')]
    assert f["winner"] == won[0]["seat"]


def test_a_pipe_gets_no_progress_bar():
    r = subprocess.run(DICECUP + ["sim", "--headless", "--games", "2", "--cups", "2", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    total = json.loads(r.stdout.splitlines()[-1])
    assert total["games"] == 2 and sum(total["winners"]) == 2


def _read_until(fd, needle, timeout):
    out = b""
    end = time.monotonic() + timeout
    while needle not in out and time.monotonic() < end:
        if select.select([fd], [], [], 0.2)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return out


@pytest.mark.heavy
def test_ctrl_c_on_a_terminal_ends_with_the_summary_of_finished_games():
    master, slave = pty.openpty()
    p = subprocess.Popen(DICECUP + ["sim", "--headless", "--games", "200", "--cups", "2", "--json"],
                         stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    try:
        seen = _read_until(master, b"games", 60)
        assert b"games" in seen and b"/200" in seen, seen       # the progress bar, on the terminal
        _read_until(master, b"3/200", 60)
        os.killpg(p.pid, signal.SIGINT)                         # what Ctrl-C does
        out = seen + _read_until(master, b"}", 30)
        rc = p.wait(30)
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    text = out.decode("utf-8", "replace")
    assert rc == 130
    assert "Traceback" not in text
    assert "interrupted:" in text
    total = json.loads(text[text.rindex('{"games"'):text.rindex("}") + 1])
    assert total["interrupted"] is True and 3 <= total["games"] < 200
    assert total["finished"] == total["games"] == sum(total["winners"])
