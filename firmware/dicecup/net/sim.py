"""A simulated radio medium on a simulated clock: many cups in one process, with
loss, duplication, reordering, latency, partitions, and cups that die or freeze.

    clock = Clock()
    medium = Medium(clock, rng=7, loss=0.1, dup=0.02, reorder=0.05, latency_ms=5)
    a = medium.attach(b"\\x02AAAAA", on_frame=wake)   # a SimRadio: a Transport
    a.send(BROADCAST, frame)                         # delivered 5 ms later
    clock.run_until(1000)                            # runs deliveries and timers
    medium.stats["frames"], medium.save_trace("run.trace")

Nothing here sleeps: time is `clock.now` (ms), advanced only by `run_until`/`step`,
so a long game with timeouts takes milliseconds of real time. The same seed gives
the same run, event for event (one small PRNG, events ordered by (time, seq),
radios kept in attach order). Plain Python that also runs under MicroPython.

How a frame travels. `send` puts one frame on air (counted in `frames`, `bytes`,
`max_frame_bytes`), unless the sender is dead or frozen (then it returns False and
nothing is transmitted: `refused`). Each receiver (the destination, or every other
radio for BROADCAST) gets its own copy, decided independently:
  * lost with probability `loss`                          -> dropped, cause "lost"
  * otherwise it lands `latency_ms + U(0, jitter_ms)` later; copies on one link keep
    their order, except one chosen (probability `reorder`) to be held back
    `U(latency_ms + 1, 3 * latency_ms + jitter_ms + 1)` more, so later frames overtake it
  * with probability `dup` a second copy lands up to `latency_ms` after the first
  * on landing the copy is dropped if the two radios are in different partitions
    ("partition"), the receiver is powered off ("dead") or frozen ("frozen"), or its
    receive buffer is full ("overflow"); otherwise it waits in the buffer and the
    radio's `on_frame(addr)` hook is called (a cluster runner wakes that cup).
  * a unicast to an address nobody has attached is dropped ("nobody").
There are no link-layer ACKs or resends here: `send` returns True for every frame
put on air. The protocol's own acknowledgements are frames like any other and are
counted in `frames`.

The trace records every frame and the fate of every copy; `save_trace` writes it
as text (format below) and `load_trace` reads it back.
"""
from micropython import const
from ..rng import Rng  # noqa: F401 - re-exported: net.sim.Rng is the medium's PRNG
from .transport import BROADCAST, MAX_CUPS, MTU, RX_OVERHEAD, RXBUF, RxQueue, Transport, check_frame, hexaddr

try:
    from heapq import heappop, heappush
except ImportError:  # pragma: no cover - every MicroPython port we use has heapq
    from uheapq import heappop, heappush

# Fates of a copy (trace and stats["dropped_by"]).
DELIVERED = "delivered"
LOST = "lost"
PARTITION = "partition"
DEAD = "dead"
FROZEN = "frozen"
OVERFLOW = "overflow"
NOBODY = "nobody"
DROP_CAUSES = (LOST, PARTITION, DEAD, FROZEN, OVERFLOW, NOBODY)

_WINDOW_FRAMES = const(256)  # the most frames per second a radio's counter can tell apart
TRACE_HEADER = "# dicecup-trace 1"
TRACE_DOC = (
    "# one line per event, fields separated by one space:\n"
    "#   tx <t_ms> <id> <src> <dst> <bytes> <fate> <payload-hex>\n"
    "#   rx <t_ms> <id> <src> <dst> <bytes> <fate> [dup]\n"
    "# tx: a send (fate sent, or off/frozen: the sender could not transmit);\n"
    "# rx: what became of one copy at one receiver (dst is that receiver;\n"
    "# fate delivered, lost, partition, dead, frozen, overflow, nobody);\n"
    "# dup marks the extra copy of a duplicated frame. Addresses are 12 hex digits.\n"
)


def _as_rng(rng):
    if rng is None:
        return Rng(1)
    if isinstance(rng, int):
        return Rng(rng)
    return rng  # anything with random() and randrange(n), e.g. random.Random(seed)


