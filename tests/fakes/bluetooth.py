"""Fake of MicroPython's `bluetooth` module (docs/library/bluetooth.rst, NimBLE on
the ESP32), enough for a GATT star, enforcing what the docs and NimBLE impose:

* BLE() is the board's singleton; every method but active/config/irq raises
  OSError(EPERM) while inactive; methods marked `/` in the docs are positional
  only (TypeError on keywords); gap_advertise's resp_data/connectable are
  keyword-only;
* advertising payloads are at most 31 bytes (OSError EINVAL); a peripheral stops
  advertising when a central connects; services can only be registered while not
  advertising;
* at most 4 connections per device, both roles counted (gap_connect: OSError
  ENOMEM; a full peripheral is not connectable); gap_connect while scanning:
  OSError(EBUSY); one connection attempt at a time (EALREADY); a failed or cancelled
  attempt raises _IRQ_PERIPHERAL_DISCONNECT with conn_handle 0xFFFF;
* the ATT MTU is 23 until gattc_exchange_mtu() (min of both sides' config(mtu));
  a write or notification longer than MTU - 3 raises OSError(EINVAL) (NimBLE would
  truncate it silently: either way the data is lost); a characteristic holds 20
  bytes unless gatts_write/gatts_set_buffer made it larger, remote writes are
  truncated to that, append mode accumulates until gatts_read();
* irq data: addr, adv_data, notify_data are memoryviews that the fake scribbles
  over after the handler returns (copy them, as the docs say);
* events are delivered by fakeair.AIR.pump(); time (scans, connection set-up)
  passes with fakeair.AIR.tick(ms).
`fakeair.AIR.ble_tx_fail` makes writes/notifications fail with OSError(ENOMEM) at
random, like NimBLE running out of buffers.
"""
import fakeair

FLAG_READ = 0x0002
FLAG_WRITE_NO_RESPONSE = 0x0004
FLAG_WRITE = 0x0008
FLAG_NOTIFY = 0x0010
FLAG_INDICATE = 0x0020

EPERM = 1
ENOMEM = 12
EBUSY = 16
EINVAL = 22
ENOTCONN = 107
EALREADY = 114

MAX_CONNECTIONS = 4
ADV_MAX = 31

_IRQ_CENTRAL_CONNECT = 1
_IRQ_CENTRAL_DISCONNECT = 2
_IRQ_GATTS_WRITE = 3
_IRQ_SCAN_RESULT = 5
_IRQ_SCAN_DONE = 6
_IRQ_PERIPHERAL_CONNECT = 7
_IRQ_PERIPHERAL_DISCONNECT = 8
_IRQ_GATTC_SERVICE_RESULT = 9
_IRQ_GATTC_SERVICE_DONE = 10
_IRQ_GATTC_CHARACTERISTIC_RESULT = 11
_IRQ_GATTC_CHARACTERISTIC_DONE = 12
_IRQ_GATTC_WRITE_DONE = 17
_IRQ_GATTC_NOTIFY = 18
_IRQ_MTU_EXCHANGED = 21

_HEX = "0123456789abcdef"


def _no_kw(kw):
    if kw:
        raise TypeError("function doesn't take keyword arguments")


class UUID:
    """bluetooth.UUID: from a 16-bit int, a 128-bit string, bytes or another UUID."""

    def __init__(self, value):
        if isinstance(value, UUID):
            self._b = value._b
        elif isinstance(value, int):
            if not 0 <= value <= 0xFFFF:
                raise ValueError("invalid UUID")
            self._b = bytes((value & 0xFF, value >> 8))
        elif isinstance(value, str):
            h = value.replace("-", "").lower()
            if len(h) != 32 or any(c not in _HEX for c in h):
                raise ValueError("invalid UUID")
            raw = bytes(int(h[i:i + 2], 16) for i in range(0, 32, 2))
            self._b = bytes(reversed(raw))  # little-endian, as the stack stores it
        else:
            b = bytes(value)
            if len(b) not in (2, 4, 16):
                raise ValueError("invalid UUID")
            self._b = b

    def __eq__(self, other):
        return isinstance(other, UUID) and other._b == self._b

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self._b)

    def __repr__(self):
        return "UUID(%r)" % (self._b,)


class _Attr:
    def __init__(self, uuid, flags):
        self.uuid = uuid
        self.flags = flags
        self.value = b""
        self.size = 20  # "Characteristics and descriptors have a default maximum size of 20 bytes"
        self.append = False


