"""`dicecup odds`: the exact odds of a bid, as the cup's hint screen and bots judge it.

    dicecup odds --rules perudo --hand 1,3,3 --unseen 10 --bid 4x3
    dicecup odds --rules bluff --hand 6,2 --set-aside 2,2 --unseen 12 --bid 5x2 --json

Faces are written as in the scenario format (Bluff's star is 6, Menteur's parrot joker 1).
What counts for a bid (wild aces, jokers, stars, a star bet counting stars only, no wilds
in a palifico or one-die round) comes from the engine's own rule classes; the figures
from `dicecup.players.odds`, the module the cup runs, so this prints what a cup shows.
"""
import json
import sys
from fractions import Fraction

BIDDING = ("bluff", "perudo", "menteur", "liars")
MAX_DICE = 30          # six cups of five: no table holds more
_EPILOG = "FACES are comma-separated 1-6, e.g. 1,3,3 (Bluff's star 6, Menteur's joker 1)."


def register(sub):
    s = sub.add_parser("odds", help="the exact odds that a bid is true, exactly right, and the expected count",
                       epilog=_EPILOG)
    s.add_argument("--rules", required=True, choices=BIDDING + ("dixmille",), help="the rule set")
    s.add_argument("--hand", required=True, type=_faces, metavar="FACES",
                   help="your own dice (may be empty: --hand '')")
    s.add_argument("--unseen", required=True, type=_count, metavar="N",
                   help="the dice on the table you cannot see")
    s.add_argument("--bid", required=True, type=_bid, metavar="QxF", help="the bid to judge, e.g. 4x3")
    s.add_argument("--set-aside", type=_faces, default=(), metavar="FACES",
                   help="Bluff: dice set aside face up (anyone's)")
    special = s.add_mutually_exclusive_group()
    special.add_argument("--palifico", action="store_true", help="Perudo: a palifico round (no wild aces)")
    special.add_argument("--one-die-round", action="store_true",
                         help="Menteur: the round after a cup drops to one die (jokers plain)")
    s.add_argument("--json", action="store_true", help="print one JSON object (floats)")
    s.set_defaults(func=run)


def _faces(text):
    import argparse
    text = text.strip()
    if not text:
        return ()
    out = []
    for part in text.split(","):
        part = part.strip()
        if not (part.isdigit() and 1 <= int(part) <= 6):
            raise argparse.ArgumentTypeError("%r: a die face is 1 to 6 (FACES like 1,3,3)" % part)
        out.append(int(part))
    return tuple(out)


def _count(text):
    import argparse
    if not text.strip().isdigit():
        raise argparse.ArgumentTypeError("%r: a number of dice, 0 or more" % text)
    return int(text)


def _bid(text):
    import argparse
    q, x, f = text.strip().lower().partition("x")
    if not (x and q.isdigit() and f.isdigit() and int(q) >= 1 and 1 <= int(f) <= 6):
        raise argparse.ArgumentTypeError("%r: a bid is QxF, a quantity of 1 or more and a face 1-6, e.g. 4x3"
                                         % text)
    return int(q), int(f)


def judge(rules, hand, unseen, bid, set_aside=(), special=False):
    """The figures for a bid as exact Fractions: {"at_least", "exactly", "expected",
    "counts", "known"}. Raises ValueError (a message a player can act on) for a table
    that cannot exist."""
    from dicecup.engine import rules_class
    from dicecup.engine.need import counting
    from dicecup.players import odds
    if rules not in BIDDING:
        raise ValueError("%s has no bids to judge (it is press-your-luck)" % rules)
    if set_aside and rules != "bluff":
        raise ValueError("--set-aside is Bluff's (dice set aside by a reroll); %s has none" % rules)
    if len(hand) > 5:
        raise ValueError("a cup holds at most 5 dice (--hand has %d)" % len(hand))
    total = len(hand) + len(set_aside) + unseen
    if total > MAX_DICE:
        raise ValueError("a table has at most %d dice (hand %d + set aside %d + unseen %d)"
                         % (MAX_DICE, len(hand), len(set_aside), unseen))
    q, f = bid
    if q > total:
        raise ValueError("the bid %dx%d is more dice than the table's %d" % (q, f, total))
    wild = None if special else rules_class(rules).WILD
    faces = counting(f, wild)
    known = sum(1 for d in hand + tuple(set_aside) if d in faces)
    at_least, exactly, expected = odds.figures(q, known, unseen, len(faces))
    return {"at_least": Fraction(*at_least), "exactly": Fraction(*exactly),
            "expected": Fraction(*expected), "counts": faces, "known": known}


def run(args):
    prog = "dicecup odds"
    if args.palifico and args.rules != "perudo":
        return _fail(prog, "--palifico is Perudo's; %s has no palifico round" % args.rules)
    if args.one_die_round and args.rules != "menteur":
        return _fail(prog, "--one-die-round is Menteur's; %s has no such round" % args.rules)
    try:
        r = judge(args.rules, args.hand, args.unseen, args.bid, args.set_aside,
                  args.palifico or args.one_die_round)
    except ValueError as e:
        return _fail(prog, str(e))
    if args.json:
        print(json.dumps({"at_least": float(r["at_least"]), "exactly": float(r["exactly"]),
                          "expected": float(r["expected"]), "counts": list(r["counts"]),
                          "known": r["known"], "unseen": args.unseen}))
        return 0
    from dicecup.players import odds
    q, f = args.bid
    names = " and ".join("%ds" % c for c in r["counts"])
    print("%s: %dx%d, counting %s: you see %d, %d unseen" % (args.rules, q, f, names, r["known"], args.unseen))
    for label, frac in (("at least %d" % q, r["at_least"]), ("exactly %d" % q, r["exactly"])):
        word = odds.word((frac.numerator, frac.denominator))
        print("  %-12s %6.2f %%  %s" % (label, 100 * float(frac), word))
    print("  %-12s %6.2f dice" % ("expected", float(r["expected"])))
    return 0


def _fail(prog, message):
    print("%s: error: %s" % (prog, message), file=sys.stderr)
    return 2
