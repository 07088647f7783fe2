"""A whole table of simulated cups: the firmware's own `Cup` on each, talking over the
simulated medium, on a simulated clock (a long game takes milliseconds).

Each cup has its own radio, flash (`MemStore`, kept across a simulated reboot), serial
log (the JSON lines its SerialLog listener writes), a seeded byte source and a player:
an `Autoplayer` (dicecup/autoplay.py) that plays the seat through the cup's public
seams, shaking `shake_ms` after the cup asks for a shake. Bot seats are played by the
master. Every cup is stepped by the firmware's own pump (net/pump.py), whenever a
frame lands and whenever the cup said it next wants a step -- idle cups cost nothing.
"""
import random

from dicecup.autoplay import Autoplayer
from dicecup.engine import option_bits
from dicecup.net import table as tbl
from dicecup.net.cup import Cup
from dicecup.net.pump import pump
from dicecup.net.sim import Clock, Medium
from dicecup.net.memstore import MemStore
from dicecup.seriallog import SerialLog


class Lines:
    """A `write` for a simulated cup's serial port: pieces in, whole lines (without the
    newline) appended to a list, as a serial port reader would see them. (Here, not in
    dicecup/seriallog.py: no cup needs it in its RAM.)"""

    def __init__(self, lines):
        self.lines = lines
        self._part = []

    def __call__(self, s):
        if s.endswith("\n"):
            self._part.append(s[:-1])
            self.lines.append("".join(self._part))
            self._part = []
        else:
            self._part.append(s)


NAMES = ("ana", "ben", "cy", "dee", "eli", "fay")
TICK_MS = 5


class SimCup:
    """One cup's hardware in the simulation: radio, flash, serial, power, and its player."""

    def __init__(self, cluster, i):
        self.i = i
        self.cluster = cluster
        self.addr = bytes((0x02, 0xD1, 0xCE, 0, 0, i + 1))
        self.store = MemStore()
        self.serial = []        # the serial log's lines, across reboots
        self.events = []        # every event the cup emitted (private ones too), when recording
        self.boots = 0
        self.radio = cluster.medium.attach(self.addr, on_frame=self._wake)
        self.cup = None
        self.player = None
        self._ev = None         # the clock event of our next step
        self._at = None
        self.boot()

    def boot(self):
        """Power on: a fresh Cup (RAM empty) over the same flash."""
        c = self.cluster
        self.boots += 1
        seed = c.seed * 1009 + self.i * 7919 + self.boots * 104729
        stream = random.Random(seed)
        cls = c.cup_classes.get(self.i, Cup)
        self.cup = cls(self.addr, self.store, stream.randbytes, NAMES[self.i], rng=random.Random(seed + 1),
                       waits=c.waits)
        self.cup.now = c.clock.now
        self.cup.listen(SerialLog(Lines(self.serial), self.cup))
        if c.record:
            self.cup.listen(self.events.append, private=True)
        make = c.players.get(self.i)
        self.player = make(self, random.Random(seed + 2)) if make else \
            Autoplayer(random.Random(seed + 2), think_ms=c.think_ms, shake_ms=c.shake_ms)
        self.on = True
        self.schedule(c.clock.now)

    def power_off(self):
        self.on = False
        self.cup.dead = True
        self.cluster.medium.kill(self.addr)

    def power_on(self):
        self.cluster.medium.revive(self.addr)
        self.boot()

    def schedule(self, t):
        """Step at time t (keeping only the earliest step asked for)."""
        clock = self.cluster.clock
        if self._ev is not None:
            if self._at <= t:
                return
            clock.cancel(self._ev)
        self._at = t
        self._ev = clock.call_at(t, self._fire)

    def _wake(self, addr):
        self.schedule(self.cluster.clock.now)

    def _fire(self):
        self._ev = None
        self.pump()

    def pump(self):
        """The firmware's own step: frames in, tick, the player, frames out."""
        if not self.on:
            return
        now = self.cluster.clock.now
        due = pump(self.cup, self.radio, now, self.player)
        self.schedule(due if due > now else now + 1)

    def flush(self):
        """Put what the cup queued outside a step (a test's direct call) on air now."""
        self.schedule(self.cluster.clock.now)


