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
    from .simargs import ArgError, check
    args.cups_given = args.cups is not None
    if args.cups is None:
        args.cups = len(args.seats.split(",")) if args.seats else 4
    from .livetable import SeatsError, parse_seats
    try:
        options = check(args)
        if args.seats:
            parse_seats(args.seats, args.cups if args.cups_given else None)
    except (ArgError, SeatsError) as e:
        print("dicecup sim: %s" % e, file=sys.stderr)
        return 2
    if args.attack and not args.headless:
        print("dicecup sim: --attack needs --headless", file=sys.stderr)
        return 2
    if args.drive != "engine" and not args.headless:
        print("dicecup sim: --drive %s needs --headless" % args.drive, file=sys.stderr)
        return 2
    if args.micropython and not args.headless:
        print("dicecup sim: --micropython needs --headless", file=sys.stderr)
        return 2
    if args.headless:
        return sim_headless(args, options)
    if sys.stdout.isatty() and sys.stdin.isatty() and not args.narrate:
        return sim_live(args, options)
    return sim_narrated(args, options)


def sim_live(args, options):
    """A table you sit at, in the terminal (live.py): your cup and the bots' cups, each
    the real firmware app on emulated chips, paced like a real table."""
    from . import live, livetable
    try:
        seats = livetable.parse_seats(args.seats or ",".join(["you"] + ["bot"] * (args.cups - 1)),
                                      args.cups if args.cups_given else None)
    except livetable.SeatsError as e:
        print("dicecup sim: %s" % e, file=sys.stderr)
        return 2
    table = livetable.LiveTable(seats, args.rules, seed=args.seed, speed=args.speed, loss=args.loss,
                                options=options, bots=args.bots, lang=args.lang)
    table.start()
    return live.run(table)


# what only the engine-driven cups (cluster.py) can do: a cup played by buttons cannot
DRIVE_ENGINE_ONLY = (("attack", "--attack"), ("kill_master", "--kill-master"), ("partition", "--partition"))


def drive_buttons(args, options, report):
    """`--drive buttons`: every seat a simulated cup whose person presses virtual
    buttons and shakes the emulated accelerometer (appsim.run_batch); None when an
    option cannot be honoured (said on stderr)."""
    from . import appsim
    for name, flag in DRIVE_ENGINE_ONLY:
        if getattr(args, name):
            print("dicecup sim: %s cannot be used with --drive buttons" % flag, file=sys.stderr)
            return None
    return appsim.run_batch(args.cups, args.rules, options, args.games, args.seed, loss=args.loss,
                            bots=args.bots, game_index=args.game_index, report=report,
                            shake_ms=args.shake_delay, trace=args.trace)


def sim_headless(args, options):
    if args.micropython:
        return sim_micropython(args, options)
    from . import simrun
    if args.trace and args.game_index is None:
        if args.games != 1:
            print("dicecup sim: --trace saves one game: give --game-index I", file=sys.stderr)
            return 2
        args.game_index = 0
    report = None if args.json else print
    if args.drive == "buttons":
        total = drive_buttons(args, options, report)
        if total is None:
            return 2
    else:
        total = simrun.run_batch(args.cups, args.rules, options, args.games, args.seed, loss=args.loss,
                                 kill_master=args.kill_master, bots=args.bots, game_index=args.game_index,
                                 trace=args.trace, report=report, shake_ms=args.shake_delay,
                                 partitions=args.partition or (), attacks=args.attack or ())
    if args.json:
        print(json.dumps(total))
    else:
        print("%(games)d games: %(finished)d finished, %(consistent)d consistent, %(hidden_leaks)d hidden leaks, "
              "%(failovers)d failovers, %(away)d away, %(frames)d frames, %(dropped)d dropped, "
              "%(retransmits)d retransmits, largest frame %(max_frame_bytes)d B, "
              "at most %(max_frames_per_s)d frames/s from one cup" % total
              + (", %(presses)d presses, %(shakes)d shakes" % total if "presses" in total else ""))
        print(games_line(total))
        for kind, a in total.get("attacks", {}).items():
            print("attack %s: tried %d, succeeded %d (%d games, %d stalled, %d failed the honest checks)" % (
                kind, a["tried"], a["succeeded"], a["games"], a["stalled"], a["honest_failed"]))
    good = total["finished"] == total["games"] == total["consistent"] and not total["hidden_leaks"]
    if any(a["succeeded"] for a in total.get("attacks", {}).values()):
        good = False
    return 130 if total.get("interrupted") else 0 if good else 1


def games_line(total):
    """Who won and how long a game lasted, for the text summary."""
    return "wins per seat %s; %.1f rounds and %.0f s (simulated) per game" % (
        "/".join(str(n) for n in total["winners"]), total["rounds"], total["mean_game_s"])


