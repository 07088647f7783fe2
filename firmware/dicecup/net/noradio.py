"""A radio that hears nothing and sends nowhere (appboot.py's last resort when neither
ESP-NOW nor BLE comes up): a cup alone still plays its own bots. A module of its own,
imported only then: a cup with a radio never holds it in RAM."""
from .transport import Transport, sleep_ms


class NoRadio(Transport):
    """A radio that hears nothing and sends nowhere: a cup alone (and its bots)."""

    address = b"\x02\x00\x00\x00\x00\x00"

    def send(self, dest, frame):
        return False

    def recv(self):
        return None

    def _ready(self):
        return False

    async def wait(self, timeout_ms):
        await sleep_ms(timeout_ms)
        return False
