"""`make bench`: the figures in the README, measured side by side with a peer.

Not a test: rates depend on the machine. Each rate is the best of several interleaved
runs, so a busy neighbour slows both sides alike rather than one; the fair OpenSpiel
pairs (fair_playouts / peer_playouts) are the median of many short interleaved pairs
in CPU time, with their spread.
"""
import json
import random
import re
import sys
import time
from pathlib import Path

from dicecup.engine import new_game

from . import mpy

UPY = Path(__file__).parent / "upy"
BLUFFING = ("liars", "perudo", "bluff", "menteur")


def _best_rate(fn, n, repeats):
    """Best of `repeats` timings of fn(n), as runs per second."""
    best = 0.0
    for _ in range(repeats):
        t = time.perf_counter()
        fn(n)
        rate = n / (time.perf_counter() - t)
        best = max(best, rate)
    return best


def _cpu_rate(fn, n):
    """fn(n) timed in this process's CPU time, as runs per second: on a shared machine a
    neighbour that takes the core away does not count against whichever side ran then."""
    t = time.process_time()
    fn(n)
    return n / max(time.process_time() - t, 1e-9)


def round_playouts(rules):
    """One round of 2 seats x 5 dice: dice rolled at random, then a uniformly random
    legal action at each decision until the call, then the settlement."""
    rng = random.Random(1)
    rr = rng.randrange

    def run(n):
        for _ in range(n):
            g = new_game(rules, 2, opener=rr(2))
            random_round(g, [[rr(6) + 1 for _ in range(5)], [rr(6) + 1 for _ in range(5)]], rr)
    return run


def random_round(g, hands, rr):
    """One round through the cups' own legal/apply: a uniformly random legal action at
    each decision until the call, then the settlement with `hands`."""
    g.start_round()
    while g.phase == 1:
        s = g.to_act()
        acts = g.legal(s)
        g.apply(s, acts[rr(len(acts))])
    g.settle(hands)


def fair_playouts(copy=False):
    """Liar's dice, 2 seats x 5 dice, driven as OpenSpiel's liars_dice is in
    peer_playouts: the same work per playout on both sides -- ten dice drawn with
    rr(6), seat 0 opens (the peer's rule), one legal list and one uniformly random pick
    per decision, the round ended by settle (the peer: returns()). With `copy`, the game
    is copied before every decision, as a search does (ours g.copy(), the peer clone())."""
    rng = random.Random(1)
    rr = rng.randrange

    def run(n):
        for _ in range(n):
            g = new_game("liars", 2, opener=0)
            hands = [[rr(6) + 1 for _ in range(5)], [rr(6) + 1 for _ in range(5)]]
            g.start_round()
            s = g.to_act()
            while s is not None:
                if copy:
                    g = g.copy()
                acts = g.legal(s)
                g.apply(s, acts[rr(len(acts))])
                s = g.to_act()
            g.settle(hands)
    return run