class Clock:
    """Virtual milliseconds and an event queue. `now` only moves when events run."""

    def __init__(self, start_ms=0):
        self.now = start_ms
        self._q = []
        self._seq = 0

    def call_at(self, t, fn, *args):
        """Run fn(*args) at time t (not before now). Returns a handle for cancel()."""
        if t < self.now:
            t = self.now
        self._seq += 1
        ev = [t, self._seq, fn, args]
        heappush(self._q, ev)
        return ev

    def call_later(self, dt, fn, *args):
        return self.call_at(self.now + dt, fn, *args)

    def cancel(self, handle):
        handle[2] = None  # left in the heap, skipped when its time comes

    def next_time(self):
        """Time of the next pending event, or None."""
        q = self._q
        while q and q[0][2] is None:
            heappop(q)
        return q[0][0] if q else None

    def step(self):
        """Run the earliest pending event (moving `now` to its time). False if none."""
        q = self._q
        while q:
            ev = heappop(q)
            fn = ev[2]
            if fn is None:
                continue
            self.now = ev[0]
            fn(*ev[3])
            return True
        return False

    def run_until(self, t):
        """Run every event due at or before t, then set now = t."""
        while True:
            nt = self.next_time()  # skips cancelled events first
            if nt is None or nt > t:
                break
            self.step()
        if t > self.now:
            self.now = t

    def pending(self):
        return sum(1 for ev in self._q if ev[2] is not None)


class SimRadio(Transport):
    """One cup's radio on a Medium; implements Transport. Created by Medium.attach."""

    def __init__(self, medium, addr, on_frame=None, rxbuf=None):
        self.medium = medium
        self.address = bytes(addr)
        self.mtu = medium.mtu
        self.max_cups = medium.max_cups
        self.on_frame = on_frame
        self.alive = True
        self.frozen = False
        self.rx = RxQueue(rxbuf or medium.rxbuf, RX_OVERHEAD)
        self.tx = 0
        self.refused = 0
        self._times = [0] * _WINDOW_FRAMES  # send times of the latest frames (a ring)
        self._n = 0                        # frames sent, ever
        self._first = 0                    # the oldest of them within the last second
        self.max_per_s = 0                 # the most frames sent in any 1 s window

    def _count_send(self, now):
        """Frames in the sliding window (now - 1000, now]; the ring holds enough of
        them for any cup that keeps the protocol's frame ceiling."""
        times = self._times
        size = len(times)
        times[self._n % size] = now
        self._n += 1
        if self._n - self._first > size:
            self._first = self._n - size
        while times[self._first % size] <= now - 1000:
            self._first += 1
        n = self._n - self._first
        if n > self.max_per_s:
            self.max_per_s = n

    def send(self, dest, frame):
        return self.medium._send(self, dest, frame)

    def recv(self):
        if not self.alive:
            return None
        return self.rx.get()

    def _ready(self):
        return self.alive and len(self.rx) > 0

    async def wait(self, timeout_ms):
        """Simulated blocking: runs the clock's events until a frame waits here or
        timeout_ms of simulated time passed. Call it from outside clock events."""
        clock = self.medium.clock
        deadline = clock.now + timeout_ms
        while not self._ready():
            t = clock.next_time()
            if t is None or t > deadline:
                clock.run_until(deadline)
                return self._ready()
            clock.step()
        return True

    def close(self):
        self.medium.detach(self.address)

    def stats(self):
        return {
            "max_frames_per_s": self.max_per_s,
            "tx": self.tx,
            "tx_failed": self.refused,
            "rx": self.rx.received,
            "rx_dropped": self.rx.dropped,
        }


