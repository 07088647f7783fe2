"""`dicecup sim`'s arguments checked before any cup starts: a table the rule set cannot
seat, options it does not have, a loss that silences the radio, a count or a game index
out of range, an output that cannot be written -- each one line for the person who typed
it (cli.py prints it and exits 2), never a traceback minutes into a batch."""
import json
import random

from dicecup.engine import new_game

from . import outpath

MAX_CUPS = 6       # the host names six simulated cups (cli.NAMES)


class ArgError(ValueError):
    """A `dicecup sim` argument that cannot work (its message is the one line to print)."""


def options(text):
    """--options JSON -> a dict (None when not given)."""
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError as e:
        raise ArgError("--options %s is not JSON (%s)" % (text, e))
    if not isinstance(value, dict):
        raise ArgError("--options %s: give a JSON object of option names and values, e.g. "
                       "'{\"palifico\": false}'" % text)
    return value


def check(args):
    """Raise ArgError when the arguments cannot make a game; returns the options dict."""
    opts = options(args.options)
    if not 1 <= args.cups <= MAX_CUPS:
        raise ArgError("--cups %d: a table has 1 to %d simulated cups" % (args.cups, MAX_CUPS))
    if args.bots < 0:
        raise ArgError("--bots %d: give 0 or more bot seats" % args.bots)
    if not 0.0 <= args.loss < 1.0:
        raise ArgError("--loss %g: give a frame loss from 0 up to (not including) 1" % args.loss)
    try:
        new_game(args.rules, args.cups + args.bots, opts, rng=random.Random(0))
    except ValueError as e:
        raise ArgError("%s (--cups %d, --bots %d)" % (e, args.cups, args.bots)
                       if "seats" in str(e) else "--options: %s" % e)
    if args.games < 1:
        raise ArgError("--games %d: give 1 or more games" % args.games)
    if args.game_index is not None and not 0 <= args.game_index < args.games:
        raise ArgError("--game-index %d: the batch has games 0 to %d (--games %d)" % (
            args.game_index, args.games - 1, args.games))
    if args.trace:
        try:
            outpath.file(args.trace, "--trace")
        except outpath.OutputError as e:
            raise ArgError(str(e))
    return opts
