"""The shared in-process "air" behind the fake radio modules in this folder.

The fakes (`network`, `espnow`, `aioespnow`, `bluetooth`, and CircuitPython's
`espnow` + `wifi` under circuitpython/) stand in for the firmware's C modules on
CPython and inside the unix MicroPython (put this folder on the path; for
CircuitPython put circuitpython/ in front of it). Several fake boards live in one
process and hear each other through one Air:

    import fakeair
    air = fakeair.reset(seed=3, loss=0.0, ack_fail=0.0)
    fakeair.use(b"\\x02\\x00\\x00\\x00\\x00\\x01")   # the next WLAN()/ESPNow()/BLE() belong to this board
    ...
    air.tick(10)       # BLE: 10 ms pass (scans see adverts, connections complete), then pump()
    air.pump()         # BLE: deliver the pending irq events

Like the chips they mirror, a radio object belongs to the board that was current
when it was made: `espnow.ESPNow()` and `bluetooth.BLE()` are per-board singletons.

Randomness (loss, failed ACKs) comes from one seeded xorshift generator, the same
on both runtimes. Plain Python that MicroPython runs too.
"""

BROADCAST = b"\xff\xff\xff\xff\xff\xff"


class WouldBlock(AssertionError):
    """The code under test made a call that would block a real cup (for example
    ESPNow.recv() with the default five-minute timeout)."""


class Rng:
    def __init__(self, seed):
        self.s = ((seed * 2654435761) ^ 0x5BD1E995) & 0xFFFFFFFF or 1

    def random(self):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s / 4294967296.0


class EspNowChip:
    """The ESP-NOW driver state of one board, shared by MicroPython's and
    CircuitPython's fake module: the receive ring (bytes, like the driver's),
    registered peers, counters."""

    HEADER = 13  # per-frame ring overhead: magic, length, rssi, time, mac

    def __init__(self, board, rxbuf=526):
        self.board = board
        self.active = False
        self.rxbuf = rxbuf  # the ring allocated now
        self.rxbuf_cfg = rxbuf  # what config(rxbuf=) asked for, used at active(True)
        self.timeout_ms = 300000
        self.ring = []  # (mac, msg, rssi, time_ms)
        self.used = 0
        self.peers = {}  # mac -> encrypted?
        self.peer_order = []
        self.tx_pkts = 0
        self.tx_responses = 0
        self.tx_failures = 0
        self.rx_pkts = 0
        self.dropped = 0
        self.peers_table = {}
        self.irq = None

    def put(self, mac, msg):
        """A frame arrives from the air. The driver's test: it drops a frame when
        header + msg >= free bytes; a dropped frame was still ACKed."""
        need = self.HEADER + len(msg)
        if need >= self.rxbuf - self.used:
            self.dropped += 1
            return
        self.ring.append((mac, msg, -40, AIR.now))
        self.used += need
        self.rx_pkts += 1

    def take(self):
        if not self.ring:
            return None
        item = self.ring.pop(0)
        self.used -= self.HEADER + len(item[1])
        mac = item[0]
        entry = self.peers_table.get(mac)
        if entry is None:
            self.peers_table[mac] = [item[2], item[3]]
        else:
            entry[0] = item[2]
            entry[1] = item[3]
        for key in self.peers_table:  # the driver returns the table's own key
            if key == mac:
                return (key, item[1], item[2], item[3])
        return item


class Board:
    def __init__(self, mac):
        self.mac = bytes(mac)
        self.sta_active = False
        self.ap_active = False
        self.channel = 1
        self.espnow = None  # EspNowChip once an ESPNow object exists
        self.ble = None  # the fake bluetooth module's per-board state
        self.cp_espnow = None  # CircuitPython: the live ESPNow object

    def hears_espnow(self):
        """ESP-NOW needs an active Wi-Fi interface; the radio does one mode at a
        time, so nothing is received while BLE is active."""
        return (self.sta_active or self.ap_active) and not (self.ble is not None and self.ble.is_active)


class Air:
    def __init__(self, seed=1, loss=0.0, ack_fail=0.0):
        self.rng = Rng(seed)
        self.loss = loss  # a frame does not reach a receiver (unicast: no ACK)
        self.ack_fail = ack_fail  # unicast arrived but its ACK was lost
        self.boards = {}
        self.order = []
        self.current = None
        self.now = 0
        self.frames = []  # every ESP-NOW frame put on air: (src, dst, msg)
        self.events = []  # pending BLE irqs: (ble state, event, data, memoryview fields)
        self.ble_tx_fail = 0.0  # probability a BLE write/notify raises OSError(ENOMEM)

    def board(self, mac):
        mac = bytes(mac)
        b = self.boards.get(mac)
        if b is None:
            b = self.boards[mac] = Board(mac)
            self.order.append(b)
        return b

    def use(self, mac):
        self.current = self.board(mac)
        return self.current

    def current_board(self):
        if self.current is None:
            raise RuntimeError("call fakeair.use(mac) before making a radio")
        return self.current

    # --- ESP-NOW ------------------------------------------------------------
    def espnow_transmit(self, src, dest, msg):
        """Put one ESP-NOW frame on air from board `src`; True if it was ACKed
        (broadcast and multicast: always True, nobody ACKs them)."""
        self.frames.append((src.mac, dest, msg))
        if dest[0] & 1:  # broadcast / multicast
            for b in self.order:
                if b is not src and b.hears_espnow() and not (self.loss and self.rng.random() < self.loss):
                    if b.espnow is not None and b.espnow.active:
                        b.espnow.put(src.mac, msg)
            return True
        b = self.boards.get(dest)
        if b is None or not b.hears_espnow():
            return False
        if self.loss and self.rng.random() < self.loss:
            return False
        if b.espnow is not None and b.espnow.active:
            b.espnow.put(src.mac, msg)  # the Wi-Fi layer ACKs even if it is dropped
        if self.ack_fail and self.rng.random() < self.ack_fail:
            return False  # arrived, but the sender never hears so
        return True

    # --- BLE ----------------------------------------------------------------
    def post(self, state, event, data, views=()):
        """Queue an irq for a BLE state; fields at `views` are passed as memoryviews
        that are scribbled over after the handler returns, like the real ones."""
        self.events.append((state, event, data, views))

    def pump(self, limit=100000):
        """Deliver pending BLE irqs (and those they cause) in order."""
        n = 0
        while self.events:
            n += 1
            if n > limit:
                raise AssertionError("BLE irqs do not settle")
            state, event, data, views = self.events.pop(0)
            if not state.is_active or state.handler is None:
                continue
            if views:
                data = list(data)
                bufs = []
                for i in views:
                    buf = bytearray(data[i])
                    bufs.append(buf)
                    data[i] = memoryview(buf)
                state.handler(event, tuple(data))
                for buf in bufs:
                    for j in range(len(buf)):
                        buf[j] = 0xEE  # the ring buffer is reused after the irq
            else:
                state.handler(event, data)

    def tick(self, ms=10):
        """Let `ms` of time pass for BLE: scanners receive every advert, pending
        connections complete or time out, finished scans end; then pump()."""
        self.now += ms
        for b in self.order:
            if b.ble is not None and b.ble.is_active:
                b.ble.on_tick()
        self.pump()


AIR = Air()


def reset(seed=1, **kw):
    """A fresh, empty air (forgetting every board); returns it."""
    global AIR
    AIR = Air(seed, **kw)
    return AIR


def use(mac):
    """Make `mac` the current board: radios made next belong to it."""
    return AIR.use(mac)
