"""The frame ceiling: however lossy the air, a cup never floods it.

A token bucket: RATE frames a second, BURST in hand, so at most RATE + BURST frames go
out in any one second. Every frame a cup sends asks first; resends (retransmissions,
answers to NEED and HELLO, snapshot parts) ask with `resend=True` and leave RESERVE
tokens for fresh frames (new ops, inputs, heartbeats, acknowledgements). A frame
refused is simply not sent: every frame of the protocol is repeated until its effect
is seen, so a refusal only delays it. Integer arithmetic (milli-frames), no allocation.
"""
from . import timing


class Budget:
    """`Budget()`: net/timing.py's RATE, BURST and RESERVE (no parameters, no defaults:
    a function with default arguments is twice the RAM on a 32-bit build)."""

    def __init__(self):
        self.rate = timing.RATE          # milli-frames earned per ms = frames per second
        self.cap = timing.BURST * 1000
        self.floor = (timing.RESERVE + 1) * 1000
        self.tokens = self.cap
        self.at = None
        self.refused = 0

    def take(self, now, resend):
        """True when a frame may go out now (and counts it)."""
        if self.at is None:
            self.at = now
        elif now > self.at:
            self.tokens += (now - self.at) * self.rate
            if self.tokens > self.cap:
                self.tokens = self.cap
            self.at = now
        if self.tokens < (self.floor if resend else 1000):
            self.refused += 1
            return False
        self.tokens -= 1000
        return True
