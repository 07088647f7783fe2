"""ESP-NOW transport: the cups' normal radio (NOT YET VERIFIED ON HARDWARE; tested
against fakes that mirror the documented APIs, see tests/fakes/).

    t = ESPNowTransport()          # Wi-Fi STA on, ESP-NOW on, broadcast peer added
    t.send(BROADCAST, frame); t.recv(); await t.wait(50)

Two firmware APIs, picked at import time:

* MicroPython (`espnow` + `network`, optionally `aioespnow`): `send(mac, msg, sync)`
  is positional only; `irecv(0)`/`recv(0)` with an explicit timeout (the default
  one is five minutes); `config(rxbuf=...)` takes effect at the next
  `active(True)`; peers must be registered before a send, broadcast included.
* CircuitPython (`espnow` + `wifi`): `ESPNow(buffer_size=...)` may exist once,
  `send(message, peer)` takes a `Peer` and does not wait for an ACK, `read()`
  returns a packet with `.mac .msg` or None.

What the radio does and how this module copes:
* Payload <= 250 bytes: longer frames raise ValueError before the driver sees them.
* <= 20 registered peers (broadcast counts as one): unicast peers are added on
  first use and the least recently used one is removed when the table is full.
* Broadcast (ff:ff:ff:ff:ff:ff) is unacknowledged and unencrypted: `send` returns
  True whatever happens to it.
* A unicast ACK can be lost though the frame arrived: `send` then returns False
  and the receiver may see the frame again if the protocol resends it. This module
  never resends; the protocol numbers its frames and drops duplicates.
* Driver errors (OSError: not initialised, interface down, buffers full) make
  `send` return False and count in `stats()['tx_failed']`; they never raise.
* The receive ring drops frames when full (the driver counts them; `stats()`
  reports them as rx_dropped): the ring is raised to RXBUF bytes, and the cup's
  loop should drain `recv()` whenever `wait()` returns True.
* Connecting Wi-Fi to an access point turns power save on and loses frames: the
  STA interface is kept active but disconnected.
"""
from micropython import const

from . import transport
from .transport import BROADCAST, Transport, asyncio, check_frame, wait_for_ms

try:
    import espnow as _espnow
except ImportError:  # the host without fakes: importing works, constructing fails
    _espnow = None

# CircuitPython's module has a Peer class; MicroPython's registers peers by MAC.
CIRCUITPYTHON = _espnow is not None and hasattr(_espnow, "Peer")

_MAX_PEERS = const(20)  # ESP_NOW_MAX_TOTAL_PEER_NUM, broadcast included


def _err_name(err):
    """'ESP_ERR_ESPNOW_EXIST' from OSError(code, name); '' when the error has none."""
    args = err.args
    if len(args) > 1 and isinstance(args[1], str):
        return args[1]
    return ""


class _Peers:
    """The registered unicast peers, least recently used first."""

    def __init__(self):
        self.lru = []

    def touch(self, mac):
        lru = self.lru
        if lru and lru[-1] == mac:
            return
        lru.remove(mac)
        lru.append(mac)


