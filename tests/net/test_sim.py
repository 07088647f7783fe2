"""The simulated medium (firmware/dicecup/net/sim.py): clock, loss, duplication,
reordering, latency, partitions, dead and frozen cups, receive buffers, statistics,
the trace, and determinism per seed (on CPython and inside MicroPython).

Rates are checked over thousands of copies against bounds of +-6 standard
deviations of the binomial: with fixed seeds these never flake, yet a medium off
by a few percent fails them."""
import math
import random

import pytest

from dicecup.net.sim import (
    DROP_CAUSES, Clock, Medium, Rng, SimRadio, TRACE_HEADER, format_event, load_trace, parse_event,
)
from dicecup.net.transport import BROADCAST, RX_OVERHEAD, Transport


def addr(i):
    return bytes((0x02, 0x51, 0, 0, 0, i))


def net(n=3, seed=1, **kw):
    clock = Clock()
    medium = Medium(clock, rng=seed, **kw)
    landed = []
    radios = [medium.attach(addr(i), on_frame=lambda a: landed.append((clock.now, a))) for i in range(n)]
    return clock, medium, radios, landed


def drain(r):
    out = []
    while True:
        got = r.recv()
        if got is None:
            return out
        out.append(got)


def within(count, n, p, sigmas=6):
    sd = math.sqrt(n * p * (1 - p))
    return abs(count - n * p) <= sigmas * sd + 1


# --- the clock --------------------------------------------------------------
def test_clock_runs_events_in_time_then_insertion_order():
    c = Clock()
    seen = []
    c.call_at(20, seen.append, "b")
    c.call_at(10, seen.append, "a")
    c.call_at(20, seen.append, "c")
    h = c.call_at(15, seen.append, "cancelled")
    c.cancel(h)
    c.call_later(5, lambda: c.call_later(1, seen.append, "nested"))  # scheduled while running
    c.run_until(19)
    assert seen == ["nested", "a"] and c.now == 19
    assert c.next_time() == 20 and c.pending() == 2
    assert c.step() and seen[-1] == "b" and c.now == 20
    assert c.step() and c.step() is False
    assert seen == ["nested", "a", "b", "c"]
    c.run_until(100)
    assert c.now == 100 and c.next_time() is None


def test_clock_never_goes_back():
    c = Clock(start_ms=50)
    seen = []
    c.call_at(10, lambda: seen.append(c.now))  # in the past: runs now
    c.run_until(40)  # nothing is due before now
    assert seen == [] and c.now == 50
    c.run_until(50)
    assert seen == [50] and c.now == 50


# --- one frame --------------------------------------------------------------
def test_sim_radio_is_a_transport():
    clock, m, (a, b, c), landed = net()
    assert isinstance(a, Transport) and isinstance(a, SimRadio)
    assert (a.mtu, a.max_cups, a.address) == (250, 6, addr(0))
    with pytest.raises(ValueError):
        a.send(BROADCAST, bytes(251))
    with pytest.raises(ValueError):
        a.send(b"\x01", b"x")
    with pytest.raises(ValueError):
        a.send(BROADCAST, b"")
    assert m.stats["frames"] == 0


def test_latency_exactly_without_jitter():
    clock, m, (a, b, c), landed = net(latency_ms=7, jitter_ms=0)
    clock.run_until(100)
    assert a.send(b.address, b"hi")
    clock.run_until(106)
    assert b.recv() is None
    clock.run_until(107)
    assert b.recv() == (a.address, b"hi")
    assert landed == [(107, b.address)]
    assert c.recv() is None


def test_broadcast_reaches_all_others_oldest_first():
    clock, m, rs, landed = net(4, jitter_ms=0)
    rs[0].send(BROADCAST, b"one")
    rs[1].send(BROADCAST, b"two")
    clock.run_until(50)
    assert drain(rs[0]) == [(rs[1].address, b"two")]
    for r in rs[2:]:
        assert drain(r) == [(rs[0].address, b"one"), (rs[1].address, b"two")]
    assert m.stats["frames"] == 2 and m.stats["copies"] == 6 and m.stats["delivered"] == 6


def test_unicast_to_nobody_is_dropped_and_counted():
    clock, m, (a, b, c), landed = net()
    assert a.send(addr(99), b"?") is True  # it went on air
    clock.run_until(50)
    assert m.stats["dropped_by"]["nobody"] == 1 and m.stats["frames"] == 1


