"""Buttons: debounce, press, long press and both-at-once from simulated pin bounces,
stepped with simulated time (exact), and the asyncio task with short real times
(asserting only what happened, never how fast)."""
import asyncio

import pytest

from dicecup.hw import buttons as B

from hwhelpers import BOARD_FILES, DEVKITC, EMU_HEAP, load_board, upy_str


def make(w, path=DEVKITC, **kw):
    b = load_board(path)
    return b, B.Buttons(b, clock=w.now, **kw)


def run_for(w, bs, ms):
    for _ in range(ms):
        w.advance(1)
        bs.poll()


def events(bs):
    out = []
    while bs.pending():
        out.append(bs.describe(bs.get()))
    return out


def test_bounces_make_one_press(fake_machine):
    w = fake_machine
    b, bs = make(w)
    ok = b.buttons[1].pin
    w.bounce(ok, edges=7, gap_ms=2)  # 14 ms of chatter, then held
    run_for(w, bs, 60)
    assert events(bs) == [] and bs.held(1)
    w.bounce(ok, edges=6, gap_ms=1, end_pressed=False)
    run_for(w, bs, 60)
    assert events(bs) == ["press ok"] and not bs.held(1)
    assert w.line(ok).edges >= 12  # the interrupt saw every bounce


def test_a_glitch_shorter_than_debounce_is_ignored(fake_machine):
    w = fake_machine
    b, bs = make(w)
    pin = b.buttons[0].pin
    for _ in range(5):
        w.press(pin)
        run_for(w, bs, 5)
        w.release(pin)
        run_for(w, bs, 5)
    run_for(w, bs, 100)
    assert events(bs) == []


def test_long_press_fires_while_held_and_no_press_after(fake_machine):
    w = fake_machine
    b, bs = make(w, long_ms=700)
    pin = b.buttons[3].pin
    w.press(pin)
    run_for(w, bs, 600)
    assert events(bs) == []
    run_for(w, bs, 150)
    assert events(bs) == ["long back"]
    run_for(w, bs, 1000)
    w.release(pin)
    run_for(w, bs, 50)
    assert events(bs) == []


def test_both_at_once(fake_machine):
    w = fake_machine
    b, bs = make(w)
    left, right = b.buttons[0].pin, b.buttons[2].pin
    w.bounce(left, edges=3)
    run_for(w, bs, 40)
    w.bounce(right, edges=5)
    run_for(w, bs, 900)  # held past long_ms: still only the chord
    w.release(right)
    run_for(w, bs, 10)
    w.release(left)
    run_for(w, bs, 50)
    assert events(bs) == ["both left+right"]
    # quick presses one after the other are two presses, not a chord
    w.press(left)
    run_for(w, bs, 40)
    w.release(left)
    run_for(w, bs, 40)
    w.press(right)
    run_for(w, bs, 40)
    w.release(right)
    run_for(w, bs, 40)
    assert events(bs) == ["press left", "press right"]


def test_a_button_held_at_start_fires_nothing(fake_machine):
    w = fake_machine
    b = load_board(DEVKITC)
    w.press(b.buttons[3].pin)
    bs = B.Buttons(b, clock=w.now)
    run_for(w, bs, 1000)
    w.release(b.buttons[3].pin)
    run_for(w, bs, 50)
    assert events(bs) == [] and not bs.busy()


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_every_board_button_and_active_low_wiring(fake_machine, path):
    w = fake_machine
    b, bs = make(w, path)
    for spec in b.buttons:
        assert w.line(spec.pin).pull == "up" and w.line(spec.pin).handler is not None
        w.press(spec.pin, spec.active)
        run_for(w, bs, 40)
        w.release(spec.pin)
        run_for(w, bs, 40)
    assert events(bs) == ["press " + n for n in b.button_names()]


def test_the_queue_is_bounded(fake_machine):
    w = fake_machine
    b, bs = make(w)
    for _ in range(20):
        w.press(b.buttons[0].pin)
        run_for(w, bs, 30)
        w.release(b.buttons[0].pin)
        run_for(w, bs, 30)
    assert bs.pending() == 16 and bs.dropped == 4


async def _drive(w, b, bs):
    """Press patterns with real (short) sleeps; returns the events seen by next()."""
    task = asyncio.create_task(bs.run(tick_ms=1, idle_ms=2))
    got = []

    async def collect():
        while True:
            got.append(bs.describe(await bs.next()))

    col = asyncio.create_task(collect())
    ok, left, right = b.buttons[1].pin, b.buttons[0].pin, b.buttons[2].pin

    async def settle(ms=60):
        await asyncio.sleep(ms / 1000)

    for i in range(4):  # bounces
        w.press(ok) if i % 2 == 0 else w.release(ok)
    w.press(ok)
    await settle()
    w.release(ok)
    await settle()
    w.press(left)
    await settle(600)  # long_ms is 300
    w.release(left)
    await settle()
    w.press(left)
    w.press(right)
    await settle()
    w.release(left)
    w.release(right)
    await settle()
    task.cancel()
    col.cancel()
    return got


def test_asyncio_task_on_cpython(fake_machine):
    from dicecup_host.emu import world
    w = world.reset(real_time=True)
    b = load_board(DEVKITC)
    bs = B.Buttons(b, debounce_ms=5, long_ms=300)
    got = asyncio.run(_drive(w, b, bs))
    assert got == ["press ok", "long left", "both left+right"]


UPY_ASYNC = """
import asyncio, world
from dicecup.hw import board, buttons as B
w = world.reset(True)
b = board.load(%s)
bs = B.Buttons(b, debounce_ms=5, long_ms=300)
print("flag", bs._flag is not None)

async def main():
    task = asyncio.create_task(bs.run(tick_ms=1, idle_ms=2))
    got = []
    async def collect():
        while True:
            got.append(bs.describe(await bs.next()))
    col = asyncio.create_task(collect())
    ok, left, right = b.buttons[1].pin, b.buttons[0].pin, b.buttons[2].pin
    for i in range(4):
        if i %% 2 == 0:
            w.press(ok)
        else:
            w.release(ok)
    w.press(ok)
    await asyncio.sleep_ms(60)
    w.release(ok)
    await asyncio.sleep_ms(60)
    w.press(left)
    await asyncio.sleep_ms(600)
    w.release(left)
    await asyncio.sleep_ms(60)
    w.press(left)
    w.press(right)
    await asyncio.sleep_ms(60)
    w.release(left)
    w.release(right)
    await asyncio.sleep_ms(60)
    task.cancel()
    col.cancel()
    print("EVENTS", got)

asyncio.run(main())
"""


def test_asyncio_task_in_micropython(upy_hw):
    out = upy_hw(UPY_ASYNC % upy_str(DEVKITC), heap=EMU_HEAP)
    assert "flag True" in out  # idle buttons wait on a ThreadSafeFlag set by the IRQ
    assert "EVENTS ['press ok', 'long left', 'both left+right']" in out
