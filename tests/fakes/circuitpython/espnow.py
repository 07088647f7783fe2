"""Fake of CircuitPython's `espnow` module (ports/espressif/bindings/espnow), which
differs from MicroPython's:

* ESPNow(buffer_size=526, phy_rate=0) may exist once per board: a second one while
  the first is not deinit()ed raises RuntimeError("Already running");
* send(message, peer=None) takes a Peer (keywords allowed), returns None and does
  not wait for the ACK: the outcome is only counted in send_success/send_failure;
  message <= 250 bytes (ValueError); the peer, broadcast included, must be in
  `peers` first (OSError ESP_ERR_ESPNOW_NOT_FOUND);
* read() returns an ESPNowPacket (mac, msg, rssi, time) or None, never blocks;
  bool(e) / len(e): bytes waiting in the ring; read_failure counts dropped frames;
* Peer(mac, *, lmk=None, channel=0, interface=0, encrypted=False): the options
  are keyword-only; peers.append(peer) / peers.remove(peer), at most 20;
* a deinit()ed object raises ValueError (CircuitPython's "deinitialized" error).
The receive ring is fakeair.EspNowChip, shared with the MicroPython fake."""
import fakeair

_BASE = 0x3000 + 100


def _err(name, off):
    return OSError(_BASE + off, name)


class Peer:
    def __init__(self, mac, *, lmk=None, channel=0, interface=0, encrypted=False):
        mac = bytes(mac)
        if len(mac) != 6:
            raise ValueError("mac must be 6 bytes")
        if not 0 <= channel <= 14:
            raise ValueError("channel must be 0-14")
        if encrypted and lmk is None:
            raise ValueError("lmk is None")
        self.mac = mac
        self.lmk = lmk
        self.channel = channel
        self.interface = interface
        self.encrypted = encrypted


class ESPNowPacket:
    def __init__(self, mac, msg, rssi, time):
        self.mac = mac
        self.msg = msg
        self.rssi = rssi
        self.time = time


class Peers:
    def __init__(self, owner):
        self._owner = owner
        self._list = []

    def append(self, peer):
        if not isinstance(peer, Peer):
            raise TypeError("Peer required")
        chip = self._owner._check()
        if peer.mac in chip.peers:
            raise _err("ESP_ERR_ESPNOW_EXIST", 7)
        if len(chip.peers) >= 20:
            raise _err("ESP_ERR_ESPNOW_FULL", 4)
        chip.peers[peer.mac] = peer.encrypted
        chip.peer_order.append(peer.mac)
        self._list.append(peer)

    def remove(self, peer):
        chip = self._owner._check()
        if peer.mac not in chip.peers:
            raise _err("ESP_ERR_ESPNOW_NOT_FOUND", 5)
        del chip.peers[peer.mac]
        chip.peer_order.remove(peer.mac)
        self._list.remove(peer)

    def __len__(self):
        return len(self._list)

    def __iter__(self):
        return iter(self._list)

    def __getitem__(self, i):
        return self._list[i]


class ESPNow:
    def __init__(self, buffer_size=526, phy_rate=0):
        board = fakeair.AIR.current_board()
        if board.cp_espnow is not None and board.cp_espnow._chip is not None:
            raise RuntimeError("Already running")
        if buffer_size < 13:
            raise ValueError("buffer_size must be >= 13")
        if not board.sta_active:  # CircuitPython turns the radio on itself
            board.sta_active = True
        chip = board.espnow = fakeair.EspNowChip(board, buffer_size)
        chip.active = True
        self._board = board
        self._chip = chip
        self.buffer_size = buffer_size
        self.phy_rate = phy_rate
        self.send_success = 0
        self.send_failure = 0
        self.read_success = 0
        self.peers = Peers(self)
        board.cp_espnow = self

    def _check(self):
        if self._chip is None:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        return self._chip

    def deinit(self):
        chip = self._check()
        chip.active = False
        self._chip = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def send(self, message, peer=None):
        chip = self._check()
        if isinstance(message, str):
            message = message.encode()
        message = bytes(message)
        if len(message) > 250:
            raise ValueError("message length must be <= 250")
        if peer is None:
            targets = [m for m in chip.peer_order if not m[0] & 1]
        else:
            if not isinstance(peer, Peer):
                raise TypeError("peer must be a Peer")
            if peer.mac not in chip.peers:
                raise _err("ESP_ERR_ESPNOW_NOT_FOUND", 5)
            targets = [peer.mac]
        for dest in targets:
            if fakeair.AIR.espnow_transmit(self._board, dest, message):
                self.send_success += 1
            else:
                self.send_failure += 1
        return None

    def read(self):
        chip = self._check()
        item = chip.take()
        if item is None:
            return None
        self.read_success += 1
        return ESPNowPacket(bytes(item[0]), bytes(item[1]), item[2], item[3])

    @property
    def read_failure(self):
        return self._chip.dropped if self._chip is not None else 0

    def set_pmk(self, pmk):
        if len(bytes(pmk)) != 16:
            raise ValueError("pmk must be 16 bytes")

    def __bool__(self):
        return bool(self._check().ring)

    def __len__(self):
        return self._check().used
