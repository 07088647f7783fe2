"""The cup's 3 or 4 buttons: debounced press, long press and both-at-once.

Each button's pin interrupt only notes the time of the edge and raises a flag: no
allocation, no logic, safe as a hard IRQ. The work happens in `poll(now)`, which the
asyncio task `run()` calls every few milliseconds while a button is down or bouncing,
and which sleeps on an `asyncio.ThreadSafeFlag` (set by the interrupt) while all are
idle, so idle buttons cost nothing. Tests call `poll(now)` with simulated times.

Debounce: a change of level counts once the line has been quiet (no edge seen by the
interrupt, no change seen by a poll) for `debounce_ms`. Contacts bounce for a few ms;
20 ms is a common choice.

Events, queued in a small ring buffer (no allocation per event), as (kind, mask), where
mask has bit i set for button i (the board file's order):
* PRESS -- a button went down and up again within `long_ms`, alone;
* LONG  -- a button has been held alone for `long_ms` (fires while still held);
* BOTH  -- a second button went down while the first was still held and had not yet
  fired LONG: mask holds both. Neither fires PRESS on release.
"""
from micropython import const

from dicecup.hw.clock import ticks_ms, ticks_diff, asleep_ms

PRESS = const(1)
LONG = const(2)
BOTH = const(3)
_KINDS = const(("", "press", "long", "both"))
_QLEN = const(16)


class _Button:
    def __init__(self, pin, active, index, clock, flag):
        self.pin = pin
        self.active = active
        self.bit = 1 << index
        self._clock = clock
        self._flag = flag
        now = clock()
        self.edge_t = now
        self.raw = self.read()
        self.raw_t = now
        self.down = self.raw  # a button held at start counts as down (no event)
        self.down_t = now
        self.used = True  # nothing to report for a hold we did not see start
        self.edges = 0
        self.ever = False  # pressed at least once since start (self-test)

    def read(self):
        return self.pin.value() == self.active

    def irq(self, pin):
        # Interrupt context: store two small ints, set the flag. Nothing else.
        self.edge_t = self._clock()
        self.edges += 1
        if self._flag is not None:
            self._flag.set()


class Buttons:
    """`Buttons(board)` sets up the pins and interrupts of the board's buttons."""

    def __init__(self, board, clock=None, debounce_ms=20, long_ms=700, pin_factory=None):
        import machine
        self._setup(board, clock or ticks_ms, debounce_ms, long_ms)
        try:
            import asyncio
            if hasattr(asyncio, "ThreadSafeFlag"):
                self._flag = asyncio.ThreadSafeFlag()
        except ImportError:
            pass
        P = machine.Pin
        self.buttons = []
        for i in range(len(board.buttons)):
            spec = board.buttons[i]
            pull = P.PULL_UP if spec.pull == "up" else (P.PULL_DOWN if spec.pull == "down" else None)
            pin = P(spec.pin, P.IN, pull)
            b = _Button(pin, spec.active, i, self._clock, self._flag)
            pin.irq(b.irq, P.IRQ_FALLING | P.IRQ_RISING)
            self.buttons.append(b)

    def _setup(self, board, clock, debounce_ms, long_ms):
        """What every platform's buttons share: names, timings, the event ring."""
        self.names = board.button_names()
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self._clock = clock
        self._q = bytearray(2 * _QLEN)
        self._head = 0
        self._count = 0
        self.dropped = 0
        self.on_event = None  # optional callback(kind, mask), called from poll()
        self._event = None
        self._flag = None

    # -- the state machine --
    def poll(self, now=None):
        """Take in what the pins did up to `now` (ms); queue the events."""
        if now is None:
            now = self._clock()
        for b in self.buttons:
            raw = b.read()
            if raw != b.raw:
                b.raw = raw
                b.raw_t = now
            quiet = b.raw_t if ticks_diff(b.edge_t, b.raw_t) < 0 else b.edge_t
            if raw != b.down and ticks_diff(now, quiet) >= self.debounce_ms:
                if raw:
                    self._went_down(b, now)
                else:
                    self._went_up(b)
            if b.down and not b.used and ticks_diff(now, b.down_t) >= self.long_ms:
                b.used = True
                self._push(LONG, b.bit)

    def _went_down(self, b, now):
        b.down = True
        b.down_t = now
        b.used = False
        b.ever = True
        mask = 0
        held_used = False
        for o in self.buttons:
            if o is not b and o.down:
                mask |= o.bit
                held_used = held_used or o.used
        if mask and held_used:
            b.used = True  # another button already did its thing: ignore this one
        elif mask:
            for o in self.buttons:
                if o.down:
                    o.used = True
            self._push(BOTH, mask | b.bit)

    def _went_up(self, b):
        b.down = False
        if not b.used:
            self._push(PRESS, b.bit)
        b.used = True

    def busy(self):
        """True while any button is down or its line has not settled."""
        for b in self.buttons:
            if b.down or b.raw != b.down or b.read() != b.down:
                return True
        return False

    def edge_flag(self):
        """The asyncio.ThreadSafeFlag the pin interrupts set (None where asyncio has
        none): a task waits on it while every button is idle."""
        return self._flag

    def held(self, i):
        """Debounced: is button i down?"""
        return self.buttons[i].down

    # -- the event queue --
    def _push(self, kind, mask):
        if self._count == _QLEN:
            self.dropped += 1
            return
        i = ((self._head + self._count) % _QLEN) * 2
        self._q[i] = kind
        self._q[i + 1] = mask
        self._count += 1
        if self.on_event is not None:
            self.on_event(kind, mask)
        if self._event is not None:
            self._event.set()

    def get(self):
        """The oldest event as (kind, mask), or None."""
        if not self._count:
            return None
        i = self._head * 2
        self._head = (self._head + 1) % _QLEN
        self._count -= 1
        return self._q[i], self._q[i + 1]

    def pending(self):
        return self._count

    def names_of(self, mask):
        out = []
        for i in range(len(self.names)):
            if mask & (1 << i):
                out.append(self.names[i])
        return "+".join(out)

    def describe(self, ev):
        """"press ok", "long back", "both left+right"."""
        return "%s %s" % (_KINDS[ev[0]], self.names_of(ev[1]))

    # -- asyncio --
    async def run(self, tick_ms, idle_ms):
        """Poll every `tick_ms` while busy; when idle wait for an interrupt (or
        `idle_ms` where asyncio has no ThreadSafeFlag, as under CPython)."""
        while True:
            self.poll()
            if self.busy():
                await asleep_ms(tick_ms)
            elif self._flag is not None:
                await self._flag.wait()
            else:
                await asleep_ms(idle_ms)

    async def next(self):
        """Wait for the next event; returns (kind, mask)."""
        import asyncio
        if self._event is None:
            self._event = asyncio.Event()
        while not self._count:
            self._event.clear()
            await self._event.wait()
        return self.get()
