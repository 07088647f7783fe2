"""What `dicecup log` makes of a cup's serial stream: bytes -> lines -> records, each
recorded once, checked against a replica of the table, and split into games.

    lines = Lines(); rec = Recorder()
    for line, problem in lines.feed(data): ...      # problem: garbage, a cut line
    for r in rec.take(parse(line)): ...             # the new records, in order
    rec.since      # the version to ask the cup for (`#dicecup since V`), or None

Nothing here opens a port or a file (cmd_log.py, gamedb.py do). The identity of a
record is what the cup wrote (seriallog.py): (table, term, version, index) for a public
event, (table, cup, boot, counter) for a local one, so a line seen twice -- a resend, a
replayed capture, a reconnect -- is recorded once, and a reboot (a new boot) never
hides a line. The Recorder holds its own replica of the table (the firmware's Table):
every op is applied as it arrives, its state must be the one the cup logged, and the
public events of ops the cup resent (`resend` lines, after an unplug) or whose event
lines were lost to garbage are derived again from the op with the same engine, exactly
as the cup emits them. Where no op can fill a hole (the cup was off, or unplugged past
its history) the cup's snapshot carries on and a `gap` record says which versions
were never seen.
"""
import json

from dicecup.events import Event
from dicecup.net import table as tbl
from dicecup.net.table import OpError, Table
from dicecup.seriallog import SerialLog

MAX_LINE = 16384        # a longer run without a newline is garbage (a wrong baud rate)


class BadLine(ValueError):
    pass


class Lines:
    """Bytes from the port in, whole text lines out, with what was wrong with the rest:
    `feed(data)` -> [(line, None) or (None, problem)]; `cut()` at a disconnect drops
    (and reports) a line left half-written."""

    def __init__(self):
        self.part = bytearray()

    def feed(self, data):
        out = []
        self.part += data
        while True:
            nl = self.part.find(b"\n")
            if nl < 0:
                break
            raw = bytes(self.part[:nl]).rstrip(b"\r")
            del self.part[:nl + 1]
            item = _decode(raw)
            if item is not None:
                out.append(item)
        if len(self.part) > MAX_LINE:
            out.append((None, "%d bytes without a line end dropped (is --baud right?)" % len(self.part)))
            self.part = bytearray()
        return out

    def cut(self):
        """The port went away: a partial line cannot be finished."""
        if not self.part:
            return []
        n = len(self.part)
        self.part = bytearray()
        return [(None, "a line cut off after %d bytes (the port went away)" % n)]


def _decode(raw):
    if not raw.strip():
        return None
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        return None, "%d bytes of garbage (not text: is --baud right?)" % len(raw)
    if any(ord(c) < 0x20 and c != "\t" for c in text):
        return None, "%d bytes of garbage (control bytes)" % len(raw)
    return text, None


def parse(line):
    """One line -> a record (dict with "k"), a str (the cup printing text), or BadLine."""
    s = line.strip()
    if not s.startswith("{"):
        return s
    try:
        rec = json.loads(s)
    except ValueError:
        raise BadLine("a broken line (%d chars, not JSON): %s" % (len(s), _short(s)))
    if not isinstance(rec, dict) or not isinstance(rec.get("k"), str):
        raise BadLine("a JSON line that is not an event: %s" % _short(s))
    if rec["k"] == "hello" or rec["k"] == "resend":
        need = ("tb", "v", "cup")
    elif "i" in rec:
        need = ("tb", "tm", "v", "i")
    else:
        need = ("cup", "boot", "n")
    for name in need:
        if not isinstance(rec.get(name), int):
            raise BadLine("a %s line without %r: %s" % (rec["k"], name, _short(s)))
    return rec


def _short(s, n=60):
    return s if len(s) <= n else s[:n] + "..."


def key(rec):
    """What names a record across reconnects, reboots and cups (see the module doc)."""
    k = rec["k"]
    if "i" in rec:
        return "p/%d/%d/%d/%d" % (rec["tb"], rec["tm"], rec["v"], rec["i"])
    if k == "snapshot" and rec.get("by"):
        return "s/%s/%d/%d" % (rec["by"], rec["tb"], rec["v"])
    if k == "resend":
        return "r/%d/%d/%d" % (rec["tb"], rec.get("tm", 0), rec["v"])
    if k == "gap":
        return "g/%d/%d/%d" % (rec["tb"], rec["from"], rec["to"])
    return "l/%d/%d/%d/%d" % (rec.get("tb") or 0, rec["cup"], rec["boot"], rec["n"])


class _Cup:
    """What SerialLog needs to write an event derived on the host."""

    def __init__(self, me, table):
        self.me = me
        self.table = table
        self.boot = 0


