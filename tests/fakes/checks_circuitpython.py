"""Checks of the ESP-NOW transport on CircuitPython's espnow API (the fake in
circuitpython/), on CPython and inside the unix MicroPython. Plain asserts."""
import asyncio

import fakeair

BROADCAST = b"\xff" * 6


def mac(i):
    return bytes((0x02, 0xC9, 0, 0, 0, i))


def cups(n, **air):
    from dicecup.net.espnow import ESPNowTransport

    a = fakeair.reset(**air)
    out = []
    for i in range(n):
        fakeair.use(mac(i + 1))
        out.append(ESPNowTransport())
    return a, out


def drain(t):
    out = []
    while True:
        got = t.recv()
        if got is None:
            return out
        out.append(got)


def check_picks_circuitpython_api():
    import dicecup.net.espnow as en

    assert en.CIRCUITPYTHON
    assert en.ESPNowTransport is en._CircuitPythonESPNow


def check_setup():
    from dicecup.net.transport import RXBUF

    air, (a,) = cups(1)
    board = air.boards[mac(1)]
    assert a.address == mac(1)
    assert board.cp_espnow.buffer_size == RXBUF
    assert BROADCAST in board.espnow.peers
    assert (a.mtu, a.max_cups) == (250, 6)


def check_broadcast_and_unicast():
    air, (a, b, c) = cups(3)
    assert a.send(BROADCAST, b"all")
    assert a.send(c.address, b"only c")
    assert drain(b) == [(a.address, b"all")]
    assert drain(c) == [(a.address, b"all"), (a.address, b"only c")]


def check_ack_is_not_waited_for():
    air, (a, b) = cups(2, ack_fail=1.0)
    assert a.send(b.address, b"x") is True, "CircuitPython's send does not report the ACK"
    assert drain(b) == [(a.address, b"x")]
    assert a.stats()["tx_failed"] == 1, "the failure shows in the counters"


def check_oversized_raises():
    air, (a, b) = cups(2)
    for frame in (bytes(251), b""):
        try:
            a.send(BROADCAST, frame)
            raise AssertionError("no ValueError")
        except ValueError:
            pass
    assert air.frames == []


def check_ring_overflow_counts():
    air, (a, b) = cups(2)
    for i in range(10):
        a.send(b.address, bytes(250))
    assert len(drain(b)) == 8
    assert b.stats()["rx_dropped"] == 2


def check_only_one_espnow_per_board():
    from dicecup.net.espnow import ESPNowTransport

    air, (a,) = cups(1)
    try:
        ESPNowTransport()
        raise AssertionError("a second ESPNow() on the same board")
    except RuntimeError:
        pass
    a.close()
    b = ESPNowTransport()  # after deinit() it may be made again
    assert b.address == mac(1)


def check_fake_peer_options_are_keyword_only():
    import espnow

    try:
        espnow.Peer(mac(1), None, 0)
        raise AssertionError("positional Peer options accepted")
    except TypeError:
        pass
    assert espnow.Peer(mac(1), channel=3).channel == 3


def check_peer_table_stays_within_twenty():
    air, ts = cups(24)
    a = ts[0]
    for t in ts[1:]:
        assert a.send(t.address, b"hi")
    assert len(air.boards[mac(1)].espnow.peers) == 20
    for t in ts[1:]:
        assert drain(t) == [(a.address, b"hi")]


def check_wait_polls():
    from dicecup.net.transport import sleep_ms

    air, (a, b) = cups(2)

    async def later():
        await sleep_ms(20)
        a.send(b.address, b"late")

    async def main():
        quiet = await b.wait(5)
        task = asyncio.create_task(later())
        got = await b.wait(2000)
        await task
        return quiet, got

    assert asyncio.run(main()) == (False, True)
    assert drain(b) == [(a.address, b"late")]


def check_close():
    air, (a, b) = cups(2)
    a.close()
    assert a.send(BROADCAST, b"x") is False
    assert a.recv() is None
    assert asyncio.run(a.wait(0)) is False
