"""Fake of MicroPython's `aioespnow` (ports/esp32/modules/aioespnow.py): an ESPNow
with awaitable arecv/airecv/asend (no timeout argument: wrap them in
asyncio.wait_for). The real one waits on the driver's poll ioctl; this one polls
any() every millisecond, which behaves the same to its caller, on CPython and in
MicroPython."""
import asyncio

import espnow


async def _tick():
    if hasattr(asyncio, "sleep_ms"):
        await asyncio.sleep_ms(1)
    else:
        await asyncio.sleep(0.001)


class AIOESPNow(espnow.ESPNow):
    async def arecv(self):
        while not self.any():
            await _tick()
        return self.recv(0)

    async def airecv(self):
        while not self.any():
            await _tick()
        return self.irecv(0)

    async def asend(self, mac, msg=None, sync=None):
        if msg is None:
            msg, mac = mac, None
        await _tick()
        return self.send(mac, msg, sync)

    def __aiter__(self):
        return self

    async def __anext__(self):
        return await self.airecv()


def ESPNow():
    return AIOESPNow()


MAX_DATA_LEN = espnow.MAX_DATA_LEN
KEY_LEN = espnow.KEY_LEN
MAX_TOTAL_PEER_NUM = espnow.MAX_TOTAL_PEER_NUM
MAX_ENCRYPT_PEER_NUM = espnow.MAX_ENCRYPT_PEER_NUM
