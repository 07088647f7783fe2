"""Checks that read only what was recorded: a cup's serial log, the radio traffic.

`recheck(lines)` rebuilds the game from one cup's serial log alone: every op is applied
to a fresh replica (the engine refuses anything the rules forbid, the settle op checks
every revealed root against its commitment) and the state fingerprint the cup logged
after each op must match; a snapshot must not rewrite what the log already holds.
`crosscheck(logs)` compares cups' logs: one history, and every snapshot is the table's
state at its version as the other cups logged it. `hidden_leaks(trace, logs)` finds frames or log lines that
carried a hidden die before its reveal: it learns the dice from the roots published at
settlement, then looks back for any of their secrets (or a hand) earlier on.
"""
import json
import re

from dicecup.events import KINDS, PRIVATE, scope_of
from dicecup.net import fair, vouch, wire
from dicecup.net import table as tbl
from dicecup.net.table import OpError, Table


class LogError(Exception):
    pass


def recheck(lines):
    """Replay one cup's serial log. Returns the final Table; LogError on the first line
    that does not re-check (with the line number)."""
    t = None
    for n, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
        except ValueError:
            raise LogError("line %d is not JSON" % n)
        k = rec.get("k")
        if k == "snapshot":
            try:
                snap = Table.from_snapshot(bytes.fromhex(rec["hex"]))
            except (OpError, ValueError) as e:
                raise LogError("line %d: bad snapshot: %s" % (n, e))
            if t is not None:
                why = _rewrites(t, snap)
                if why:
                    raise LogError("line %d: the snapshot at version %d %s" % (n, snap.version, why))
            t = snap
        elif k == "op":
            if t is None:
                t = Table()
            if rec["v"] != t.version + 1:
                raise LogError("line %d: version %d after %d" % (n, rec["v"], t.version))
            try:
                t.apply(bytes.fromhex(rec["hex"]))
            except (OpError, ValueError) as e:
                raise LogError("line %d: op refused on re-check: %s" % (n, e))
        else:
            continue
        if t.digest_of().hex() != rec.get("state"):
            raise LogError("line %d: state differs from what the cup logged" % n)
    if t is None:
        raise LogError("no ops in the log")
    return t


def _rewrites(t, snap):
    """Why a snapshot cannot follow the history a log already holds, else None: a table
    goes forward only, and its members and terms never change behind its back."""
    if snap.version < t.version:
        return "goes back from version %d" % t.version
    if snap.version == t.version and snap.digest_of() != t.digest_of():
        return "is another state than the log's at that version"
    if snap.term < t.term:
        return "goes back to term %d from %d" % (snap.term, t.term)
    if len(snap.members) < len(t.members):
        return "drops members"
    for i in range(len(t.members)):
        a, b = t.members[i], snap.members[i]
        if a.addr != b.addr or a.name != b.name:
            return "changes member %d" % i
    if snap.game_no < t.game_no:
        return "goes back to an earlier game"
    return None


def crosscheck(logs):
    """Compare several cups' logs (a dict name -> lines): every op shown at a version is
    the same op with the same state on every cup, and every snapshot a cup took is the
    table's state at its version as the others logged it. Returns the problems found,
    each saying where ("cup 2 line 40: ..."); [] when the logs tell one history."""
    seen = {}     # version -> (state, op hex or None, where)
    problems = []
    for name in logs:
        for n, line in enumerate(logs[name], 1):
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            k = rec.get("k")
            if k == "op":
                v, state, op = rec["v"], rec.get("state"), rec["hex"]
            elif k == "snapshot":
                try:
                    snap = Table.from_snapshot(bytes.fromhex(rec["hex"]))
                except (OpError, ValueError):
                    problems.append("cup %s line %d: a snapshot that does not parse" % (name, n))
                    continue
                v, state, op = snap.version, snap.digest_of().hex(), None
            else:
                continue
            where = "cup %s line %d" % (name, n)
            had = seen.get(v)
            if had is None:
                seen[v] = (state, op, where)
                continue
            if op is not None and had[1] is not None and op != had[1]:
                problems.append("%s: another op at version %d than %s" % (where, v, had[2]))
            elif state != had[0]:
                what = "a snapshot" if op is None else "the state after the op"
                problems.append("%s: %s at version %d differs from %s" % (where, what, v, had[2]))
            elif had[1] is None and op is not None:
                seen[v] = (state, op, had[2])
    return problems


def events(lines, kinds=None):
    """The public events in a serial log, de-duplicated by (table, term, version, index),
    as dicts; `kinds` keeps only those kinds."""
    out = []
    seen = set()
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if "i" not in rec or (kinds and rec.get("k") not in kinds):
            continue
        key = (rec["tb"], rec["tm"], rec["v"], rec["i"])
        if key not in seen:
            seen.add(key)
            out.append(rec)
    return out


def _sent(trace, ftype):
    """(time, decoded frame) of every frame of `ftype` put on air (unparsable ones skipped:
    the checker reads frames, it never trusts them)."""
    for rec in trace:
        if rec[0] != "tx":
            continue
        try:
            f = wire.decode(rec[7])
        except wire.FrameError:
            continue
        if f.type == ftype:
            yield rec[1], f


