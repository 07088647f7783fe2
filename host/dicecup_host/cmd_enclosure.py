"""`dicecup enclosure --board B [--out DIR]`: the printable cup for a board
(hardware/enclosure/cup.py): body, tray and lid as STL + STEP in print orientation,
assembly.step, and PNG previews (assembly, section, mouth, print).

    dicecup enclosure --board esp32-devkitc          (make enclosure BOARD=esp32-devkitc)
    dicecup enclosure --board my-board.json --out cup/ --no-previews

The board (and its mechanical section) and the output folder are checked before the
model is built: a bad one is one line and exit 2.
"""
import os
import sys

from . import outpath


def _board(text):
    import argparse
    from dicecup_host import enclosure
    try:
        return enclosure.board_data(text)
    except enclosure.EnclosureError as e:
        raise argparse.ArgumentTypeError(str(e))


def _run(args):
    import time
    from dicecup_host import enclosure
    out = args.out or str(enclosure.mpy.ROOT / "build" / "enclosure" / args.board["board"])
    try:
        outpath.folder(out, "--out")
        os.makedirs(out, exist_ok=True)        # made now: a folder we cannot make fails before the build
    except outpath.OutputError as e:
        args.parser.error(str(e))
    except OSError as e:
        args.parser.error("--out %s: %s" % (out, e.strerror or e))
    t = time.time()
    try:
        model = enclosure.model(args.board)
    except enclosure.EnclosureError as e:
        print("dicecup enclosure: %s" % e, file=sys.stderr)
        return 2
    L = model.layout
    print("%s: mouth %.0f mm, crown %.0f mm, %.0f mm tall; tray %.1f mm below the crown"
          % (args.board["board"], L["mouth"], L["crown"], L["body_h"] + enclosure.cup().LID_T,
             L["z_top"] - L["z_tray"]))
    files = enclosure.write(model, out, previews=not args.no_previews)
    for name, size in files.items():
        print("%8d  %s" % (size, name))
    print("%d files in %s (%.0f s)" % (len(files), out, time.time() - t))
    return 0


def register(sub):
    p = sub.add_parser("enclosure", help="the printable cup for a board: STL, STEP, previews")
    p.add_argument("--board", default="esp32-devkitc", type=_board,
                   help="a board name in hardware/boards or a board file's path (default esp32-devkitc)")
    p.add_argument("--out", type=outpath.arg_folder("--out"),
                   help="output folder (default build/enclosure/BOARD)")
    p.add_argument("--no-previews", action="store_true", help="only the STL and STEP files")
    p.set_defaults(func=_run, parser=p)