class Medium:
    """The air shared by SimRadios (see the module docstring)."""

    def __init__(self, clock, rng=None, loss=0.0, dup=0.0, reorder=0.0, latency_ms=5,
                 jitter_ms=None, mtu=MTU, max_cups=MAX_CUPS, rxbuf=RXBUF, trace=True):
        self.clock = clock
        self.rng = _as_rng(rng)
        self.loss = loss
        self.dup = dup
        self.reorder = reorder
        self.latency_ms = latency_ms
        self.jitter_ms = latency_ms // 5 if jitter_ms is None else jitter_ms
        self.mtu = mtu
        self.max_cups = max_cups
        self.rxbuf = rxbuf
        self.tracing = trace
        self.trace = []  # (kind, t, id, src, dst, size, fate, payload|dup flag)
        self._radios = []  # attach order: deterministic broadcast order
        self._by_addr = {}
        self._groups = None  # addr -> partition group number, None: no partition
        self._fifo = {}  # (src, dst) -> last in-order landing time
        self._fid = 0
        self.stats = {
            "frames": 0, "bytes": 0, "max_frame_bytes": 0, "refused": 0,
            "copies": 0, "delivered": 0, "flushed": 0, "dropped": 0, "duplicated": 0, "reordered": 0,
            "dropped_by": dict((c, 0) for c in DROP_CAUSES),
        }

    # --- radios -------------------------------------------------------------
    def attach(self, addr, on_frame=None, rxbuf=None):
        """A new SimRadio for `addr` (6 bytes). `on_frame(addr)` is called each time
        a frame lands in its receive buffer."""
        addr = bytes(addr)
        if len(addr) != 6 or addr == BROADCAST:
            raise ValueError("bad address")
        if addr in self._by_addr:
            raise ValueError("address already attached")
        r = SimRadio(self, addr, on_frame, rxbuf)
        self._radios.append(r)
        self._by_addr[addr] = r
        return r

    def detach(self, addr):
        r = self._by_addr.pop(bytes(addr), None)
        if r is not None:
            self._radios.remove(r)
            r.alive = False

    def radio(self, addr):
        return self._by_addr.get(bytes(addr))

    def radios(self):
        return list(self._radios)

    def max_frames_per_s(self):
        """The most frames any one radio put on air in any 1 s window."""
        return max([r.max_per_s for r in self._radios] or [0])

    def kill(self, addr):
        """Power the radio off: what waited in its buffer is gone (counted in
        stats["flushed"]), nothing is received or sent until revive()."""
        r = self._by_addr[bytes(addr)]
        if r.alive:
            r.alive = False
            self.stats["flushed"] += r.rx.clear()

    def revive(self, addr):
        """Power the radio back on, with an empty receive buffer."""
        r = self._by_addr[bytes(addr)]
        r.alive = True
        r.frozen = False

    def freeze(self, addr):
        """The cup hangs: it neither sends nor receives until thaw(); frames that
        already waited stay in its buffer."""
        self._by_addr[bytes(addr)].frozen = True

    def thaw(self, addr):
        self._by_addr[bytes(addr)].frozen = False

    def partition(self, groups):
        """Split the air: radios hear only radios of their own group. `groups` is a
        list of lists of addresses; radios named in no group form one more group
        together (so partition([[master]]) cuts the master off from the rest)."""
        g = {}
        for i, group in enumerate(groups):
            for a in group:
                g[bytes(a)] = i
        self._groups = g

    def heal(self):
        self._groups = None

    def _group(self, addr):
        return self._groups.get(addr, -1)

    # --- transmission -------------------------------------------------------
    def _count_drop(self, cause, n=1):
        if n:
            self.stats["dropped"] += n
            self.stats["dropped_by"][cause] += n

    def _log(self, kind, fid, src, dst, size, fate, extra):
        if self.tracing:
            self.trace.append((kind, self.clock.now, fid, src, dst, size, fate, extra))

    def _send(self, radio, dest, frame):
        check_frame(dest, frame, self.mtu)
        frame = bytes(frame)
        dest = bytes(dest)
        size = len(frame)
        self._fid += 1
        fid = self._fid
        src = radio.address
        if not radio.alive or radio.frozen or self._by_addr.get(src) is not radio:
            radio.refused += 1
            self.stats["refused"] += 1
            self._log("tx", fid, src, dest, size, "frozen" if radio.alive and radio.frozen else "off", frame)
            return False
        st = self.stats
        st["frames"] += 1
        st["bytes"] += size
        if size > st["max_frame_bytes"]:
            st["max_frame_bytes"] = size
        radio.tx += 1
        radio._count_send(self.clock.now)
        self._log("tx", fid, src, dest, size, "sent", frame)
        if dest == BROADCAST:
            for r in self._radios:
                if r is not radio:
                    self._copy(fid, src, r, frame)
        else:
            r = self._by_addr.get(dest)
            if r is None:
                st["copies"] += 1
                self._count_drop(NOBODY)
                self._log("rx", fid, src, dest, size, NOBODY, False)
            else:
                self._copy(fid, src, r, frame)
        return True

    def _copy(self, fid, src, r, frame):
        """Decide one receiver's copy: lost now, or scheduled to land later."""
        rng = self.rng
        st = self.stats
        st["copies"] += 1
        now = self.clock.now
        if self.loss and rng.random() < self.loss:
            self._count_drop(LOST)
            self._log("rx", fid, src, r.address, len(frame), LOST, False)
            return
        t = now + self.latency_ms
        if self.jitter_ms:
            t += rng.randrange(self.jitter_ms + 1)
        if self.reorder and rng.random() < self.reorder:
            lat = self.latency_ms
            t += lat + 1 + rng.randrange(2 * lat + self.jitter_ms + 1)
            st["reordered"] += 1
        else:
            key = (src, r.address)
            last = self._fifo.get(key, 0)
            if t < last:
                t = last  # in-order links: jitter alone never reorders
            self._fifo[key] = t
        self.clock.call_at(t, self._land, fid, src, r, frame, False)
        if self.dup and rng.random() < self.dup:
            st["duplicated"] += 1
            st["copies"] += 1
            self.clock.call_at(t + rng.randrange(self.latency_ms + 1), self._land, fid, src, r, frame, True)

    def _land(self, fid, src, r, frame, dup):
        size = len(frame)
        if self._groups is not None and self._group(src) != self._group(r.address):
            fate = PARTITION
        elif not r.alive or self._by_addr.get(r.address) is not r:
            fate = DEAD
        elif r.frozen:
            fate = FROZEN
        elif not r.rx.put(src, frame):
            fate = OVERFLOW
        else:
            fate = DELIVERED
        if fate == DELIVERED:
            self.stats["delivered"] += 1
        else:
            self._count_drop(fate)
        self._log("rx", fid, src, r.address, size, fate, dup)
        if fate == DELIVERED and r.on_frame is not None:
            r.on_frame(r.address)

    # --- trace --------------------------------------------------------------
    def save_trace(self, path):
        """Write the trace as text (see TRACE_DOC); returns the number of events."""
        with open(path, "w") as fh:
            fh.write(TRACE_HEADER + "\n")
            fh.write(TRACE_DOC)
            for rec in self.trace:
                fh.write(format_event(rec))
                fh.write("\n")
        return len(self.trace)


