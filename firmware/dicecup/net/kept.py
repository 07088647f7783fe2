"""The roots a cup must still be able to reveal, kept in flash so a reboot loses none:
its own seat's (each generation still needed: the current one, and a Bluff reroll's
fresh one until the reroll is applied) and those of the seats it rolled for as the
master (bots', away cups'), which stay its to reveal after a failover.

The newest two rounds are kept, not one: a settle no majority holds yet can be taken
back (a failover drops it, net/sync.py) and its round asked for again after this cup's
player has already shaken for the next. A new game starts from nothing, so a root
revealed in one game is never used again in the next.
"""
KEEP = 2


def _trim(rounds, rno, value):
    out = [(r, v) for r, v in rounds if r != rno]
    if value:
        out.append((rno, value))
    return out[-KEEP:]


class Kept:
    def __init__(self, flash):
        self.flash = flash
        self.own = flash.secrets()   # [(round, [(gen, root)])], newest last
        self.held = [(r, dict(v)) for r, v in flash.helds()]   # [(round, {seat: root})]

    # ----- this cup's own seat ----------------------------------------------------------
    def roots(self, rno):
        """[(gen, root)] of round `rno` (low 16 bits), [] when none."""
        for r, v in self.own:
            if r == rno:
                return v
        return []

    def root(self, rno, gen):
        for g, root in self.roots(rno):
            if g == gen:
                return root
        return None

    def keep(self, rno, roots):
        self.own = _trim(self.own, rno, roots)
        self.flash.put_secrets(self.own)

    # ----- seats rolled for as the master -----------------------------------------------
    def held_of(self, rno):
        """{seat: root} rolled for in round `rno`."""
        for r, v in self.held:
            if r == rno:
                return v
        return {}

    def keep_held(self, rno, held):
        self.held = _trim(self.held, rno, dict(held))
        self.flash.put_helds([(r, sorted(v.items())) for r, v in self.held])

    # ----- forgetting -------------------------------------------------------------------
    def forget(self, rno):
        """A round played again: fresh dice, so its roots go."""
        if self.roots(rno):
            self.keep(rno, [])
        if self.held_of(rno):
            self.keep_held(rno, {})

    def clear(self):
        """A new game."""
        if self.own or self.held:
            self.own = []
            self.held = []
            self.flash.put_secrets([])
            self.flash.put_helds([])