def _ops_on_air(trace):
    """(time, version, op) of every UPDATE put on air, first sending only, in order."""
    seen = {}
    for when, f in _sent(trace, wire.UPDATE):
        lead, v, term, prev, commit, op = f.body
        if (term, v, op) not in seen:
            seen[(term, v, op)] = when
    return sorted((t, v, op) for (term, v, op), t in seen.items())


def _reroll_frames(trace):
    """Set-aside secrets as they first went on air in a cup's reroll ACTION frame:
    {secret: time}. A reroll is how a bettor reveals those dice, so that is their reveal."""
    out = {}
    for when, f in _sent(trace, wire.ACTION):
        _, extra = vouch.split(f.body[3])   # the seat's vouch first (net/vouch.py)
        if f.body[1] >> 16 == 3:
            base = 0       # a reroll: new digest, k, (index, secret) x k, commitments
        elif len(extra) >= 4 and extra[0] == 0 and extra[1] == 3:
            _, rest = vouch.split(extra[4:])   # a bid carrying the reroll made right after it
            extra = extra[:4] + rest
            base = 4
        else:
            continue
        k = extra[base + 12] if len(extra) > base + 12 else 0
        for j in range(k):
            at = base + 13 + 13 * j + 1
            sec = extra[at:at + 12]
            if sec not in out:
                out[sec] = when
    return out


def secrets_of_game(trace):
    """Every hidden secret of the game and the moment it stopped being hidden:
    [(secret bytes, reveal time, what)]. Learned from the settle ops on air (the
    roots) replayed over a replica built from the ops on air; a secret's reveal is
    the call that ended its round, or for a set-aside die the reroll frame that showed
    it -- even a reroll the master refused (it came after the next player acted): its
    player put those dice face up on air, as at a table they would be in plain sight."""
    best = {}

    def note(sec, when, what):
        if sec not in best or when < best[sec][0]:
            best[sec] = (when, what)

    early = _reroll_frames(trace)
    t = None
    call_time = None
    for when, v, op in _ops_on_air(trace):
        if t is None:
            t = Table()
        if v != t.version + 1:
            continue  # a resend or another master's duplicate
        try:
            name, events, info = t.apply(op)
        except OpError:
            continue
        if name == "act" and t.game is not None and t.game.need() == "reveal":
            call_time = when
        if name == "act" and "secrets" in info:
            for sec in info["secrets"]:
                note(sec, min(when, early.get(sec, when)), "set-aside die of seat %d" % info["seat"])
        if name == "settle":
            roots = info["roots"]
            reveal = call_time if call_time is not None else when
            for seat in range(len(roots)):
                root = roots[seat]
                if root == tbl.NO_ROOT:
                    continue
                note(root, reveal, "root of seat %d" % seat)
                for gen in range(0, 8):
                    for i in range(5):
                        s = fair.secret(root, gen, i)
                        note(s, min(reveal, early.get(s, reveal)), "die %d/%d of seat %d" % (gen, i, seat))
            call_time = None
    return [(sec, w, what) for sec, (w, what) in best.items()]


HAND_KEYS = ("hand", "dice_faces", "secret", "root")
PRIVATE_KINDS = tuple(k for k, _ in KINDS if scope_of(k) == PRIVATE)  # never in a serial log
HEX_RUN = re.compile(r"[0-9a-f]{24,}")


def _index(secrets):
    """12-byte prefix -> [(secret, reveal time, what)], for a sliding-window scan."""
    idx = {}
    for item in secrets:
        idx.setdefault(item[0][:12], []).append(item)
    return idx


def _first_hit(data, idx, when):
    """The first secret found in `data` (bytes) that was still hidden at `when`."""
    for i in range(len(data) - 11):
        hits = idx.get(data[i:i + 12])
        if hits:
            for s, reveal, what in hits:
                if when < reveal and data[i:i + len(s)] == s:
                    return what, reveal
    return None


def hidden_leaks(trace, logs):
    """Frames and serial-log lines that carried a hidden die before its reveal.
    `logs`: {cup name: [lines]}. Returns a list of findings (strings)."""
    found = []
    idx = _index(secrets_of_game(trace))
    for rec in trace:
        if rec[0] != "tx":
            continue
        hit = _first_hit(rec[7], idx, rec[1])
        if hit:
            found.append("frame at %d ms from %s carries the %s before its reveal at %d ms"
                         % (rec[1], rec[3].hex(), hit[0], hit[1]))
    for cup, lines in logs.items():
        for line in lines:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            t = rec.get("t", 0)
            if rec.get("k") in PRIVATE_KINDS:
                found.append("log of %s at %d ms shows the cup's private %r event" % (cup, t, rec["k"]))
            for key in HAND_KEYS:
                if key in rec:
                    found.append("log of %s at %d ms shows %r" % (cup, t, key))
            for run in HEX_RUN.findall(line):  # any hex in the line, whatever the field
                hit = _first_hit(bytes.fromhex(run[:len(run) // 2 * 2]), idx, t)
                if hit is None and len(run) > 24:
                    hit = _first_hit(bytes.fromhex(run[1:1 + (len(run) - 1) // 2 * 2]), idx, t)
                if hit:
                    found.append("log of %s at %d ms carries the %s before its reveal" % (cup, t, hit[0]))
                    break
    return found
