"""asyncio on a simulated clock (CPython): the app's real tasks, timers and events, with
time taken from a `dicecup.net.sim.Clock` (ms) that jumps instead of waiting.

    clock = Clock()
    loop = VirtualLoop(clock, on_advance=lambda now: ...)
    loop.run_until_complete(main())      # hours of play in seconds

`time()` is clock.now / 1000. Where the loop would block in select() it instead runs
the clock up to the next asyncio timer or the next clock event (a frame landing on the
simulated medium, whose hooks set asyncio events), whichever comes first; `on_advance`
is then told the new time (tests move the emulated chips' clocks with it). A loop with
nothing left to wake it raises instead of hanging.
"""
import asyncio
import math


class Deadlock(RuntimeError):
    """Nothing scheduled, nothing on the clock: the loop would wait for ever."""


class VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self, clock, on_advance=None):
        super().__init__()
        self.sim = clock
        self.on_advance = on_advance
        self._selector.select = self._select

    def time(self):
        return self.sim.now / 1000.0

    def _select(self, timeout=None):
        sim = self.sim
        now = sim.now
        target = None if timeout is None else now + int(math.ceil(timeout * 1000 - 1e-6))
        nxt = sim.next_time()
        if target is None and nxt is None:
            raise Deadlock("nothing scheduled at %d ms" % now)
        if target is None:
            t = nxt
        elif nxt is None:
            t = target
        else:
            t = min(target, nxt)
        sim.run_until(max(t, now))
        if self.on_advance is not None:
            self.on_advance(sim.now)
        return []


def run(clock, coro, on_advance=None):
    """Run `coro` to completion on a fresh VirtualLoop; returns its result."""
    loop = VirtualLoop(clock, on_advance)
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()
