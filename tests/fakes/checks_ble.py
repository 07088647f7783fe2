"""Checks of the BLE transport (hub = master as central, leaves = peripherals)
against the fake `bluetooth`, on CPython and inside the unix MicroPython."""
import asyncio

import fakeair

BROADCAST = b"\xff" * 6


def mac(i):
    return bytes((0x02, 0xB1, 0, 0, 0, i))


def table(leaves, hub=True, settle=40, **air):
    """A fresh air: cup 0 (the hub unless hub=False) and `leaves` more cups;
    `settle` ticks of 10 ms let the star form. Returns (air, hub, [leaves])."""
    from dicecup.net.ble import BLETransport

    a = fakeair.reset(**air)
    fakeair.use(mac(0))
    h = BLETransport(hub=hub)
    ls = []
    for i in range(leaves):
        fakeair.use(mac(i + 1))
        ls.append(BLETransport())
    settle_air(a, settle)
    return a, h, ls


def settle_air(a, ticks=40):
    for _ in range(ticks):
        a.tick(10)


def drain(t):
    out = []
    while True:
        got = t.recv()
        if got is None:
            return out
        out.append(got)


def linked(h):
    return sorted(h.connected())


def check_advert_fits_and_parses():
    from dicecup.net.ble import advert, parse_advert

    adv = advert(b"L", mac(3), mac(0))
    assert len(adv) <= 31
    assert parse_advert(memoryview(adv)) == (0x4C, mac(3), mac(0))
    assert parse_advert(b"\x02\x01\x06\x03\x03\x0f\x18") is None
    assert parse_advert(b"") is None and parse_advert(b"\x00\x00") is None


def check_star_forms_up_to_four_cups():
    air, h, ls = table(5)
    assert h.max_cups == 5 and ls[0].max_cups == 5
    assert len(linked(h)) == 4, linked(h)
    assert sum(1 for l in ls if l.connected()) == 4
    assert all(l.connected() == [h.address] for l in ls if l.connected())
    assert len(air.boards[mac(0)].ble.conns) == 4


def check_fifth_cup_joins_when_a_seat_frees():
    air, h, ls = table(5)
    left = [l for l in ls if not l.connected()][0]
    gone = [l for l in ls if l.connected()][0]
    gone.close()
    settle_air(air)
    assert left.address in h.connected() and gone.address not in h.connected()


def check_hub_broadcast_reaches_every_leaf():
    air, h, ls = table(4)
    frame = bytes(range(250))
    assert h.send(BROADCAST, frame)
    air.pump()
    for l in ls:
        assert drain(l) == [(h.address, frame)]
    assert drain(h) == []


def check_leaf_broadcast_is_relayed_by_the_hub():
    air, h, ls = table(3)
    assert ls[0].send(BROADCAST, b"from a leaf")
    air.pump()
    assert drain(h) == [(ls[0].address, b"from a leaf")]
    assert drain(ls[1]) == [(ls[0].address, b"from a leaf")]
    assert drain(ls[2]) == [(ls[0].address, b"from a leaf")]
    assert drain(ls[0]) == [], "not echoed to its sender"
    assert h.stats()["relayed"] == 2


def check_unicasts_hub_to_leaf_leaf_to_hub_leaf_to_leaf():
    air, h, ls = table(3)
    assert h.send(ls[1].address, b"to leaf 1")
    assert ls[2].send(h.address, b"to hub")
    assert ls[0].send(ls[2].address, b"leaf to leaf")
    air.pump()
    assert drain(ls[1]) == [(h.address, b"to leaf 1")]
    assert drain(h) == [(ls[2].address, b"to hub")]
    assert drain(ls[2]) == [(ls[0].address, b"leaf to leaf")]
    assert drain(ls[0]) == []


def check_small_mtu_chunks_and_reassembles():
    air, h, ls = table(1, settle=0)
    fakeair.use(mac(1))
    import bluetooth

    bluetooth.BLE().config(mtu=23)  # this leaf keeps the default ATT MTU
    settle_air(air)
    link = list(air.boards[mac(0)].ble.conns.values())[0]
    assert link.mtu == 23
    frames = [bytes((i,)) * (250 - i) for i in range(5)]
    for f in frames:
        assert h.send(ls[0].address, f)
        assert ls[0].send(h.address, f)
        air.pump()
    assert drain(ls[0]) == [(h.address, f) for f in frames]
    assert drain(h) == [(ls[0].address, f) for f in frames]


