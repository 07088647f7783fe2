"""Ctrl-C in `dicecup replay` and `dicecup stats`: exit 130 after flushing, never a
traceback. Replay is caught waiting for good on its file (a named pipe nobody writes
to); stats as soon as its summary is out, while it makes the plots (matplotlib's
import and three figures: far longer than a signal takes). And a plot that cannot be
written is one line, not a traceback."""
import os
import signal
import threading
import subprocess
import sys
import time

from dicecup_host.cluster import Cluster
from dicecup_host.cmd_log import Logger

CLI = [sys.executable, "-m", "dicecup_host.cli"]


def _interrupt(proc, when):
    """SIGINT once `when()` holds (or after 20 s), then the exit status and output."""
    end = time.monotonic() + 20
    while not when() and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    return proc.returncode, out, err


def _blocked_on_a_pipe(pid):
    """The process waits in the kernel on a pipe or FIFO (Linux: /proc/PID/wchan)."""
    try:
        with open("/proc/%d/wchan" % pid) as fh:
            where = fh.read()
    except OSError:
        return False
    return "fifo" in where or "pipe" in where or "partner" in where   # wait_for_partner: a FIFO's open


def test_replay_waiting_on_its_file_exits_130(tmp_path):
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    p = subprocess.Popen(CLI + ["replay", str(fifo)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    rc, out, err = _interrupt(p, lambda: _blocked_on_a_pipe(p.pid))
    assert rc == 130, (out, err)
    assert "Traceback" not in err


def _games(tmp_path):
    out = str(tmp_path / "games")
    log = Logger("unused", 115200, out, quiet=True)
    c = Cluster(2, "liars", seed=1, bots=1)
    c.play()
    log.feed(("\n".join(c.cups[0].serial) + "\n").encode())
    log.close()
    return out


def test_stats_interrupted_while_plotting_prints_the_summary_and_exits_130(tmp_path):
    out = _games(tmp_path)
    p = subprocess.Popen(CLI + ["stats", out, "--out", str(tmp_path / "plots")], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    lines = []
    summary = threading.Event()

    def read():
        for line in p.stdout:
            lines.append(line)
            if line.startswith("wins per seat"):
                summary.set()

    t = threading.Thread(target=read, daemon=True)
    t.start()
    assert summary.wait(60), lines
    p.send_signal(signal.SIGINT)
    rc = p.wait(timeout=30)
    t.join(10)
    err = p.stderr.read()
    assert rc == 130, (lines, err)
    assert "Traceback" not in err
    assert sum(x.startswith("plot: ") for x in lines) < 3   # it stopped mid-plots
    assert lines[0].startswith("1 games")         # the summary went out before the plots


def test_stats_says_in_one_line_when_a_plot_cannot_be_written(tmp_path):
    out = _games(tmp_path)
    plots = tmp_path / "plots"
    plots.mkdir()
    os.mkfifo(plots / "wins.png")                 # a path a PNG cannot be written to
    r = subprocess.run(CLI + ["stats", out, "--out", str(plots)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "wins.png" in r.stderr
