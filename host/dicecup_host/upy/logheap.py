"""Inside the 32-bit MicroPython with the firmware frozen in (110 KB heap): a master cup
with five bots plays until its serial log has written N lines, then the heap is
reported (`micropython.mem_info()`: the largest free block is what fragmentation
leaves for the next big allocation).

argv: mode lines. mode `stream`: the firmware's SerialLog, which writes each line in
pieces; mode `list`: the same lines built the way the cups did before (one list of
characters per line, joined), for comparison. Prints `lines=` and `bytes=`.
"""
import gc
import sys

import micropython

from dicecup.autoplay import Autoplayer
from dicecup.net import fair
from dicecup.net.cup import Cup
from dicecup.rng import Rng
from dicecup.net.memstore import MemStore
from dicecup.net.table import DONE
from dicecup.seriallog import SerialLog


class Bytes:
    def __init__(self, seed):
        self.rng = fair.HashRng(b"%d" % seed)

    def __call__(self, n):
        return bytes(self.rng.randrange(256) for _ in range(n))


class Sink:
    """The serial port: counts what it is given."""

    def __init__(self):
        self.n = 0

    def write(self, s):
        self.n += len(s)


def _chars(s, out):
    out.append('"')
    for ch in s:
        out.append(ch)
    out.append('"')


def _old_value(v, out):
    if v is None:
        out.append("null")
    elif v is True or v is False:
        out.append("true" if v else "false")
    elif type(v) is int:
        out.append(str(v))
    elif type(v) is str:
        _chars(v, out)
    elif type(v) is bytes:
        _chars("".join("%02x" % b for b in v), out)
    else:
        out.append("[")
        for i in range(len(v)):
            if i:
                out.append(",")
            _old_value(v[i], out)
        out.append("]")


class ListLog:
    """The line as the cups built it before: pairs, then a list of every character."""

    def __init__(self, write, cup):
        self.write = write
        self.cup = cup
        self.lines = 0

    def __call__(self, ev):
        if ev.scope == 2:
            return
        pairs = [("k", ev.kind), ("tb", ev.table), ("tm", ev.term), ("v", ev.version), ("i", ev.index),
                 ("t", ev.t), ("cup", self.cup.me)]
        names = ev.names()
        for i in range(len(names)):
            v = ev.values[i]
            if v is None and names[i] == "state":
                v = self.cup.table.digest_of()
            pairs.append((names[i], v))
        out = ["{"]
        for k, v in pairs:
            if len(out) > 1:
                out.append(",")
            _chars(k, out)
            out.append(":")
            _old_value(v, out)
        out.append("}\n")
        self.write("".join(out))
        self.lines += 1


def main(mode, lines):
    sink = Sink()
    cup = Cup(b"\x02\x00\x00\x00\x00\x01", MemStore(), Bytes(1), "ana", rng=Rng(2))
    log = (SerialLog if mode == "stream" else ListLog)(sink.write, cup)
    cup.listen(log)
    cup.create(0x1234, "4321", "perudo", 0)
    for i in range(5):
        cup.add_bot("bot%d" % i)
    cup.start()
    player = Autoplayer(Rng(3))
    t = 0
    if lines == 0:
        gc.collect()
        micropython.mem_info()
    while log.lines < lines:
        t += 10
        cup.tick(t)
        player.step(cup, t)
        cup.out = []
        if cup.table.phase == DONE:
            cup.start()
    gc.collect()
    micropython.mem_info()
    print("lines=%d bytes=%d" % (log.lines, sink.n))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
