"""`dicecup shake-record` end to end over a real pseudo-terminal, with a fake cup
process running the firmware's own recorder (firmware/dicecup/hw/record.py)."""
import io
import json
import os
import subprocess
import sys
import tty
from pathlib import Path

import pytest

from dicecup.hw import record
from dicecup_host import cli, cmd_shake, traces

sys.path.insert(0, str(Path(__file__).parent))
import fakecup_proc  # noqa: E402  (the fake cup's own helpers, next to this file)

HERE = Path(__file__).parent
SHAKE = next(p for p in traces.library(("lib",)) if "shake-vigorous" in p.name)
PEEK = next(p for p in traces.library(("lib",)) if "peek" in p.name)


@pytest.fixture
def fakecup():
    """Start a fake cup on a new pty: returns (port path, process)."""
    procs = []
    fds = []

    def start(trace, mode):
        master, slave = os.openpty()
        tty.setraw(slave)
        if mode in ("listen", "cut"):
            fakecup_proc.packet_mode(master, True)     # it streams once it sees the host open
        port = os.ttyname(slave)
        p = subprocess.Popen([sys.executable, str(HERE / "fakecup_proc.py"), str(master), str(trace), mode],
                             pass_fds=[master], stderr=subprocess.PIPE)
        os.close(master)
        procs.append(p)
        fds.append(slave)
        return port, p

    yield start
    for p in procs:
        p.kill()
        p.wait()
    for fd in fds:
        os.close(fd)


def test_record_over_a_pty_with_the_repl(fakecup, tmp_path, capsys):
    src = traces.load(SHAKE)
    port, proc = fakecup(SHAKE, "repl")
    out = tmp_path / "rec.txt"
    seconds = len(src.samples) / src.rate_hz
    rc = cli.main(["shake-record", "--port", port, "--seconds", str(seconds), "--out", str(out),
                   "--expect", "roll", "--settled-at-ms", str(src.settled_at_ms), "--kind", "shake-vigorous",
                   "--note", "fake cup"])
    err = capsys.readouterr().err
    assert rc == 0, err + proc.stderr.read1().decode() if proc.poll() is not None else err
    tr = traces.load(out)
    assert (tr.rate_hz, tr.range_g, tr.expect, tr.settled_at_ms) == (100, 8, "roll", src.settled_at_ms)
    assert tr.samples == src.samples                       # every sample, exactly (mg resolution)
    assert tr.meta["kind"] == "shake-vigorous" and tr.meta["source"] == "shake-record"
    assert tr.meta["note"] == "fake cup"
    assert "%d samples at 100 Hz" % len(src.samples) in err and "late=0" in err
    assert "the detector says roll" in err
    # and shake-test agrees with the label
    r = subprocess.run([sys.executable, "-m", "dicecup_host.cli", "shake-test", str(out), "--json"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and json.loads(r.stdout)["correct"] == 1


def test_record_listening_and_settle_found_in_the_data(fakecup, tmp_path, capsys):
    src = traces.load(SHAKE)
    port, _ = fakecup(SHAKE, "listen")
    out = tmp_path / "rec2.txt"
    rc = cli.main(["shake-record", "--port", port, "--listen", "--out", str(out), "--expect", "roll", "--yes"])
    assert rc == 0, capsys.readouterr().err
    tr = traces.load(out)
    # found with 0.05 g on noisy data, labelled with 0.03 g on the clean signal
    assert abs(tr.settled_at_ms - src.settled_at_ms) <= 100
    assert cmd_shake.judge(tr, cmd_shake.run_trace(tr)["rolls"])[1]


def test_record_asks_when_flags_are_missing(fakecup, tmp_path, capsys, monkeypatch):
    port, _ = fakecup(SHAKE, "listen")
    out = tmp_path / "rec3.txt"
    monkeypatch.setattr(sys, "stdin", io.StringIO("maybe\ny\n\n"))    # a bad answer, yes, accept
    assert cli.main(["shake-record", "--port", port, "--listen", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("Was this a roll") == 2 and "came to rest at" in err
    assert traces.load(out).expect == "roll"

    port, _ = fakecup(PEEK, "listen")
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))
    assert cli.main(["shake-record", "--port", port, "--listen", "--out", str(tmp_path / "p.txt")]) == 0
    tr = traces.load(tmp_path / "p.txt")
    assert tr.expect == "none" and tr.settled_at_ms is None
    assert "the detector says none" in capsys.readouterr().err

    port, _ = fakecup(PEEK, "listen")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))                # nobody to answer
    assert cli.main(["shake-record", "--port", port, "--listen", "--out", str(tmp_path / "q.txt")]) == 2
    assert "--expect" in capsys.readouterr().err
    assert not (tmp_path / "q.txt").exists()


def test_record_errors(fakecup, tmp_path, capsys):
    port, _ = fakecup(SHAKE, "silent")
    rc = cli.main(["shake-record", "--port", port, "--listen", "--wait", "0.5", "--out", str(tmp_path / "a.txt"),
                   "--expect", "none"])
    assert rc == 1 and "no recording started" in capsys.readouterr().err
    port, _ = fakecup(SHAKE, "cut")
    rc = cli.main(["shake-record", "--port", port, "--listen", "--wait", "1", "--out", str(tmp_path / "b.txt"),
                   "--expect", "none"])
    assert rc == 1 and "stopped sending" in capsys.readouterr().err
    rc = cli.main(["shake-record", "--port", str(tmp_path / "no-such-port"), "--out", str(tmp_path / "c.txt")])
    assert rc == 2 and "cannot open" in capsys.readouterr().err


class _Acc:
    """Adafruit-style: m/s^2 and a range register code."""
    range = 3
    acceleration = (0.0, -9.806 / 2, 9.806)


class _Cup:
    """dicecup.hw.accel.Accel-style: read() in g, cup frame, rate and range known."""
    rate_hz = 50
    range_g = 4

    def read(self):
        return (0.0125, -0.0004, 1.0)


def test_recorder_output_format():
    buf = io.StringIO()
    assert record.record(_Acc(), seconds=0.03, rate_hz=100, out=buf) == 3
    lines = buf.getvalue().splitlines()
    assert lines[:3] == [record.START, "rate_hz 100", "range_g 16"]
    assert lines[3:6] == ["0 -0.5 1"] * 3
    assert lines[6].startswith(record.STOP + " samples=3 late=")
    buf = io.StringIO()
    record.record(_Cup(), seconds=0.04, out=buf, stop=lambda: True)   # stop() after one sample
    assert buf.getvalue().splitlines()[1:4] == ["rate_hz 50", "range_g 4", "0.013 0 1"] or \
        buf.getvalue().splitlines()[1:4] == ["rate_hz 50", "range_g 4", "0.012 0 1"]
    assert "samples=1 " in buf.getvalue()


def test_recorder_runs_in_micropython(upy):
    r = upy("""
from dicecup.hw import record
class A:
    rate_hz = 100
    range_g = 8
    n = 0
    def read(self):
        self.n += 1
        return (0.001 * self.n, -1.5, 0.98)
a = A()
n = record.record(a, seconds=0.05)
print("N", n)
""")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.decode().splitlines()
    assert lines[0] == record.START and lines[1:3] == ["rate_hz 100", "range_g 8"]
    assert lines[3] == "0.001 -1.5 0.98" and lines[7] == "0.005 -1.5 0.98"
    assert lines[8].startswith(record.STOP + " samples=5 late=") and lines[9] == "N 5"