def check_large_mtu_sends_a_frame_in_one_write():
    air, h, ls = table(1)
    link = list(air.boards[mac(0)].ble.conns.values())[0]
    assert link.mtu == 267
    calls = []
    ble = h._ble
    real = ble.gattc_write

    def counting(*args):
        calls.append(len(args[2]))
        return real(*args)

    ble.gattc_write = counting
    h.send(ls[0].address, bytes(250))
    assert calls == [264], calls
    air.pump()
    assert drain(ls[0]) == [(h.address, bytes(250))]


def check_writes_piling_up_before_the_irq_are_split():
    air, h, ls = table(1)
    for i in range(6):  # six writes land in the append-mode buffer before any irq
        h.send(ls[0].address, bytes((i,)) * 40)
    air.pump()
    assert [f[1][0] for f in drain(ls[0])] == list(range(6))


def check_append_buffer_overflow_loses_whole_frames_only():
    air, h, ls = table(1, settle=0)
    fakeair.use(mac(1))
    import bluetooth

    bluetooth.BLE().config(mtu=23)
    settle_air(air)
    frames = [bytes((i,)) * 250 for i in range(12)]
    for f in frames:  # 12 x 15 chunks arrive before the leaf's irq runs once
        h.send(ls[0].address, f)
    air.pump()
    got = drain(ls[0])
    assert 0 < len(got) < 12, len(got)
    assert [f for _, f in got] == frames[:len(got)], "only whole frames, in order"
    assert ls[0].stats()["corrupt"] >= 1
    h.send(ls[0].address, b"after")
    air.pump()
    assert drain(ls[0]) == [(h.address, b"after")]


def check_oversized_frame_raises():
    air, h, ls = table(1)
    for t, dest in ((h, ls[0].address), (ls[0], h.address)):
        try:
            t.send(dest, bytes(251))
            raise AssertionError("no ValueError")
        except ValueError:
            pass


def check_send_without_link_is_false():
    air, h, ls = table(0)
    from dicecup.net.ble import BLETransport

    fakeair.use(mac(9))
    lone = BLETransport()
    assert lone.send(BROADCAST, b"x") is False
    assert h.send(BROADCAST, b"x") is False, "a hub with no cups"
    assert h.send(mac(7), b"x") is False, "not a linked cup"


def check_radio_errors_are_false_and_never_corrupt():
    air, h, ls = table(2)
    air.ble_tx_fail = 0.3
    sent = {}
    oks = 0
    got = []
    for i in range(60):
        f = bytes((i,)) * (100 + i)
        sent[f] = True
        if h.send(ls[0].address, f):
            oks += 1
        air.pump()
        got += drain(ls[0])
    assert 0 < oks < 60
    assert all(f in sent for _, f in got), "a partial frame was delivered"
    assert len(got) >= oks, "every fully sent frame arrived"
    air.ble_tx_fail = 0.0
    h.send(ls[0].address, b"clean")
    air.pump()
    assert drain(ls[0]) == [(h.address, b"clean")]


def check_lost_chunks_drop_the_frame_and_count():
    air, h, ls = table(1, settle=0)
    fakeair.use(mac(1))
    import bluetooth

    bluetooth.BLE().config(mtu=23)
    settle_air(air)
    real = h._ble.gattc_write
    n = [0]

    def lossy(*args):
        n[0] += 1
        if n[0] == 3:
            return None  # the third chunk vanishes
        return real(*args)

    h._ble.gattc_write = lossy
    h.send(ls[0].address, bytes(100))
    h._ble.gattc_write = real
    h.send(ls[0].address, b"next")
    air.pump()
    assert drain(ls[0]) == [(h.address, b"next")]
    assert ls[0].stats()["corrupt"] >= 1


def check_a_cup_that_vanishes_mid_connect_does_not_stall_the_hub():
    from dicecup.net.ble import BLETransport

    air = fakeair.reset()
    fakeair.use(mac(0))
    h = BLETransport(hub=True)
    fakeair.use(mac(1))
    ghost = BLETransport()
    air.tick(10)  # the hub sees the advert, stops scanning and starts connecting
    assert h._connecting is not None
    ghost.close()  # gone before the connection completes
    fakeair.use(mac(2))
    real = BLETransport()
    settle_air(air, 300)  # the attempt times out (2 s), the hub scans again
    assert h.connected() == [real.address]


