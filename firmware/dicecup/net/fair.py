"""Private, provably fair dice: commit, seed, reveal — SHA-256 only (MicroPython has it).

A cup draws one 16-byte *root* per round (kept in flash until the reveal). Each die i
of generation g (0 = the round's roll, k = the k-th Bluff reroll) has the secret
    s = H("die" root g i)[:12]        and the commitment  c = H("com" s)[:12].
A seat commits to its dice with one digest D = H("dig" c_0 c_1 ...)[:12], sent before
anyone knows the round seed
    R = H("round" round m D_seat0 D_seat1 ...)[:16]
where m is the master's contribution, committed to (H("mc" m)) before it saw any digest.
A die shows face(s, R): uniform over six faces (rejection sampling on hash bytes).
Nobody can choose a face: the owner fixed s before R existed; the master fixed m
before it saw the digests. Nobody can see a face before the reveal: it needs s, which
only the owner holds (the master holds the bots'). At the reveal the root is published;
anyone recomputes every s, c and D and checks them against what was committed.

One-off rolls (a Bluff reroll, a Dix mille roll) use a *witness*: the roller commits
first, then a cup with no dice in that roll adds a fresh nonce w; the seed is
H("roll" ... w). The roller cannot steer (its secrets were fixed before w), the witness
cannot (it never sees the secrets before they count).
"""
from micropython import const
import hashlib

_ROOT_LEN = const(16)
_SECRET_LEN = const(12)
_COMMIT_LEN = const(12)
_DIGEST_LEN = const(12)
_SEED_LEN = const(16)
_NONCE_LEN = const(16)


def _h(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.digest()


def _b(n):
    return bytes((n >> 8 & 0xFF, n & 0xFF))


def shaken_root(hw, entropy):
    """A root drawn when the player shook the cup: the hardware RNG's bytes `hw` mixed
    with the shake's own entropy (hw/motion.py), so neither alone decides it."""
    return _h(b"shake", hw, entropy)[:_ROOT_LEN]


def secret(root, gen, i):
    """The secret of die i, generation gen, of a seat whose round root is `root`."""
    return _h(b"die", root, _b(gen), _b(i))[:_SECRET_LEN]


def commit(s):
    return _h(b"com", s)[:_COMMIT_LEN]


def digest(commits):
    """One digest over a seat's commitments, in die order."""
    return _h(b"dig", b"".join(commits))[:_DIGEST_LEN]


def seat_digest(root, gen, dice):
    """The digest a seat publishes for dice 0..dice-1 of generation gen."""
    return digest([commit(secret(root, gen, i)) for i in range(dice)])


def master_commit(m):
    return _h(b"mc", m)[:_DIGEST_LEN]


def round_seed(round_no, m, digests):
    """R from the master's contribution and every seat's digest (seat order; a seat
    without dice contributes b"")."""
    return _h(b"round", _b(round_no), m, b"".join(digests))[:_SEED_LEN]


def game_seed(m, nonces):
    """The game's seed: the master's committed part and every named cup's nonce."""
    return _h(b"game", m, b"".join(nonces))[:_SEED_LEN]


def roll_seed(base, w):
    """Seed for a one-off roll: a base (the round seed, or a game tag) and the witness nonce."""
    return _h(b"roll", base, w)[:_SEED_LEN]


def face(s, seed):
    """A uniform face 1..6 from a die secret and a seed (bytes >= 252 are skipped, so
    every face has exactly 42 of the 252 accepted byte values)."""
    d = _h(b"face", s, seed)
    while True:
        for b in d:
            if b < 252:
                return b % 6 + 1
        d = _h(b"more", d)


def faces(root, gen, dice, seed):
    """Faces of the `dice` dice of one generation."""
    return [face(secret(root, gen, i), seed) for i in range(dice)]


class HashRng:
    """A deterministic `randrange` from a seed, the same on every cup and runtime
    (SHA-256 in counter mode, rejection sampling): for draws every replica must agree
    on, such as the first opener and Bluff's roll-off."""

    def __init__(self, seed):
        self.seed = seed
        self.n = 0
        self.buf = b""
        self.pos = 0

    def _byte(self):
        if self.pos >= len(self.buf):
            self.buf = _h(b"rng", self.seed, _b(self.n))
            self.n += 1
            self.pos = 0
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def randrange(self, n):
        if not 1 <= n <= 256:
            raise ValueError("randrange up to 256")
        limit = 256 - 256 % n
        while True:
            b = self._byte()
            if b < limit:
                return b % n
