"""A whole simulated table in one process, written to run unchanged on CPython and inside
MicroPython: the protocol's own code (net/, the autoplayer, the simulated medium) and
nothing of the host's. Both runtimes must end with the same state bytes.

argv: rules cups seed loss_percent. Prints `state=<hex of the final snapshot>`,
`version=`, `frames=` and `heap=` (bytes in use after the game, MicroPython only).
"""
import gc
import sys

from dicecup.autoplay import Autoplayer
from dicecup.engine import new_game
from dicecup.net import fair
from dicecup.net.cup import Cup
from dicecup.net.pump import pump
from dicecup.net.sim import Clock, Medium, Rng
from dicecup.net.memstore import MemStore


class Bytes:
    """A deterministic byte source (SHA-256 counter), the same on both runtimes."""

    def __init__(self, seed):
        self.rng = fair.HashRng(b"%d" % seed)

    def __call__(self, n):
        return bytes(self.rng.randrange(256) for _ in range(n))


def main(rules, n, seed, loss):
    clock = Clock()
    medium = Medium(clock, rng=seed, loss=loss / 100, latency_ms=5, trace=False)
    cups = []
    radios = []
    players = []
    for i in range(n):
        addr = bytes((2, 0, 0, 0, 0, i + 1))
        cup = Cup(addr, MemStore(), Bytes(seed * 10 + i), "p%d" % i, rng=Rng(seed + i))
        cups.append(cup)
        radios.append(medium.attach(addr))
        players.append(Autoplayer(Rng(seed + 100 + i)))

    def step():
        # every cup through the firmware's own pump, every 5 ms of simulated time
        clock.run_until(clock.now + 5)
        for i in range(n):
            pump(cups[i], radios[i], clock.now, players[i])

    def run(ms, cond):
        end = clock.now + ms
        while clock.now < end:
            step()
            if cond():
                return True
        return False

    opts = new_game(rules, 2, {}, opener=0).opts
    cups[0].create(0x4242, "1234", rules, opts)
    for c in cups[1:]:
        run(3000, lambda: 0x4242 in c.heard)
        c.join(0x4242, "1234")
        run(3000, lambda: c.table is not None)
    run(1000, lambda: False)
    cups[0].start()
    run(3600000, lambda: all(c.table.phase == 2 for c in cups))
    states = [c.table.snapshot() for c in cups]
    gc.collect()
    heap = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    print("same=%d" % (len(set(states)) == 1))
    print("version=%d frames=%d heap=%d" % (cups[0].table.version, medium.stats["frames"], heap))
    print("state=%s" % "".join("%02x" % b for b in states[0]))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
