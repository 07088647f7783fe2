"""Bluetooth LE transport: the table as a star of GATT connections around the master
(NOT YET VERIFIED ON HARDWARE; tested against a fake `bluetooth` that mirrors the
documented API and NimBLE's limits, see tests/fakes/bluetooth.py).

    t = BLETransport(hub=True)     # the master: central, connects to the cups
    t = BLETransport()             # any other cup: peripheral, waits for a master
    t.send(BROADCAST, frame); t.recv(); await t.wait(50)     # as every Transport

The choice: master as central, not advertising-based broadcast.
* Advertising carries 31 bytes (flags and a manufacturer header leave ~24 for data),
  so one 250-byte frame is 11-12 adverts. Adverts are neither addressed nor
  acknowledged, go out every 20-100+ ms, and scanners (duty-cycled, and busy
  advertising themselves) miss many: with 30 % advert loss a 12-advert frame
  arrives whole 0.7**12 = 1.4 % of the time. Every state update would take
  seconds of repeats. aioble offers no extended (longer) adverts either.
* A GATT connection acknowledges and resends every link-layer packet and keeps
  order; an ATT MTU of up to 267 carries a whole frame in one write or
  notification, every connection interval (tens of ms).
* The price: MicroPython's NimBLE on the ESP32 allows 4 connections, so the master
  holds 4 cups and a BLE table has at most 5 (`max_cups` = 5; the lobby must say
  so). And it is a star: cups only hear the master. The master relays what a cup
  sends to another cup or to BROADCAST, so the Transport contract holds while the
  master lives. When it dies every connection drops: the cups cannot hear each
  other until the one the protocol elects calls `set_hub(True)`; the others keep
  advertising and the new master connects them (its seat is free again).
* ESP-NOW reception stops while BLE is on: one radio mode at a time per table.

Roles. The hub scans for cups' connectable adverts, connects to up to 4, discovers
the link characteristic, asks for a larger MTU, writes frames to each cup (write
without response) and receives the cups' notifications. It also advertises a small
non-connectable beacon, so cups can list nearby masters (`scan`, `hubs`). A leaf
advertises (connectable) until a hub connects, and may name the hub it wants
(`join(addr)`); a hub only connects cups that name it or nobody.

Adverts (22 of 31 bytes): flags 02 01 06, then manufacturer data (length 18,
type 0xFF, company 0xFFFF = testing): b"DC", role b"H"/b"L", the cup's address
(6 bytes), the wanted hub (6 bytes, zeros = any).

Link framing. Each frame travels as a record: dst (6) + src (6) + frame (<= 250),
cut into chunks that fit the connection's ATT payload (MTU - 3: 20 bytes before the
MTU exchange, up to 264 after). A chunk is [L][F][data]: L = chunk length with
bit 8 in F, F = 0x80 first, 0x40 last, 0x20 length bit 8, low 5 bits the chunk
index. The leaf's characteristic buffer runs in append mode (so writes that arrive
before the irq runs are not overwritten) and the length lets the leaf split what
piled up. A missing or out-of-order chunk throws the partial record away (counted
as `corrupt`); the protocol resends.
"""
from micropython import const

from . import transport
from .transport import BROADCAST, RX_OVERHEAD, RxQueue, Transport, check_frame, ticks_diff, ticks_ms

try:
    import bluetooth
except ImportError:  # the host without fakes: importing works, constructing fails
    bluetooth = None

_IRQ_CENTRAL_CONNECT = const(1)
_IRQ_CENTRAL_DISCONNECT = const(2)
_IRQ_GATTS_WRITE = const(3)
_IRQ_SCAN_RESULT = const(5)
_IRQ_SCAN_DONE = const(6)
_IRQ_PERIPHERAL_CONNECT = const(7)
_IRQ_PERIPHERAL_DISCONNECT = const(8)
_IRQ_GATTC_CHARACTERISTIC_RESULT = const(11)
_IRQ_GATTC_CHARACTERISTIC_DONE = const(12)
_IRQ_GATTC_NOTIFY = const(18)
_IRQ_MTU_EXCHANGED = const(21)

