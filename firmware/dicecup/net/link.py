"""The cup's radio loop: one transport, one `Cup`, the clock — frames in, frames out.

    asyncio.create_task(link.run(cup, EspNowTransport()))

The protocol itself never waits; this loop waits on the radio (at most `tick_ms`),
hands every waiting frame to the cup, ticks it, and puts its frames on air. On BLE
the elected master must become the hub of the star (`set_hub`).
"""
from .transport import sleep_ms, ticks_diff, ticks_ms

try:
    import asyncio
except ImportError:  # pragma: no cover
    asyncio = None


class Link:
    def __init__(self, cup, transport, tick_ms=10):
        self.cup = cup
        self.t = transport
        self.tick_ms = tick_ms
        self.start = ticks_ms()
        self.master = None
        self.running = True

    def now(self):
        """Milliseconds since the loop started: never wraps, unlike ticks_ms."""
        return ticks_diff(ticks_ms(), self.start)

    def pump(self):
        cup = self.cup
        now = self.now()
        while True:
            item = self.t.recv()
            if item is None:
                break
            cup.on_frame(item[0], item[1], now)
        cup.tick(now)
        out = cup.out
        cup.out = []
        for dest, frame in out:
            self.t.send(dest, frame)  # False (not sent / no ACK) is the protocol's to cope with
        master = cup.is_master()
        if master != self.master and hasattr(self.t, "set_hub"):
            self.t.set_hub(master)
        self.master = master

    async def run(self):
        while self.running:
            await self.t.wait(self.tick_ms)
            self.pump()


async def run(cup, transport, tick_ms=10):
    await Link(cup, transport, tick_ms).run()