class Cluster:
    def __init__(self, cups, rules="perudo", options=None, seed=1, loss=0.0, dup=0.0, reorder=0.0,
                 latency_ms=5, jitter_ms=None, bots=0, cup_classes=None, players=None, shake_ms=0,
                 think_ms=250, waits=None, record=False):
        self.seed = seed
        self.cup_classes = cup_classes or {}   # cup index -> Cup subclass (tests: cheats, leaks)
        self.players = players or {}           # cup index -> fn(simcup, rng) -> player
        self.shake_ms = shake_ms
        self.think_ms = think_ms
        self.waits = waits
        self.record = record
        self.rules = rules
        self.options = options or {}
        self.clock = Clock()
        kw = {} if jitter_ms is None else {"jitter_ms": jitter_ms}
        self.medium = Medium(self.clock, rng=seed, loss=loss, dup=dup, reorder=reorder, latency_ms=latency_ms, **kw)
        self.cups = [SimCup(self, i) for i in range(cups)]
        self.bots = bots
        self.tid = 0x1000 + seed % 0xE000
        self.code = "%04d" % (seed * 7 % 10000)

    # ----- time ------------------------------------------------------------------------
    def step(self, ms=TICK_MS):
        """Advance the clock by `ms`: frames land, cups step when they want to."""
        self.clock.run_until(self.clock.now + ms)

    def run(self, ms, until=None):
        """Run up to `ms` (simulated); stop early when until() is true. Returns it."""
        end = self.clock.now + ms
        clock = self.clock
        while clock.now < end:
            nxt = clock.next_time()
            if nxt is None:
                clock.run_until(end)
                break
            clock.run_until(min(end, max(nxt, clock.now + TICK_MS)))
            if until is not None and until():
                return True
        return until() if until else None

    # ----- the table ----------------------------------------------------------------
    def master(self):
        for c in self.cups:
            if c.on and c.cup.is_master():
                return c
        return None

    def setup(self, ready=None):
        """Cup 0 creates the table, the others hear its beacon and join with the code,
        bots fill `bots` seats, and the game starts (`ready()` is called just before)."""
        host = self.cups[0].cup
        host.create(self.tid, self.code, self.rules, option_bits(self.rules, self.options))
        self.cups[0].flush()
        for c in self.cups[1:]:
            if not self.run(5000, lambda: self.tid in c.cup.heard):
                raise RuntimeError("cup %d never heard the beacon" % c.i)
            c.cup.join(self.tid, self.code)
            c.flush()
            if not self.run(10000, lambda: c.cup.table is not None and c.cup.me is not None
                            and len(host.table.members) > c.i):
                raise RuntimeError("cup %d could not join" % c.i)
        for b in range(self.bots):
            host.add_bot("bot%d" % (b + 1))
            self.cups[0].flush()
        everyone = len(self.cups) + self.bots
        if not self.run(10000, lambda: all(c.cup.table is not None and len(c.cup.table.members) == everyone
                                           for c in self.cups)):
            raise RuntimeError("the lobby never settled")
        if ready is not None:
            ready()
        host.start()
        self.cups[0].flush()
        # the game starts once every cup has added its nonce to the game's seed
        if not self.run(10000, lambda: host.table.phase != tbl.LOBBY):
            raise RuntimeError("the game never started")

    def finished(self):
        """Every live cup has the game over, and has shown it (its last op committed)."""
        live = [c for c in self.cups if c.on and c.cup.table is not None]
        return bool(live) and all(c.cup.table.phase == tbl.DONE and c.cup.sync.shown == c.cup.table.version
                                  for c in live)

    def play(self, limit_ms=3_600_000):
        self.setup()
        return self.run(limit_ms, self.finished)

    def states(self):
        """Each live cup's final table snapshot (bytes)."""
        return [c.cup.table.snapshot() if c.cup.table is not None else None for c in self.cups if c.on]
