"""`dicecup log` on a real pseudo-terminal, fed by a cup playing a game: the cable is
pulled and put back mid-game, garbage and a torn line come down the wire, and the cup
reboots. Every event the cup wrote is recorded once (those written while unplugged come
back through the cup's resend); what the table did while the cup was off is a named
gap; the replay of the game file re-checks and tells the game; games.db holds the
same events as the file."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from cable import WAIT_S, Cable
from procout import Reader

from dicecup.seriallog import SerialLog
from dicecup_host.cluster import Lines
from dicecup_host import gamelog
from dicecup_host.cluster import Cluster

STEP_MS = 40


class LoggedCup:
    """Cup 1 of the table, its serial log going down the cable (and, as the truth,
    into `wrote`: every line it wrote, plugged or not)."""

    def __init__(self, cluster, cable, i=1):
        self.c, self.cable, self.i = cluster, cable, i
        self.wrote = []
        self.boot_lines = Lines(self.wrote)
        self.log = None
        self.unplugged = []     # (first, last) index in `wrote` written while unplugged
        self.attach()

    def write(self, s):
        self.boot_lines(s)
        self.cable.write(s)

    def attach(self):
        cup = self.c.cups[self.i].cup
        self.log = SerialLog(self.write, cup)
        cup.listen(self.log)
        self.log.hello()

    def serve(self):
        for line in self.cable.requests():
            self.log.heard(line)

    def version(self):
        t = self.c.cups[0].cup.table
        return t.version if t is not None else 0

    def run(self, ms, until=None):
        end = self.c.clock.now + ms
        while self.c.clock.now < end:
            self.c.run(STEP_MS)
            self.serve()
            time.sleep(0.001)
            if (until and until()) or self.c.finished():
                return


def wait_request(cup, timeout=15):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        reqs = cup.cable.requests()
        for r in reqs:
            cup.log.heard(r)
        if any(r.startswith("#dicecup since") for r in reqs):
            return True
        time.sleep(0.02)
    return False


@pytest.mark.heavy
def test_logger_survives_unplug_garbage_and_reboot(tmp_path):
    link = str(tmp_path / "ttyCUP")
    out = str(tmp_path / "games")
    cable = Cable(link)
    cable.plug()
    proc = subprocess.Popen([sys.executable, "-m", "dicecup_host.cli", "log", "--port", link, "--out", out],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    so, se = Reader(proc.stdout), Reader(proc.stderr)
    so.start()
    se.start()
    try:
        assert so.wait_for("logging " + link), se.lines
        c = Cluster(3, "perudo", seed=11)
        cup = LoggedCup(c, cable)
        assert wait_request(cup), "the logger never asked the cup for what it missed"
        c.setup()
        cup.run(3_600_000, lambda: cup.version() >= 25)

        # the cable pulled for ten ops; the cup goes on writing into nothing
        assert cable.drain()
        cable.unplug()
        was = len(cup.wrote)
        cup.run(3_600_000, lambda: cup.version() >= 35)
        missed = cup.wrote[was:]
        assert sum(1 for x in missed if '"i":' in x) >= 10 and cable.lost
        cable.plug()
        assert wait_request(cup), "no request after the replug"
        assert so.wait_for("the port is back")

        # garbage, a torn line, a line of text
        cable.write(b"\xff\xfe\x80\x00garbage\x81\n")
        cable.write('{"k":"bid","tb":4107,"tm":0,\n')
        cable.write("dicecup: a line of text from the cup\n")
        cup.run(3_600_000, lambda: cup.version() >= 50)

        # the cup reboots: off for 2.5 s of the table's time
        sc = c.cups[cup.i]
        sc.power_off()
        cup.run(2500)
        sc.power_on()
        cup.attach()
        cup.run(8 * 3600 * 1000)
        assert c.finished()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not so.wait_for(" wins!", timeout=0.2):
            cup.serve()
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
        cable.close()
    so.join(2)
    se.join(2)

    errs = "\n".join(se.lines)
    assert cable.dropped == 0, "the logger read nothing for %d s: %d bytes dropped" % (WAIT_S, cable.dropped)
    assert "garbage" in errs and "not JSON" in errs, errs
    assert "Traceback" not in errs
    assert any("the cup rebooted" in x for x in so.lines)
    assert any("cup: dicecup: a line of text from the cup" in x for x in so.lines)
    assert any("events recorded in 1 game file" in x for x in so.lines), so.lines[-3:]

    files = sorted(f for f in os.listdir(out) if f.endswith(".jsonl"))
    assert len(files) == 1
    recs = [json.loads(x) for x in open(os.path.join(out, files[0]))]
    keys = [gamelog.key(r) for r in recs]
    assert len(keys) == len(set(keys)), "a duplicated event"

    # every public event the cup wrote, plugged or not, recorded once with its fields
    truth = [json.loads(x) for x in cup.wrote]
    got = dict((gamelog.key(r), r) for r in recs)
    public = [r for r in truth if "i" in r]
    lost = [r for r in public if gamelog.key(r) not in got]
    said = [x for x in so.lines if "**" in x or "recorded in" in x]
    assert not lost, (len(lost), lost[:3], said, se.lines[:10])
    for r in public:
        g = got[gamelog.key(r)]
        assert gamelog._fields(g) == gamelog._fields(r), (g, r)
    assert any(r.get("resent") for r in recs)      # the unplugged ops came back by resend
    # every local event written while plugged in is there too
    gone = set(gamelog.key(json.loads(x)) for x in missed)
    local = [r for r in truth if "i" not in r and r["k"] not in ("hello", "resend")
             and gamelog.key(r) not in gone]
    missing = [r for r in local if gamelog.key(r) not in got]
    assert missing == [], (missing, said, se.lines[:10])

    # the reboot: what the table did while the cup was off is a named gap, nothing else
    gaps = [r for r in recs if r["k"] == "gap"]
    ops = set(r["v"] for r in recs if r["k"] == "op")
    final = c.cups[0].cup.table.version
    covered = ops | set(v for g in gaps for v in range(g["from"], g["to"] + 1))
    snaps = [r for r in recs if r["k"] == "snapshot"]
    held = covered | set(s["v"] for s in snaps)
    assert held >= set(range(min(held), final + 1))    # from the cup's first state (its join) on

    # the replay re-checks what was recorded and tells the same game
    r = subprocess.run([sys.executable, "-m", "dicecup_host.cli", "replay", os.path.join(out, files[0])],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    t = c.cups[0].cup.table
    winner = t.name_of(t.game.winner()) if hasattr(t.game, "winner") else None
    wins = [x for x in r.stdout.splitlines() if x.endswith(" wins!")]
    assert len(wins) == 1
    if winner:
        assert "== %s wins!" % winner in wins[0]

    # the database holds the same events as the file
    db = sqlite3.connect(os.path.join(out, "games.db"))
    rows = set(k for (k,) in db.execute("SELECT key FROM events"))
    assert rows == set(keys)
    (games,) = db.execute("SELECT COUNT(*) FROM games WHERE rules = 'perudo' AND winner IS NOT NULL").fetchone()
    assert games == 1
