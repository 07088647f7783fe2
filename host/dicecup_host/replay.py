"""Re-checking a recorded game with the same engine, and telling it round by round.

    r = check_bytes(data)     # a game file or a raw serial capture (garbage and all)
    r = check_trace(records)  # a radio trace (net/sim.py load_trace)
    r.told, r.broken, r.notes, r.ops

Both go through gamelog.Recorder, which applies every op to a fresh replica: the
engine refuses an illegal action, the settle op checks each revealed root against its
commitment, the state after each op must be the one the cup logged, and every event
line must be the event the rules give for that op. `broken` lists each failure with
where it is (line number and version); a reveal the table caught not matching its
commitment (a `forfeit`) is a broken commitment too. `notes` says what could not be
checked (versions never recorded) and what was skipped (garbage, text).
"""
from . import gamelog, tell


class Result:
    def __init__(self):
        self.told = []       # the game, line by line
        self.broken = []     # rule or commitment failures, each with where
        self.notes = []      # not failures: gaps, garbage, text lines
        self.ops = 0
        self.records = 0
        self.games = 0


def _run(items, what, mark=True):
    """items: (where, record) in order."""
    r = Result()
    rec = gamelog.Recorder()
    teller = tell.Teller(lambda: rec.table, mark=mark)
    seen_problems = 0
    for where, item in items:
        if item is None:
            continue
        new = rec.take(item)
        while seen_problems < len(rec.problems):
            p = rec.problems[seen_problems]
            seen_problems += 1
            if p.startswith("versions "):
                r.notes.append("%s: %s" % (where, p))
            else:
                r.broken.append("%s: %s" % (where, p))
        for x in new:
            r.records += 1
            k = x["k"]
            if k == "op":
                r.ops += 1
            elif k == "start":
                r.games += 1
            elif k == "forfeit":
                r.broken.append("%s: seat %d's reveal does not match its commitment (version %d)" % (
                    where, x["seat"], x["v"]))
            s = teller(x)
            if s:
                r.told.append(s)
    if rec.held and rec.table is not None:
        first = min(rec.held)
        r.notes.append("%d versions from %d on never got their op: not checked" % (len(rec.held), first))
    if rec.table is None:
        r.notes.append("no op of a table in the %s: nothing to check" % what)
    return r, rec


def check_bytes(data, what="file"):
    """A game file or a serial capture (bytes). Returns (Result, Recorder)."""
    lines = gamelog.Lines()
    notes = []

    def items():
        n = 0
        for raw in data.split(b"\n"):
            n += 1
            for line, problem in lines.feed(raw + b"\n"):
                if problem:
                    notes.append("line %d: %s (skipped)" % (n, problem))
                    continue
                try:
                    item = gamelog.parse(line)
                except gamelog.BadLine as e:
                    notes.append("line %d: %s (skipped)" % (n, e))
                    continue
                if isinstance(item, str):
                    continue
                yield "line %d" % n, item
    r, rec = _run(items(), what)
    r.notes = notes + r.notes
    return r, rec


def trace_ops(trace):
    """The ops the table's masters put on air, as `resend` records in version order
    (first sending of each; the frames are decoded, never trusted)."""
    from dicecup.net import wire
    seen = {}
    for t_rec in trace:
        if t_rec[0] != "tx":
            continue
        try:
            f = wire.decode(t_rec[7])
        except wire.FrameError:
            continue
        if f.type != wire.UPDATE:
            continue
        lead, v, term, prev, commit, op = f.body
        k = (term, v, op)
        if k not in seen:
            seen[k] = (t_rec[1], f.table, f.sender)
    out = []
    for (term, v, op), (t, tb, sender) in sorted(seen.items(), key=lambda x: (x[0][1], x[1][0])):
        out.append({"k": "resend", "tb": tb, "tm": term, "v": v, "t": t, "cup": sender, "hex": op.hex()})
    return out


def check_trace(trace):
    items = [("frame of version %d" % x["v"], x) for x in trace_ops(trace)]
    return _run(items, "trace", mark=False)
