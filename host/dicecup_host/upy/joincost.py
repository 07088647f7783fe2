"""Inside MicroPython (the 32-bit frozen build): what a whole join costs each cup.

A master and a joiner in one process, frames handed over directly (no loss): from the
joiner's join() to its replica of the table (CPace both sides, the welcome, the
snapshot, the first pairwise keys). Time is what each cup spends in its own calls
(join, on_frame, tick). Then one pairwise key (an X25519 and a hash, made once per
pair) and one broadcast's tags to five members (the per-frame cost). Prints

    join master_ms=<ms> joiner_ms=<ms> frames=<n> bytes=<n> largest=<bytes>
    held held_modules=<n>     (CPace's modules still imported after the join: 0)
    pair pair_ms=<ms>
    broadcast5 broadcast_ms=<ms> hmacs=5
"""
import os
import time

from dicecup.net import wire
from dicecup.net.cup import Cup
from dicecup.net.memstore import MemStore
from dicecup.net.transport import BROADCAST

try:
    ticks, diff = time.ticks_us, time.ticks_diff
except AttributeError:  # CPython, to try the script
    def ticks():
        return int(time.perf_counter() * 1000000)

    def diff(a, b):
        return a - b

A = b"\x02\x00\x00\x00\x00\x01"
B = b"\x02\x00\x00\x00\x00\x02"
spent = {A: 0, B: 0}


def timed(addr, fn, *args):
    t = ticks()
    r = fn(*args)
    spent[addr] += diff(ticks(), t)
    return r


master = Cup(A, MemStore(), os.urandom, "ana")
joiner = Cup(B, MemStore(), os.urandom, "ben")
cups = {A: master, B: joiner}
master.create(0x1234, "4321", "liars", 0)
master.keys.ring.public()
joiner.keys.ring.public()      # each cup's key pair exists before (made once per cup, kept)
now = 0
frames = nbytes = largest = 0


def deliver(src):
    global frames, nbytes, largest
    out = cups[src].out
    cups[src].out = []
    for dest, data in out:
        frames += 1
        nbytes += len(data)
        largest = max(largest, len(data))
        for addr, cup in cups.items():
            if addr != src and (dest == BROADCAST or dest == addr):
                timed(addr, cup.on_frame, src, data, now)


# the joiner hears a beacon (not counted: it is before the join)
while master.table is not None and 0x1234 not in joiner.heard:
    now += 10
    master.tick(now)
    for dest, data in master.out:
        joiner.on_frame(A, data, now)
    master.out = []
spent[A] = spent[B] = 0
timed(B, joiner.join, 0x1234, "4321")
while joiner.table is None and now < 20000:
    deliver(B)
    deliver(A)
    now += 5
    timed(A, master.tick, now)
    timed(B, joiner.tick, now)
if joiner.table is None:
    raise SystemExit("the join did not finish")
deliver(B)
deliver(A)
print("join master_ms=%.1f joiner_ms=%.1f frames=%d bytes=%d largest=%d"
      % (spent[A] / 1000, spent[B] / 1000, frames, nbytes, largest))

import sys  # noqa: E402
from dicecup.net.lobby import JOIN_MODULES  # noqa: E402
print("held held_modules=%d" % sum(1 for name in JOIN_MODULES if name in sys.modules))

ring = master.keys.ring
t = ticks()
ring._pairs = {}
ring.pair(0, 1)
print("pair pair_ms=%.1f" % (diff(ticks(), t) / 1000))

keys = [(j, wire.Key(bytes((j,)) * 32)) for j in range(1, 6)]
body = (1, 42, 1, 1, 41, b"\x08\x01\x00\x00\x00\x1b")
best = None
for _ in range(5):
    t = ticks()
    wire.encode(wire.UPDATE, 0x1234, 0, 7, 42, body, keys)
    dt = diff(ticks(), t)
    best = dt if best is None or dt < best else best
print("broadcast5 broadcast_ms=%.2f hmacs=5" % (best / 1000))
