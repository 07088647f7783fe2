"""`dicecup cards OUTDIR [--lang L] [--no-pdf]`: the quick-start card in every language
(or the ones given), as `quickstart-<lang>.png` (front and back side by side) and
`quickstart-<lang>.pdf` (two A6 pages), the screens on them the cup's real renders
(host/cards.py)."""
import os
import sys

from dicecup.ui import lang as _lang


def register(sub):
    s = sub.add_parser("cards", help="the quick-start card per language (PNG and PDF)")
    s.add_argument("outdir", help="folder for the cards (made if missing)")
    s.add_argument("--lang", choices=_lang.LANGS, action="append",
                   help="only this language (repeatable); default: all five")
    s.add_argument("--no-pdf", action="store_true", help="the PNGs only")
    s.set_defaults(func=run)
    from .cli import _one_line_error
    s.error = _one_line_error("dicecup cards")


def run(args):
    if os.path.exists(args.outdir) and not os.path.isdir(args.outdir):
        print("dicecup cards: %s is a file, not a folder" % args.outdir, file=sys.stderr)
        return 2
    try:
        os.makedirs(args.outdir, exist_ok=True)
        probe = os.path.join(args.outdir, ".dicecup-write-test")
        open(probe, "wb").close()
        os.remove(probe)
    except OSError as e:
        print("dicecup cards: cannot write to %s: %s" % (args.outdir, e.strerror or e), file=sys.stderr)
        return 2
    from . import cards
    langs = list(dict.fromkeys(args.lang or _lang.LANGS))
    try:
        paths = cards.write(args.outdir, langs, pdf=not args.no_pdf)
    except OSError as e:
        print("dicecup cards: cannot write to %s: %s" % (args.outdir, e.strerror or e), file=sys.stderr)
        return 2
    print("%d files written to %s" % (len(paths), args.outdir))
    return 0
