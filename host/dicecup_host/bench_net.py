"""`make bench`, radio part: frames and bytes per round, button press to every screen,
recovery from a missed frame — measured in the simulated medium (5 ms links)."""
import json

from dicecup.net.cup import Cup

from .cluster import Cluster

LATENCY_MS = 5


class TimedCup(Cup):
    """A cup that notes when its player pressed (called act) and at which version."""

    presses = None

    def act(self, action, then=None):
        if TimedCup.presses is not None and self.table is not None:
            TimedCup.presses.append((self.now, self.me, self.table.version))
        return Cup.act(self, action, then)


def _applied(c):
    """{(cup index, version): time applied} from every cup's serial log."""
    out = {}
    for sc in c.cups:
        for line in sc.serial:
            rec = json.loads(line)
            if "hex" in rec:
                out[(sc.i, rec["v"])] = rec["t"]
    return out


def measure(cups, rules="perudo", loss=0.0, seed=1, games=3):
    press_lat = []
    recover = []
    frames = bytes_ = rounds = 0
    biggest = 0
    for g in range(games):
        TimedCup.presses = []
        classes = {i: TimedCup for i in range(cups)}
        c = Cluster(cups, rules, seed=seed + g, loss=loss, dup=loss / 5 if loss else 0,
                    reorder=loss / 3 if loss else 0, latency_ms=LATENCY_MS, jitter_ms=0, cup_classes=classes)
        c.setup()
        start_frames, start_bytes = c.medium.stats["frames"], c.medium.stats["bytes"]
        c.run(4 * 3600 * 1000, c.finished)
        frames += c.medium.stats["frames"] - start_frames
        bytes_ += c.medium.stats["bytes"] - start_bytes
        biggest = max(biggest, c.medium.stats["max_frame_bytes"])
        rounds += sum(1 for line in c.cups[0].serial if '"op":"settle"' in line)
        applied = _applied(c)
        master_i = 0
        for t0, me, base in TimedCup.presses:
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
            "press_to_all_ms": _stats(press_lat), "recovery_ms": _stats(recover), "max_frame_bytes": biggest}


def _stats(xs):
    if not xs:
        return None
    xs = sorted(xs)
    return {"median": xs[len(xs) // 2], "p95": xs[int(len(xs) * 0.95)], "max": xs[-1], "n": len(xs)}


def net_section(out, quick=False):
    print("== Table protocol in the simulated medium (%d ms links, perudo, bots in every seat)" % LATENCY_MS)
    games = 1 if quick else 3
    res = {}
    for n in (2, 4, 6):
        r = measure(n, games=games)
        res["cups%d" % n] = r
        print("  %d cups: %6.1f frames and %6.0f bytes on air per round; press -> all screens median %s ms, max %s ms"
              % (n, r["frames_per_round"], r["bytes_per_round"], r["press_to_all_ms"]["median"],
                 r["press_to_all_ms"]["max"]))
    lossy = measure(4, loss=0.3, games=games)
    res["cups4_loss30"] = lossy
    p, rec = lossy["press_to_all_ms"], lossy["recovery_ms"]
    print("  4 cups, 30%% loss: press -> all screens median %d ms, p95 %d ms; missed frame recovered: median %d ms,"
          " p95 %d ms, max %d ms (%d misses)" % (p["median"], p["p95"], rec["median"], rec["p95"], rec["max"], rec["n"]))
    biggest = max(r["max_frame_bytes"] for r in res.values())
    print("  largest frame on air: %d bytes (goal <= 250); press -> all without loss: worst %d ms (goal <= %d ms);"
          " recovery at 30%% loss: max %d ms (goal <= 500 ms)" % (
              biggest, max(r["press_to_all_ms"]["max"] for k, r in res.items() if k != "cups4_loss30"),
              3 * LATENCY_MS, rec["max"]))
    out["net"] = res
