"""The table engine: five rule sets behind one API, no I/O, randomness injected.

    g = new_game("perudo", 3, {"palifico": True}, rng=random.Random(7))
    g.need()                  -> what must happen now: SHAKE, BID, REVEAL (bluffing
                                 games), ROLL, KEEP, BANK_OR_ROLL (dixmille) or OVER
    g.to_act()                -> seat that must act (None: all roll / reveal, or over)
    g.legal(seat, hand=None)  -> action ints (see actions.py); Bluff rerolls given a hand
    g.apply(seat, action)     -> public events; IllegalAction(code) leaves g unchanged
    g.start_round()           -> bluffing games: the cups have rolled; [("rolled", round, opener)]
    g.settle(hands)           -> bluffing games: revealed hidden dice, per seat
    g.roll_size(seat)         -> dice the seat's next roll uses (0: it rolls nothing now)
    g.hidden(seat)            -> dice under the seat's cup (0 in dixmille)
    g.counts(face)            -> faces counting for a bid on `face` this round, wilds
                                 included: (4, 1) in a normal Perudo round; () in dixmille
    g.wild()                  -> the face wild for number bids this round, or None
    g.history()               -> bluffing games: this round's bids, [(seat, q, f), ...]
    g.view(seat, hand=None)   -> View: what that seat knows, one shape for every rule
                                 set (view.py), e.g. v.need, v.mine, v.bid, v.bids, v.legal
    g.dumps() / loads(bytes)  -> the whole state in a few bytes
"""
from micropython import const

from .errors import IllegalAction
from .codec import BadState, Reader
from .need import BANK_OR_ROLL, BID, KEEP, OVER, REVEAL, ROLL, SHAKE

RULES = ("bluff", "perudo", "menteur", "liars", "dixmille")

# Each rule set's options in RULES order, (name, choices) with choices[0] the default:
# the classes' OPTIONS, read here without importing a rule set -- the lobby shows and
# sets them before any game exists, so a cup in the lobby (running the joins' CPace)
# holds no engine yet.
_OPTIONS = const((
    (("star_track", ("board", "half")), ("reroll", (False, True))),
    (("palifico", (True, False)), ("calza_anyone", (False, True))),
    (),
    (("one_life", (False, True)), ("spot_on", (False, True))),
    (("overshoot_penalty", (False, True)),),
))


def options_of(rules):
    """A rule set's OPTIONS without importing it; ValueError for an unknown one."""
    if rules not in RULES:
        raise ValueError("unknown rule set %r" % (rules,))
    return _OPTIONS[RULES.index(rules)]


def option_bits(rules, options):
    """The option bits of `options` (a dict of RULES.md names, or None): bit i is set
    when option i takes its second choice. Bad names or values raise ValueError, as a
    new game's would."""
    bits = 0
    bit = 1
    known = options_of(rules)
    options = options or {}
    for name, choices in known:
        value = options.get(name, choices[0])
        idx = -1
        for i in range(len(choices)):
            if type(value) is type(choices[i]) and value == choices[i]:
                idx = i
        if idx < 0:
            raise ValueError("option %s must be one of %s" % (name, choices))
        if idx:
            bits |= bit
        bit <<= 1
    for name in options:
        if not any(name == o[0] for o in known):
            raise ValueError("%s has no option %s" % (rules, name))
    return bits


_loaded = {}


def rules_class(name):
    """The class for a rule-set name; imported on demand to keep the cup's heap small."""
    cls = _loaded.get(name)
    if cls is None:
        cls = _loaded[name] = _import(name)
    return cls


def _import(name):
    if name == "bluff":
        from .bluff import Bluff
        return Bluff
    if name == "perudo":
        from .perudo import Perudo
        return Perudo
    if name == "menteur":
        from .menteur import Menteur
        return Menteur
    if name == "liars":
        from .liars import Liars
        return Liars
    if name == "dixmille":
        from .dixmille import DixMille
        return DixMille
    raise ValueError("unknown rule set %r" % (name,))


def new_game(rules, seats, options=None, rng=None, opener=None):
    """A new game. `opener` (a seat) replaces the draw; else `rng.randrange` draws it.
    Bad set-up (rule set, seat count, option name or value) raises ValueError."""
    return (_loaded.get(rules) or rules_class(rules))(seats, options, opener, rng)


def loads(data):
    """Rebuild a game from `dumps()` bytes; BadState when they are not a valid state."""
    if not data:
        raise BadState("empty state")
    head = data[0]
    if head >> 4 != 1:
        raise BadState("state format %d unknown" % (head >> 4))
    code = head & 15
    if not 1 <= code <= len(RULES):
        raise BadState("rule set %d unknown" % code)
    cls = rules_class(RULES[code - 1])
    if len(data) < 3:
        raise BadState("state truncated")
    n = data[2] & 7
    if not 1 <= n <= 6:
        raise BadState("seat count %d" % n)
    g = object.__new__(cls)  # MicroPython classes have no __new__ of their own
    g.n = n
    g.opening = []
    if code != 5:
        g.aside = [0] * n
    r = Reader(data)
    r.byte()
    g._restore(r)
    return g
