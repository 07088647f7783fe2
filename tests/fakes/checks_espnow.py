"""Checks of the ESP-NOW transport (MicroPython API) against the fakes; each
check_* runs on CPython (tests/net/test_transport_espnow.py) and inside the unix
MicroPython, unchanged. Plain asserts, no pytest."""
import asyncio

import fakeair

BROADCAST = b"\xff" * 6


def mac(i):
    return bytes((0x02, 0xE5, 0, 0, 0, i))


def cups(n, **air):
    """A fresh air with n cups running the transport; returns (air, [transports])."""
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


def check_picks_micropython_api():
    import dicecup.net.espnow as en

    assert not en.CIRCUITPYTHON
    assert en.ESPNowTransport is en._MicroPythonESPNow


def check_setup_follows_the_docs():
    import network

    air, (a,) = cups(1)
    board = air.boards[mac(1)]
    assert board.sta_active, "ESP-NOW needs the STA interface active"
    assert a.address == mac(1) == network.WLAN(network.STA_IF).config("mac")
    chip = board.espnow
    assert chip.active
    from dicecup.net.transport import RXBUF

    assert chip.rxbuf == RXBUF, "rxbuf raised before active(True)"
    assert chip.timeout_ms == 0, "no five-minute default timeout"
    assert BROADCAST in chip.peers, "broadcast registered as a peer"
    assert (a.mtu, a.max_cups) == (250, 6)


def check_broadcast_reaches_every_other_cup():
    air, ts = cups(4)
    assert ts[0].send(BROADCAST, b"beacon")
    for t in ts[1:]:
        assert drain(t) == [(mac(1), b"beacon")]
    assert drain(ts[0]) == [], "no echo of our own broadcast"


def check_broadcast_returns_true_even_if_nobody_hears():
    air, (a,) = cups(1)
    assert a.send(BROADCAST, b"anyone?") is True  # broadcast is never ACKed


def check_unicast_registers_peer_and_delivers():
    air, (a, b, c) = cups(3)
    assert a.send(b.address, b"to b") is True
    assert drain(b) == [(a.address, b"to b")]
    assert drain(c) == []
    assert b.address in air.boards[mac(1)].espnow.peers


def check_unicast_to_absent_cup_is_false_not_raised():
    air, (a,) = cups(1)
    assert a.send(mac(99), b"hello?") is False
    st = a.stats()
    assert st["tx_failed"] == 1 and st["tx"] == 1


def check_lost_ack_returns_false_though_frame_arrived():
    air, (a, b) = cups(2, ack_fail=1.0)
    assert a.send(b.address, b"v7") is False
    assert drain(b) == [(a.address, b"v7")], "the frame arrived anyway"
    assert a.send(b.address, b"v7") is False  # the protocol resends...
    assert drain(b) == [(a.address, b"v7")], "...and the cup sees it twice"


def check_lost_frame_returns_false():
    air, (a, b) = cups(2, loss=1.0)
    assert a.send(b.address, b"gone") is False
    assert drain(b) == []


def check_oversized_and_bad_frames_raise_before_the_air():
    air, (a, b) = cups(2)
    n = len(air.frames)
    for dest, frame in ((BROADCAST, bytes(251)), (b.address, bytes(300)), (BROADCAST, b""), (b"\x01\x02", b"x")):
        try:
            a.send(dest, frame)
        except ValueError:
            pass
        else:
            raise AssertionError("no ValueError for %d bytes to %r" % (len(frame), dest))
    assert len(air.frames) == n, "nothing went on air"
    assert a.send(BROADCAST, bytes(250)), "250 bytes is fine"
    assert drain(b)[0][1] == bytes(250)


def check_full_ring_drops_and_counts():
    air, (a, b) = cups(2)
    for i in range(10):
        a.send(b.address, bytes((i,)) * 250)
    got = drain(b)
    # RXBUF (2112) holds 8 full frames of 250 + 13 bytes; the driver drops the rest
    assert [f[1][0] for f in got] == list(range(8)), [f[1][0] for f in got]
    assert b.stats()["rx_dropped"] == 2
    a.send(b.address, b"after")
    assert drain(b) == [(a.address, b"after")], "drained ring takes frames again"


def check_driver_default_ring_would_hold_one_full_frame():
    import espnow

    air = fakeair.reset()
    fakeair.use(mac(1))
    import network

    network.WLAN(network.STA_IF).active(True)
    e = espnow.ESPNow()
    e.active(True)  # default rxbuf 526
    e.add_peer(mac(2))
    fakeair.use(mac(2))
    from dicecup.net.espnow import ESPNowTransport

    ESPNowTransport()
    e2 = air.boards[mac(2)].espnow
    e2.rxbuf = 526  # as if the transport had not raised it
    for i in range(3):
        e.send(mac(2), bytes(250))
    assert len(e2.ring) == 1 and e2.dropped == 2


def check_peer_table_stays_within_twenty():
    air, ts = cups(26)
    a = ts[0]
    for t in ts[1:]:
        assert a.send(t.address, b"hi"), "peer added, old one evicted when full"
    chip = air.boards[mac(1)].espnow
    assert len(chip.peers) == 20 and BROADCAST in chip.peers
    assert a.send(ts[1].address, b"again"), "evicted peer registered again"
    assert drain(ts[1]) == [(a.address, b"hi"), (a.address, b"again")]
    assert len(chip.peers) == 20


