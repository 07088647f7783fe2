"""`dicecup vboard`: a virtual cup behind a pseudo-terminal (host/dicecup_host/vboard.py).

    dicecup vboard [--board B] [--flash DIR] [--link PATH]     an empty cup: flash it
    dicecup vboard --play RULES --bots N [--link PATH]         the firmware plays a game

The first line printed is the port to use (the --link path when given, else the pty),
so a script can read it and start `make flash PORT=...` or `dicecup log --port ...`.
Then it serves until stopped (Ctrl-C, q, SIGTERM). To test a serial reader like a
cable: `u` or SIGUSR1 pulls the cable for --unplug-s seconds (a new pty behind the same
--link), `r` or SIGUSR2 presses reset.

A cup with a fault, for `dicecup doctor`: `--no-chip display|accel` leaves that chip off
the I2C bus (nothing ACKs its address), `--hold BUTTON` keeps a button pressed from
power-on (stuck, or the safe button held). `--control PATH` makes a FIFO whose lines
are what a person does to the cup: `press|tap|release BUTTON`, `shake` (and set it
down), `tilt` (peek), `still`.
"""
import argparse
import os
import shutil
import signal
import sys
import tempfile
import stat
import termios
import tty
from pathlib import Path

from dicecup.engine import RULES

from . import cli, outpath
from .cmd_hw import board_arg


def _count(lo, hi, what):
    def parse(text):
        try:
            v = int(text)
        except ValueError:
            v = None
        if v is None or not lo <= v <= hi:
            raise argparse.ArgumentTypeError("%r: give %s from %d to %d" % (text, what, lo, hi))
        return v
    return parse


def _seconds(text):
    try:
        v = float(text)
    except ValueError:
        v = -1
    if not 0 <= v <= 3600:
        raise argparse.ArgumentTypeError("%r: give the seconds the cable stays out (0 to 3600)" % text)
    return v


def _replaceable(flag, what, ok):
    """--link, --control: a new path, or one an earlier run left (`ok(path)`: it is made
    anew), never an existing file or folder of someone else's."""
    def parse(text):
        path = os.path.abspath(os.path.expanduser(text))
        if os.path.exists(path) and not ok(path):
            raise argparse.ArgumentTypeError("%s exists and is not a %s: give a new path" % (path, what))
        try:
            outpath.file(path, flag)
        except outpath.OutputError as e:
            raise argparse.ArgumentTypeError(str(e).replace(flag + " ", "", 1))
        return path
    return parse


_link = _replaceable("--link", "symlink", os.path.islink)
_fifo = _replaceable("--control", "FIFO", lambda path: stat.S_ISFIFO(os.stat(path).st_mode))


def check_play(rules, bots):
    """A table the firmware can seat: the cup and `bots` bots (ValueError says why)."""
    import random

    from dicecup.engine import new_game
    new_game(rules, 1 + bots, None, rng=random.Random(0))


