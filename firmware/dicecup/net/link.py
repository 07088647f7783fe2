"""The cup's radio loop: one transport, one `Cup`, the clock -- frames in, frames out.

    asyncio.create_task(link.run(cup, EspNowTransport()))

The protocol itself never waits; this loop waits on the radio until the cup's next
deadline (at most `tick_ms`), then runs the same step as the simulator (net/pump.py).
On BLE the elected master must become the hub of the star (`set_hub`).
"""
from .pump import pump
from .transport import ticks_diff, ticks_ms


class Link:
    def __init__(self, cup, transport, tick_ms=10, player=None):
        self.cup = cup
        self.t = transport
        self.player = player   # a bot playing the cup's seat (a demo cup), else None
        self.tick_ms = tick_ms
        self.start = ticks_ms()
        self.master = None
        self.running = True
        self.due = 0

    def now(self):
        """Milliseconds since the loop started: never wraps, unlike ticks_ms."""
        return ticks_diff(ticks_ms(), self.start)

    def pump(self):
        self.due = pump(self.cup, self.t, self.now(), self.player)
        master = self.cup.is_master()
        if master != self.master and hasattr(self.t, "set_hub"):
            self.t.set_hub(master)
        self.master = master

    async def run(self):
        while self.running:
            wait = self.due - self.now()
            await self.t.wait(max(1, min(self.tick_ms, wait)))
            self.pump()


async def run(cup, transport, tick_ms=10):
    await Link(cup, transport, tick_ms).run()