def derived(table, tb, term, version, t, me, name, events, op):
    """The records the cup writes for one op's public events (the op's own last), as
    its SerialLog would write them."""
    lines = []
    log = SerialLog(lambda s: lines.append(s), _Cup(me, table))
    i = 0
    for e in events:
        log(Event(e[0], e[1:], tb, term, version, i, t))
        i += 1
    log(Event("op", (name, op, table.digest_of()), tb, term, version, i, t))
    return [json.loads(x) for x in "".join(lines).splitlines()]


class Recorder:
    """Records in, the records to keep out (each once, in the table's order).

    `take(rec)` returns the new records; `problems` collects what did not check (with
    the version); `since` is set when the cup should be asked for what came after a
    version (a hole, a new boot, a fresh connection); `game` the current game's
    facts. Public events wait for their op (they are written when it is applied), so
    a game file holds an op's events, then the op, in version order."""

    def __init__(self):
        self.table = None        # the replica
        self.tb = None
        self.seen = set()
        self.held = {}           # version -> [records]: public events (and ops) ahead of the replica
        self.problems = []
        self.notes = []          # things worth saying live (reboots, resends, gaps)
        self.since = None
        self.boots = {}          # cup -> last boot seen
        self.joined_at = None    # the version the logger's replica started from

    def ask(self):
        """The version to ask the cup for next (after a connect)."""
        self.since = self.table.version if self.table is not None else 0

    def take(self, rec):
        if isinstance(rec, str):
            return []
        k = rec["k"]
        if k == "hello":
            return self._hello(rec)
        if k == "resend":
            return self._resend(rec)
        kk = key(rec)
        if kk in self.seen:
            return []
        if "i" not in rec:
            self._boot(rec["cup"], rec["boot"])
            if k == "snapshot":
                return self._snapshot(rec)
            self.seen.add(kk)
            return [rec]
        if self.tb is not None and rec["tb"] != self.tb:
            self._new_table(rec["tb"])
        self.tb = rec["tb"]
        v = rec["v"]
        if self.table is not None and v <= self.table.version:
            return []            # an event of an op the replica holds (a snapshot took it in)
        self.held.setdefault(v, []).append(rec)
        if self.table is None:
            if v == 1 and k == "op":
                self.table = Table()
                self.joined_at = 0
            else:
                self.since = 0
                return []
        return self._drain()

    # ----- what arrives ---------------------------------------------------------------
    def _hello(self, rec):
        kk = key(rec)
        new = kk not in self.seen
        self.seen.add(kk)
        self._boot(rec["cup"], rec["boot"])
        if not new:
            return []            # the answer to our question repeats the hello we have
        self.ask()               # a boot, or a new table: what came after our version
        return [rec]

    def _boot(self, cup, boot):
        """A cup's boot counter, from its hello or any local line: a new one is a reboot."""
        was = self.boots.get(cup)
        if was is not None and boot > was:
            self.notes.append("the cup rebooted (boot %d after %d)" % (boot, was))
        if was is None or boot > was:
            self.boots[cup] = boot

    def _resend(self, rec):
        if self.tb is None:
            self.tb = rec["tb"]
        if "snap" in rec:
            snap = dict(rec, k="snapshot", hex=rec["snap"], by="resend")
            del snap["snap"]
            return self._snapshot(snap)
        v = rec["v"]
        if self.table is None:
            if v != 1:
                return []        # ops from before the logger's start: a snapshot will follow
            self.table = Table()
            self.joined_at = 0
        if v <= self.table.version:
            return []
        op = dict(rec, k="op")
        op["resent"] = 1
        self.held.setdefault(v, []).append(op)
        return self._drain()

    def _snapshot(self, rec):
        try:
            snap = Table.from_snapshot(bytes.fromhex(rec["hex"]))
        except (OpError, ValueError) as e:
            self.problems.append("a snapshot that does not parse: %s" % e)
            return []
        out = []
        kk = key(rec)
        self.seen.add(kk)
        t = self.table
        if snap.digest_of().hex() != rec.get("state"):
            self.problems.append("the snapshot at version %d is not the state it names" % snap.version)
        if t is not None and snap.version <= t.version:
            return [rec] if not rec.get("by") else []   # the cup caught up to where we stand
        if t is None:
            self.joined_at = snap.version
            self.notes.append("joined the table at version %d (its snapshot)" % snap.version)
        else:
            gap = {"k": "gap", "tb": rec["tb"], "from": t.version + 1, "to": snap.version,
                   "t": rec.get("t", 0), "cup": rec["cup"]}
            self.seen.add(key(gap))
            self.problems.append("versions %d to %d were never on the line (the cup was off or "
                                 "unplugged past its history)" % (gap["from"], gap["to"]))
            self.notes.append(self.problems[-1])
            out.append(gap)
        self.table = snap
        if "by" not in rec:
            rec = dict(rec)
        out.append(rec)
        for v in [v for v in self.held if v <= snap.version]:
            del self.held[v]
        return out + self._drain()

    def _new_table(self, tb):
        self.notes.append("another table (%04x): a fresh replica" % tb)
        self.table = None
        self.held = {}

    # ----- applying ops in order ----------------------------------------------------
    def _drain(self):
        out = []
        t = self.table
        while t is not None:
            recs = self.held.get(t.version + 1)
            ops = [r for r in (recs or ()) if r["k"] == "op"]
            if not ops:
                break
            v = t.version + 1
            recs = self.held.pop(v)
            out.extend(self._apply(ops[0], [r for r in recs if r["k"] != "op"]))
        if self.held and t is not None and min(self.held) > t.version + 1:
            self.since = t.version       # a hole: ask the cup for what it holds
        return out

    def _apply(self, op, events):
        t = self.table
        v = op["v"]
        before = self.game_before(t)
        try:
            name, evs, info = t.apply(bytes.fromhex(op["hex"]))
        except (OpError, ValueError) as e:
            self.problems.append("version %d: the op is refused by the rules: %s" % (v, e))
            t.version = v        # keep going: later ops are checked against the cup's state
            return [r for r in events if self._new(r)] + ([op] if "i" in op and self._new(op) else [])
        mine = derived(t, op["tb"], op["tm"], v, op.get("t", 0), op.get("cup", -1), name, evs, bytes.fromhex(op["hex"]))
        if op.get("state") is not None and op["state"] != mine[-1]["state"]:
            self.problems.append("version %d: the state after the op differs from the cup's" % v)
        had = dict((r["i"], r) for r in events)
        out = []
        for r in mine:
            if r["k"] == "op":
                if op.get("resent"):
                    r = dict(r, resent=1)    # the cup's resend: the line as it would have been
                else:
                    r = op
            else:
                got = had.get(r["i"])
                if got is None:
                    r["derived"] = 1         # its line never arrived whole: the op tells it again
                else:
                    differ = _differ(got, r)
                    if differ:
                        self.problems.append("version %d: the %s event %s" % (v, r["k"], differ))
                    r = got
            if r["k"] == "reveal" and before is not None and "counts" not in r:
                r = dict(r, counts=_counts(before, r.get("hands") or []))
            if self._new(r):
                out.append(r)
        if any(r["k"] == "win" for r in mine):
            out.append(self.logger_snapshot(op))
        return out

    def logger_snapshot(self, op):
        """The table right after a game's last op: the first line of the next game's
        file, so that file re-checks on its own."""
        t = self.table
        rec = {"k": "snapshot", "tb": op["tb"], "tm": t.term, "v": t.version, "t": op.get("t", 0),
               "cup": op.get("cup", -1), "by": "logger", "hex": t.snapshot().hex(), "state": t.digest_of().hex()}
        self.seen.add(key(rec))
        return rec

    def _new(self, r):
        kk = key(r)
        if kk in self.seen:
            return False
        self.seen.add(kk)
        return True

    @staticmethod
    def game_before(t):
        """Before a settle op: per face 1..6, the faces that count for a bid on it this
        round, and the set-aside dice -- what judges every bid of the round once the
        reveal shows the hands."""
        g = t.game
        if g is None or not hasattr(g, "counts") or not hasattr(g, "aside"):
            return None
        from dicecup.engine.actions import unpack
        aside = []
        for a in g.aside:
            aside.extend(unpack(a))
        return [list(g.counts(f)) for f in range(1, 7)], aside

    def phase(self):
        t = self.table
        return None if t is None else tbl.PHASE_NAMES[t.phase]


def _fields(rec):
    return dict((k, v) for k, v in rec.items() if k not in ("t", "cup", "derived", "resent", "counts"))


def _differ(logged, ruled):
    """How a logged event differs from the one the rules give (None: it does not)."""
    a, b = _fields(logged), _fields(ruled)
    if a == b:
        return None
    if a.get("k") != b.get("k"):
        return "is logged as %r" % a.get("k")
    names = sorted(set(a) | set(b))
    return "; ".join("the log says %s=%s, the rules say %s" % (n, json.dumps(a.get(n)), json.dumps(b.get(n)))
                     for n in names if a.get(n) != b.get(n))


def _counts(before, hands):
    """The dice on the table counting for a bid on each face 1..6 (the logger's note on
    a reveal: every bid of the round is judged by it)."""
    sets, aside = before
    out = []
    for faces in sets:
        n = sum(1 for d in aside if d in faces)
        for h in hands:
            n += sum(1 for d in h if d in faces)
        out.append(n)
    return out
