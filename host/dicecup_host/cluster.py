"""A whole table of simulated cups: the firmware's own `Cup` on each, talking over the
simulated medium, on a simulated clock (a long game takes milliseconds).

Each cup has its own radio, flash (`MemStore`, kept across a simulated reboot), serial
log (the JSON lines it writes) and a seeded byte source, so a seed is a whole game.
Every seat is played by the autoplay bot of its cup; bot seats by the master.
"""
import random

from dicecup.engine import new_game, rules_class
from dicecup.net import table as tbl
from dicecup.net.cup import Cup
from dicecup.net.sim import Clock, Medium
from dicecup.net.store import MemStore

NAMES = ("ana", "ben", "cy", "dee", "eli", "fay")
TICK_MS = 5


def options_bits(rules, options):
    """Engine option bits for an options dict (ValueError for a bad one)."""
    g = new_game(rules, 2 if rules != "dixmille" else 1, options or {}, opener=0)
    return g.opts


class SimCup:
    """One cup's hardware in the simulation: radio, flash, serial, power."""

    def __init__(self, cluster, i):
        self.i = i
        self.cluster = cluster
        self.addr = bytes((0x02, 0xD1, 0xCE, 0, 0, i + 1))
        self.store = MemStore()
        self.serial = []
        self.boots = 0
        self.radio = cluster.medium.attach(self.addr, on_frame=self._wake)
        self.cup = None
        self.boot()

    def boot(self):
        """Power on: a fresh Cup (RAM empty) over the same flash."""
        self.boots += 1
        seed = self.cluster.seed * 1009 + self.i * 7919 + self.boots * 104729
        stream = random.Random(seed)
        cls = self.cluster.cup_classes.get(self.i, Cup)
        self.cup = cls(self.addr, self.store, stream.randbytes, NAMES[self.i], log=self.serial.append,
                       autoplay=True, rng=random.Random(seed + 1))
        self.cup.now = self.cluster.clock.now
        self.on = True

    def power_off(self):
        self.on = False
        self.cup.dead = True
        self.cluster.medium.kill(self.addr)

    def power_on(self):
        self.cluster.medium.revive(self.addr)
        self.boot()

    def _wake(self, addr):
        self.cluster._pending.add(self.i)

    def pump(self):
        """Hand waiting frames to the cup, put its frames on air."""
        if not self.on:
            return
        cup = self.cup
        now = self.cluster.clock.now
        while True:
            item = self.radio.recv()
            if item is None:
                break
            cup.on_frame(item[0], item[1], now)
        self.flush()

    def flush(self):
        out = self.cup.out
        self.cup.out = []
        if self.on:
            for dest, frame in out:
                self.radio.send(dest, frame)


class Cluster:
    def __init__(self, cups, rules="perudo", options=None, seed=1, loss=0.0, dup=0.0, reorder=0.0,
                 latency_ms=5, jitter_ms=None, bots=0, cup_classes=None):
        self.seed = seed
        self.cup_classes = cup_classes or {}   # cup index -> Cup subclass (tests: cheats, leaks)
        self.rules = rules
        self.options = options or {}
        self.clock = Clock()
        kw = {} if jitter_ms is None else {"jitter_ms": jitter_ms}
        self.medium = Medium(self.clock, rng=seed, loss=loss, dup=dup, reorder=reorder, latency_ms=latency_ms, **kw)
        self._pending = set()
        self.cups = [SimCup(self, i) for i in range(cups)]
        self.bots = bots
        self.tid = 0x1000 + seed % 0xE000
        self.code = "%04d" % (seed * 7 % 10000)

    # ----- time ------------------------------------------------------------------------
    def step(self, ms=TICK_MS):
        """Advance the clock by `ms`: frames land, every cup ticks."""
        end = self.clock.now + ms
        while True:
            nxt = self.clock.next_time()
            if nxt is None or nxt > end:
                break
            self.clock.step()
            self._serve()
        self.clock.run_until(end)
        self._serve()
        for c in self.cups:
            if c.on:
                c.cup.tick(self.clock.now)
                c.flush()

    def _serve(self):
        while self._pending:
            i = self._pending.pop()
            self.cups[i].pump()

    def run(self, ms, until=None):
        """Run up to `ms` (simulated); stop early when until() is true. Returns it."""
        end = self.clock.now + ms
        while self.clock.now < end:
            self.step()
            if until is not None and until():
                return True
        return until() if until else None

    # ----- the table ----------------------------------------------------------------
    def master(self):
        for c in self.cups:
            if c.on and c.cup.is_master():
                return c
        return None

    def setup(self):
        """Cup 0 creates the table, the others hear its beacon and join with the code,
        bots fill `bots` seats, and the game starts."""
        host = self.cups[0].cup
        host.create(self.tid, self.code, self.rules, options_bits(self.rules, self.options))
        self.cups[0].flush()
        for c in self.cups[1:]:
            ok = self.run(5000, lambda: self.tid in c.cup.heard)
            if not ok:
                raise RuntimeError("cup %d never heard the beacon" % c.i)
            c.cup.join(self.tid, self.code)
            c.flush()
            ok = self.run(10000, lambda: c.cup.table is not None and c.cup.me is not None
                          and len(host.table.members) > c.i)
            if not ok:
                raise RuntimeError("cup %d could not join" % c.i)
        for b in range(self.bots):
            host.add_bot("bot%d" % (b + 1))
            self.cups[0].flush()
        everyone = len(self.cups) + self.bots
        ok = self.run(10000, lambda: all(c.cup.table is not None and len(c.cup.table.members) == everyone
                                         for c in self.cups))
        if not ok:
            raise RuntimeError("the lobby never settled")
        host.start()
        self.cups[0].flush()

    def finished(self):
        live = [c for c in self.cups if c.on and c.cup.table is not None]
        return bool(live) and all(c.cup.table.phase == tbl.DONE for c in live)

    def play(self, limit_ms=3_600_000):
        self.setup()
        return self.run(limit_ms, self.finished)

    def states(self):
        """Each live cup's final table snapshot (bytes)."""
        return [c.cup.table.snapshot() if c.cup.table is not None else None for c in self.cups if c.on]