_FLAG_WRITE_NO_RESPONSE = const(0x0004)
_FLAG_NOTIFY = const(0x0010)

_SERVICE_UUID = "d1ce0001-5eed-4c0f-9b1e-7ab1ec0ffee0"
_LINK_UUID = "d1ce0002-5eed-4c0f-9b1e-7ab1ec0ffee0"

_MAX_LINKS = const(4)  # NimBLE's connection limit in MicroPython's ESP32 builds
_MAX_CUPS = const(5)  # the hub + MAX_LINKS cups
_MTU_PREFERRED = const(267)  # 264-byte chunks: a whole 262-byte record in one
_REC_MAX = const(262)  # dst + src + MTU
_CHUNK_MAX = const(264)
_LEAF_BUF = const(2048)  # append-mode buffer of the leaf's characteristic
_ADV_LEAF_US = const(100000)
_ADV_HUB_US = const(250000)
_SCAN_INTERVAL_US = const(60000)
_SCAN_WINDOW_US = const(30000)
_CONNECT_MS = const(2000)

_ROLE_HUB = const(0x48)  # "H"
_ROLE_LEAF = const(0x4C)  # "L"
_ANY = b"\x00\x00\x00\x00\x00\x00"


def advert(role, me, target=_ANY):
    """The 22-byte advertising payload for a cup (`role` 'H' or 'L')."""
    return b"\x02\x01\x06\x12\xff\xff\xffDC" + role + me + target


def parse_advert(adv):
    """(role, me, target) from an advertising payload, or None if it is not ours."""
    n = len(adv)
    i = 0
    while i + 1 < n:
        ln = adv[i]
        if ln == 0:
            return None
        if (ln == 18 and i + 19 <= n and adv[i + 1] == 0xFF and adv[i + 2] == 0xFF
                and adv[i + 3] == 0xFF and adv[i + 4] == 0x44 and adv[i + 5] == 0x43):
            o = i + 6
            return adv[o], bytes(adv[o + 1:o + 7]), bytes(adv[o + 7:o + 13])
        i += ln + 1
    return None


class _Link:
    """One connection: the peer cup's address, its ATT MTU and the reassembly of
    the record being received."""

    def __init__(self, conn, addr):
        self.conn = conn
        self.addr = addr  # the cup's address (hub side), the hub's (leaf side)
        self.mtu = 23  # ATT default until the exchange
        self.handle = None  # hub side: the leaf's link characteristic
        self.buf = bytearray(_REC_MAX)
        self.fill = 0
        self.expect = -1  # index of the next chunk, -1: between records


