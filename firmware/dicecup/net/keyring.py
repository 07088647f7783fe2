"""Static member keys: this cup's X25519 key pair, the table's roster of members'
public keys, and the pairwise frame keys made from them.

Each cup has one key pair for life (made from its random_bytes on first use, kept in
flash). A member's public key travels in its join (authenticated by the CPace session,
net/lobby.py) and goes into the replicated join op, so every replica holds every
member's key; bot seats have none (the master speaks for its bots). Members i and j
share

    k_ij = SHA-256("dicecup-pair" | tid | min(i,j) | max(i,j) | X25519(sk_i, pk_j))

as a `wire.Key`. An X25519 costs milliseconds on a cup, so a pair's key is made once
and cached (at most 5 of them, ~200 bytes each), never on the per-frame path. The roster
is mirrored in flash, so a cup that rebooted checks and tags frames before it has the
table's state again.
"""
from micropython import const
from .. import unload
from . import wire
from .transport import BROADCAST

_X25519 = const("dicecup.net.x25519")   # imported for a key pair or a pair key, then unloaded


class Keyring:
    def __init__(self, flash, random_bytes):
        self.flash = flash
        self.random_bytes = random_bytes
        self.tid = None
        self.roster = {}     # member id -> (radio address, public key): members with a cup
        self._pairs = {}     # member id -> wire.Key, made from its key in the roster
        self._sk = None
        self._pk = None
        ident = flash.ident()
        if ident is not None:
            self._sk, self._pk = ident

    # ----- my key pair -----------------------------------------------------------------
    def public(self):
        """My public key (the pair is made and kept on first use)."""
        if self._pk is None:
            sk = bytes(self.random_bytes(32))
            if len(sk) != 32:
                raise ValueError("random_bytes(32) gave %d bytes" % len(sk))
            from . import x25519
            self._sk, self._pk = sk, x25519.public_key(sk)
            unload(_X25519)
            self.flash.put_ident(self._sk, self._pk)
        return self._pk

    # ----- the roster --------------------------------------------------------------------
    def use(self, tid, roster):
        """Table `tid` with `roster` (None: the one kept in flash)."""
        if tid != self.tid:
            self._pairs = {}
        self.tid = tid
        self.set_roster(self.flash.roster() if roster is None else roster)

    def set_roster(self, roster):
        old = self.roster
        if roster != old:
            self.roster = dict(roster)
            self.flash.put_roster(self.roster)
        for mid in list(self._pairs):   # a pair key goes with the public key it was made from
            e = self.roster.get(mid)
            if e is None or e[1] != old[mid][1]:
                del self._pairs[mid]

    def learn(self, table):
        """The replica changed its members (a join op, a snapshot): follow it. A key
        once known for a member is kept (trust on first use): a snapshot that says
        otherwise (a dishonest master's) does not change it. Returns how many such
        keys were refused."""
        ros = {}
        refused = 0
        for i in range(len(table.members)):
            m = table.members[i]
            if m.pk is None:
                continue
            old = self.roster.get(i)
            if old is not None and old[1] != m.pk:
                refused += 1
                ros[i] = old
            else:
                ros[i] = (m.addr, m.pk)
        self.set_roster(ros)
        return refused

    # ----- pairwise keys -----------------------------------------------------------------
    def pair(self, me, mid):
        """k_{me,mid}; FrameError('unknown-sender') for a member without a key."""
        k = self._pairs.get(mid)
        if k is not None:
            return k
        r = self.roster.get(mid)
        if r is None or me is None or mid == me or self._sk is None:
            raise wire.FrameError("unknown-sender")
        from . import x25519
        shared = x25519.scalarmult(self._sk, r[1])
        unload(_X25519)
        if shared == bytes(32):   # a low-order "key" in a join op: nobody can use it
            raise wire.FrameError("unknown-sender", "low-order key of member %d" % mid)
        k = wire.pair_key(self.tid or 0, me, mid, shared)
        self._pairs[mid] = k
        return k

    def receivers(self, me, dest):
        """(member id, key) for a frame to `dest`: its member, or every other member
        for a broadcast (or an address not in the roster)."""
        if dest != BROADCAST:
            for mid, e in self.roster.items():
                if e[0] == dest:
                    if mid != me:
                        return [(mid, self.pair(me, mid))]
                    break
        out = []
        for mid in sorted(self.roster):
            if mid != me:
                try:
                    out.append((mid, self.pair(me, mid)))
                except wire.FrameError:
                    pass
        return out
