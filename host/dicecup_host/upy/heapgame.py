"""Inside MicroPython: one seeded game with random legal actions, measuring the heap.

argv: rules seats seed [measure]. Prints one line: `import=<bytes> base=<bytes>
peak=<bytes above base> steps=<n> state=<max dumps() bytes> winner=<seat>`.
With measure=0 it only plays (for the smallest-heap search).
"""
import gc
import sys

gc.collect()
start = gc.mem_alloc()
import random
from dicecup.engine import new_game, rules_class

rules = sys.argv[1]
seats = int(sys.argv[2])
random.seed(int(sys.argv[3]))
measure = len(sys.argv) < 5 or sys.argv[4] != "0"
rules_class(rules)
gc.collect()
base = gc.mem_alloc()
peak = 0


def step(fn, *args):
    """Run one engine call; the bytes allocated during it (without collecting) bound
    its peak from above."""
    global peak
    if not measure:
        return fn(*args)
    gc.collect()
    gc.disable()
    out = fn(*args)
    used = gc.mem_alloc() - base
    gc.enable()
    if used > peak:
        peak = used
    return out


g = step(new_game, rules, seats, None, random)
steps = 0
state = len(g.dumps())
while g.winner() is None:
    if rules == "dixmille":
        s = g.to_act()
        acts = step(g.legal, s)
        a = acts[random.randrange(len(acts))]
        if a >> 16 == 1:
            from dicecup.engine.actions import roll
            a = roll([random.randrange(6) + 1 for _ in range(g.left)])
        step(g.apply, s, a)
        steps += 1
    else:
        hands = [[random.randrange(6) + 1 for _ in range(g.hidden(s))] for s in range(g.n)]
        step(g.start_round)
        while g.phase == 1:
            s = g.to_act()
            acts = step(g.legal, s)
            step(g.apply, s, acts[random.randrange(len(acts))])
            steps += 1
        step(g.settle, hands)
    n = len(g.dumps())
    if n > state:
        state = n
print("import=%d base=%d peak=%d steps=%d state=%d winner=%d" % (base - start, base, peak, steps, state, g.winner()))