def check_join_names_the_hub():
    from dicecup.net.ble import BLETransport

    air = fakeair.reset()
    fakeair.use(mac(0))
    h0 = BLETransport(hub=True)
    fakeair.use(mac(10))
    h1 = BLETransport(hub=True)
    fakeair.use(mac(1))
    leaf = BLETransport()
    leaf.join(h1.address)
    settle_air(air)
    assert leaf.connected() == [h1.address]
    assert h0.connected() == []


def check_leaf_scan_lists_hubs():
    air, h, ls = table(0)
    from dicecup.net.ble import BLETransport

    fakeair.use(mac(5))
    leaf = BLETransport()
    leaf.join(mac(77))  # wants another table: nobody connects it
    leaf.scan(100)
    settle_air(air, 12)
    assert list(leaf.hubs) == [h.address]
    assert not leaf.connected()


def check_failover_new_hub_collects_the_cups():
    air, h, ls = table(3)
    h.close()  # the master dies: every link drops
    settle_air(air, 5)
    assert all(not l.connected() for l in ls)
    ls[0].set_hub(True)  # the cup the protocol elected
    settle_air(air)
    assert sorted(ls[0].connected()) == sorted([ls[1].address, ls[2].address])
    ls[1].send(BROADCAST, b"still here")
    air.pump()
    assert drain(ls[0]) == [(ls[1].address, b"still here")]
    assert drain(ls[2]) == [(ls[1].address, b"still here")]


def check_hub_hands_over():
    air, h, ls = table(2)
    h.set_hub(False)  # the master steps down: it becomes a leaf
    ls[0].set_hub(True)
    settle_air(air)
    assert sorted(ls[0].connected()) == sorted([h.address, ls[1].address])


def check_rx_buffer_overflow_counts():
    from dicecup.net.ble import BLETransport

    air = fakeair.reset()
    fakeair.use(mac(0))
    h = BLETransport(hub=True)
    fakeair.use(mac(1))
    leaf = BLETransport(rxbuf=3 * 263)
    settle_air(air)
    for i in range(5):
        h.send(leaf.address, bytes(250))
        air.pump()
    assert len(drain(leaf)) == 3
    assert leaf.stats()["rx_dropped"] == 2


def check_wait_sees_a_frame():
    from dicecup.net.transport import sleep_ms

    air, h, ls = table(1)

    async def radio():
        for _ in range(10):
            await sleep_ms(5)
            air.pump()

    async def main():
        quiet = await ls[0].wait(10)
        h.send(ls[0].address, b"hello")
        task = asyncio.create_task(radio())
        got = await ls[0].wait(1000)
        await task
        return quiet, got

    assert asyncio.run(main()) == (False, True)
    assert drain(ls[0]) == [(h.address, b"hello")]


def check_fake_enforces_ble_limits():
    import bluetooth

    fakeair.reset()
    fakeair.use(mac(0))
    ble = bluetooth.BLE()
    try:
        ble.gap_advertise(100000, b"x")
        raise AssertionError("advertising while inactive")
    except OSError:
        pass
    ble.active(True)
    try:
        ble.gap_advertise(100000, bytes(32))
        raise AssertionError("32-byte advert accepted")
    except OSError:
        pass
    try:
        ble.gap_scan(0, interval_us=1000)
        raise AssertionError("keyword to a positional-only method")
    except TypeError:
        pass
    ble.gap_advertise(100000, bytes(31))
    try:
        ble.gatts_register_services(())
        raise AssertionError("services registered while advertising")
    except OSError:
        pass
    # a central with four connections cannot make a fifth
    for i in range(1, 6):
        fakeair.use(mac(i))
        p = bluetooth.BLE()
        p.active(True)
        p.gap_advertise(100000, b"\x02\x01\x06")
    for i in range(1, 5):
        ble.gap_connect(0, mac(i))
        fakeair.AIR.tick(10)
    assert len(fakeair.AIR.boards[mac(0)].ble.conns) == 4
    try:
        ble.gap_connect(0, mac(5))
        raise AssertionError("fifth connection")
    except OSError:
        pass
