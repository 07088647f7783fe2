"""Events out: every happening at the table as a structured event, from one table of kinds.

    cup.listen(fn)                 # fn(ev) for public and local events
    cup.listen(fn, private=True)   # ...and this cup's private ones (my dice)
    ev.kind, ev["seat"], ev.get("face"), ev.fields()

Three scopes:
* PUBLIC events derive from replicated ops: every cup that applied the same ops emits
  the same ones, in the same order, and each is named by (table, term, version, index)
  -- what a logger needs to drop duplicates across reconnects and reboots.
* LOCAL events are this cup's own happenings (its radio link, a rejected input, a
  reminder, waiting for a shake): named by the cup's boot and a counter.
* PRIVATE events carry what only this cup may know before the reveal (its dice, its
  commitment). They reach only listeners that ask for them and never the serial log.

Listeners are the seams: the serial JSON log, the screens, the host's narration and
the benchmarks each subscribe; nothing parses log text back into events.
"""

from micropython import const

PUBLIC = 0
LOCAL = 1
PRIVATE = 2

# (kind, field names), the names in the order of the event tuples the engine and the table
# build: a constant tuple (in flash when frozen; a dict would be built in RAM). names_of(kind).
KINDS = (
    # the lobby and the table
    ("joined", ("member", "name", "bot", "level")),   # level: a bot's (players.KINDS), None for a cup
    ("left", ("member",)),
    ("seats", ("order",)),                  # member ids in seat order
    ("rules", ("rules", "options")),        # options: [[name, value], ...]
    ("start", ("game", "seats")),           # game number, seat count
    ("master", ("member", "old", "term")),  # the table master changed
    ("away", ("member",)),                  # silent on the radio: the master's bot plays the seat
    ("back", ("member",)),                  # heard again: the cup plays its seat again
    ("autoplay", ("member", "on")),         # the cup's own bot plays the seat (on) / the player again
    # the bluffing games
    ("rolloff", ("seat", "faces")),         # Bluff: public dice that draw the first opener
    ("open", ("round",)),                   # a round opens: every cup shakes
    ("rolled", ("round", "opener")),        # every cup has rolled: bidding opens
    ("bid", ("seat", "quantity", "face")),
    ("reroll", ("seat", "aside", "rerolled")),  # Bluff: dice set aside face up, the rest rerolled
    ("challenge", ("seat",)),
    ("exact", ("seat",)),
    ("reveal", ("quantity", "face", "count", "hands")),  # hands: every seat's hidden dice
    ("lose", ("seat", "dice")),
    ("gain", ("seat", "dice")),
    ("forfeit", ("seat", "dice")),          # a reveal that does not match its commitment
    ("withheld", ("seat",)),                # no reveal in time after a certified call: loses the round
    ("out", ("seat",)),                     # eliminated: no dice left
    ("round", ("round", "opener", "special")),  # the next round and who opens it
    ("replay", ("round", "opener", "reason")),  # the round is played again with fresh rolls
    ("win", ("seat",)),
    # Dix mille
    ("roll", ("seat", "faces")),
    ("keep", ("seat", "faces", "points", "total")),
    ("hot", ("seat",)),
    ("bank", ("seat", "points", "score")),
    ("bust", ("seat", "lost")),
    ("cross", ("seat", "crosses")),
    ("penalty", ("seat", "points", "score")),
    ("overshoot", ("seat", "total")),
    ("turn", ("seat",)),
    # what loggers and re-checkers need: the op itself and the state after it
    ("op", ("op", "hex", "state")),
    ("snapshot", ("hex", "state")),
    # local
    ("link", ("up",)),                      # the radio link to the table: lost (False) / back (True)
    ("quorum", ("ok",)),                    # waiting for the table (False: no majority of its cups
                                          # can be reached, so nothing is decided) / going on again
    ("shake", ("what",)),                   # waiting for this cup to be shaken: round, reroll, roll
    ("remind", ("what",)),                  # the player has been waited for a while: shake, act
    ("rejected", ("action", "code")),       # this cup's input was refused, with the engine's code
    ("join_failed", ("table", "why")),      # a join got no welcome: wrong-code, locked, busy, full, closed,
                                          # bad-share, no-answer (net/lobby.py)
    ("internal", ("where", "error")),       # a bug caught on the cup, counted and survived
    ("forged", ("version", "why")),         # an op this cup can check is false (named by the leader
                                          # that sent it): refused, never applied
    # private
    ("dice", ("faces",)),                   # my hidden dice
    ("committed", ("what", "digest")),      # my commitment went out
)

# the kinds that are not PUBLIC (scope_of)
_LOCAL = const(("link", "quorum", "join_failed", "shake", "remind", "rejected", "internal", "forged", "snapshot"))
_PRIVATE = const(("dice", "committed"))


class Event:
    """One happening: `kind`, its `values` in KINDS order, and where it stands:
    table id, term and version of the op it came from and its index among that op's
    events (public), or the cup's boot and a counter (local, private)."""

    def __init__(self, kind, values, table, term, version, index, t, scope=PUBLIC):
        self.kind = kind
        self.values = values
        self.table = table
        self.term = term
        self.version = version
        self.index = index
        self.t = t
        self.scope = scope

    def names(self):
        return names_of(self.kind)

    def get(self, name, default=None):
        names = names_of(self.kind)
        return self.values[names.index(name)] if name in names else default

    def __getitem__(self, name):
        names = names_of(self.kind)
        if name not in names:
            raise KeyError(name)
        return self.values[names.index(name)]

    def fields(self):
        """[(name, value), ...] in the table's order."""
        names = names_of(self.kind)
        return [(names[i], self.values[i]) for i in range(len(names))]

    def key(self):
        """What identifies a public event across cups, reconnects and reboots."""
        return (self.table, self.term, self.version, self.index)

    def __repr__(self):
        return "<%s %s v%d.%d>" % (self.kind, self.values, self.version, self.index)


def names_of(kind):
    """The field names of events of `kind` (KeyError for a kind not in KINDS)."""
    for k, names in KINDS:
        if k == kind:
            return names
    raise KeyError(kind)


def scope_of(kind):
    return PRIVATE if kind in _PRIVATE else LOCAL if kind in _LOCAL else PUBLIC


class Bus:
    """Listeners of one cup. `emit` hands each event to every listener of its scope."""

    def __init__(self):
        self.listeners = []   # (fn, highest scope wanted)
        self.count = 0        # local/private events so far (their index)

    def listen(self, fn, private):
        self.listeners.append((fn, PRIVATE if private else LOCAL))

    def wanted(self, scope):
        """Whether anybody listens at this scope (else no event need be built)."""
        for fn, top in self.listeners:
            if scope <= top:
                return True
        return False

    def emit(self, ev):
        for fn, top in self.listeners:
            if ev.scope <= top:
                fn(ev)
