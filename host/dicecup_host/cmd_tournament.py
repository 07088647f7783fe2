"""`dicecup tournament`: win rates of player kinds over seeded games (engine and players
only, tournament.py), with 95 % Wilson intervals; `--json` ends with one object."""
import json
import sys
import time

from .tournament import wilson

RULE_SETS = ("bluff", "perudo", "menteur", "liars", "dixmille")


def register(sub):
    s = sub.add_parser("tournament", help="seeded games between player kinds: win rates with 95 %% intervals",
                       description="Seeded games between player kinds (easy, normal, strong, baseline), "
                       "seats rotated every game so each kind sits in each seat equally over a multiple "
                       "of the seat count. A kind seated twice is counted per seat: its games are "
                       "seat-games and its wins the games any of its seats won.")
    s.add_argument("--rules", required=True, choices=RULE_SETS)
    s.add_argument("--seats", required=True, help="kinds by seat, e.g. easy,baseline (one seat at dixmille: solitaire)")
    s.add_argument("--games", type=int, default=100)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--options", default=None, help="rule options as a JSON object, e.g. '{\"calza_anyone\": true}'")
    s.add_argument("--workers", type=int, default=None, help="processes (default: one per CPU)")
    s.add_argument("--json", action="store_true", help="end with one JSON line")
    s.set_defaults(func=run, parser=s)


def _probe(rules, kinds, options, err):
    """Each kind plays its first decision of a fresh game here, so a kind not built
    (an ImportError, e.g. strong at dixmille before dixstrong lands) is one line, exit 2,
    before any worker starts."""
    import random
    from dicecup import players
    from dicecup.engine import new_game
    for k in dict.fromkeys(kinds):
        try:
            mod = players.get(k)
        except players.UnknownPlayer as e:
            err("unknown player kind %r: %s" % (k, e))
        except ImportError as e:
            err("player kind %r is not built yet: %s" % (k, e))
        rng = random.Random(0)
        g = new_game(rules, len(kinds), options, rng=rng)
        hand = None
        if rules != "dixmille":
            g.start_round()
            hand = [rng.randrange(6) + 1 for _ in range(g.dice[g.to_act()])]
        try:
            mod.act(g.view(g.to_act(), hand), rng)
        except ImportError as e:
            err("player kind %r is not built yet for %s: %s" % (k, rules, e))
        except Exception:
            pass  # a player that fails in play is a forfeit, counted in the games


def run(args):
    from dicecup.engine import new_game
    from . import tournament
    err = args.parser.error
    kinds = [k.strip() for k in args.seats.split(",")]
    if not all(kinds):
        err("--seats: an empty kind in %r" % args.seats)
    if args.games < 1:
        err("--games must be at least 1")
    if args.workers is not None and args.workers < 1:
        err("--workers must be at least 1")
    options = None
    if args.options:
        try:
            options = json.loads(args.options)
        except ValueError as e:
            err("--options is not JSON: %s" % e)
        if not isinstance(options, dict):
            err("--options must be a JSON object")
    try:
        new_game(args.rules, len(kinds), options, opener=0)
    except ValueError as e:
        err(str(e))
    _probe(args.rules, kinds, options, err)

    progress = None
    if sys.stderr.isatty():
        def progress(done):
            if done == args.games or done % 20 == 0:
                sys.stderr.write("\r%d/%d games" % (done, args.games) + ("\n" if done == args.games else ""))
                sys.stderr.flush()
    t0 = time.monotonic()
    res = tournament.run(args.rules, kinds, args.games, args.seed, options, args.workers, progress)
    elapsed = time.monotonic() - t0
    summary = tournament.summarize(kinds, res)
    solo = args.rules == "dixmille" and len(kinds) == 1

    print("%s, %d games, seats %s, seed %d" % (args.rules, args.games, ",".join(kinds), args.seed))
    print("%-9s %5s %6s %6s %8s  %s" % ("kind", "seats", "games", "wins", "win rate", "95% interval"))
    wins, rates, intervals = {}, {}, {}
    for k, e in summary["kinds"].items():
        lo, hi = wilson(e["wins"], e["games"])
        wins[k] = e["wins"]
        rates[k] = round(e["wins"] / e["games"], 4)
        intervals[k] = [round(lo, 4), round(hi, 4)]
        print("%-9s %5d %6d %6d %7.1f%%  %5.1f%% - %5.1f%%"
              % (k, e["seats"], e["games"], e["wins"], 100.0 * e["wins"] / e["games"], 100 * lo, 100 * hi))
    if len(kinds) > 1 and len(set(kinds)) < len(kinds):
        print("(a kind in several seats: games per seat, wins by any of its seats; a fair share is %.1f%%)"
              % (100.0 / len(kinds)))
    if args.games % len(kinds):
        print("note: %d games is not a multiple of %d seats: the seats were not shared out exactly"
              % (args.games, len(kinds)))
    fs = summary["forfeits"]
    if fs:
        print("forfeits: %d (a loss for the seat)" % len(fs))
        for f in fs[:5]:
            print("  game %(game)d: seat %(seat)d (%(kind)s) %(action)s: %(why)s" % f)
    un = summary["unfinished"]
    if un:
        print("unfinished: %d games called off (e.g. game %d: %s)" % (len(un), un[0]["game"], un[0]["why"]))
    if solo:
        print("mean turns to 10,000: %.2f" % summary["mean_turns"])
    print("elapsed: %.1f s" % elapsed)
    if args.json:
        out = {"rules": args.rules, "seats": kinds, "seed": args.seed, "options": options or {},
               "games": args.games, "wins": wins, "seat_count": {k: e["seats"] for k, e in summary["kinds"].items()},
               "seat_games": {k: e["games"] for k, e in summary["kinds"].items()},
               "win_rate": rates, "ci95": intervals, "seat_wins": summary["by_seat"],
               "forfeits": fs, "unfinished": len(un), "elapsed_s": round(elapsed, 2)}
        if solo:
            out["mean_turns"] = round(summary["mean_turns"], 3)
        print(json.dumps(out))
    return 0