class _Conn:
    def __init__(self, handle, state, central):
        self.handle = handle
        self.state = state  # this side's _State
        self.central = central  # True when this side initiated (it is the central)
        self.peer = None  # the other side's _Conn
        self.mtu = 23


class _State:
    """One board's BLE controller + host."""

    def __init__(self, board):
        self.board = board
        self.is_active = False
        self.handler = None
        self.mtu_pref = 23
        self.gap_name = b"MPY BTSTACK"
        self.rxbuf = 512
        self._reset()

    def _reset(self):
        self.adv = None  # (adv_data, resp_data, connectable)
        self.adv_data = b""
        self.resp_data = b""
        self.scan_end = None  # None: not scanning; -1: forever; else end time
        self.connecting = None  # (addr_type, addr, deadline)
        self.conns = {}
        self.next_conn = 1
        self.attrs = {}
        self.chars = []  # (def_handle, value_handle, properties, uuid)
        self.services = []  # (start, end, uuid)

    def post(self, event, data, views=()):
        fakeair.AIR.post(self, event, data, views)

    def new_conn(self, central):
        h = self.next_conn
        self.next_conn += 1
        c = self.conns[h] = _Conn(h, self, central)
        return c

    def accepts(self):
        return self.is_active and self.adv is not None and self.adv[2] and len(self.conns) < MAX_CONNECTIONS

    def on_tick(self):
        now = fakeair.AIR.now
        if self.scan_end is not None:
            for b in fakeair.AIR.order:
                other = b.ble
                if b is self.board or other is None or not other.is_active or other.adv is None:
                    continue
                adv_type = 0 if other.adv[2] else 3  # ADV_IND / ADV_NONCONN_IND
                self.post(_IRQ_SCAN_RESULT, (0, b.mac, adv_type, -50, other.adv_data), (1, 4))
            if self.scan_end >= 0 and now >= self.scan_end:
                self.scan_end = None
                self.post(_IRQ_SCAN_DONE, ())
        c = self.connecting
        if c is not None:
            addr_type, addr, deadline = c
            target = fakeair.AIR.boards.get(addr)
            peer = target.ble if target is not None else None
            if peer is not None and peer.accepts():
                self.connecting = None
                mine = self.new_conn(True)
                theirs = peer.new_conn(False)
                mine.peer = theirs
                theirs.peer = mine
                peer.adv = None  # NimBLE stops advertising on a connection
                self.post(_IRQ_PERIPHERAL_CONNECT, (mine.handle, 0, addr), (2,))
                peer.post(_IRQ_CENTRAL_CONNECT, (theirs.handle, 0, self.board.mac), (2,))
            elif now >= deadline:
                self.connecting = None
                self.post(_IRQ_PERIPHERAL_DISCONNECT, (0xFFFF, addr_type, addr), (2,))

    def drop(self, conn):
        """Tear a connection down on both sides, with the events each side sees."""
        peer = conn.peer
        del self.conns[conn.handle]
        ev = _IRQ_PERIPHERAL_DISCONNECT if conn.central else _IRQ_CENTRAL_DISCONNECT
        self.post(ev, (conn.handle, 0, peer.state.board.mac), (2,))
        if peer.handle in peer.state.conns:
            del peer.state.conns[peer.handle]
            ev = _IRQ_PERIPHERAL_DISCONNECT if peer.central else _IRQ_CENTRAL_DISCONNECT
            peer.state.post(ev, (peer.handle, 0, self.board.mac), (2,))