def load_play(flash, rules, bots, name=None, lang=None, board=None, status=print):
    """Put the project's firmware (the flash bundle) on the virtual cup's flash with the
    configuration that makes it boot as master of a table of `bots` bots and play."""
    from . import bundle
    tmp = tempfile.mkdtemp(prefix="dicecup-vboard-")
    try:
        tree = bundle.build_bundle(Path(tmp) / "tree", board)
        shutil.copytree(tree, flash, dirs_exist_ok=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    store = Path(flash) / "dicecup"
    store.mkdir(exist_ok=True)
    (store / "play").write_text("%s %d" % (rules, bots))
    for key, value in (("name", name), ("lang", lang)):
        if value:
            (store / key).write_text(value)
    status("firmware on the flash: %s with %d bots, one game" % (rules, bots))


def check_hold(board_path, holds):
    """--hold names a button of the board (ValueError says which ones it has)."""
    from dicecup.hw import board as fwb
    names = fwb.load(board_path).button_names()
    for name in holds:
        if name not in names:
            raise ValueError("--hold %s: the board has no such button (it has %s)" % (name, ", ".join(names)))


def run(args):
    from . import vboard
    try:
        check_hold(args.board, args.hold)
    except ValueError as e:
        print("dicecup vboard: %s" % e, file=sys.stderr)
        return 2
    if args.bots is not None and not args.play:
        print("dicecup vboard: --bots needs --play RULES", file=sys.stderr)
        return 2
    if args.play:
        args.bots = 3 if args.bots is None else args.bots
        try:
            check_play(args.play, args.bots)
        except ValueError as e:
            print("dicecup vboard: --play %s --bots %d: %s" % (args.play, args.bots, e), file=sys.stderr)
            return 2
    binary = None
    if args.frozen:
        from . import fw32
        try:
            binary = str(fw32.build())
        except fw32.Fw32Unavailable as e:
            print("dicecup vboard: --frozen: %s" % e, file=sys.stderr)
            return 2
    temp = None
    if args.flash:
        flash = Path(args.flash)
    else:
        temp = flash = Path(tempfile.mkdtemp(prefix="dicecup-vboard-flash-"))

    def status(line):
        print("vboard: " + line, flush=True)

    keys = None
    saved = None
    try:
        flash.mkdir(parents=True, exist_ok=True)
        if args.play:
            load_play(flash, args.play, args.bots, args.name, args.lang, args.board, status=lambda s: None)
        board = vboard.VBoard(flash, args.board, heap_kb=args.heap, link=args.link, unplug_s=args.unplug_s,
                              absent=args.no_chip, hold=args.hold, control=args.control,
                              binary=binary)
        for sig, what in ((signal.SIGUSR1, "replug"), (signal.SIGUSR2, "reboot"),
                          (signal.SIGTERM, "stop"), (signal.SIGINT, "stop"), (signal.SIGHUP, "stop")):
            signal.signal(sig, lambda *a, what=what: board.ask(what))
        try:
            keys = sys.stdin.fileno()
        except (AttributeError, ValueError, OSError):
            keys = None          # no stdin: signals only
        if keys is not None:
            if os.isatty(keys):
                saved = termios.tcgetattr(keys)
                tty.setcbreak(keys)

        def ready(port):
            print(args.link or port, flush=True)
            status("%s, flash %s%s; keys: u unplug, r reset, q quit; SIGUSR1 unplug, SIGUSR2 reset" % (
                board.board.name, flash, " (removed at the end)" if temp else "",))
            if args.link:
                status("%s -> %s" % (args.link, port))
            if args.frozen:
                status("MicroPython with the cup firmware frozen in (the 32-bit fw32 build, --frozen)")
            for chip in args.no_chip:
                status("no %s on the I2C bus (--no-chip)" % chip)
            for name in args.hold:
                status("button %s held down (--hold)" % name)
            if args.control:
                status("control FIFO %s: press|tap|release BUTTON, shake, tilt, still" % args.control)
            if args.play:
                status("boots as master of a %s table with %d bots and plays one game" % (args.play, args.bots))
        board.serve(status=status, keys=keys, ready=ready)
    finally:
        if saved is not None:
            termios.tcsetattr(keys, termios.TCSADRAIN, saved)
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)
    return 0


def register(sub):
    p = sub.add_parser("vboard", help="a virtual cup on a pseudo-terminal (MicroPython's raw REPL): "
                                      "flash it, log it, or let it play")
    p.add_argument("--board", default="esp32-devkitc", type=board_arg,
                   help="the emulated hardware: a board name or a board file's path (default esp32-devkitc)")
    p.add_argument("--flash", type=outpath.arg_folder("--flash"),
                   help="a folder for the cup's flash, kept (default: a temporary one, removed at the end)")
    p.add_argument("--link", type=_link, help="a symlink to the pty, kept pointing at it across unplugs")
    p.add_argument("--heap", type=_count(64, 65536, "the heap in KB"), default=1024, metavar="KB",
                   help="MicroPython's heap in KB (default 1024: the 64-bit unix port's objects are "
                        "1.3-1.8x a cup's, so this is a board with PSRAM)")
    p.add_argument("--frozen", action="store_true",
                   help="run the 32-bit MicroPython with the cup firmware frozen in (build/fw32, needs "
                        "gcc-multilib), as a board flashed with `make firmware`'s image")
    p.add_argument("--play", choices=RULES, help="put the firmware on and boot it as master of a table "
                                                 "with --bots bots; it plays one game, its event log on the pty")
    p.add_argument("--bots", type=_count(0, 5, "a number of bots"), help="with --play: bot seats (default 3)")
    p.add_argument("--name", help="with --play: the cup's name")
    p.add_argument("--lang", choices=("en", "fr", "de", "it", "es"), help="with --play: the cup's language")
    p.add_argument("--unplug-s", type=_seconds, default=1.0, metavar="S",
                   help="how long u / SIGUSR1 keeps the cable out (default 1 s)")
    p.add_argument("--no-chip", action="append", default=[], choices=vboard_chips(),
                   help="leave this chip off the I2C bus (no ACK at its address); may be repeated")
    p.add_argument("--hold", action="append", default=[], metavar="BUTTON",
                   help="this button held pressed from power-on (stuck); may be repeated")
    p.add_argument("--control", type=_fifo, metavar="PATH",
                   help="a FIFO to make at PATH: lines press|tap|release BUTTON, shake, tilt, still")
    p.set_defaults(func=run)
    p.error = cli._one_line_error("dicecup vboard")


def vboard_chips():
    from .vboard import CHIPS
    return CHIPS
