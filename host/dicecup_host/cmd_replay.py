"""`dicecup replay FILE [--trace]`: re-check a recorded game and tell it round by round.

FILE is a game file (`dicecup log`), a raw serial capture of a cup, or with --trace (or
a file that starts as one) a radio trace (`dicecup sim --headless --trace`). The game is
rebuilt with the same engine and commitments (replay.py). Exit 0: every rule and
commitment holds; 1: one is broken (each said with its line and version); 2: the file
cannot be read or holds no game; 130: Ctrl-C.
"""
import os
import sys

from . import cli


def register(sub):
    s = sub.add_parser("replay", help="re-check a game file, serial capture or radio trace; tell it round by round")
    s.add_argument("file", help="a game file, a serial capture, or a radio trace")
    s.add_argument("--trace", action="store_true", help="FILE is a radio trace (found by its header anyway)")
    s.add_argument("--quiet", action="store_true", help="only the verdict, not the game")
    s.set_defaults(func=run)
    s.error = cli._one_line_error("dicecup replay")


def run(args):
    try:
        return _run(args)
    except KeyboardInterrupt:
        sys.stdout.flush()
        return 130


def _run(args):
    from dicecup.net.sim import TRACE_HEADER, load_trace

    from . import replay
    path = args.file
    if not os.path.exists(path):
        return _unreadable("%s: no such file" % path)
    if os.path.isdir(path):
        return _unreadable("%s is a folder: give a game file" % path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        return _unreadable("%s: %s" % (path, e.strerror or e))
    is_trace = args.trace or data.startswith(TRACE_HEADER.encode())
    if is_trace:
        try:
            trace = load_trace(path)
        except (ValueError, UnicodeDecodeError) as e:
            return _unreadable("%s: not a readable radio trace: %s" % (path, e))
        r, rec = replay.check_trace(trace)
        kind = "radio trace"
    else:
        r, rec = replay.check_bytes(data)
        kind = "game log"
    if rec.table is None or not r.ops:
        skipped = sum(1 for n in r.notes if n.endswith("(skipped)"))
        return _unreadable("%s: no game in it (no op of a table%s)" % (
            path, "; %d lines of garbage or broken JSON" % skipped if skipped else ""))
    print("%s: %s, %d records, %d ops, %d game(s)" % (path, kind, r.records, r.ops, r.games))
    if not args.quiet:
        for line in r.told:
            print(line)
    for n in r.notes:
        print("note: " + n)
    for b in r.broken:
        print("BROKEN " + b)
    if r.broken:
        print("%d rule or commitment failure(s)" % len(r.broken))
        return 1
    print("every op re-checks: the rules and the commitments hold")
    return 0


def _unreadable(message):
    print("dicecup replay: " + message, file=sys.stderr)
    return 2
