"""One cup's radio, as the table protocol sees it.

Every transport (ESP-NOW, BLE, the simulated medium) offers the same five things:

    t.mtu            largest frame carried, in bytes (250: ESP-NOW's payload limit;
                     BLE and the simulation carry the same so one codec fits all)
    t.address        this cup's 6-byte address (bytes); frames name cups by it
    t.max_cups       how many cups a table can have on this radio (6 on ESP-NOW,
                     5 on BLE: the master holds at most 4 connections)
    t.send(dest, frame) -> bool
    t.recv()         -> (src, frame) | None
    await t.wait(timeout_ms) -> bool
    t.close()

Why it is this small: the table protocol is a pure state machine fed
`(src, frame, now_ms)` and ticked with `now_ms`; it never sleeps and never sees a
radio API. The cup's asyncio loop does `await t.wait(ms)` then drains `t.recv()`;
the host simulation drives the same protocol from a simulated clock.

What a transport promises, and what it does not (the protocol must cope):
* Frames are datagrams: each arrives whole or not at all, at most `mtu` bytes.
  A frame longer than `mtu` (or empty, or a bad address) raises ValueError before
  anything is sent: that is a bug in the caller, not a radio condition.
* Nothing is reliable. Frames are lost, duplicated (ESP-NOW: a unicast whose ACK was
  lost is often resent and arrives twice) and, on the simulated medium, reordered.
  Broadcast is never acknowledged.
* `send` returns False when the frame certainly did not go out (radio off, peer
  table full, driver error) or the link layer reported no acknowledgement (which
  does *not* mean it was not received). True means the radio took it; it may still
  be lost. A radio failure never raises.
* `recv` never blocks; it returns the oldest waiting frame. Frames wait in a small
  receive buffer: when it is full, new frames are dropped (and counted in
  `stats()`), so drain it promptly.
* `src` is the sender's `address` as it put it on air; the protocol authenticates
  frames itself (a radio address proves nothing).
"""
from micropython import const

try:
    import asyncio
except ImportError:  # a build without asyncio: only the simulated medium then
    asyncio = None

import time
from binascii import hexlify

BROADCAST = b"\xff\xff\xff\xff\xff\xff"
_ADDR_LEN = const(6)
MTU = const(250)  # ESP-NOW's MAX_DATA_LEN in released firmware
MAX_CUPS = const(6)

# The ESP-NOW driver keeps received frames in one byte ring: each frame costs its
# payload plus 13 bytes (magic, length, RSSI, timestamp, sender MAC). The default
# ring (526 bytes) holds one or two full frames; the transports ask for RXBUF,
# room for eight full-size frames or a few dozen small ones.
RX_OVERHEAD = const(13)
RXBUF = const(2112)

_POLL_MS = const(5)  # how often a polling `wait` looks at the receive buffer

if hasattr(time, "ticks_ms"):
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
else:
    try:  # CircuitPython: supervisor.ticks_ms keeps ms precision (it wraps at 2**29)
        from supervisor import ticks_ms

        def ticks_diff(a, b):
            return ((a - b + (1 << 28)) & ((1 << 29) - 1)) - (1 << 28)
    except ImportError:  # CPython: a monotonic millisecond counter with the same helpers
        def ticks_ms():
            return int(time.monotonic() * 1000)

        def ticks_diff(a, b):
            return a - b


async def sleep_ms(ms):
    """asyncio.sleep_ms on MicroPython, asyncio.sleep on CPython."""
    if hasattr(asyncio, "sleep_ms"):
        await asyncio.sleep_ms(ms)
    else:
        await asyncio.sleep(ms / 1000)


async def wait_for_ms(aw, ms):
    """Await `aw` for at most `ms` milliseconds; asyncio.TimeoutError past that."""
    if hasattr(asyncio, "wait_for_ms"):
        return await asyncio.wait_for_ms(aw, ms)
    return await asyncio.wait_for(aw, ms / 1000)


def check_frame(dest, frame, mtu):
    """Raise ValueError unless `dest` is a 6-byte address and `frame` is 1..mtu bytes.
    Checked before anything touches the radio: an oversized frame is a caller bug."""
    if len(dest) != _ADDR_LEN:
        raise ValueError("address must be 6 bytes")
    n = len(frame)
    if n > mtu:
        raise ValueError("frame of %d bytes > mtu %d" % (n, mtu))
    if not n:
        raise ValueError("empty frame")


def hexaddr(addr):
    """'a1b2c3d4e5f6' for an address (or any bytes: logs, traces)."""
    return hexlify(addr).decode()


class Transport:
    """The interface every radio implements (see the module docstring).

    Subclasses set `address` and implement `send`, `recv` and `_ready`; the default
    `wait` polls `_ready` every POLL_MS, which is what a radio without an awaitable
    receive (BLE irqs, CircuitPython) can do.
    """

    mtu = MTU
    max_cups = MAX_CUPS
    address = None

    def send(self, dest, frame):
        """Queue `frame` for `dest` (a cup's address or BROADCAST). False when it
        certainly did not go out, or the link layer saw no ACK; ValueError when it
        is longer than `mtu`."""
        raise NotImplementedError

    def recv(self):
        """The oldest waiting frame as (src, frame), or None. Never blocks."""
        raise NotImplementedError

    def _ready(self):
        raise NotImplementedError

    async def wait(self, timeout_ms):
        """Until a frame waits (True) or `timeout_ms` passed (False). Does not take
        the frame: call `recv`."""
        start = ticks_ms()
        while not self._ready():
            left = timeout_ms - ticks_diff(ticks_ms(), start)
            if left <= 0:
                return False
            await sleep_ms(left if left < _POLL_MS else _POLL_MS)
        return True

    def close(self):
        """Turn this radio's use off; later sends return False."""

    def stats(self):
        """Counters: tx (frames sent), tx_failed, rx (frames received), rx_dropped
        (lost to a full receive buffer), plus transport-specific ones."""
        return {}


class RxQueue:
    """A bounded FIFO of received frames, accounted in bytes like the ESP-NOW ring
    (payload + RX_OVERHEAD per frame). A frame that does not fit is dropped and
    counted, never an older one: that is what the radio driver does too."""

    def __init__(self, size, overhead):
        self.size = size
        self.overhead = overhead
        self.used = 0
        self.received = 0
        self.dropped = 0
        self._q = []

    def put(self, src, frame):
        need = len(frame) + self.overhead
        if self.used + need > self.size:
            self.dropped += 1
            return False
        self._q.append((src, frame))
        self.used += need
        self.received += 1
        return True

    def get(self):
        q = self._q
        if not q:
            return None
        item = q.pop(0)
        self.used -= len(item[1]) + self.overhead
        return item

    def clear(self):
        """Empty the queue (radio powered off); returns how many frames were lost."""
        n = len(self._q)
        self._q = []
        self.used = 0
        return n

    def __len__(self):
        return len(self._q)