def sim_micropython(args, options):
    """--headless --micropython: each cup's whole app in its own 32-bit MicroPython
    process (host/dicecup_host/mpsim.py); the usual summary plus the heap figures."""
    import os

    from . import mpsim

    def refuse(message):
        print("dicecup sim: %s" % message, file=sys.stderr)
        return 2
    for flag, given in (("--attack", args.attack), ("--kill-master", args.kill_master),
                        ("--partition", args.partition)):
        if given:
            return refuse("%s is not available with --micropython" % flag)
    if not 2 <= args.cups <= 6 or args.bots < 0 or args.cups + args.bots > 6:
        return refuse("--micropython seats 2 to 6 cups, bots included (got --cups %d --bots %d)"
                      % (args.cups, args.bots))
    if args.cup_heap < 16:
        return refuse("--cup-heap %d: give the app's heap in KB (at least 16)" % args.cup_heap)
    if args.trace and args.game_index is None:
        if args.games != 1:
            return refuse("--trace saves one game: give --game-index I")
        args.game_index = 0
    why = mpsim.drive_unavailable(getattr(args, "drive", None) or "engine")
    if why:
        return refuse(why)
    if args.mpy_src:
        os.environ["DICECUP_MPY_SRC"] = args.mpy_src
    why = mpsim.unavailable()
    if why:
        return refuse("--micropython: " + why)
    report = None if args.json else print
    try:
        total = mpsim.run_batch(args.cups, args.rules, options, args.games, args.seed, loss=args.loss,
                                bots=args.bots, game_index=args.game_index, trace=args.trace, report=report,
                                shake_ms=args.shake_delay, drive=getattr(args, "drive", None) or "engine",
                                cap=args.cup_heap * 1024)
    except mpsim.fw32.Fw32BuildFailed as e:
        print("dicecup sim: --micropython: %s" % e, file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(total))
    else:
        print("%(games)d games: %(finished)d finished, %(consistent)d consistent, %(hidden_leaks)d hidden leaks, "
              "%(failovers)d failovers, %(away)d away, %(frames)d frames, %(dropped)d dropped, "
              "%(retransmits)d retransmits, %(crashed)d cups crashed, %(memory_errors)d MemoryErrors" % total)
        print("peak heap per cup %s B of %d KB (the emulation's %s B apart); completed at %d KB: %d of %d; "
              "%.0f s simulated in %.0f s" % (
                  "/".join(str(x) for x in total["peak_heap_bytes"]), total["heap_cap_bytes"] // 1024,
                  "/".join(str(x) for x in total["emulator_heap_bytes"]), total["check_cap_bytes"] // 1024,
                  total["completed_at_60k"], total["games"], total["sim_s"], total["real_s"]))
        print(games_line(total))
    good = (total["finished"] == total["games"] == total["consistent"] == total["completed_at_60k"]
            and not total["hidden_leaks"] and not total["crashed"] and not total["memory_errors"])
    return 130 if total.get("interrupted") else 0 if good else 1


def sim_narrated(args, options):
    """One game of simulated cups, told by a listener on the first cup as it happens."""
    from .cluster import Cluster
    from .narrate import Narrator
    c = Cluster(args.cups, args.rules, options, seed=args.seed, loss=args.loss, bots=args.bots,
                shake_ms=args.shake_delay)
    print("%s: %d cups%s over the simulated radio (%.0f%% loss), seed %d" % (
        args.rules, args.cups, " + %d bots" % args.bots if args.bots else "", args.loss * 100, args.seed))

    def ready():
        cup = c.cups[0].cup
        t = cup.table
        print("table %04x, code %s; seats: %s" % (c.tid, c.code, ", ".join(m.name for m in t.members)))
        cup.listen(Narrator(cup, print))
    c.setup(ready)
    if not c.run(8 * 3600 * 1000, c.finished):
        print("the game did not end")
        return 1
    st = c.medium.stats
    print("%d frames on air, %d dropped, %d bytes; every cup ends with the same state: %s" % (
        st["frames"], st["dropped"], st["bytes"],
        len(set(sc.cup.table.snapshot() for sc in c.cups if sc.on)) == 1))
    return 0


def _ms(text):
    """A non-negative number of milliseconds."""
    try:
        ms = int(text)
    except ValueError:
        ms = -1
    if ms < 0:
        raise argparse.ArgumentTypeError("%r is not a number of milliseconds (0 or more)" % text)
    return ms


def _speed(text):
    try:
        v = float(text)
    except ValueError:
        v = 0
    if not 0.1 <= v <= 100:
        raise argparse.ArgumentTypeError("%r: give a speed from 0.1 to 100 (1 = real time)" % text)
    return v


