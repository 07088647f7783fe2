"""The players that can sit in a seat without a person: one module per level.

Every player reads only a View (`g.view(seat, hand)`) and has the same two calls as
`dicecup.bots`:

    act(view, rng)          -> an action int, or None (nothing to do now)
    reroll(view, bid, rng)  -> Bluff's reroll action after its own bid, or None

`get(kind)` imports a level on first use (a cup pays RAM only for the levels its
table seats). `KINDS` is the order a lobby offers them in.
"""
KINDS = ("easy", "normal", "strong", "baseline")

_MODULES = {
    "easy": "dicecup.bots",
    "normal": "dicecup.players.normal",
    "strong": "dicecup.players.strong",
    "baseline": "dicecup.players.baseline",
}


class UnknownPlayer(ValueError):
    pass


def get(kind):
    """The player module for `kind` (one of KINDS, when built)."""
    name = _MODULES.get(kind)
    if name is None:
        raise UnknownPlayer("no player %r (there are: %s)" % (kind, ", ".join(available())))
    m = __import__(name)
    for part in name.split(".")[1:]:
        m = getattr(m, part)
    return m


def available():
    """The kinds built so far, in KINDS order."""
    return [k for k in KINDS if k in _MODULES]