class BLE:
    def __init__(self):
        board = fakeair.AIR.current_board()
        if board.ble is None:
            board.ble = _State(board)
        self._s = board.ble

    def _on(self):
        s = self._s
        if not s.is_active:
            raise OSError(EPERM)
        return s

    def _conn(self, handle):
        c = self._on().conns.get(handle)
        if c is None:
            raise OSError(ENOTCONN)
        return c

    # --- configuration --------------------------------------------------------
    def active(self, *args, **kw):
        _no_kw(kw)
        s = self._s
        if args:
            on = bool(args[0])
            if on and not s.is_active:
                s.is_active = True
            elif not on and s.is_active:
                for c in list(s.conns.values()):
                    s.drop(c)
                s._reset()
                s.is_active = False
        return s.is_active

    def config(self, *args, **kw):
        s = self._s
        if args and kw or len(args) > 1:
            raise TypeError("config('param') or config(param=value, ...)")
        if args:
            name = args[0]
            if name == "mac":
                self._on()
                return (0, s.board.mac)
            if name == "mtu":
                return s.mtu_pref
            if name == "gap_name":
                return s.gap_name
            if name == "rxbuf":
                return s.rxbuf
            raise ValueError("unknown config param")
        for k in kw:
            v = kw[k]
            if k == "mtu":
                if not 23 <= v <= 517:
                    raise ValueError("mtu out of range")
                s.mtu_pref = v
            elif k == "gap_name":
                s.gap_name = bytes(v, "utf-8") if isinstance(v, str) else bytes(v)
            elif k == "rxbuf":
                s.rxbuf = v
            elif k not in ("addr_mode", "bond", "mitm", "io", "le_secure"):
                raise ValueError("unknown config param")

    def irq(self, *args, **kw):
        _no_kw(kw)
        if len(args) != 1:
            raise TypeError("irq(handler, /)")
        self._s.handler = args[0]

    # --- GAP ----------------------------------------------------------------
    def gap_advertise(self, interval_us, adv_data=None, *, resp_data=None, connectable=True):
        s = self._on()
        if interval_us is None:
            s.adv = None
            return
        if adv_data is not None:
            adv_data = bytes(adv_data)
            if len(adv_data) > ADV_MAX:
                raise OSError(EINVAL)
            s.adv_data = adv_data
        if resp_data is not None:
            resp_data = bytes(resp_data)
            if len(resp_data) > ADV_MAX:
                raise OSError(EINVAL)
            s.resp_data = resp_data
        if connectable and len(s.conns) >= MAX_CONNECTIONS:
            raise OSError(ENOMEM)
        s.adv = (s.adv_data, s.resp_data, bool(connectable))

    def gap_scan(self, *args, **kw):
        _no_kw(kw)
        s = self._on()
        if not 1 <= len(args) <= 4:
            raise TypeError("gap_scan(duration_ms, interval_us, window_us, active, /)")
        duration = args[0]
        if duration is None:
            if s.scan_end is not None:
                s.scan_end = None
                s.post(_IRQ_SCAN_DONE, ())
            return
        if s.connecting is not None:
            raise OSError(EBUSY)
        s.scan_end = -1 if duration == 0 else fakeair.AIR.now + duration

    def gap_connect(self, *args, **kw):
        _no_kw(kw)
        s = self._on()
        if not args:
            raise TypeError("gap_connect(addr_type, addr, ..., /)")
        if args[0] is None:
            c = s.connecting
            if c is not None:
                s.connecting = None
                s.post(_IRQ_PERIPHERAL_DISCONNECT, (0xFFFF, c[0], c[1]), (2,))
            return
        if not 2 <= len(args) <= 5:
            raise TypeError("gap_connect(addr_type, addr, scan_duration_ms, min_us, max_us, /)")
        if s.connecting is not None:
            raise OSError(EALREADY)
        if s.scan_end is not None:
            raise OSError(EBUSY)
        if len(s.conns) >= MAX_CONNECTIONS:
            raise OSError(ENOMEM)
        duration = args[2] if len(args) > 2 else 2000
        s.connecting = (args[0], bytes(args[1]), fakeair.AIR.now + duration)

    def gap_disconnect(self, *args, **kw):
        _no_kw(kw)
        s = self._on()
        c = s.conns.get(args[0])
        if c is None:
            return False
        s.drop(c)
        return True

    # --- GATT server ----------------------------------------------------------
    def gatts_register_services(self, *args, **kw):
        _no_kw(kw)
        s = self._on()
        if s.adv is not None:
            raise OSError(EBUSY)  # "Advertising must be stopped before registering services"
        s.attrs = {}
        s.chars = []
        s.services = []
        h = 16  # the GAP and GATT services come first
        out = []
        for service in args[0]:
            uuid, chars = service[0], service[1]
            start = h
            h += 1
            handles = []
            for ch in chars:
                cuuid, flags = ch[0], ch[1]
                def_handle = h
                value = h + 1
                h += 2
                s.attrs[value] = _Attr(cuuid, flags)
                s.chars.append((def_handle, value, flags, cuuid))
                handles.append(value)
                if flags & (FLAG_NOTIFY | FLAG_INDICATE):
                    s.attrs[h] = _Attr(UUID(0x2902), FLAG_READ | FLAG_WRITE)  # CCCD
                    h += 1
                for d in (ch[2] if len(ch) > 2 else ()):
                    s.attrs[h] = _Attr(d[0], d[1])
                    handles.append(h)
                    h += 1
            s.services.append((start, h - 1, uuid))
            out.append(tuple(handles))
        return tuple(out)

    def _attr(self, handle):
        a = self._on().attrs.get(handle)
        if a is None:
            raise OSError(EINVAL)
        return a

    def gatts_read(self, *args, **kw):
        _no_kw(kw)
        a = self._attr(args[0])
        v = a.value
        if a.append:
            a.value = b""
        return v

    def gatts_write(self, *args, **kw):
        _no_kw(kw)
        a = self._attr(args[0])
        a.value = bytes(args[1])
        if len(a.value) > a.size:
            a.size = len(a.value)

    def gatts_set_buffer(self, *args, **kw):
        _no_kw(kw)
        a = self._attr(args[0])
        a.size = args[1]
        a.append = bool(args[2]) if len(args) > 2 else False

    def _tx_check(self, conn, data):
        if len(data) > conn.mtu - 3:
            raise OSError(EINVAL)
        air = fakeair.AIR
        if air.ble_tx_fail and air.rng.random() < air.ble_tx_fail:
            raise OSError(ENOMEM)

    def gatts_notify(self, *args, **kw):
        _no_kw(kw)
        conn = self._conn(args[0])
        handle = args[1]
        data = args[2] if len(args) > 2 and args[2] is not None else self._attr(handle).value
        data = bytes(data)
        self._tx_check(conn, data)
        peer = conn.peer
        peer.state.post(_IRQ_GATTC_NOTIFY, (peer.handle, handle, data), (2,))

    # --- GATT client ----------------------------------------------------------
    def gattc_discover_services(self, *args, **kw):
        _no_kw(kw)
        conn = self._conn(args[0])
        want = args[1] if len(args) > 1 else None
        me = self._s
        for start, end, uuid in conn.peer.state.services:
            if want is None or want == uuid:
                me.post(_IRQ_GATTC_SERVICE_RESULT, (conn.handle, start, end, UUID(uuid)))
        me.post(_IRQ_GATTC_SERVICE_DONE, (conn.handle, 0))

    def gattc_discover_characteristics(self, *args, **kw):
        _no_kw(kw)
        if not 3 <= len(args) <= 4:
            raise TypeError("gattc_discover_characteristics(conn, start, end, uuid=None, /)")
        conn = self._conn(args[0])
        start, end = args[1], args[2]
        want = args[3] if len(args) > 3 else None
        me = self._s
        for def_handle, value, flags, uuid in conn.peer.state.chars:
            if start <= def_handle <= end and (want is None or want == uuid):
                me.post(_IRQ_GATTC_CHARACTERISTIC_RESULT, (conn.handle, def_handle, value, flags, UUID(uuid)))
        me.post(_IRQ_GATTC_CHARACTERISTIC_DONE, (conn.handle, 0))

    def gattc_write(self, *args, **kw):
        _no_kw(kw)
        if not 3 <= len(args) <= 4:
            raise TypeError("gattc_write(conn, value_handle, data, mode=0, /)")
        conn = self._conn(args[0])
        handle = args[1]
        data = bytes(args[2])
        mode = args[3] if len(args) > 3 else 0
        self._tx_check(conn, data)
        peer = conn.peer
        a = peer.state.attrs.get(handle)
        status = 0
        if a is None:
            status = 1  # ATT "invalid handle": nothing stored
        else:
            if a.append:
                room = a.size - len(a.value)
                a.value = a.value + data[:room if room > 0 else 0]
            else:
                a.value = data[:a.size]
            peer.state.post(_IRQ_GATTS_WRITE, (peer.handle, handle))
        if mode:
            self._s.post(_IRQ_GATTC_WRITE_DONE, (conn.handle, handle, status))

    def gattc_exchange_mtu(self, *args, **kw):
        _no_kw(kw)
        conn = self._conn(args[0])
        peer = conn.peer
        mtu = min(self._s.mtu_pref, peer.state.mtu_pref)
        conn.mtu = peer.mtu = mtu
        self._s.post(_IRQ_MTU_EXCHANGED, (conn.handle, mtu))
        peer.state.post(_IRQ_MTU_EXCHANGED, (peer.handle, mtu))
