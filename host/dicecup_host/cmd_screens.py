"""`dicecup screens OUTDIR [--lang L]`: every screen of the cup in every language (or
one), as `<screen>-<lang>.png`, 128x64 scaled up with crisp pixels (host/gallery.py)."""
import os
import sys

from dicecup.ui import lang as _lang


def register(sub):
    s = sub.add_parser("screens", help="render every screen of the cup to PNG files")
    s.add_argument("outdir", help="folder for the PNGs (made if missing)")
    s.add_argument("--lang", choices=_lang.LANGS, action="append",
                   help="only this language (repeatable); default: all five")
    s.add_argument("--scale", type=int, default=4, help="pixels per OLED pixel (1-16)")
    s.add_argument("--strip", action="store_true", help="also write strip.png: six screens side by side")
    s.set_defaults(func=run)
    from .cli import _one_line_error
    s.error = _one_line_error("dicecup screens")


def run(args):
    if not 1 <= args.scale <= 16:
        print("dicecup screens: --scale must be 1 to 16", file=sys.stderr)
        return 2
    try:
        os.makedirs(args.outdir, exist_ok=True)
        probe = os.path.join(args.outdir, ".dicecup-write-test")
        open(probe, "wb").close()
        os.remove(probe)
    except OSError as e:
        print("dicecup screens: cannot write to %s: %s" % (args.outdir, e.strerror or e), file=sys.stderr)
        return 2
    from . import gallery
    paths = gallery.render(args.outdir, args.lang or _lang.LANGS, scale=args.scale)
    if args.strip:
        paths.append(gallery.strip(os.path.join(args.outdir, "strip.png")))
    print("%d screens written to %s" % (len(paths), args.outdir))
    return 0
