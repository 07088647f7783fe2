"""`make bench`, radio part: frames and bytes per round, button press to every screen,
recovery from a missed frame -- measured in the simulated medium (5 ms links), from
listeners on the cups' events (nothing parses log text) -- plus the frame ceiling,
a human-paced table and the cost of a frame's tag."""
import time

from dicecup.autoplay import Autoplayer
from dicecup.net import wire

from .cluster import Cluster

LATENCY_MS = 5


class TimedPlayer(Autoplayer):
    """An autoplayer that notes when it pressed (an action went to the master)."""

    def __init__(self, rng, presses, **kw):
        Autoplayer.__init__(self, rng, **kw)
        self.presses = presses

    def step(self, cup, now):
        before = cup.busy()
        due = Autoplayer.step(self, cup, now)
        if not before and cup.seat_part.busy():
            self.presses.append((now, cup.me, cup.table.version))
        return due


def measure(cups, rules="perudo", loss=0.0, seed=1, games=3, shake_ms=0):
    press_lat = []
    recover = []
    frames = bytes_ = rounds = 0
    biggest = 0
    by_type = {}   # frame type -> its largest on air
    fps = 0
    for g in range(games):
        presses = []
        players = dict((i, lambda sc, rng: TimedPlayer(rng, presses, shake_ms=shake_ms)) for i in range(cups))
        c = Cluster(cups, rules, seed=seed + g, loss=loss, dup=loss / 5 if loss else 0,
                    reorder=loss / 3 if loss else 0, latency_ms=LATENCY_MS, jitter_ms=0, players=players,
                    shake_ms=shake_ms)
        applied = {}   # (cup index, version) -> when that cup applied it
        settles = [0]

        def ready():
            for sc in c.cups:
                def note(ev, i=sc.i):
                    if ev.kind == "op":
                        applied[(i, ev.version)] = ev.t
                        if i == 0 and ev["op"] == "settle":
                            settles[0] += 1
                sc.cup.listen(note)
        c.setup(ready)
        start_frames, start_bytes = c.medium.stats["frames"], c.medium.stats["bytes"]
        c.run(8 * 3600 * 1000, c.finished)
        frames += c.medium.stats["frames"] - start_frames
        bytes_ += c.medium.stats["bytes"] - start_bytes
        biggest = max(biggest, c.medium.stats["max_frame_bytes"])
        for rec in c.medium.trace:
            if rec[0] == "tx" and len(rec[7]) > wire.HEADER:
                name = wire.TYPES[rec[7][1]][0] if 0 < rec[7][1] < len(wire.TYPES) else "?"
                by_type[name] = max(by_type.get(name, 0), len(rec[7]))
        fps = max(fps, c.medium.max_frames_per_s())
        rounds += settles[0]
        master_i = 0
        for t0, me, base in presses:
            v = base + 1
            times = [applied.get((sc.i, v)) for sc in c.cups]
            if None not in times and c.cups[master_i].cup.me != me:
                press_lat.append(max(times) - t0)
        first = {}
        for (i, v), t in applied.items():
            if i == master_i:
                first[v] = t
        for (i, v), t in applied.items():
            if i != master_i and v in first:
                delay = t - first[v]
                if delay > LATENCY_MS:  # the first copy did not make it
                    recover.append(delay)
    return {"frames_per_round": frames / max(rounds, 1), "bytes_per_round": bytes_ / max(rounds, 1),
            "press_to_all_ms": _stats(press_lat), "recovery_ms": _stats(recover), "max_frame_bytes": biggest,
            "max_by_type": by_type,
            "max_frames_per_s": fps}


