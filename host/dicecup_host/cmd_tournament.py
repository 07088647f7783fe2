"""`dicecup tournament`: win rates of player kinds over seeded games (UNFINISHED: no tests)."""
import json


def register(sub):
    s = sub.add_parser("tournament", help="seeded games between player kinds: win rates with 95% intervals")
    s.add_argument("--rules", required=True, choices=("bluff", "perudo", "menteur", "liars", "dixmille"))
    s.add_argument("--seats", required=True, help="kinds by seat, e.g. easy,baseline")
    s.add_argument("--games", type=int, default=100)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--options", default=None, help="rule options as a JSON object")
    s.add_argument("--workers", type=int, default=None)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=run, parser=s)


def wilson(k, n, z2=3.8416):
    """Wilson 95% interval for k wins in n games."""
    if not n:
        return 0.0, 0.0
    p = k / n
    mid = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = (z2 ** 0.5) * ((p * (1 - p) / n + z2 / (4 * n * n)) ** 0.5) / (1 + z2 / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def run(args):
    from dicecup import players
    from dicecup.engine import new_game
    from . import tournament
    err = args.parser.error
    kinds = [k.strip() for k in args.seats.split(",") if k.strip()]
    for k in kinds:
        if k not in players.KINDS:
            err("unknown player kind %r (kinds: %s)" % (k, ", ".join(players.KINDS)))
        if k not in players.available():
            err("player kind %r is not built yet (built: %s)" % (k, ", ".join(players.available())))
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
    res = tournament.run(args.rules, kinds, args.games, args.seed, options, args.workers)
    # entrants: a kind listed twice is two entrants (easy vs easy: easy#1, easy#2)
    names = [k if kinds.count(k) == 1 else "%s#%d" % (k, kinds[:i].count(k) + 1) for i, k in enumerate(kinds)]
    wins = {k: 0 for k in names}
    notes = [r[3] for r in res if r[3]]
    n = len(kinds)
    for i, (order, winner, turns, note) in enumerate(res):
        if winner is not None:
            wins[names[(winner + i) % n]] += 1  # schedule(): seat s holds entrant (s + i) % n
    print("%-10s %6s %8s  %s" % ("kind", "wins", "rate", "95% interval"))
    for k in wins:
        lo, hi = wilson(wins[k], args.games)
        print("%-10s %6d %7.1f%%  %.1f-%.1f%%" % (k, wins[k], 100 * wins[k] / args.games, 100 * lo, 100 * hi))
    for n in notes[:5]:
        print("note:", n)
    out = {"games": args.games, "wins": wins, "unfinished": len(notes)}
    if args.rules == "dixmille" and len(kinds) == 1:
        out["mean_turns"] = round(sum(r[2] for r in res) / len(res), 2)
        print("mean turns to 10,000: %.2f" % out["mean_turns"])
    if args.json:
        print(json.dumps(out))
    return 0