class _MicroPythonESPNow(Transport):
    """ESP-NOW over MicroPython's `espnow` module (see the module docstring)."""

    max_cups = 6

    def __init__(self, rxbuf=transport.RXBUF, channel=None, sync=True):
        if _espnow is None:
            raise OSError("no espnow module on this firmware")
        import network

        sta = network.WLAN(network.STA_IF)
        sta.active(True)  # ESP-NOW needs an active interface, not a connection
        try:
            sta.disconnect()  # no access point during play: power save drops frames
        except OSError:
            pass
        if channel is not None:
            sta.config(channel=channel)
        try:
            import aioespnow  # an AIOESPNow is an ESPNow that can also be awaited

            e = aioespnow.AIOESPNow()
        except ImportError:
            e = _espnow.ESPNow()
        if e.active():
            e.active(False)  # the ring size applies at the next active(True)
        e.config(rxbuf=rxbuf, timeout_ms=0)  # and never block by default (5 min)
        e.active(True)
        e.add_peer(BROADCAST)  # broadcast must be registered like any peer
        self._e = e
        self._sta = sta
        self._sync = sync
        self._peers = _Peers()
        self._held = None  # a frame taken off the ring by wait(), owed to recv()
        self._open = True
        self.address = bytes(sta.config("mac"))
        self.tx = 0
        self.tx_failed = 0
        self.rx = 0

    def _register(self, mac):
        """Add a unicast peer, evicting the least recently used one when full."""
        e = self._e
        lru = self._peers.lru
        if len(lru) >= _MAX_PEERS - 1:
            e.del_peer(lru.pop(0))
        try:
            e.add_peer(mac)
        except OSError as err:
            name = _err_name(err)
            if name == "ESP_ERR_ESPNOW_FULL" and lru:
                e.del_peer(lru.pop(0))
                e.add_peer(mac)
            elif name != "ESP_ERR_ESPNOW_EXIST":
                raise
        lru.append(mac)

    def send(self, dest, frame):
        check_frame(dest, frame, transport.MTU)
        if not self._open:
            return False
        unicast = dest != BROADCAST
        try:
            if unicast:
                if dest in self._peers.lru:
                    self._peers.touch(dest)
                else:
                    self._register(dest)
            ok = self._e.send(dest, frame, self._sync)
        except OSError as err:
            if _err_name(err) == "ESP_ERR_ESPNOW_NOT_FOUND" and unicast:
                try:  # our table and the driver's disagree: forget the peer
                    self._peers.lru.remove(dest)
                except ValueError:
                    pass
            self.tx_failed += 1
            return False
        self.tx += 1
        if not ok:  # no ACK: the frame may still have arrived
            self.tx_failed += 1
            return False
        return True

    def recv(self):
        held = self._held
        if held is not None:
            self._held = None
            return held
        if not self._open:
            return None
        try:
            mac, msg = self._e.irecv(0)
        except OSError:
            return None
        if mac is None:
            return None
        self.rx += 1
        return (bytes(mac), bytes(msg))  # msg is the driver's reused bytearray

    def _ready(self):
        if self._held is not None:
            return True
        if not self._open:
            return False
        try:
            return bool(self._e.any())
        except OSError:
            return False

    async def _take(self):
        """Await the next frame and hold a copy of it for recv()."""
        e = self._e
        while True:
            mac, msg = await e.airecv()
            if mac is not None:
                self.rx += 1
                self._held = (bytes(mac), bytes(msg))
                return

    async def wait(self, timeout_ms):
        if self._ready():
            return True
        if not self._open or not hasattr(self._e, "airecv"):
            return await Transport.wait(self, timeout_ms)
        try:
            await wait_for_ms(self._take(), timeout_ms)
        except asyncio.TimeoutError:
            return False
        return True

    def close(self):
        if self._open:
            self._open = False
            try:
                self._e.active(False)  # also forgets every registered peer
            except OSError:
                pass

    def stats(self):
        dropped = 0
        if self._open:
            try:
                dropped = self._e.stats()[4]  # (tx, tx_resp, tx_fail, rx, rx_dropped)
            except OSError:
                pass
        return {
            "tx": self.tx,
            "tx_failed": self.tx_failed,
            "rx": self.rx,
            "rx_dropped": dropped,
            "peers": len(self._peers.lru),
        }


class _CircuitPythonESPNow(Transport):
    """ESP-NOW over CircuitPython's `espnow` module (see the module docstring)."""

    max_cups = 6

    def __init__(self, rxbuf=transport.RXBUF, channel=None):
        import wifi

        if not wifi.radio.enabled:
            wifi.radio.enabled = True
        # ESPNow() may exist only once (RuntimeError "Already running" otherwise).
        self._e = _espnow.ESPNow(buffer_size=rxbuf)
        self._channel = channel or 0
        self._bcast = self._peer(BROADCAST)
        self._e.peers.append(self._bcast)
        self._by_mac = {}
        self._peers = _Peers()
        self._open = True
        self.address = bytes(wifi.radio.mac_address)
        self.tx = 0
        self.tx_failed = 0
        self.rx = 0

    def _peer(self, mac):
        return _espnow.Peer(mac, channel=self._channel)  # options are keyword-only

    def _register(self, mac):
        lru = self._peers.lru
        if len(lru) >= _MAX_PEERS - 1:
            old = lru.pop(0)
            self._e.peers.remove(self._by_mac.pop(old))
        peer = self._peer(mac)
        self._e.peers.append(peer)
        self._by_mac[mac] = peer
        lru.append(mac)
        return peer

    def send(self, dest, frame):
        check_frame(dest, frame, transport.MTU)
        if not self._open:
            return False
        try:
            if dest == BROADCAST:
                peer = self._bcast
            else:
                peer = self._by_mac.get(dest)
                if peer is None:
                    peer = self._register(dest)
                else:
                    self._peers.touch(dest)
            # Returns None; the ACK is only counted later in send_success/failure.
            self._e.send(frame, peer)
        except (OSError, RuntimeError, ValueError):
            self.tx_failed += 1
            return False
        self.tx += 1
        return True

    def recv(self):
        if not self._open:
            return None
        try:
            packet = self._e.read()
        except (OSError, ValueError):
            return None
        if packet is None:
            return None
        self.rx += 1
        return (bytes(packet.mac), bytes(packet.msg))

    def _ready(self):
        if not self._open:
            return False
        try:
            return bool(self._e)  # True while the ring holds bytes
        except ValueError:  # deinitialised
            return False

    def close(self):
        if self._open:
            self._open = False
            try:
                self._e.deinit()
            except (OSError, ValueError):
                pass

    def stats(self):
        e = self._e
        return {
            "tx": self.tx,
            "tx_failed": self.tx_failed + e.send_failure,  # ACK failures, counted late
            "rx": self.rx,
            "rx_dropped": e.read_failure,
            "peers": len(self._peers.lru),
        }


ESPNowTransport = _CircuitPythonESPNow if CIRCUITPYTHON else _MicroPythonESPNow
