"""A small seeded PRNG (xorshift32), the same on CPython and MicroPython.

In a module of its own so that a scripted player on a cup (the host's players inside
MicroPython, a seeded bot) can have one without importing the whole simulated medium
(net/sim.py re-exports it): on the 32-bit frozen build that import alone held 2 KB.
"""


class Rng:
    """xorshift32 with `random()` in [0, 1) and `randrange(n)`: a seed means the same
    run on every runtime."""

    def __init__(self, seed):
        s = (seed * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF
        self._s = s or 0x6D2B79F5
        for _ in range(4):
            self._next()

    def _next(self):
        s = self._s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self._s = s
        return s

    def random(self):
        """A float in [0, 1)."""
        return self._next() / 4294967296.0

    def randrange(self, n):
        """An int in [0, n) (n >= 1)."""
        return self._next() % n
