"""`dicecup hw ...`: the cup's hardware from the host.

    dicecup hw boards                         list the board files
    dicecup hw check FILE...                  validate board files (yours too; with
                                              their mechanical section, see mechanical.py)
    dicecup hw bundle --board B --out DIR     the folder `make flash` copies to a cup
    dicecup hw selftest --board B [--seconds S] [--png FILE]
                                              the self-test on an emulated cup
    dicecup hw wiring [--check]               regenerate hardware/wiring/*.svg
    dicecup hw power [--mah N --lit P --peek P]   the power budget
"""
import argparse
import json
import sys

from . import outpath


def board_arg(text):
    """--board: a board name or a board file's path, checked before any work."""
    from dicecup_host import bundle
    try:
        return str(bundle.board_file(text))
    except bundle.BundleError as e:
        raise argparse.ArgumentTypeError(str(e))


def _seconds(text):
    try:
        v = float(text)
    except ValueError:
        v = -1
    if not 0 < v <= 3600:
        raise argparse.ArgumentTypeError("%r: give the seconds to run, more than 0 (at most 3600)" % text)
    return v


def _figure(ok, message):
    """A power-budget figure: a number for which ok(v) holds, else `message`."""
    def parse(text):
        try:
            v = float(text)
        except ValueError:
            v = None
        if v is None or v != v or not ok(v):
            raise argparse.ArgumentTypeError("%r: give %s" % (text, message))
        return v
    return parse


MAH = _figure(lambda v: 0 < v < 1e6, "the battery's capacity in mAh (more than 0)")
PERCENT = _figure(lambda v: 0 <= v <= 100, "a percentage from 0 to 100")


def _boards(args):
    from dicecup_host import bundle, wiring
    for name in bundle.boards():
        b = wiring.load(name)
        print("%-20s %-8s %d buttons, safe mode: hold %s  (%s)"
              % (name, b.chip, len(b.buttons), b.buttons[b.safe_button].name, b.title))
    return 0


def _check(args):
    from dicecup.hw import board
    from dicecup.hw.errors import BoardError
    from dicecup_host import mechanical, powerspec
    bad = 0
    for path in args.files:
        try:
            with open(path) as fh:
                data = json.load(fh)
        except OSError as e:
            print("%s: cannot read: %s" % (path, e))
            bad += 1
            continue
        except ValueError as e:
            print("%s: not valid JSON: %s" % (path, e))
            bad += 1
            continue
        try:
            b = board.from_dict(data, path, None)
            m = mechanical.board_mechanical(data, path)
            powerspec.check(data, b)      # (host-side: the cup never reads "power")
        except BoardError as e:
            print(e)
            bad += 1
            continue
        if m:
            mech = "; mechanical: %g x %g x %g mm, %d USB, %d holes" % (
                m["l"], m["w"], m["t"], len(m["usb"]), len(m["holes"]))
        else:
            mech = "; no mechanical section (no enclosure for it)"
        print("%s: ok (%s, %s, %d buttons)%s" % (path, b.name, b.chip, len(b.buttons), mech))
    return 1 if bad else 0


def _bundle(args):
    from dicecup_host import bundle
    try:
        files = bundle.files(bundle.build_bundle(args.out, args.board, arch=args.arch))
    except Exception as e:  # BundleError, BoardError
        print("dicecup hw bundle: %s" % e, file=sys.stderr)
        return 1
    for name, size in files.items():
        print("%7d  %s" % (size, name))
    print("%7d  total, %d files in %s" % (sum(files.values()), len(files), args.out))
    return 0


def _selftest(args):
    from dicecup_host import hwsim
    lines, screen = hwsim.selftest(args.board, args.seconds)
    for ln in lines:
        print(ln)
    print()
    print(screen.text())
    if args.png:
        with open(args.png, "wb") as fh:
            fh.write(screen.png())
        print("screen written to %s" % args.png)
    return 0


def _wiring(args):
    from dicecup_host import wiring
    return wiring.main(["--check"] if args.check else [])


def _power(args):
    from dicecup_host import powerbudget
    return powerbudget.main(["--mah", str(args.mah), "--lit", str(args.lit), "--peek", str(args.peek)])


def register(sub):
    p = sub.add_parser("hw", help="the cup's hardware: boards, bundle, self-test, wiring, power")
    hs = p.add_subparsers(dest="hw_cmd", required=True)
    s = hs.add_parser("boards", help="list the board files")
    s.set_defaults(func=_boards)
    s = hs.add_parser("check", help="validate board files")
    s.add_argument("files", nargs="+")
    s.set_defaults(func=_check)
    s = hs.add_parser("bundle", help="build the folder to copy to a cup")
    s.add_argument("--board", required=True, type=board_arg, help="a board name or a board file's path")
    s.add_argument("--out", required=True, type=outpath.arg_folder("--out"))
    s.add_argument("--arch", help="mpy-cross -march (only matters for native code)")
    s.set_defaults(func=_bundle)
    s = hs.add_parser("selftest", help="run the self-test on an emulated cup")
    s.add_argument("--board", default="esp32-devkitc", type=board_arg, help="a board name or a board file's path")
    s.add_argument("--seconds", type=_seconds, default=5.0)
    s.add_argument("--png", type=outpath.arg_file("--png"), help="also write the final screen as a PNG")
    s.set_defaults(func=_selftest)
    s = hs.add_parser("wiring", help="regenerate the wiring SVGs")
    s.add_argument("--check", action="store_true", help="only report stale ones (exit 1)")
    s.set_defaults(func=_wiring)
    s = hs.add_parser("power", help="the power budget")
    s.add_argument("--mah", type=MAH, default=1200)
    s.add_argument("--lit", type=PERCENT, default=15)
    s.add_argument("--peek", type=PERCENT, default=100)
    s.set_defaults(func=_power)
