"""`dicecup stats [DIR] [--out PLOTS] [--json]`: what the games `dicecup log` recorded in
DIR/games.db add up to (stats.py), and PNG plots of it in PLOTS (plots.py). Exit 2 when
there is no database or PLOTS cannot be written (checked first); 130 on Ctrl-C."""
import json
import os
import sqlite3
import sys

from . import cli, outpath


def register(sub):
    s = sub.add_parser("stats", help="win rates, game length, bids and calls over the games in DIR/games.db")
    s.add_argument("dir", nargs="?", default="games", help="the folder `dicecup log --out` wrote (default ./games)")
    s.add_argument("--out", type=outpath.arg_folder("--out"), help="write PNG plots into this folder")
    s.add_argument("--json", action="store_true", help="the summary as one JSON object")
    s.set_defaults(func=run)
    s.error = cli._one_line_error("dicecup stats")


def run(args):
    from . import stats
    path = os.path.join(args.dir, "games.db")
    if not os.path.isfile(path):
        print("dicecup stats: %s: no games.db (record games with dicecup log --out %s)" % (args.dir, args.dir),
              file=sys.stderr)
        return 2
    try:
        db = sqlite3.connect("file:%s?mode=ro" % os.path.abspath(path), uri=True)
        s = stats.summary(db)
    except sqlite3.DatabaseError as e:
        print("dicecup stats: %s: not a games database (%s)" % (path, e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    from . import plots     # (matplotlib itself only when a plot is drawn)
    try:
        if args.json:
            print(json.dumps(s))
        else:
            for line in stats.text(s):
                print(line)
        if args.out:
            for p in plots.write(s, args.out):
                print("plot: " + p)
    except plots.PlotError as e:
        sys.stdout.flush()
        print("dicecup stats: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        sys.stdout.flush()
        return 130
    return 0
