"""The batch runner behind `dicecup sim --headless`: many seeded games of simulated
cups over the simulated medium, each checked for what a table must guarantee."""
import json
import random
import sys

from dicecup.net import table as tbl

from . import checker
from .cluster import Cluster

GAME_LIMIT_MS = 4 * 3600 * 1000
REVIVE_MS = (2000, 5000)


def play_one(cups, rules, options, seed, loss=0.0, dup=0.0, reorder=0.0, kill_master=False, bots=0,
             latency_ms=5, cup_classes=None):
    """Play game `seed`; returns (cluster, facts dict)."""
    c = Cluster(cups, rules, options, seed=seed, loss=loss, dup=dup, reorder=reorder, bots=bots,
                latency_ms=latency_ms, cup_classes=cup_classes)
    c.setup()
    failovers = 0
    if kill_master:
        # the same game without the kill is the same game up to the kill: learn its
        # length from it, so the master dies at a random moment while play is on
        dry, _ = play_one(cups, rules, options, seed, loss, dup, reorder, False, bots, latency_ms, cup_classes)
        start = c.clock.now
        length = max(dry.clock.now - start, 2000)
        r = random.Random(seed ^ 0x5EED)
        kill_at = start + length * (5 + r.randrange(85)) // 100
        down_for = r.randrange(*REVIVE_MS)
        c.run(kill_at - c.clock.now, c.finished)
        if not c.finished():
            victim = c.master()
            if victim is not None:
                victim.power_off()
                c.run(down_for, c.finished)
                victim.power_on()
    finished = c.run(GAME_LIMIT_MS - c.clock.now, c.finished)
    masters = set()
    for sc in c.cups:
        for line in sc.serial:
            if '"op":"master"' in line:
                masters.add(json.loads(line)["v"])
    failovers = len(masters)
    return c, {"finished": bool(finished), "failovers": failovers}


def check_game(c, reference=None):
    """Consistency: every live cup holds the same final state, each cup's log re-checks,
    and (when given) the state equals the reference run's. Returns (ok, reasons)."""
    reasons = []
    states = [sc.cup.table.snapshot() for sc in c.cups if sc.on and sc.cup.table is not None]
    if len(set(states)) != 1:
        reasons.append("cups disagree on the final state")
    for sc in c.cups:
        if not sc.on:
            continue
        try:
            t = checker.recheck(sc.serial)
        except checker.LogError as e:
            reasons.append("log of cup %d: %s" % (sc.i, e))
            continue
        if sc.cup.table is not None and t.snapshot() != sc.cup.table.snapshot():
            reasons.append("log of cup %d rebuilds another state" % sc.i)
    if reference is not None and states and states[0] != reference:
        reasons.append("final state differs from the reference run")
    return not reasons, reasons


def game_counts(c):
    st = c.medium.stats
    out = {"frames": st["frames"], "dropped": st["dropped"], "max_frame_bytes": st["max_frame_bytes"],
           "retransmits": 0, "races": 0}
    for sc in c.cups:
        out["retransmits"] += sc.cup.counts["retransmits"]
        out["races"] += sc.cup.counts["races"]
    return out


def run_batch(cups, rules, options, games, seed, loss=0.0, kill_master=False, bots=0, game_index=None,
              trace=None, report=None):
    """Play and check games; returns the summary dict."""
    dup = loss / 5 if loss else 0.0
    reorder = loss / 3 if loss else 0.0
    total = {"games": 0, "finished": 0, "consistent": 0, "races": 0, "failovers": 0, "frames": 0,
             "dropped": 0, "retransmits": 0, "max_frame_bytes": 0, "hidden_leaks": 0}
    indices = [game_index] if game_index is not None else range(games)
    for i in indices:
        s = seed + i
        c, facts = play_one(cups, rules, options, s, loss, dup, reorder, kill_master, bots)
        ok, reasons = check_game(c)
        counts = game_counts(c)
        raced = counts["races"] > 0
        if ok and not kill_master and not raced:
            ref, _ = play_one(cups, rules, options, s, bots=bots)
            ref_states = [sc.cup.table.snapshot() for sc in ref.cups if sc.on]
            if ref_states and ref_states[0] != c.cups[0].cup.table.snapshot():
                ok = False
                reasons.append("final state differs from the reference run (no loss)")
        leaks = checker.hidden_leaks(c.medium.trace, {sc.i: sc.serial for sc in c.cups})
        total["games"] += 1
        total["finished"] += facts["finished"]
        total["consistent"] += bool(ok and facts["finished"])
        total["failovers"] += facts["failovers"]
        total["hidden_leaks"] += len(leaks)
        for k in ("frames", "dropped", "retransmits", "races"):
            total[k] += counts[k]
        total["max_frame_bytes"] = max(total["max_frame_bytes"], counts["max_frame_bytes"])
        if report is not None:
            status = "ok" if ok and facts["finished"] and not leaks else "FAIL"
            report("game %d (seed %d): %s, %d frames, %d dropped, %d retransmits, %d failovers%s" % (
                i, s, status, counts["frames"], counts["dropped"], counts["retransmits"], facts["failovers"],
                "".join("; " + r for r in reasons + leaks[:3])))
        if trace and game_index is not None:
            c.medium.save_trace(trace)
    return total
