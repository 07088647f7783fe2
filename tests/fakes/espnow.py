"""Fake of MicroPython's `espnow` module (ESP32), after docs/library/espnow.rst and
ports/esp32/modespnow.c + modules/espnow.py, enforcing what they document:

* ESPNow() is the board's singleton; `active(True)` allocates the receive ring of
  `config(rxbuf=...)` bytes (default 526), which changing later does not resize;
* send(mac, msg[, sync]) / send(msg) are positional only (TypeError on keywords,
  as the C function takes none); msg <= 250 bytes (ValueError); the peer must be
  registered first, broadcast included (OSError ESP_ERR_ESPNOW_NOT_FOUND); the
  Wi-Fi interface must be active (ESP_ERR_ESPNOW_IF); not active: NOT_INIT;
* broadcast is never ACKed: send returns True; a unicast returns False (sync) when
  no ACK came, which happens when the frame is lost and when the ACK is lost
  though the frame arrived (fakeair.Air.ack_fail);
* the ring holds frames as header(13) + msg bytes and drops a frame that does not
  fit (stats()[4]); dropped frames are still ACKed;
* recv/irecv(timeout_ms): 0 returns at once; with the default timeout (5 minutes)
  or a negative one and nothing waiting, the fake raises fakeair.WouldBlock,
  because a cup would hang; irecv reuses one bytearray for every message;
* <= 20 peers (ESP_ERR_ESPNOW_FULL), <= 6 encrypted, ESP_ERR_ESPNOW_EXIST twice.
"""
import fakeair

MAX_DATA_LEN = 250
ADDR_LEN = 6
KEY_LEN = 16
MAX_TOTAL_PEER_NUM = 20
MAX_ENCRYPT_PEER_NUM = 6

_BASE = 0x3000 + 100  # ESP_ERR_ESPNOW_BASE = ESP_ERR_WIFI_BASE + 100
_CODES = {
    "ESP_ERR_ESPNOW_NOT_INIT": _BASE + 1,
    "ESP_ERR_ESPNOW_ARG": _BASE + 2,
    "ESP_ERR_ESPNOW_NO_MEM": _BASE + 3,
    "ESP_ERR_ESPNOW_FULL": _BASE + 4,
    "ESP_ERR_ESPNOW_NOT_FOUND": _BASE + 5,
    "ESP_ERR_ESPNOW_INTERNAL": _BASE + 6,
    "ESP_ERR_ESPNOW_EXIST": _BASE + 7,
    "ESP_ERR_ESPNOW_IF": _BASE + 8,
}


def _err(name):
    return OSError(_CODES[name], name)


def _no_kw(kw):
    if kw:
        raise TypeError("function doesn't take keyword arguments")


def _mac(mac):
    mac = bytes(mac)
    if len(mac) != ADDR_LEN:
        raise ValueError("invalid buffer length")
    return mac


