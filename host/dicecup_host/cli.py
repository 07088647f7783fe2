"""The `dicecup` command."""
import argparse
import json
import sys

from dicecup.engine import RULES

NAMES = ("ana", "ben", "cy", "dee", "eli", "fay")


def cmd_scenario(args):
    from . import scenario
    return scenario.run(args.file, micropython=args.micropython)


def cmd_sim(args):
    from . import localgame, narrate
    names = NAMES[: args.cups]
    options = json.loads(args.options) if args.options else None
    print("%s, %d bots: %s (seed %d)" % (args.rules, args.cups, ", ".join(names), args.seed))

    def show(ev, hands):
        if hands and ev[0] == "roll" and args.rules != "dixmille":
            print(narrate.sentence(args.rules, ev, names))
            for s, h in enumerate(hands):
                if h:
                    print("   %-4s cup: %s" % (names[s], narrate.dice_text(sorted(h))))
            return
        line = narrate.sentence(args.rules, ev, names)
        if line:
            print(line)

    g = localgame.play(args.rules, args.cups, options, seed=args.seed, on_event=show)
    print("winner: %s" % names[g.winner()])
    return 0


def build_parser():
    p = argparse.ArgumentParser(prog="dicecup", description="Smart dice cups: host tools.")
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("scenario", help="replay a rule scenario file and print the final state")
    s.add_argument("file")
    s.add_argument("--micropython", action="store_true",
                   help="run the engine inside MicroPython (heap capped at 110 KB)")
    s.set_defaults(func=cmd_scenario)

    s = sub.add_parser("sim", help="a simulated table of bot cups")
    s.add_argument("--rules", choices=RULES, default="perudo")
    s.add_argument("--cups", type=int, default=4)
    s.add_argument("--options", help="rule options as JSON, e.g. '{\"palifico\": false}'")
    s.add_argument("--seed", type=int, default=1)
    s.set_defaults(func=cmd_sim)
    _plugins(sub)
    return p


def _plugins(sub):
    """Each `cmd_*.py` module here adds its own subcommand via `register(sub)`."""
    import importlib
    import pkgutil
    from pathlib import Path
    for m in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda m: m.name):
        if m.name.startswith("cmd_"):
            importlib.import_module("dicecup_host." + m.name).register(sub)


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
