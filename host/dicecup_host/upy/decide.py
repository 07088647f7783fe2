"""Inside MicroPython: how long a bot takes to decide and how much heap it asks for.

argv: level rules seats games [options_json]. Every seat of a `rules` table is played by `level`
(dicecup.players.get) for `games` seeded games (options as JSON);
each decision (act, and Bluff's reroll) is timed with ticks_us, the GC off so a
collection does not land in one decision's time, and the heap it allocated meanwhile
counted (an upper bound of the live heap it needs: nothing is freed while the GC is
off). The few decisions that allocated most are then run again with the heap filled
by ballast down to a given free size, the GC on, to find the least free heap each runs
in (`peak`, to 32 B, odds' row cache emptied first): the heap a decision needs at its peak. Prints one line:

    --decide-- level=L rules=R n=<decisions> median_us=.. p99_us=.. max_us=.. max_alloc=.. import_alloc=.. peak=..
"""
import gc
import sys

from time import ticks_diff, ticks_us

LEVEL, RULES, SEATS, GAMES = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if len(sys.argv) > 5:
    import json
    OPTIONS = json.loads(sys.argv[5])
else:
    OPTIONS = None


class Lcg:
    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def randrange(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


gc.collect()
a0 = gc.mem_alloc()
from dicecup.engine import new_game
from dicecup.engine.actions import EXACT, kind, roll, unpack
from dicecup.players import get
from dicecup.players.odds import forget
gc.collect()
a1 = gc.mem_alloc()
P = get(LEVEL)
gc.collect()
import_alloc = gc.mem_alloc() - a1
del a0, a1

times = []
max_alloc = 0
KEEP = 4
worst = []   # [(alloc, call, args, rng seed)]: the decisions that allocated most


def timed(call, *args):
    global max_alloc
    rng = args[-1]
    x = rng.x
    gc.collect()
    gc.disable()
    m = gc.mem_alloc()
    t = ticks_us()
    a = call(*args)
    dt = ticks_diff(ticks_us(), t)
    used = gc.mem_alloc() - m
    gc.enable()
    times.append(dt)
    if used > max_alloc:
        max_alloc = used
    if len(worst) < KEEP or used > worst[-1][0]:
        worst.append((used, call, args, x))
        worst.sort(key=lambda w: -w[0])
        del worst[KEEP:]
    return a


def runs_in(free, call, args, x):
    """Does the decision run with only `free` bytes of heap left (the GC on)? The rest
    of the heap is taken by ballast, so what it needs at its peak must fit in `free`."""
    args[-1].x = x
    forget()     # a cold odds cache: the rows a decision builds count in its need
    gc.collect()
    ballast = [None] * 1024   # made first: a list growing as it fills would need room itself
    i = 0
    for size in (4096, 512, 64, 16):
        while i < 1024 and gc.mem_free() > free + size + 64:
            try:
                ballast[i] = bytearray(size)
            except MemoryError:
                break
            i += 1
    if gc.mem_free() > free + 96:
        raise RuntimeError("ballast left %d B free, not %d" % (gc.mem_free(), free))
    ok = True
    try:
        call(*args)
    except MemoryError:
        ok = False
    ballast = None
    gc.collect()
    return ok


def need(w):
    """The least free heap (to 32 B) that one decision runs in."""
    lo, hi = 0, 64 * 1024
    if not runs_in(hi, w[1], w[2], w[3]):
        return -1
    while hi - lo > 32:
        mid = (lo + hi) // 2
        if runs_in(mid, w[1], w[2], w[3]):
            hi = mid
        else:
            lo = mid
    return hi


def game(seed):
    rng = Lcg(seed)
    rngs = [Lcg(seed * 7919 + s) for s in range(SEATS)]
    g = new_game(RULES, SEATS, OPTIONS, opener=seed % SEATS)
    hands = [[] for _ in range(SEATS)]
    for _ in range(3000):
        if g.winner() is not None:
            return
        need = g.need()
        if need == "shake":
            g.start_round()
            hands = [[rng.randrange(6) + 1 for _ in range(g.hidden(s))] for s in range(SEATS)]
            continue
        if need == "reveal":
            g.settle(hands)
            continue
        s = g.to_act()
        if RULES == "dixmille":
            a = timed(P.act, g.view(s), rngs[s])
            if kind(a) == "roll":
                a = roll([rng.randrange(6) + 1 for _ in range(g.roll_size(s))])
            g.apply(s, a)
            continue
        called = False
        if g.bid:
            for i in range(1, SEATS):
                o = (s + i) % SEATS
                if g.dice[o] and EXACT in g.legal_run(o):
                    a = timed(P.act, g.view(o, hands[o]), rngs[o])
                    if a is not None:
                        g.apply(o, a)
                        called = True
                        break
        if called:
            continue
        v = g.view(s, hands[s])
        a = timed(P.act, v, rngs[s])
        g.apply(s, a)
        if RULES == "bluff" and kind(a) == "bid":
            r = timed(P.reroll, v, a, rngs[s])
            if r is not None:
                g.apply(s, r)
                left = len(hands[s]) - len(unpack(r & 0x7FFF))
                hands[s] = [rng.randrange(6) + 1 for _ in range(left)]


for seed in range(GAMES):
    game(seed)
times.sort()
n = len(times)
peak = 0
for w in worst:
    peak = max(peak, need(w))
print("--decide-- level=%s rules=%s n=%d median_us=%d p99_us=%d max_us=%d max_alloc=%d import_alloc=%d peak=%d" % (
    LEVEL, RULES, n, times[n // 2], times[min(n - 1, n * 99 // 100)], times[-1], max_alloc, import_alloc,
    peak))
