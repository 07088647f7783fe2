"""The screen task on the simulated clock: a press is on the OLED in the same
millisecond the app hands it to the UI (not at the next 50 ms frame), as only the pages
that changed; pushes stay PUSH_GAP_MS apart; idle still means the display off and no
I2C traffic to it, and the press that wakes the cup puts the whole screen back at once.
About 3 s."""
import asyncio

from dicecup import app as appmod
from dicecup import app_tasks


async def ms(n):
    await asyncio.sleep(n / 1000)


def watch(t, c):
    """Record (ms, bytes) of every SSD1306 data transfer, and when the app handed each
    button event to the UI."""
    pushes = []
    handed = []
    real_write = c.world.bus.write

    def write(addr, data, stop=True):
        data = bytes(data)
        if addr == 0x3C and data[:1] == b"\x40":
            pushes.append((t.clock.now, len(data)))
        return real_write(addr, data, stop)
    c.world.bus.write = write
    real_on = c.app.on_buttons

    def on_buttons(kind, mask):
        real_on(kind, mask)
        handed.append(t.clock.now)
    c.app.on_buttons = on_buttons
    return pushes, handed


def test_a_press_is_on_the_oled_at_once_and_only_what_changed(app_table):
    t = app_table(["esp32-devkitc"])
    c = t.cups[0]
    pushes, handed = watch(t, c)
    seen = []

    async def script(t):
        await ms(1000)
        for k, gap in enumerate((7, 19, 23, 31, 43, 11)):   # presses at every phase of a frame
            await ms(gap)
            before = bytes(c.oled.ram)
            await c.press("right" if k % 2 == 0 else "left")
            seen.append((before != bytes(c.oled.ram), bytes(c.oled.ram) == bytes(c.ui_drawn())))
    t.run(script)
    assert len(handed) == 6 and all(changed and same for changed, same in seen), seen
    for at in handed:
        after = [(when, n) for when, n in pushes if when >= at]
        assert after and after[0][0] == at, (at, after[:3])   # the same simulated ms
        assert sum(n for when, n in after if when == at) < 1025     # changed pages, not the frame
    times = sorted(set(when for when, _ in pushes))
    assert all(b - a >= app_tasks.PUSH_GAP_MS for a, b in zip(times, times[1:])), times


def test_idle_keeps_the_display_off_and_quiet_and_the_waking_press_redraws_at_once(app_table):
    t = app_table(["esp32-devkitc"])
    c = t.cups[0]
    pushes, handed = watch(t, c)
    out = {}

    async def script(t):
        await ms(appmod.IDLE_MS + 1000)
        out["idle"] = (c.app.idle, c.oled.on)
        n = len(pushes)
        await ms(30000)
        out["quiet"] = len(pushes) - n
        c.oled.ram[5 * 128 + 10] ^= 0xFF           # what an idle panel may lose
        n = len(pushes)
        await c.press("right")                      # wakes; this press only wakes
        out["woke"] = (c.app.idle, c.oled.on, bytes(c.oled.ram) == bytes(c.ui_drawn()))
        out["wake_push"] = pushes[n:]
    t.run(script)
    assert out["idle"] == (True, False)
    assert out["quiet"] == 0                        # no frame for a dark screen
    assert out["woke"] == (False, True, True)
    assert handed and out["wake_push"] and out["wake_push"][0][0] == handed[-1]   # at once
    assert out["wake_push"][0][1] == 1025           # the whole frame after a power-on