def _partition(text):
    from . import simrun
    try:
        return simrun.parse_partition(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def _kinds():
    from .attacks import KINDS
    return KINDS


def _attack(text):
    from . import attacks
    try:
        return attacks.parse_kinds([text])
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def _one_line_error(prog):
    """A bad argument: one line on stderr, exit status 2 (argparse's usage block left out)."""
    def error(message):
        print("%s: error: %s" % (prog, message), file=sys.stderr)
        sys.exit(2)
    return error


def build_parser():
    p = argparse.ArgumentParser(prog="dicecup", description="Smart dice cups: host tools.")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")

    s = sub.add_parser("scenario", help="replay a rule scenario file and print the final state")
    s.add_argument("file")
    s.add_argument("--micropython", action="store_true",
                   help="run the engine inside MicroPython (heap capped at 110 KB)")
    s.set_defaults(func=cmd_scenario)

    s = sub.add_parser("sim", help="a table of simulated cups over a simulated radio")
    s.add_argument("--rules", choices=RULES, default="perudo")
    s.add_argument("--cups", type=int, default=None, help="cups at the table (1-6 as the rule set allows; default 4)")
    s.add_argument("--seats", help="on a terminal: each cup's seat, e.g. you,normal,strong,easy: you, or a bot "
                                   "level (easy, normal, strong, baseline; bot = easy); default: you on "
                                   "the first cup, easy bots on the others")
    s.add_argument("--speed", type=_speed, default=1.0, help="on a terminal: simulated time per real second (1 = "
                                                             "as at a table)")
    s.add_argument("--lang", choices=("en", "fr", "de", "it", "es"), help="the cups' language")
    s.add_argument("--narrate", action="store_true", help="tell the game as text even on a terminal")
    s.add_argument("--bots", type=int, default=0, help="extra bot seats hosted by the master")
    s.add_argument("--options", help="rule options as JSON, e.g. '{\"palifico\": false}'")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--loss", type=float, default=0.0, help="radio frame loss (0..1)")
    s.add_argument("--headless", action="store_true", help="batch mode: play and check --games games")
    s.add_argument("--games", type=int, default=1)
    s.add_argument("--kill-master", action="store_true", help="power the master off mid-game, then on")
    s.add_argument("--json", action="store_true", help="print the summary as one JSON object, last")
    s.add_argument("--game-index", type=int, help="rerun only game i (seed S+i)")
    s.add_argument("--trace", help="save the radio traffic of --game-index to this file")
    s.add_argument("--shake-delay", type=_ms, default=0, metavar="MS",
                   help="every simulated player shakes MS ms (simulated) after the cup asks, as a hand would")
    s.add_argument("--partition", action="append", type=_partition, metavar="WHO:MS@AT",
                   help="cut WHO (master, peer, half) off for MS ms, AT ms into the game (repeatable)")
    s.add_argument("--attack", action="extend", type=_attack, metavar="KIND",
                   help="with --headless: one seat is an adversary trying KIND all game (repeatable, or all): "
                        "%s; the summary gains per kind how often it was tried and succeeded, and the exit "
                        "status is 1 when any succeeded" % ", ".join(_kinds()))
    s.add_argument("--drive", choices=("engine", "buttons"), default="engine",
                   help="with --headless: engine (the cups' players act on the engine) or buttons (each seat a "
                        "simulated cup running the app, its player pressing virtual buttons and shaking the "
                        "emulated accelerometer)")
    s.add_argument("--micropython", action="store_true",
                   help="with --headless: each cup's whole app in its own 32-bit MicroPython, firmware frozen, "
                        "heap capped (--cup-heap), in lock-step with the host's simulated clock; every game is "
                        "played again at 60 KB; the summary adds peak_heap_bytes per cup")
    s.add_argument("--mpy-src", metavar="PATH",
                   help="with --micropython: the MicroPython source to build from (a tarball or a source tree; "
                        "default: env DICECUP_MPY_SRC, else ../shared/vendor/)")
    s.add_argument("--cup-heap", type=int, default=110, metavar="KB",
                   help="with --micropython: each cup's heap for the app, in KB (default 110: an ESP32 without PSRAM)")
    s.set_defaults(func=cmd_sim)
    _plugins(sub)
    _one_line_everywhere(p)
    return p


def _one_line_everywhere(parser):
    """Every parser and subparser answers a bad argument in one line (exit 2)."""
    parser.error = _one_line_error(parser.prog)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _one_line_everywhere(child)


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
    except KeyboardInterrupt:
        # A command flushes what it has and returns 130 itself; this is the backstop
        # for a Ctrl-C that lands between its own handlers (never a traceback).
        return 130


if __name__ == "__main__":
    sys.exit(main())
