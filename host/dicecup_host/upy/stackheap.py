"""Inside MicroPython: heap taken by importing the protocol stack, and by one master cup
with five bots playing for 20 simulated seconds. Prints `import=<bytes> cup=<bytes>`."""
import gc
gc.collect()
a = gc.mem_alloc()
from dicecup.net.cup import Cup
from dicecup.net.memstore import MemStore
from dicecup.engine import rules_class
rules_class("perudo")
gc.collect()
b = gc.mem_alloc()
import os
cup = Cup(b"\x02\x00\x00\x00\x00\x01", MemStore(), os.urandom, "ana")
cup.create(0x1234, "4321", "perudo", 0)
for i in range(5):
    cup.add_bot("bot%d" % i)
cup.start()
for t in range(0, 20000, 10):
    cup.tick(t)
    cup.out = []
gc.collect()
c = gc.mem_alloc()
print("import=%d cup=%d" % (b - a, c - b))