def test_jitter_alone_keeps_each_link_in_order():
    clock, m, (a, b), landed = net(2, latency_ms=5, jitter_ms=20)
    got = []
    for i in range(300):
        a.send(b.address, bytes((i % 256, i // 256)))
        clock.run_until(clock.now + 1)
        got += [f[1][0] + 256 * f[1][1] for f in drain(b)]
    clock.run_until(clock.now + 100)
    got += [f[1][0] + 256 * f[1][1] for f in drain(b)]
    assert got == list(range(300))


# --- rates --------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("loss", [0.1, 0.3])
def test_loss_rate(seed, loss):
    clock, m, rs, landed = net(5, seed=seed, loss=loss)
    for i in range(1000):
        rs[i % 5].send(BROADCAST, b"x%d" % i)
        if i % 10 == 0:
            clock.run_until(clock.now + 10)
            for r in rs:
                drain(r)
    clock.run_until(clock.now + 100)
    n = m.stats["copies"]
    assert n == 4000
    lost = m.stats["dropped_by"]["lost"]
    assert within(lost, n, loss), (lost, n)
    assert m.stats["delivered"] + m.stats["dropped"] == n


def test_duplication_rate_and_copies_arrive():
    clock, m, (a, b), landed = net(2, seed=5, dup=0.2)
    for i in range(3000):
        a.send(b.address, i.to_bytes(2, "big"))
        clock.run_until(clock.now + 2)
        if i % 10 == 0:
            drain(b)
    clock.run_until(clock.now + 100)
    dups = m.stats["duplicated"]
    assert within(dups, 3000, 0.2), dups
    assert m.stats["delivered"] == 3000 + dups


def test_reorder_rate():
    clock, m, (a, b), landed = net(2, seed=9, reorder=0.1, latency_ms=5, jitter_ms=0)
    order = []
    for i in range(3000):
        a.send(b.address, i.to_bytes(2, "big"))
        clock.run_until(clock.now + 1)
        order += [int.from_bytes(f, "big") for _, f in drain(b)]
    clock.run_until(clock.now + 100)
    order += [int.from_bytes(f, "big") for _, f in drain(b)]
    assert sorted(order) == list(range(3000))
    # a frame was overtaken if a later-sent frame arrived before it
    best = -1
    overtaken = set()
    for i in order:
        if i < best:
            overtaken.add(i)
        best = max(best, i)
    held = m.stats["reordered"]
    assert within(held, 3000, 0.1), held
    assert held - 10 <= len(overtaken) <= held, (len(overtaken), held)


def test_no_reorder_no_dup_no_loss_by_default():
    clock, m, (a, b), landed = net(2, seed=3)
    got = []
    for i in range(500):
        a.send(b.address, i.to_bytes(2, "big"))
        clock.run_until(clock.now + 1)
        got += drain(b)
    clock.run_until(clock.now + 50)
    got += drain(b)
    assert [int.from_bytes(f, "big") for _, f in got] == list(range(500))
    assert m.stats["dropped"] == m.stats["duplicated"] == m.stats["reordered"] == 0


# --- partitions, kill, freeze, overflow ------------------------------------------
def test_partition_blocks_between_groups_and_heals():
    clock, m, rs, landed = net(4, jitter_ms=0)
    a, b, c, d = rs
    m.partition([[a.address, b.address], [c.address]])  # d: in the "rest" group alone
    a.send(BROADCAST, b"ab")
    c.send(BROADCAST, b"c")
    d.send(c.address, b"d->c")
    clock.run_until(20)
    assert drain(b) == [(a.address, b"ab")]
    assert drain(c) == [] and drain(d) == [] and drain(a) == []
    assert m.stats["dropped_by"]["partition"] == 2 + 3 + 1
    m.heal()
    d.send(c.address, b"healed")
    clock.run_until(40)
    assert drain(c) == [(d.address, b"healed")]


def test_partition_cuts_frames_already_in_flight():
    clock, m, (a, b), landed = net(2, latency_ms=10, jitter_ms=0)
    a.send(b.address, b"in flight")
    clock.run_until(5)
    m.partition([[a.address]])  # a alone; b with the rest
    clock.run_until(30)
    assert drain(b) == [] and m.stats["dropped_by"]["partition"] == 1


def test_kill_and_revive():
    clock, m, (a, b, c), landed = net(jitter_ms=0)
    a.send(b.address, b"waiting")
    clock.run_until(10)
    m.kill(b.address)
    assert b.recv() is None, "RAM and radio buffer are gone"
    assert m.stats["flushed"] == 1
    a.send(b.address, b"to the dead")
    assert b.send(a.address, b"from the dead") is False
    clock.run_until(20)
    assert drain(a) == []
    assert m.stats["dropped_by"]["dead"] == 1 and m.stats["refused"] == 1
    assert m.stats["frames"] == 2, "a dead radio puts nothing on air"
    m.revive(b.address)
    assert b.recv() is None
    a.send(b.address, b"welcome back")
    assert b.send(a.address, b"hello again")
    clock.run_until(30)
    assert drain(b) == [(a.address, b"welcome back")]
    assert drain(a) == [(b.address, b"hello again")]


def test_kill_drops_frames_in_flight():
    clock, m, (a, b), landed = net(2, latency_ms=10, jitter_ms=0)
    a.send(b.address, b"x")
    clock.run_until(5)
    m.kill(b.address)
    clock.run_until(20)
    assert m.stats["dropped_by"]["dead"] == 1


def test_freeze_and_thaw():
    clock, m, (a, b, c), landed = net(jitter_ms=0)
    a.send(b.address, b"before")
    clock.run_until(10)
    m.freeze(b.address)
    a.send(b.address, b"while frozen")
    assert b.send(a.address, b"frozen cup") is False
    clock.run_until(20)
    assert m.stats["dropped_by"]["frozen"] == 1 and m.stats["refused"] == 1
    m.thaw(b.address)
    assert drain(b) == [(a.address, b"before")], "what waited before the freeze stays"
    assert b.send(a.address, b"thawed")
    clock.run_until(30)
    assert drain(a) == [(b.address, b"thawed")]


def test_rx_buffer_overflow_drops_and_counts():
    clock, m, (a, b), landed = net(2, jitter_ms=0, rxbuf=3 * (250 + RX_OVERHEAD))
    for i in range(5):
        a.send(b.address, bytes((i,)) * 250)
    clock.run_until(20)
    assert [f[0] for _, f in drain(b)] == [0, 1, 2]
    assert m.stats["dropped_by"]["overflow"] == 2
    assert b.stats()["rx_dropped"] == 2
    small = m.attach(addr(9), rxbuf=100)
    for i in range(10):
        a.send(small.address, b"tiny")  # 4 + 13 bytes each: 5 fit in 100
    clock.run_until(40)
    assert len(drain(small)) == 5


# --- statistics ---------------------------------------------------------------
def test_statistics_count_every_send_and_byte():
    clock, m, rs, landed = net(3, seed=4, loss=0.2, dup=0.1, reorder=0.1)
    sizes = [1, 50, 250, 17, 3]
    for i, n in enumerate(sizes * 20):
        rs[i % 3].send(BROADCAST if i % 2 else rs[(i + 1) % 3].address, bytes(n))
        clock.run_until(clock.now + 3)
    clock.run_until(clock.now + 100)
    st = m.stats
    assert st["frames"] == 100 and st["bytes"] == sum(sizes) * 20 and st["max_frame_bytes"] == 250
    assert st["copies"] == 50 * 2 + 50 + st["duplicated"]
    assert st["dropped"] == sum(st["dropped_by"].values())
    assert st["delivered"] + st["dropped"] == st["copies"]
    assert set(st["dropped_by"]) == set(DROP_CAUSES)
    assert sum(r.stats()["tx"] for r in rs) == 100


# --- determinism and the trace ------------------------------------------------------
def run_scenario(seed, **kw):
    clock, m, rs, landed = net(4, seed=seed, loss=0.2, dup=0.05, reorder=0.1, **kw)
    for i in range(300):
        r = rs[i % 4]
        r.send(BROADCAST if i % 3 else rs[(i + 2) % 4].address, b"f%d" % i)
        clock.run_until(clock.now + 2)
        if i == 100:
            m.partition([[rs[0].address]])
        if i == 150:
            m.heal()
            m.kill(rs[3].address)
        if i == 200:
            m.revive(rs[3].address)
            m.freeze(rs[2].address)
        if i == 250:
            m.thaw(rs[2].address)
        for x in rs:
            drain(x)
    clock.run_until(clock.now + 100)
    return m


def test_same_seed_same_run_other_seed_other_run():
    m1, m2, m3 = run_scenario(11), run_scenario(11), run_scenario(12)
    assert m1.trace == m2.trace and m1.stats == m2.stats
    assert m1.trace != m3.trace
    causes = m1.stats["dropped_by"]
    assert causes["lost"] and causes["partition"] and causes["dead"] and causes["frozen"]


def test_accepts_a_random_random():
    clock = Clock()
    m = Medium(clock, rng=random.Random(3), loss=0.5)
    a, b = m.attach(addr(1)), m.attach(addr(2))
    for _ in range(200):
        a.send(b.address, b"x")
    assert 50 < m.stats["dropped_by"]["lost"] < 150


def test_rng_is_uniform_enough():
    r = Rng(42)
    xs = [r.random() for _ in range(20000)]
    assert all(0 <= x < 1 for x in xs)
    assert abs(sum(xs) / len(xs) - 0.5) < 0.01
    assert within(sum(1 for x in xs if x < 0.1), 20000, 0.1)
    assert sorted(set(r.randrange(6) for _ in range(600))) == [0, 1, 2, 3, 4, 5]


def test_trace_round_trip(tmp_path):
    m = run_scenario(5)
    path = tmp_path / "run.trace"
    assert m.save_trace(str(path)) == len(m.trace)
    text = path.read_text()
    assert text.startswith(TRACE_HEADER + "\n")
    assert load_trace(str(path)) == m.trace
    tx = [r for r in m.trace if r[0] == "tx"]
    assert len(tx) == m.stats["frames"] + m.stats["refused"]
    rx = [r for r in m.trace if r[0] == "rx"]
    assert len(rx) == m.stats["copies"]
    fates = {}
    for r in rx:
        fates[r[6]] = fates.get(r[6], 0) + 1
    assert fates.get("delivered") == m.stats["delivered"]
    for cause in DROP_CAUSES:
        assert fates.get(cause, 0) == m.stats["dropped_by"][cause]
    assert sum(1 for r in rx if r[7]) == m.stats["duplicated"]


def test_trace_line_format():
    rec = ("tx", 1234, 7, addr(1), BROADCAST, 3, "sent", b"\x00\xab\xff")
    line = format_event(rec)
    assert line == "tx 1234 7 025100000001 ffffffffffff 3 sent 00abff"
    assert parse_event(line) == rec
    dup = ("rx", 1240, 7, addr(1), addr(2), 3, "delivered", True)
    assert format_event(dup) == "rx 1240 7 025100000001 025100000002 3 delivered dup"
    assert parse_event(format_event(dup)) == dup
    for bad in ("", "xx 1 2 3", "tx 1 7 0251 ffffffffffff 3 sent 00abff", "tx 1 7 025100000001 ffffffffffff 4 sent 00abff"):
        with pytest.raises(ValueError):
            parse_event(bad)


def test_load_trace_rejects_other_files(tmp_path):
    p = tmp_path / "x.trace"
    p.write_text("hello\n")
    with pytest.raises(ValueError):
        load_trace(str(p))


def test_wait_runs_simulated_time():
    import asyncio

    clock, m, (a, b), landed = net(2, latency_ms=5, jitter_ms=0)
    clock.call_at(30, a.send, b.address, b"later")
    assert asyncio.run(b.wait(10)) is False and clock.now == 10
    assert asyncio.run(b.wait(100)) is True and clock.now == 35
    assert b.recv() == (a.address, b"later")


def test_long_run_is_fast():
    import time

    t0 = time.perf_counter()
    clock, m, rs, landed = net(6, seed=2, loss=0.3, dup=0.05, reorder=0.05, trace=False)
    for i in range(20000):
        rs[i % 6].send(BROADCAST, b"state %d" % i)
        if i % 6 == 5:
            clock.run_until(clock.now + 20)
            for r in rs:
                drain(r)
    clock.run_until(clock.now + 60000)  # a minute of silence costs nothing
    assert m.stats["frames"] == 20000 and m.trace == []
    assert time.perf_counter() - t0 < 5


SCENARIO_MPY = """
from dicecup.net.sim import Clock, Medium, format_event
from dicecup.net.transport import BROADCAST
clock = Clock()
m = Medium(clock, rng=21, loss=0.2, dup=0.05, reorder=0.1)
rs = [m.attach(bytes((2, 0x51, 0, 0, 0, i))) for i in range(4)]
for i in range(200):
    rs[i % 4].send(BROADCAST if i % 3 else rs[(i + 2) % 4].address, b"f%d" % i)
    clock.run_until(clock.now + 2)
    if i == 80:
        m.partition([[rs[0].address]])
    if i == 120:
        m.heal()
        m.kill(rs[3].address)
    if i == 160:
        m.revive(rs[3].address)
    for r in rs:
        while r.recv():
            pass
clock.run_until(clock.now + 100)
for rec in m.trace:
    print(format_event(rec))
st = m.stats
print("STATS", st["frames"], st["bytes"], st["copies"], st["delivered"], st["dropped"], st["duplicated"], st["reordered"])
"""


def test_same_seed_same_run_on_micropython(upy, tmp_path):
    """The medium runs in MicroPython too, and a seed means the same run there."""
    proc = upy(SCENARIO_MPY, heap="1M")  # the whole trace stays in RAM
    assert proc.returncode == 0, proc.stderr.decode()
    script = tmp_path / "s.py"
    script.write_text(SCENARIO_MPY)
    import subprocess
    import sys

    host = subprocess.run([sys.executable, str(script)], capture_output=True, check=True)
    assert proc.stdout == host.stdout
    assert b"STATS" in proc.stdout and b" partition" in proc.stdout
