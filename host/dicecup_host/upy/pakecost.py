"""Inside MicroPython (the 32-bit frozen build): what the join's PAKE costs a cup.

One line per operation -- one X25519 scalarmult, one CPace generator, one whole CPace
session side (message + finish + confirm_tag + check_confirm):

    <name> ms=<best of 5> alloc=<bytes allocated> peak=<bytes> gcoff=<bytes or over>

ms is wall time with the normal heap. heapgame.py's measure -- mem_alloc growth with
the GC disabled -- is `gcoff`; here it is only an allocation volume, since nothing
survives an operation but its output: a scalarmult's ladder makes ~680 KB of
short-lived big ints, six times the heap, so with the GC off it runs out (`over`).
`alloc` is that volume from the allocator's counter (micropython.mem_total, where the
build has it). `peak` is what the operation really needs above the baseline: the
smallest free heap it runs in with the GC on, found by leaving less and less free
behind a ballast (to 256 bytes). The last line, `free`, is the free heap before the
first measure and after the last: the ballast is all given back.
"""
import gc
import time

import micropython

from dicecup.net import pake, x25519

K = bytes(range(1, 33))
PRS = b"4321"
SID = bytes(range(16))
CI = b"\x04t1234\x05m0042"
YA = bytes(range(100, 132))
YB = bytes(range(200, 232))
CHUNK = 256 - 16          # a bytearray: a one-block header and its buffer


def rnd(y):
    return lambda n: y


def scalarmult():
    return x25519.scalarmult(K, x25519.BASE)


def generator():
    return pake.calculate_generator(PRS, CI, SID)


# the peer's side, made once: its message and its tag for A's message
_b = pake.Cpace(PRS, SID, CI, initiator=False, random_bytes=rnd(YB))
MSG_B = _b.message()
_b.finish(pake.Cpace(PRS, SID, CI, initiator=True, random_bytes=rnd(YA)).message())
TAG_B = _b.confirm_tag()
del _b


def session():
    a = pake.Cpace(PRS, SID, CI, initiator=True, random_bytes=rnd(YA))
    a.message()
    a.finish(MSG_B)
    a.confirm_tag()
    if not a.check_confirm(TAG_B):
        raise AssertionError("confirmation failed")
    return a


def ms(fn):
    best = None
    for _ in range(5):
        gc.collect()
        t = time.ticks_us()
        fn()
        dt = time.ticks_diff(time.ticks_us(), t)
        if best is None or dt < best:
            best = dt
    return best / 1000


def alloc(fn):
    if not hasattr(micropython, "mem_total"):
        return -1
    gc.collect()
    t = micropython.mem_total()
    fn()
    return micropython.mem_total() - t


def gcoff(fn):
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        fn()
        return gc.mem_alloc() - a
    except MemoryError:
        return None
    finally:
        gc.enable()


def peak(fn):
    """The least free heap fn() ran in: a ballast of 256-byte chunks takes the heap a
    step at a time (4 KB, then back one step and 256 B at a time) until fn() fails.
    Chunks are only appended and popped: a big block, once dropped, can be kept by a
    stale pointer the conservative GC still finds, which would skew the next trial."""
    ballast = []
    best = None
    for step in (16, 1):                      # chunks per step
        while True:
            gc.collect()
            left = gc.mem_free()
            try:
                fn()
            except MemoryError:
                break
            best = left
            try:
                for _ in range(step):
                    ballast.append(bytearray(CHUNK))
            except MemoryError:
                break
        for _ in range(step):
            if ballast:
                ballast.pop()
    del ballast[:]
    gc.collect()
    return best


gc.collect()
free0 = gc.mem_free()
for name, fn in (("scalarmult", scalarmult), ("generator", generator), ("session", session)):
    g = gcoff(fn)
    print("%s ms=%.1f alloc=%d peak=%d gcoff=%s"
          % (name, ms(fn), alloc(fn), peak(fn), "over" if g is None else g))
gc.collect()
print("free before=%d after=%d" % (free0, gc.mem_free()))