def format_event(rec):
    """One trace line (without newline) for a trace record."""
    kind, t, fid, src, dst, size, fate, extra = rec
    line = "%s %d %d %s %s %d %s" % (kind, t, fid, hexaddr(src), hexaddr(dst), size, fate)
    if kind == "tx":
        return line + " " + hexaddr(extra)
    return line + " dup" if extra else line


def parse_event(line):
    """The record for one trace line (the inverse of format_event); ValueError on a
    malformed line."""
    from binascii import unhexlify

    parts = line.split()
    if len(parts) < 7 or parts[0] not in ("tx", "rx"):
        raise ValueError("not a trace event: %r" % line)
    kind = parts[0]
    rec_src = unhexlify(parts[3])
    rec_dst = unhexlify(parts[4])
    if len(rec_src) != 6 or len(rec_dst) != 6:
        raise ValueError("bad address in %r" % line)
    size = int(parts[5])
    if kind == "tx":
        extra = unhexlify(parts[7]) if len(parts) > 7 else b""
        if len(extra) != size:
            raise ValueError("payload length mismatch in %r" % line)
    else:
        extra = len(parts) > 7 and parts[7] == "dup"
    return (kind, int(parts[1]), int(parts[2]), rec_src, rec_dst, size, parts[6], extra)


def load_trace(path):
    """The list of trace records saved by Medium.save_trace (comments skipped)."""
    out = []
    with open(path) as fh:
        first = fh.readline().strip()
        if first != TRACE_HEADER:
            raise ValueError("not a dicecup trace (header %r)" % first)
        for line in fh:
            line = line.strip()
            if line and line[0] != "#":
                out.append(parse_event(line))
    return out
