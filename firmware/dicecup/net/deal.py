"""The game's seed: no one cup's choice, the master's included.

The seed draws the first opener, Bluff's roll-off and the Dix mille roll bases. The
master first commits to its part m (the ante op, naming every cup at the table); each
named cup answers with a fresh nonce of its own (CONTRIB); the start op publishes m
and every nonce, and the seed hashes them all (fair.game_seed). The master fixed m
before it saw a nonce, and nobody else knew m before giving theirs. The table allows
one ante per term, unless a named cup has since left (then the master antes again
without it, with the same part), so a master cannot ante until it likes the outcome;
a named cup that falls silent is waited for.
"""
from . import fair
from . import table as tbl
from . import wire
from .timing import RESEND_MS


class Deal:
    def __init__(self, cup):
        self.cup = cup
        self.m = None            # master: its part of the next game's seed, committed in the ante
        self.nonces = {}         # master: member -> nonce for that game's seed
        self.nonce = None        # a named cup: (ante, its nonce), until the game starts
        self.last_contrib = -RESEND_MS

    def start(self):
        """Master: ante for a game with every cup at the table (they add their nonces)."""
        cup = self.cup
        t = cup.table
        if t.phase == tbl.PLAYING:
            raise ValueError("a game is on")
        if self.m is None or t.ante != fair.master_commit(self.m) or t.ante_term != t.term:
            self.m = cup.random_bytes(16)   # (an ante again in one term keeps its part: the table says so)
            self.nonces = {}
        mask = 0
        for i in range(len(t.members)):
            if i != cup.me and t.members[i].present():
                mask |= 1 << i
        cup.sync.commit(tbl.op_ante(fair.master_commit(self.m), mask))
        self.deal()

    def ready(self):
        """Master: every named cup's nonce, in member order, once all are in and our ante
        is the table's; else None."""
        t = self.cup.table
        if self.m is None or t.ante != fair.master_commit(self.m):
            return None
        nonces = []
        for i in range(8):
            if t.ante_mask >> i & 1:
                if i not in self.nonces:
                    return None
                nonces.append(self.nonces[i])
        return nonces

    def deal(self):
        """Master: start once every named cup has added its nonce."""
        nonces = self.ready()
        if nonces is None:
            return
        cup = self.cup
        m = self.m
        self.m = None
        self.nonces = {}
        cup.sync.commit(tbl.op_start(m, nonces))

    def on_contrib(self, src, f):
        cup = self.cup
        t = cup.table
        if t is None or not t.ante_mask >> f.sender & 1:
            return "not-named"
        if not cup.is_master() or self.m is None:
            return
        if f.sender not in self.nonces:
            self.nonces[f.sender] = f.body[1]   # the first stands
        self.deal()

    def peer_tick(self, now):
        """A cup named in an ante sends its nonce until the game starts."""
        cup = self.cup
        t = cup.table
        if t.phase == tbl.PLAYING or t.ante == tbl.NO_DIGEST or cup.me is None or not t.ante_mask >> cup.me & 1:
            self.nonce = None
            return None
        key = t.ante + bytes((t.ante_term >> 8 & 0xFF, t.ante_term & 0xFF))
        if self.nonce is None or self.nonce[0] != key:
            self.nonce = (key, cup.random_bytes(16))
        if now - self.last_contrib >= RESEND_MS:
            self.last_contrib = now
            cup.send(cup.master_addr(), wire.CONTRIB, (t.version, self.nonce[1]))
        return self.last_contrib + RESEND_MS

    def master_tick(self, now):
        cup = self.cup
        t = cup.table
        if self.m is not None and t.phase != tbl.PLAYING:
            gone = [i for i in range(len(t.members)) if t.ante_mask >> i & 1 and t.members[i].flags & tbl.LEFT]
            if gone and t.ante == fair.master_commit(self.m):
                self.start()   # a named cup left before it gave its nonce: ante again without it