class ESPNowBase:
    """The C type `_espnow.ESPNowBase` (positional-only methods)."""

    def __init__(self):
        board = fakeair.AIR.current_board()
        if board.espnow is None:
            board.espnow = fakeair.EspNowChip(board)
        self._board = board
        self._chip = board.espnow

    def _init(self):
        chip = self._chip
        if not chip.active:
            raise _err("ESP_ERR_ESPNOW_NOT_INIT")
        return chip

    def active(self, *args, **kw):
        _no_kw(kw)
        chip = self._chip
        if len(args) > 1:
            raise TypeError("function takes at most 2 positional arguments")
        if args:
            if args[0] and not chip.active:
                chip.active = True
                chip.rxbuf = chip.rxbuf_cfg
                chip.ring = []
                chip.used = 0
            elif not args[0] and chip.active:
                chip.active = False  # esp_now_deinit(): every peer is forgotten
                chip.ring = []
                chip.used = 0
                chip.peers = {}
                chip.peer_order = []
        return chip.active

    def config(self, *args, **kw):
        chip = self._chip
        if len(args) > 1:
            raise TypeError("function takes at most 2 positional arguments")
        for k in kw:
            v = kw[k]
            if k == "rxbuf":
                chip.rxbuf_cfg = v  # the ring is allocated at the next active(True)
            elif k == "timeout_ms":
                chip.timeout_ms = v
            elif k not in ("rate", "pm"):
                raise TypeError("unexpected keyword argument '%s'" % k)
        if args:
            if args[0] == "rxbuf":
                return chip.rxbuf_cfg
            if args[0] == "timeout_ms":
                return chip.timeout_ms
            raise ValueError("unknown config param")
        return None

    def irq(self, *args, **kw):
        _no_kw(kw)
        self._chip.irq = args[0] if args else None

    def stats(self):
        c = self._chip
        return (c.tx_pkts, c.tx_responses, c.tx_failures, c.rx_pkts, c.dropped)

    def any(self):
        return bool(self._init().ring)

    def send(self, *args, **kw):
        _no_kw(kw)
        chip = self._init()
        n = len(args)
        if n == 1:
            mac, msg, sync = None, args[0], True
        elif n in (2, 3):
            mac, msg = args[0], args[1]
            sync = n == 2 or args[2] is None or bool(args[2])
        else:
            raise TypeError("function takes 2 to 4 positional arguments")
        if isinstance(msg, str):
            msg = msg.encode()
        msg = bytes(msg)
        if len(msg) > MAX_DATA_LEN:
            raise ValueError("msg too long")
        if not msg:
            raise _err("ESP_ERR_ESPNOW_ARG")
        board = self._board
        if not (board.sta_active or board.ap_active):
            raise _err("ESP_ERR_ESPNOW_IF")
        if mac:
            mac = _mac(mac)
            if mac not in chip.peers:
                raise _err("ESP_ERR_ESPNOW_NOT_FOUND")
            targets = [mac]
        else:  # every registered peer except broadcast and multicast ones
            targets = [p for p in chip.peer_order if not p[0] & 1]
        ok = True
        for dest in targets:
            chip.tx_pkts += 1
            acked = fakeair.AIR.espnow_transmit(board, dest, msg)
            chip.tx_responses += 1
            if not acked:
                chip.tx_failures += 1
                ok = False
        return ok if sync else True

    def recvinto(self, *args, **kw):
        _no_kw(kw)
        chip = self._init()
        if not 1 <= len(args) <= 2:
            raise TypeError("function takes 2 or 3 positional arguments")
        data = args[0]
        timeout = args[1] if len(args) > 1 and args[1] is not None else chip.timeout_ms
        if not isinstance(data, list) or len(data) < 2:
            raise ValueError("ESPNow.recvinto(): Invalid argument")
        item = chip.take()
        if item is None:
            if timeout < 0 or timeout >= 300000:
                raise fakeair.WouldBlock("ESPNow recv would block for %s ms" % timeout)
            return 0
        mac, msg, rssi, t = item
        buf = data[1]
        buf[:] = msg  # the caller's bytearray, reused
        data[0] = mac
        if len(data) >= 4:
            data[2] = rssi
            data[3] = t
        return len(msg)

    def set_pmk(self, *args):
        if len(args) != 1 or len(bytes(args[0])) != KEY_LEN:
            raise ValueError("invalid pmk")

    def add_peer(self, mac, *args, **kw):
        chip = self._init()
        mac = _mac(mac)
        if len(args) > 4:
            raise TypeError("too many positional arguments")
        for k in kw:
            if k not in ("lmk", "channel", "ifidx", "encrypt"):
                raise TypeError("unexpected keyword argument '%s'" % k)
        lmk = args[0] if args else kw.get("lmk")
        encrypt = bool(lmk) if "encrypt" not in kw else bool(kw["encrypt"])
        if len(args) > 3:
            encrypt = bool(args[3])
        if lmk and len(bytes(lmk)) != KEY_LEN:
            raise ValueError("invalid buffer length")
        if encrypt and mac[0] & 1:
            raise _err("ESP_ERR_ESPNOW_ARG")  # broadcast / multicast are never encrypted
        if mac in chip.peers:
            raise _err("ESP_ERR_ESPNOW_EXIST")
        if len(chip.peers) >= MAX_TOTAL_PEER_NUM:
            raise _err("ESP_ERR_ESPNOW_FULL")
        if encrypt and sum(1 for p in chip.peers if chip.peers[p]) >= MAX_ENCRYPT_PEER_NUM:
            raise _err("ESP_ERR_ESPNOW_FULL")
        chip.peers[mac] = encrypt
        chip.peer_order.append(mac)

    def del_peer(self, *args, **kw):
        _no_kw(kw)
        chip = self._init()
        mac = _mac(args[0])
        if mac not in chip.peers:
            raise _err("ESP_ERR_ESPNOW_NOT_FOUND")
        del chip.peers[mac]
        chip.peer_order.remove(mac)

    def get_peers(self):
        chip = self._init()
        return tuple((p, b"", 0, 0, chip.peers[p]) for p in chip.peer_order if not p[0] & 1)

    def peer_count(self):
        chip = self._init()
        return (len(chip.peers), sum(1 for p in chip.peers if chip.peers[p]))

    @property
    def peers_table(self):
        return self._chip.peers_table


class ESPNow(ESPNowBase):
    """modules/espnow.py: the Python layer with irecv/recv and iteration."""

    def __init__(self):
        ESPNowBase.__init__(self)
        self._data = [None, bytearray(MAX_DATA_LEN)]
        self._none_tuple = (None, None)

    def irecv(self, timeout_ms=None):
        n = self.recvinto(self._data, timeout_ms)
        return self._data if n else self._none_tuple

    def recv(self, timeout_ms=None):
        n = self.recvinto(self._data, timeout_ms)
        return [bytes(x) for x in self._data] if n else self._none_tuple

    def irq(self, callback):
        ESPNowBase.irq(self, callback)

    def __iter__(self):
        return self

    def __next__(self):
        return self.irecv()
