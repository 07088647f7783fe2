"""`make bench`, the players: each level's decision time and heap inside the 32-bit
MicroPython with the firmware frozen in, side by side with the baseline's.

Every seat of a 6-cup table (Dix mille: 2) is played by one level over seeded games
(host/dicecup_host/upy/decide.py); each decision is timed with the GC off, and the heap
it allocated meanwhile counted; the decisions that allocated most run again with the
heap filled by ballast to find the least free heap each runs in (`peak`: what a decision
needs at its peak, the GC on). An ESP32 runs MicroPython roughly 20x
slower than this host's 32-bit build (the factor the other 32-bit figures use).
"""
import re

from .mpy import ROOT

UPY = ROOT / "host" / "dicecup_host" / "upy"
LEVELS = ("easy", "normal", "strong", "baseline")
TABLES = (("perudo", '{"calza_anyone": true}', 6), ("menteur", "{}", 6), ("liars", '{"spot_on": true}', 6),
          ("bluff", '{"reroll": true}', 6), ("dixmille", "{}", 2))
_LINE = re.compile(r"--decide-- (.*)")


def decide(level, rules, options="{}", seats=6, games=2):
    """One level's figures at one table: {"n", "median_us", "p99_us", "max_us",
    "max_alloc", "import_alloc", "peak"}, or {"error": one line} when it cannot play there."""
    from . import fw32
    r = fw32.run([UPY / "decide.py", level, rules, str(seats), str(games), options], timeout=1800)
    m = _LINE.search(r.stdout.decode())
    if not m:
        err = r.stderr.decode(errors="replace").strip().splitlines()
        return {"error": err[-1] if err else "no output (exit %d)" % r.returncode}
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m.group(1))}


def players_section(out, quick=False):
    from . import fw32
    why = fw32.check()
    if why:
        print("== Players on the 32-bit frozen MicroPython: not measured (%s)" % why)
        return
    games = 1 if quick else 3
    print("== Players on the 32-bit MicroPython, firmware frozen: per decision, max (median) us, and the"
          " peak heap the most demanding decision needs (%d seeded game(s) per table, every seat the level)" % games)
    print("  %-9s" % "" + "".join("%-26s" % k for k in LEVELS))
    res = {}
    for rules, options, seats in TABLES:
        row = []
        for level in LEVELS:
            f = decide(level, rules, options, seats, games)
            res["%s/%s" % (level, rules)] = f
            row.append("not built" if "error" in f else
                       "%5d (%4d) us %5d B   " % (f["max_us"], f["median_us"], f["peak"]))
        print("  %-9s" % rules + "".join("%-26s" % c for c in row))
    print("  (an ESP32 is roughly 20x slower: the slowest decision above x20)")
    out["players_32bit"] = res