def check_least_recently_used_peer_is_evicted():
    air, ts = cups(22)
    a = ts[0]
    for t in ts[1:20]:  # 19 unicast peers + broadcast = 20
        a.send(t.address, b"x")
    a.send(ts[1].address, b"x")  # ts[1] is now the most recent
    a.send(ts[20].address, b"x")  # evicts ts[2], the least recently used
    peers = air.boards[mac(1)].espnow.peers
    assert ts[1].address in peers and ts[2].address not in peers


def check_driver_error_is_false_not_raised():
    import network

    air, (a, b) = cups(2)
    fakeair.use(mac(1))
    network.WLAN(network.STA_IF).active(False)  # ESP_ERR_ESPNOW_IF from the driver
    assert a.send(b.address, b"x") is False
    assert a.send(BROADCAST, b"x") is False
    assert a.stats()["tx_failed"] == 2


def check_fake_rejects_keyword_arguments():
    import espnow

    air, (a, b) = cups(2)
    e = espnow.ESPNow()
    for call in (lambda: e.send(mac=b.address, msg=b"x"), lambda: e.send(b.address, msg=b"x"),
                 lambda: e.send(b.address, b"x", sync=True), lambda: e.recvinto([None, bytearray(250)], timeout_ms=0)):
        try:
            call()
        except TypeError:
            continue
        raise AssertionError("keyword accepted by a positional-only method")


def check_fake_enforces_driver_rules():
    import espnow
    import network

    fakeair.reset()
    fakeair.use(mac(1))
    e = espnow.ESPNow()
    try:
        e.send(BROADCAST, b"x")
        raise AssertionError("send before active(True)")
    except OSError as err:
        assert err.args[1] == "ESP_ERR_ESPNOW_NOT_INIT"
    network.WLAN(network.STA_IF).active(True)
    e.active(True)
    for peer, name in ((BROADCAST, "ESP_ERR_ESPNOW_NOT_FOUND"),):
        try:
            e.send(peer, b"x")
            raise AssertionError("broadcast without add_peer")
        except OSError as err:
            assert err.args[1] == name
    e.add_peer(BROADCAST)
    try:
        e.add_peer(BROADCAST)
        raise AssertionError("peer added twice")
    except OSError as err:
        assert err.args[1] == "ESP_ERR_ESPNOW_EXIST"
    try:
        e.send(BROADCAST, bytes(251))
        raise AssertionError("251-byte payload accepted")
    except ValueError:
        pass
    try:
        e.recv()  # nothing waits, default timeout: a cup would hang 5 minutes
        raise AssertionError("default timeout did not block")
    except fakeair.WouldBlock:
        pass
    assert e.recv(0) == (None, None)
    for i in range(19):
        e.add_peer(bytes((2, 0, 0, 0, 1, i)))
    try:
        e.add_peer(bytes((2, 0, 0, 0, 2, 0)))
        raise AssertionError("21st peer accepted")
    except OSError as err:
        assert err.args[1] == "ESP_ERR_ESPNOW_FULL"


def check_recv_copies_the_reused_buffer():
    air, (a, b) = cups(2)
    a.send(b.address, b"first")
    a.send(b.address, b"second!")
    one = b.recv()
    two = b.recv()
    assert one == (a.address, b"first") and two == (a.address, b"second!")
    assert isinstance(one[1], bytes)


def check_recv_never_blocks():
    air, (a,) = cups(1)
    assert a.recv() is None  # the fake raises WouldBlock on any blocking receive


def check_wait_times_out_then_sees_a_frame():
    from dicecup.net.transport import sleep_ms

    air, (a, b) = cups(2)

    async def later():
        await sleep_ms(30)
        a.send(b.address, b"one")
        a.send(b.address, b"two")

    async def main():
        quiet = await b.wait(10)
        task = asyncio.create_task(later())
        got = await b.wait(2000)
        await task
        return quiet, got

    quiet, got = asyncio.run(main())
    assert quiet is False and got is True
    assert drain(b) == [(a.address, b"one"), (a.address, b"two")], "held frame first, order kept"


def check_wait_returns_at_once_when_a_frame_waits():
    air, (a, b) = cups(2)
    a.send(b.address, b"ready")
    assert asyncio.run(b.wait(0)) is True
    assert drain(b) == [(a.address, b"ready")]


def check_close_turns_the_radio_off():
    air, (a, b) = cups(2)
    a.close()
    assert a.send(BROADCAST, b"x") is False
    assert a.recv() is None
    assert not air.boards[mac(1)].espnow.active
    b.send(BROADCAST, b"y")
    assert a.recv() is None


def check_ble_on_means_no_espnow_reception():
    import bluetooth

    air, (a, b) = cups(2)
    fakeair.use(mac(2))
    bluetooth.BLE().active(True)  # one radio mode at a time
    a.send(BROADCAST, b"lost")
    assert drain(b) == []
