"""`dicecup firmware --board B`: MicroPython's ESP32 port built with the cup's modules
frozen in (host/dicecup_host/fwbuild.py), for a board without PSRAM.

    dicecup firmware --board esp32-devkitc      (make firmware BOARD=esp32-devkitc)
    dicecup firmware --board B --dry-run        what would run, checking nothing else

Without ESP-IDF or a MicroPython checkout (MICROPYTHON_DIR) it says in one line what is
missing and exits 2, as for a bad board.
"""
import sys
from pathlib import Path

from .cmd_hw import board_arg


def _firmware(args):
    from . import fwbuild
    try:
        board, variant = fwbuild.port_board(args.board)
    except fwbuild.FirmwareError as e:
        print("dicecup firmware: %s" % e, file=sys.stderr)
        return 2
    if args.dry_run:
        mp = fwbuild.micropython_dir() or Path("$MICROPYTHON_DIR")
        print("MicroPython board %s%s (official image: %s)" % (
            board, " variant " + variant if variant else "", fwbuild.image_name(board, variant)))
        for cmd in fwbuild.make_commands(mp, board, variant):
            print(" ".join(cmd))
        return 0
    reason = fwbuild.missing()
    if reason:
        print("dicecup firmware: %s" % reason, file=sys.stderr)
        return 2
    try:
        image = fwbuild.build(args.board)
    except fwbuild.FirmwareError as e:
        print("dicecup firmware: %s" % e, file=sys.stderr)
        return 1
    print("firmware: %s" % image)
    print("flash it: make flash BOARD=%s FIRMWARE=%s" % (args.board_name, image))
    return 0


def _board(text):
    """--board: checked like `dicecup flash`'s; the name given is kept for the hint."""
    return text, board_arg(text)


def register(sub):
    p = sub.add_parser("firmware", help="build MicroPython for a board with the cup frozen in (needs ESP-IDF)")
    p.add_argument("--board", default="esp32-devkitc", type=_board,
                   help="a board name in hardware/boards or a board file's path (default esp32-devkitc)")
    p.add_argument("--dry-run", action="store_true", help="print the MicroPython board and the make commands")
    p.set_defaults(func=_run)


def _run(args):
    args.board_name, args.board = args.board
    return _firmware(args)