def _stats(xs):
    if not xs:
        return None
    xs = sorted(xs)
    return {"median": xs[len(xs) // 2], "p95": xs[int(len(xs) * 0.95)], "max": xs[-1], "n": len(xs)}


def tags_per_second(repeats=5, n=2000):
    """HMAC tags made per second for a typical frame (a bid's UPDATE), cached pads
    against the pads made per frame (what the cups did before)."""
    key = wire.Key(bytes(range(32)))
    msg = bytes(40)
    best_cached = best_fresh = 0.0
    k0 = b"k" * 32
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(n):
            key.tag(msg)
        best_cached = max(best_cached, n / (time.perf_counter() - t))
        t = time.perf_counter()
        for _ in range(n):
            wire.Key(k0).tag(msg)
        best_fresh = max(best_fresh, n / (time.perf_counter() - t))
    return best_cached, best_fresh


def sim_rates(cups, loss, games, seed=1):
    """`dicecup sim --headless --drive engine --shake-delay 0` as a user runs it (the
    checks and, at a lossy radio, the reference run included): games per second of
    wall time and frames on air per round."""
    from . import simrun
    t = time.perf_counter()
    total = simrun.run_batch(cups, "perudo", None, games, seed, loss=loss, shake_ms=0)
    wall = time.perf_counter() - t
    rounds = total["rounds"] * total["games"]
    return {"games_per_s": total["games"] / wall, "frames_per_round": total["frames"] / max(rounds, 1),
            "finished": total["finished"], "games": total["games"], "wall_s": wall}


def sim_rate_section(out, quick=False):
    from .bench import _best_rate, full_games
    games = 2 if quick else 6
    print("== Headless simulated games (perudo, --drive engine --shake-delay 0; the batch's checks included)")
    res = {}
    for n in (2, 4, 6):
        for loss in (0.0, 0.3):
            r = sim_rates(n, loss, games)
            res["cups%d_loss%d" % (n, loss * 100)] = r
            print("  %d cups, %2d%% loss: %6.2f games/s, %5.1f frames per round (%d of %d games finished)" % (
                n, loss * 100, r["games_per_s"], r["frames_per_round"], r["finished"], r["games"]))
    peer = {n: _best_rate(full_games("perudo", n), 20 if quick else 50, 3) for n in (2, 4, 6)}
    res["engine_alone_games_per_s"] = peer
    print("  peer, the engine alone (random legal moves, no cups, no radio): %s games/s" % ", ".join(
        "%d seats %.0f" % (n, peer[n]) for n in (2, 4, 6)))
    out["sim_rates"] = res


def net_section(out, quick=False):
    print("== Table protocol in the simulated medium (%d ms links, perudo, bots in every seat)" % LATENCY_MS)
    games = 1 if quick else 3
    res = {}
    for n in (2, 4, 6):
        r = measure(n, games=games)
        res["cups%d" % n] = r
        print("  %d cups: %6.1f frames and %6.0f bytes on air per round; press -> all screens median %s ms, max %s ms;"
              " at most %d frames/s from one cup" % (n, r["frames_per_round"], r["bytes_per_round"],
                                                    r["press_to_all_ms"]["median"], r["press_to_all_ms"]["max"],
                                                    r["max_frames_per_s"]))
    lossy = measure(4, loss=0.3, games=games)
    res["cups4_loss30"] = lossy
    p, rec = lossy["press_to_all_ms"], lossy["recovery_ms"]
    print("  4 cups, 30%% loss: press -> all screens median %d ms, p95 %d ms; missed frame recovered: median %d ms,"
          " p95 %d ms, max %d ms (%d misses); at most %d frames/s from one cup" % (
              p["median"], p["p95"], rec["median"], rec["p95"], rec["max"], rec["n"], lossy["max_frames_per_s"]))
    human = measure(4, games=games, shake_ms=10000)
    res["cups4_human"] = human
    print("  4 cups at human pace (every shake 10 s after the cup asks): %6.1f frames and %6.0f bytes per round"
          % (human["frames_per_round"], human["bytes_per_round"]))
    six = measure(6, loss=0.3, games=games)
    res["cups6_loss30"] = six
    print("  6 cups, 30%% loss: at most %d frames/s from one cup (ceiling: 92)" % six["max_frames_per_s"])
    biggest = max(r["max_frame_bytes"] for r in res.values())
    print("  largest frame on air: %d bytes (goal <= 250); press -> all without loss: worst %d ms (goal <= %d ms);"
          " recovery at 30%% loss: max %d ms (goal <= 500 ms)" % (
              biggest, max(r["press_to_all_ms"]["max"] for k, r in res.items() if k in ("cups2", "cups4", "cups6")),
              6 * LATENCY_MS, rec["max"]))
    big = {}
    for r in res.values():
        for k, v in r.get("max_by_type", {}).items():
            big[k] = max(big.get(k, 0), v)
    print("  largest by type: %s (a broadcast carries a 6-byte tag per other member and a mask byte:"
          " 31 bytes with six members, a unicast 7)" % ", ".join(
              "%s %d" % (k, big[k]) for k in ("update", "snap", "action", "heart", "challenge") if k in big))
    cached, fresh = tags_per_second(3 if quick else 5)
    res["tags_per_s"] = {"cached_pads": cached, "pads_per_frame": fresh}
    print("  HMAC-SHA256 tags (CPython): %.0f /s with the key's pads kept, %.0f /s making them per frame (%.1fx)"
          % (cached, fresh, cached / fresh))
    out["net"] = res