class BLETransport(Transport):
    """A cup's BLE radio as a Transport (see the module docstring)."""

    max_cups = _MAX_CUPS

    def __init__(self, hub=False, rxbuf=transport.RXBUF, ble=None):
        if ble is None:
            if bluetooth is None:
                raise OSError("no bluetooth module on this firmware")
            ble = bluetooth.BLE()
        self._ble = ble
        ble.active(True)
        ble.config(mtu=_MTU_PREFERRED)
        ble.gap_advertise(None)  # services can only be registered while silent
        self._link_uuid = bluetooth.UUID(_LINK_UUID)
        svc = (bluetooth.UUID(_SERVICE_UUID), ((self._link_uuid, _FLAG_WRITE_NO_RESPONSE | _FLAG_NOTIFY),))
        ((self._handle,),) = ble.gatts_register_services((svc,))
        ble.gatts_set_buffer(self._handle, _LEAF_BUF, True)
        self.address = bytes(ble.config("mac")[1])
        self._rx = RxQueue(rxbuf, RX_OVERHEAD)
        self._chunk = bytearray(_CHUNK_MAX)
        self._links = {}  # hub: conn handle -> _Link
        self._uplink = None  # leaf: the _Link to its hub
        self._connecting = None  # hub: (addr_type, ble addr, cup addr) being connected
        self._connect_at = 0
        self._scanning = False
        self._target = _ANY
        self.hubs = {}  # hubs heard advertising: address -> rssi
        self.is_hub = False
        self._open = True
        self.tx = 0
        self.tx_failed = 0
        self.corrupt = 0
        self.relayed = 0
        self.unroutable = 0
        ble.irq(self._irq)
        self.set_hub(hub)

    # --- roles --------------------------------------------------------------
    def set_hub(self, hub):
        """Become the hub (the table master: central, up to 4 cups) or a leaf.
        Drops every current connection; the protocol calls this when this cup
        creates a table or wins an election, and set_hub(False) when it loses the
        master role."""
        ble = self._ble
        self._stop_radio()
        self.is_hub = bool(hub)
        if self.is_hub:
            ble.gap_advertise(_ADV_HUB_US, advert(b"H", self.address), connectable=False)
            self._hub_scan()
        else:
            self._advertise()

    def join(self, hub_addr=None):
        """Leaf: accept only the hub with this address (None: any hub). Drops the
        current hub if it is another one."""
        self._target = bytes(hub_addr) if hub_addr else _ANY
        up = self._uplink
        if self.is_hub or not self._open:
            return
        if up is not None:
            if hub_addr and up.addr != self._target:
                self._ble.gap_disconnect(up.conn)
        else:
            self._advertise()

    def scan(self, duration_ms):
        """Listen for hubs' beacons for duration_ms; results gather in `hubs`."""
        if not self._scanning:
            self._ble.gap_scan(duration_ms, _SCAN_INTERVAL_US, _SCAN_WINDOW_US, False)
            self._scanning = True

    def connected(self):
        """Addresses of the cups linked to this hub, or [hub] for a linked leaf."""
        if self.is_hub:
            return [l.addr for l in self._links.values() if l.handle is not None]
        up = self._uplink
        return [up.addr] if up is not None else []

    def _stop_radio(self):
        ble = self._ble
        ble.gap_advertise(None)
        if self._scanning:
            ble.gap_scan(None)
            self._scanning = False
        if self._connecting is not None:
            try:
                ble.gap_connect(None)
            except OSError:
                pass
            self._connecting = None
        for conn in list(self._links):
            ble.gap_disconnect(conn)
        self._links = {}
        if self._uplink is not None:
            ble.gap_disconnect(self._uplink.conn)
            self._uplink = None

    def _check_connect(self):
        """Give up a connection attempt the stack never reported on (it should
        after _CONNECT_MS), so the hub goes back to scanning for cups."""
        if self._connecting is not None and ticks_diff(ticks_ms(), self._connect_at) > 3 * _CONNECT_MS:
            try:
                self._ble.gap_connect(None)
            except OSError:
                pass
            self._connecting = None
            self._hub_scan()

    def _advertise(self):
        if self._open and not self.is_hub and self._uplink is None:
            self._ble.gap_advertise(_ADV_LEAF_US, advert(b"L", self.address, self._target))

    def _hub_scan(self):
        if (self._open and self.is_hub and not self._scanning and self._connecting is None
                and len(self._links) < _MAX_LINKS):
            self._ble.gap_scan(0, _SCAN_INTERVAL_US, _SCAN_WINDOW_US, False)
            self._scanning = True

    # --- events (the bluetooth irq; data memoryviews live only during the call) --
    def _irq(self, event, data):
        if event == _IRQ_GATTC_NOTIFY:
            link = self._links.get(data[0])
            if link is not None:
                self._feed(link, data[2])
        elif event == _IRQ_GATTS_WRITE:
            up = self._uplink
            if data[1] == self._handle and up is not None and data[0] == up.conn:
                self._feed(up, self._ble.gatts_read(self._handle))
        elif event == _IRQ_SCAN_RESULT:
            self._scan_result(data)
        elif event == _IRQ_SCAN_DONE:
            self._scanning = False
            c = self._connecting
            if c is not None and self.is_hub:
                try:
                    self._ble.gap_connect(c[0], c[1], _CONNECT_MS)
                    self._connect_at = ticks_ms()
                except OSError:
                    self._connecting = None
                    self._hub_scan()
            else:
                self._hub_scan()
        elif event == _IRQ_PERIPHERAL_CONNECT:
            conn = data[0]
            c = self._connecting
            self._connecting = None
            if c is None or not self.is_hub:
                self._ble.gap_disconnect(conn)
                return
            self._links[conn] = _Link(conn, c[2])
            try:
                self._ble.gattc_discover_characteristics(conn, 1, 0xFFFF, self._link_uuid)
            except OSError:
                self._ble.gap_disconnect(conn)
            self._hub_scan()
        elif event == _IRQ_PERIPHERAL_DISCONNECT:
            conn = data[0]
            c = self._connecting
            if conn in self._links:
                del self._links[conn]
            elif c is not None and bytes(data[2]) == c[1]:
                self._connecting = None  # the attempt failed or was cancelled
            self._hub_scan()
        elif event == _IRQ_GATTC_CHARACTERISTIC_RESULT:
            link = self._links.get(data[0])
            if link is not None and data[4] == self._link_uuid:
                link.handle = data[2]
        elif event == _IRQ_GATTC_CHARACTERISTIC_DONE:
            link = self._links.get(data[0])
            if link is not None:
                if link.handle is None:
                    self._ble.gap_disconnect(link.conn)  # not a dice cup after all
                else:
                    try:
                        self._ble.gattc_exchange_mtu(link.conn)
                    except OSError:
                        pass  # 20-byte chunks then
        elif event == _IRQ_MTU_EXCHANGED:
            conn, mtu = data
            link = self._links.get(conn)
            if link is None and self._uplink is not None and self._uplink.conn == conn:
                link = self._uplink
            if link is not None:
                link.mtu = mtu
        elif event == _IRQ_CENTRAL_CONNECT:
            conn = data[0]
            if self.is_hub or self._uplink is not None or not self._open:
                self._ble.gap_disconnect(conn)  # one hub per leaf
            else:
                self._uplink = _Link(conn, bytes(data[2]))
        elif event == _IRQ_CENTRAL_DISCONNECT:
            up = self._uplink
            if up is not None and up.conn == data[0]:
                self._uplink = None
                self._advertise()

    def _scan_result(self, data):
        addr_type, addr, adv_type, rssi, adv = data
        ours = parse_advert(adv)
        if ours is None:
            return
        role, me, target = ours
        if role == _ROLE_HUB:
            self.hubs[me] = rssi
            return
        if (role != _ROLE_LEAF or not self.is_hub or self._connecting is not None
                or adv_type > 1 or len(self._links) >= _MAX_LINKS):
            return  # adv_type 0/1: connectable adverts only
        if target != _ANY and target != self.address:
            return
        for link in self._links.values():
            if link.addr == me:
                return
        self._connecting = (addr_type, bytes(addr), me)
        self._connect_at = ticks_ms()
        self._ble.gap_scan(None)  # connect once the scan has stopped (SCAN_DONE)

    # --- records and chunks -------------------------------------------------
    def _feed(self, link, data):
        """Take chunks (one, or several piled up in append mode) from a link."""
        n = len(data)
        i = 0
        buf = link.buf
        while i + 2 <= n:
            f = data[i + 1]
            ln = data[i] | ((f & 0x20) << 3)
            if ln < 3 or i + ln > n:
                self.corrupt += 1  # cut short: drop what piled up
                link.expect = -1
                return
            if f & 0x80:
                link.fill = 0
                link.expect = 0
            k = ln - 2
            if link.expect != (f & 0x1F) or link.fill + k > _REC_MAX:
                if link.expect >= 0:
                    self.corrupt += 1
                link.expect = -1
                i += ln
                continue
            buf[link.fill:link.fill + k] = data[i + 2:i + ln]
            link.fill += k
            link.expect = (link.expect + 1) & 0x1F
            if f & 0x40:
                link.expect = -1
                self._record(link)
            i += ln

    def _record(self, link):
        fill = link.fill
        if fill < 13:
            self.corrupt += 1
            return
        buf = link.buf
        dst = bytes(buf[0:6])
        src = bytes(buf[6:12])
        frame = bytes(buf[12:fill])
        if not self.is_hub:
            if dst == self.address or dst == BROADCAST:
                self._rx.put(src, frame)
            return
        if dst == self.address:
            self._rx.put(src, frame)
        elif dst == BROADCAST:
            self._rx.put(src, frame)
            for other in self._links.values():
                if other is not link and other.handle is not None:
                    self.relayed += 1
                    self._send_link(other, dst, src, frame)
        else:
            for other in self._links.values():
                if other.addr == dst and other is not link:
                    self.relayed += 1
                    self._send_link(other, dst, src, frame)
                    return
            self.unroutable += 1

    def _send_link(self, link, dst, src, frame):
        """Send one record over one link, chunked to its MTU. False on an error
        (the rest of the record is not sent; the receiver drops the partial)."""
        if self.is_hub and link.handle is None:
            return False
        cap = link.mtu - 3
        if cap > _CHUNK_MAX:
            cap = _CHUNK_MAX
        cap -= 2
        total = 12 + len(frame)
        chunk = self._chunk
        view = memoryview(chunk)
        off = 0
        idx = 0
        ble = self._ble
        while off < total:
            k = total - off
            if k > cap:
                k = cap
            ln = k + 2
            f = idx & 0x1F
            if off == 0:
                f |= 0x80
            if off + k == total:
                f |= 0x40
            if ln & 0x100:
                f |= 0x20
            chunk[0] = ln & 0xFF
            chunk[1] = f
            j = 2
            end = off + k
            while off < end:  # copy from dst + src + frame without joining them
                if off < 6:
                    part, p = dst, off
                elif off < 12:
                    part, p = src, off - 6
                else:
                    part, p = frame, off - 12
                m = len(part) - p
                if m > end - off:
                    m = end - off
                chunk[j:j + m] = part[p:p + m]
                j += m
                off += m
            try:
                if self.is_hub:
                    ble.gattc_write(link.conn, link.handle, view[:ln], 0)
                else:
                    ble.gatts_notify(link.conn, self._handle, view[:ln])
            except OSError:
                return False
            idx += 1
        return True

    # --- Transport ----------------------------------------------------------
    def send(self, dest, frame):
        check_frame(dest, frame, transport.MTU)
        if not self._open:
            return False
        src = self.address
        if self.is_hub:
            self._check_connect()
            if dest == BROADCAST:
                links = [l for l in self._links.values() if l.handle is not None]
            else:
                links = [l for l in self._links.values() if l.addr == dest and l.handle is not None]
            ok = bool(links)
            for link in links:
                if not self._send_link(link, dest, src, frame):
                    ok = False
        else:
            up = self._uplink
            ok = up is not None and self._send_link(up, dest, src, frame)
        if ok:
            self.tx += 1
        else:
            self.tx_failed += 1
        return ok

    def recv(self):
        return self._rx.get()

    def _ready(self):
        return len(self._rx) > 0

    def close(self):
        if self._open:
            self._stop_radio()
            self._open = False
            self._ble.active(False)

    def stats(self):
        return {
            "tx": self.tx,
            "tx_failed": self.tx_failed,
            "rx": self._rx.received,
            "rx_dropped": self._rx.dropped,
            "corrupt": self.corrupt,
            "relayed": self.relayed,
            "unroutable": self.unroutable,
            "links": len(self.connected()),
        }
