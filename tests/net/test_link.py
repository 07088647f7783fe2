"""Two cups over the (fake) ESP-NOW driver through the real loop: find the table, join
with the code, start a game, roll a round. Not verified on hardware."""
import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fakes"))
import harness  # noqa: E402

sys.path.pop(0)

from dicecup.autoplay import Autoplayer  # noqa: E402
from dicecup.net.cup import Cup  # noqa: E402
from dicecup.net.memstore import MemStore  # noqa: E402


def test_two_cups_form_a_table_over_espnow():
    with harness.fake_modules() as fakeair:
        fakeair.reset(seed=3)
        from dicecup.net import link
        from dicecup.net.espnow import ESPNowTransport
        a_addr, b_addr = b"\x02\x00\x00\x00\x00\x01", b"\x02\x00\x00\x00\x00\x02"
        fakeair.use(a_addr)
        ta = ESPNowTransport()
        fakeair.use(b_addr)
        tb = ESPNowTransport()
        host = Cup(ta.address, MemStore(), random.Random(1).randbytes, "ana")
        guest = Cup(tb.address, MemStore(), random.Random(3).randbytes, "ben")
        la = link.Link(host, ta, 5, player=Autoplayer(random.Random(2)))
        lb = link.Link(guest, tb, 5, player=Autoplayer(random.Random(4)))

        async def until(cond, ms):
            for _ in range(ms // 5):
                la.pump()
                lb.pump()
                if cond():
                    return True
                await asyncio.sleep(0.005)
            return False

        async def play():
            host.create(0x2222, "1234", "liars", 0)
            assert await until(lambda: 0x2222 in guest.heard, 2000)
            guest.join(0x2222, "1234")
            assert await until(lambda: guest.table is not None and len(host.table.members) == 2, 2000)
            host.start()
            assert await until(lambda: guest.table.game is not None and guest.table.game.phase == 1, 3000)
            assert len(guest.hand) == 5 and guest.table.snapshot() == host.table.snapshot()

        asyncio.run(play())
        assert ta.stats()["tx"] > 0 and tb.stats()["rx"] > 0