def peer_playouts(copy=False):
    """OpenSpiel's C++ liars_dice (numdice=5) from Python: each die dealt as an action
    on the chance node, then as fair_playouts; None when pyspiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("liars_dice", {"numdice": 5})
    rng = random.Random(1)
    rr = rng.randrange

    def run(n):
        for _ in range(n):
            st = game.new_initial_state()
            for _ in range(10):
                st.apply_action(rr(6))
            while not st.is_terminal():
                if copy:
                    st = st.clone()
                acts = st.legal_actions()
                st.apply_action(acts[rr(len(acts))])
            st.returns()
    return run


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def full_games(rules, seats):
    """Whole games with random legal actions in every seat."""
    rng = random.Random(2)
    rr = rng.randrange

    def run(n):
        for _ in range(n):
            g = new_game(rules, seats, rng=rng)
            while g.winner() is None:
                random_round(g, [[rr(6) + 1 for _ in range(g.hidden(s))] for s in range(g.n)], rr)
    return run


def heap_game(rules, seats, seed, heap=mpy.ESP32_HEAP, measure=True):
    """Run upy/heapgame.py inside MicroPython; its figures as a dict (None if it failed)."""
    args = [str(UPY / "heapgame.py"), rules, str(seats), str(seed)] + ([] if measure else ["0"])
    res = mpy.run(args, heap=heap)
    if res.returncode != 0:
        return None
    return {k: int(v) for k, v in re.findall(r"(\w+)=(-?\d+)", res.stdout.decode())}


def smallest_heap(rules, seats, seed):
    """Smallest -X heapsize (KB) in which the game still completes (binary search)."""
    lo, hi = 4, 110
    while lo < hi:
        mid = (lo + hi) // 2
        if heap_game(rules, seats, seed, heap="%dK" % mid, measure=False):
            hi = mid
        else:
            lo = mid + 1
    return lo


def engine_section(out, quick=False):
    n = 2000 if quick else 20000
    repeats = 3 if quick else 7
    print("== Engine: random playouts of one round, 2 seats x 5 dice (CPython %s)" % sys.version.split()[0])
    runs = {r: round_playouts(r) for r in BLUFFING}
    rates = {r: [] for r in BLUFFING}
    pairs = {"plain": (fair_playouts(), peer_playouts()), "copy": (fair_playouts(True), peer_playouts(True))}
    fair = {k: ([], []) for k in pairs}
    for _ in range(repeats):  # interleave, so load hits both sides alike
        for r in BLUFFING:
            rates[r].append(_best_rate(runs[r], n, 1))
    for _ in range(3 * repeats):  # short runs, ours then the peer's, each ratio a pair
        for k, (ours, peer) in pairs.items():
            if peer:
                fair[k][0].append(_cpu_rate(ours, n // 4))
                fair[k][1].append(_cpu_rate(peer, n // 4))
    for r in BLUFFING:
        print("  dicecup %-8s %9.0f playouts/s (median of %d)" % (r, _median(rates[r]), repeats))
    out["playouts_per_s"] = {r: round(_median(rates[r])) for r in BLUFFING}
    out["fair"] = {}
    for k, (ours, peer) in fair.items():
        if not peer:
            print("  OpenSpiel not installed (pip install open-spiel==2.0.2): no peer figure")
            break
        ratios = [a / b for a, b in zip(ours, peer)]
        print("  fair %-5s liars %9.0f vs OpenSpiel %9.0f playouts/s (CPU time): ours/peer median %.2fx"
              " (%d pairs %.2f-%.2f)" % (k, _median(ours), _median(peer), _median(ratios), len(ratios),
                                        min(ratios), max(ratios)))
        out["fair"][k] = {"ours": round(_median(ours)), "peer": round(_median(peer)),
                          "ratio_median": round(_median(ratios), 3),
                          "ratio_min": round(min(ratios), 3), "ratio_max": round(max(ratios), 3)}
    games = _best_rate(full_games("perudo", 6), 100 if quick else 500, repeats)
    print("  full 6-player perudo games    %9.0f games/s" % games)
    out["perudo6_games_per_s"] = round(games)


def micropython_section(out, quick=False):
    print("== Engine inside MicroPython (unix port, -X heapsize=%s; 64-bit words, so an ESP32 needs less)" % mpy.ESP32_HEAP)
    sizes = mpy.sizes()
    total = sum(sizes.values())
    print("  engine .mpy total             %9d bytes (%d modules; goal < 24576)" % (total, len(sizes)))
    out["engine_mpy_bytes"] = total
    rows = {}
    for r in BLUFFING + ("dixmille",):
        figs = heap_game(r, 6, 1)
        rows[r] = figs
        print("  %-8s 6 seats: heap after import %6d B, peak above it %6d B, largest state %3d B" % (
            r, figs["base"], figs["peak"], figs["state"]))
    out["heap"] = rows
    stack = mpy.run([str(UPY / "stackheap.py")], heap="256K")
    figs = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", stack.stdout.decode())}
    if figs:
        print("  protocol stack as .mpy: imports %d B, one master cup with 5 bots %d B "
              "(frozen into the firmware on an ESP32 without PSRAM: firmware/manifest.py)" % (figs["import"], figs["cup"]))
        out["protocol_heap"] = figs
    low = smallest_heap("perudo", 6, 1)
    print("  smallest heap a 6-player perudo game completes in: %d KB" % low)
    out["perudo6_min_heap_kb"] = low
    worst = max(f["peak"] for f in rows.values())
    print("  goals: peak above import < 16384 B -> worst %d B; state < 64 B -> largest %d B" % (
        worst, max(f["state"] for f in rows.values())))


def logheap(mode, lines):
    """Run upy/logheap.py in the 32-bit frozen MicroPython; its mem_info, or None when
    it ran out of memory."""
    from . import fw32
    res = fw32.run([UPY / "logheap.py", mode, str(lines)], timeout=1800)
    if res.returncode != 0:
        return None
    return fw32.mem_info(res.stdout)


def fw32_section(out, quick=False):
    from . import fw32
    why = fw32.check()
    if why:
        print("== 32-bit frozen MicroPython: not measured (%s)" % why)
        return
    print("== Serial log on the 32-bit MicroPython with the firmware frozen in (-X heapsize=%s): a master"
          " with 5 bots" % mpy.ESP32_HEAP)
    res = {}
    for mode, what in (("stream", "the log written in pieces (now)"), ("list", "a list of characters per line (before)")):
        m = logheap(mode, 1000)
        res[mode] = m and {"free": m["free"], "max_free": m["max_free"]}
        print("  after 1,000 lines, %-40s free %6s B, largest free block %5s B" % (
            what, m and m["free"], m and m["max_free"]))
    long = 3000 if quick else 10000
    for mode in ("stream", "list"):
        m = logheap(mode, long)
        res["%s_%d" % (mode, long)] = m and m["max_free"]
        print("  %s writer, %d lines: %s" % (mode, long, "ran out of memory (MemoryError)" if m is None else
                                               "fine, largest free block %d B" % m["max_free"]))
    out["log_heap_32bit"] = res
    r = fw32.run([UPY / "tagrate.py"])
    figs = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", r.stdout.decode())}
    if figs:
        print("  HMAC-SHA256 tags per second: %d with the key's pads kept, %d making them per frame (%.1fx);"
              " an ESP32 is roughly 20x slower" % (figs["kept"], figs["fresh"], figs["kept"] / figs["fresh"]))
        out["tags_per_s_32bit"] = figs
    r = fw32.run([UPY / "joincost.py"], timeout=300)
    figs = {k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", r.stdout.decode())}
    if figs:
        print("  a CPace join (JOIN to the joiner's replica): master %.0f ms, joiner %.0f ms, %d frames, largest %d B;"
              " one pairwise key %.1f ms; a broadcast's 5 tags %.2f ms (ESP32 roughly 20x: master ~%.1f s,"
              " joiner ~%.1f s, a pair key ~%.0f ms)"
              % (figs["master_ms"], figs["joiner_ms"], figs["frames"], figs["largest"], figs["pair_ms"],
                 figs["broadcast_ms"], figs["master_ms"] * 20 / 1000, figs["joiner_ms"] * 20 / 1000,
                 figs["pair_ms"] * 20))
        out["join_cost_32bit"] = figs


def main(argv=None):
    quick = "--quick" in (argv or sys.argv[1:])
    out = {}
    engine_section(out, quick)
    micropython_section(out, quick)
    from . import bench_net
    bench_net.net_section(out, quick)
    bench_net.sim_rate_section(out, quick)
    fw32_section(out, quick)
    from . import bench_players
    bench_players.players_section(out, quick)
    from . import bench_app
    bench_app.app_section(out, quick)
    path = mpy.ROOT / "build" / "bench.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1))
    print("figures written to %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
