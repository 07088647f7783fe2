"""The batch runner behind `dicecup sim --headless`: many seeded games of simulated
cups over the simulated medium, each checked for what a table must guarantee."""
import random

from . import batchrun, checker, tally
from .cluster import Cluster

GAME_LIMIT_MS = 8 * 3600 * 1000
REVIVE_MS = (2000, 5000)
KILL_OPS = (4, 60)   # the master dies after this many more ops of play (a random moment)


WHO = ("master", "peer", "half")


def parse_partition(text):
    """`WHO:MS@AT` -> (who, ms, at); ValueError with a message a user can act on."""
    try:
        who, rest = text.split(":", 1)
        ms, at = rest.split("@", 1)
        ms, at = int(ms), int(at)
    except ValueError:
        raise ValueError("--partition %r: write WHO:MS@AT, e.g. master:5000@20000" % text)
    if who not in WHO:
        raise ValueError("--partition %r: WHO is one of %s" % (text, ", ".join(WHO)))
    if ms <= 0 or at < 0:
        raise ValueError("--partition %r: MS must be > 0 and AT >= 0" % text)
    return who, ms, at


def cut_off(c, who):
    """The cups (indices) a partition of `who` cuts off from the rest, now."""
    on = [sc.i for sc in c.cups if sc.on]
    m = c.master()
    master = m.i if m is not None else on[0]
    if who == "master":
        return [master]
    if who == "peer":
        return [[i for i in on if i != master][-1]]
    side = [master] + [i for i in on if i != master][:(len(on) - 1) // 2]
    return side


def _partition(c, who, ms, log):
    side = cut_off(c, who)
    c.medium.partition([[c.cups[i].addr for i in side]])
    log.append((c.clock.now, who, side))
    c.clock.call_later(ms, c.medium.heal)


def play_one(cups, rules, options, seed, loss=0.0, dup=0.0, reorder=0.0, kill_master=False, bots=0,
             latency_ms=5, cup_classes=None, shake_ms=0, players=None, record=False, waits=None, partitions=()):
    """Play game `seed`; returns (cluster, facts dict). `partitions`: (who, ms, at) --
    cut `who` off for `ms` at `at` ms after the game starts."""
    c = Cluster(cups, rules, options, seed=seed, loss=loss, dup=dup, reorder=reorder, bots=bots,
                latency_ms=latency_ms, cup_classes=cup_classes, shake_ms=shake_ms, players=players,
                record=record, waits=waits)
    c.setup()
    cuts = []
    for who, ms, at in partitions:
        c.clock.call_later(at, _partition, c, who, ms, cuts)
    if kill_master:
        r = random.Random(seed ^ 0x5EED)
        host = c.cups[0].cup
        at = host.table.version + r.randrange(*KILL_OPS)
        down_for = r.randrange(*REVIVE_MS)
        c.run(GAME_LIMIT_MS, lambda: c.finished() or host.table.version >= at)
        if not c.finished():
            victim = c.master()
            if victim is not None:
                victim.power_off()
                c.run(down_for, c.finished)
                victim.power_on()
    finished = c.run(GAME_LIMIT_MS - c.clock.now, c.finished)
    return c, {"finished": bool(finished), "failovers": len(_public(c, ("master",))), "partitions": cuts}


def _add(total, counts, finished, ok, failovers, leaks):
    """One game into the summary's totals."""
    total["games"] += 1
    total["finished"] += finished
    total["consistent"] += bool(ok and finished)
    total["failovers"] += failovers
    total["hidden_leaks"] += len(leaks)
    for k in ("frames", "dropped", "retransmits", "races", "away"):
        total[k] += counts[k]
    for k in ("max_frame_bytes", "max_frames_per_s"):
        total[k] = max(total[k], counts[k])


def _public(c, kinds):
    """The public events of these kinds any cup logged, each once."""
    out = {}
    for sc in c.cups:
        for rec in checker.events(sc.serial, kinds):
            out[(rec["tb"], rec["tm"], rec["v"], rec["i"])] = rec
    return list(out.values())


def check_game(c, reference=None, skip=(), final=True):
    """Consistency: every live cup holds the same final state, each cup's log re-checks,
    and (when given) the state equals the reference run's. Returns (ok, reasons).
    `skip`: cups (indices) left out, e.g. an adversary's (dicecup_host/attacks.py).
    `final=False`: a table stopped while still playing -- ops in flight, so only the
    logs and the one history are checked, not that the replicas end alike."""
    reasons = []
    cups = [sc for sc in c.cups if sc.i not in skip]
    states = [sc.cup.table.snapshot() for sc in cups if sc.on and sc.cup.table is not None]
    if final and len(set(states)) != 1:
        reasons.append("cups disagree on the final state")
    for sc in cups:
        if not sc.on:
            continue
        try:
            t = checker.recheck(sc.serial)
        except checker.LogError as e:
            reasons.append("log of cup %d: %s" % (sc.i, e))
            continue
        if final and sc.cup.table is not None and t.snapshot() != sc.cup.table.snapshot():
            reasons.append("log of cup %d rebuilds another state" % sc.i)
    if reference is not None and states and states[0] != reference:
        reasons.append("final state differs from the reference run")
    # one history: every op and every snapshot at a version is the same on every cup
    reasons += checker.crosscheck(dict((sc.i, sc.serial) for sc in cups))[:5]
    return not reasons, reasons


def game_counts(c):
    st = c.medium.stats
    out = {"frames": st["frames"], "dropped": st["dropped"], "max_frame_bytes": st["max_frame_bytes"],
           "retransmits": 0, "races": 0, "away": len(_public(c, ("away",))),
           "max_frames_per_s": c.medium.max_frames_per_s()}
    for sc in c.cups:
        out["retransmits"] += sc.cup.counts["retransmits"]
        out["races"] += sc.cup.counts["races"]
    return out


SUMMARY = ("games", "finished", "consistent", "races", "failovers", "frames", "dropped", "retransmits",
           "max_frame_bytes", "hidden_leaks", "away", "max_frames_per_s")


def run_batch(cups, rules, options, games, seed, loss=0.0, kill_master=False, bots=0, game_index=None,
              trace=None, report=None, shake_ms=0, partitions=(), attacks=(), attack_limit_ms=None):
    """Play and check games; returns the summary dict. `attacks`: kinds
    (dicecup_host/attacks.py): every game is played once per kind, with one seat an
    adversary trying it, and the summary gains "attacks"."""
    if attacks:
        return _attack_batch(cups, rules, options, games, seed, loss, bots, game_index, trace, report, shake_ms,
                             attacks, attack_limit_ms)
    dup = loss / 5 if loss else 0.0
    reorder = loss / 3 if loss else 0.0
    total = tally.empty(dict((k, 0) for k in SUMMARY), cups + bots)
    indices = [game_index] if game_index is not None else range(games)
    batch = batchrun.Batch(indices)
    with batch:
        for i in batch:
            s = seed + i
            c, facts = play_one(cups, rules, options, s, loss, dup, reorder, kill_master, bots, shake_ms=shake_ms,
                                partitions=partitions)
            ok, reasons = check_game(c)
            counts = game_counts(c)
            raced = counts["races"] > 0
            if ok and not kill_master and not partitions and not raced and loss:
                # the same seed without loss must end alike: only a lossy game needs the second run
                ref, _ = play_one(cups, rules, options, s, bots=bots, shake_ms=shake_ms)
                ref_states = [sc.cup.table.snapshot() for sc in ref.cups if sc.on]
                if ref_states and ref_states[0] != c.cups[0].cup.table.snapshot():
                    ok = False
                    reasons.append("final state differs from the reference run (no loss)")
            leaks = checker.hidden_leaks(c.medium.trace, {sc.i: sc.serial for sc in c.cups})
            with batch.counting():
                _add(total, counts, facts["finished"], ok, facts["failovers"], leaks)
                tally.add(total, tally.game_facts(sc.serial for sc in c.cups))
            if report is not None:
                status = "ok" if ok and facts["finished"] and not leaks else "FAIL"
                report("game %d (seed %d): %s, %d frames, %d dropped, %d retransmits, %d failovers, %d away, "
                       "at most %d frames/s%s" % (
                           i, s, status, counts["frames"], counts["dropped"], counts["retransmits"],
                           facts["failovers"], counts["away"], counts["max_frames_per_s"],
                           "".join("; " + r for r in reasons + leaks[:3])))
            if trace and game_index is not None:
                c.medium.save_trace(trace)
    total["interrupted"] = batch.interrupted
    return tally.done(total)


def _numbers(details, prefix=""):
    """(name, number) for what an attack's details hold: numbers and flags as they are,
    lists by their length, dicts by their entries (name.key), a text as 1, None as 0."""
    out = []
    for k, v in details.items():
        if isinstance(v, dict):
            out += _numbers(v, prefix + k + ".")
        elif isinstance(v, (list, tuple, set)):
            out.append((prefix + k, len(v)))
        elif isinstance(v, (bool, int, float)):
            out.append((prefix + k, int(v) if isinstance(v, bool) else v))
        else:
            out.append((prefix + k, 0 if v is None else 1))
    return out


def _attack_batch(cups, rules, options, games, seed, loss, bots, game_index, trace, report, shake_ms, kinds,
                  limit_ms):
    """Games with an adversary: the summary's usual figures are the honest cups' (the
    adversary's own state and frames left out), and "attacks" has per kind how often it
    was tried and how often it succeeded (judged from the honest side), the games
    played, the games the honest cups did not finish (stalled) and those whose honest
    checks failed."""
    from . import attacks as atk
    total = tally.empty(dict((k, 0) for k in SUMMARY), cups + bots)
    total["attacks"] = dict((k, {"tried": 0, "succeeded": 0, "games": 0, "stalled": 0, "honest_failed": 0})
                            for k in kinds)
    indices = [game_index] if game_index is not None else range(games)
    batch = batchrun.Batch(indices)
    with batch:
        for i in batch:
            s = seed + i
            for kind in kinds:
                r = atk.play_attack(kind, cups, rules, options, s, limit_ms=limit_ms or atk.LIMIT_MS, loss=loss,
                                    bots=bots, shake_ms=shake_ms)
                c = r["cluster"]
                adv = r["attack"]
                honest = set(c.cups[j].addr for j in adv.honest)
                air = [rec for rec in c.medium.trace if rec[3] in honest and rec[2] not in adv.air.spoofed]
                leaks = checker.hidden_leaks(air, dict((j, c.cups[j].serial) for j in adv.honest))
                counts = game_counts(c)
                with batch.counting():
                    a = total["attacks"][kind]
                    a["games"] += 1
                    a["tried"] += r["tried"]
                    a["succeeded"] += r["succeeded"]
                    a["stalled"] += not r["finished"]
                    a["honest_failed"] += not r["honest_ok"]
                    for dk, dv in _numbers(r["details"]):   # what a kind measures besides (numbers, flags, counts)
                        a[dk] = max(a.get(dk, 0), dv) if dk.startswith("max_") else a.get(dk, 0) + dv
                    _add(total, counts, r["finished"], r["honest_ok"], len(_public(c, ("master",))), leaks)
                    tally.add(total, tally.game_facts(c.cups[j].serial for j in adv.honest))
                if report is not None:
                    report("game %d (seed %d), attack %s: tried %d, succeeded %d; honest cups %s%s%s" % (
                        i, s, kind, r["tried"], r["succeeded"], "finished" if r["finished"] else "STALLED",
                        ", checks ok" if r["honest_ok"] else ", checks FAIL",
                        "".join("; " + x for x in r["reasons"][:3] + leaks[:2])))
                if trace and game_index is not None and len(kinds) == 1:
                    c.medium.save_trace(trace)
    total["interrupted"] = batch.interrupted
    return tally.done(total)
