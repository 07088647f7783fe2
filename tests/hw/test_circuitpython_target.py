"""The CircuitPython target: the hardware layer's CircuitPython path (dicecup/hw/cp*.py)
on fakes of CircuitPython's modules (tests/fakes/cp_hw: microcontroller, busio,
digitalio, keypad, analogio, alarm, supervisor, wifi, _bleio) over the emulated chips,
on CPython and inside the unix MicroPython playing the CircuitPython runtime
(cpruntime). The Adafruit drivers run on busio.I2C as they do on a CircuitPython
board, with no adapter. Not verified on CircuitPython hardware."""
import ast
import asyncio
import math
import sys
from pathlib import Path

import pytest

from dicecup_host import mpy
from dicecup_host.emu import lis3dh, rig, world

from hwhelpers import BOARD_FILES, DEVKITC, load_board, upy_str

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fakes" / "cp_hw"))
import cphost  # noqa: E402  (tests/fakes/cp_hw/cphost.py: CPython-only helpers)

sys.path.pop(0)

CP_HEAP = "200K"  # the cup's 110 KB plus the fakes and the emulated chips (64-bit port)


@pytest.fixture
def cp():
    """CPython plays CircuitPython (the fakes, dicecup.hw.PLATFORM); a fresh world."""
    with cphost.circuitpython():
        yield world.reset()


def build(path=DEVKITC, **kw):
    b = load_board(path)
    w, acc, oled = rig.build(b, **kw)
    return b, w, acc, oled


# -- the platform switch ------------------------------------------------------------

def test_the_platform_is_chosen_through_one_function(cp):
    import busio
    import dicecup.hw
    from dicecup.hw.i2c import I2C, open_bus
    assert dicecup.hw.circuitpython()
    b, w, acc, oled = build()
    bus = open_bus(b)
    assert isinstance(bus, busio.I2C) and not isinstance(bus, I2C)  # no adapter
    assert "tests/fakes/cp_hw" in busio.__file__.replace("\\", "/")
    with pytest.raises(RuntimeError, match="requires lock"):
        bus.scan()  # busio scans only while locked: hardware.open locks it


def test_outside_the_block_nothing_is_left():
    import dicecup.hw
    assert not dicecup.hw.circuitpython()
    for name in cphost.FAKES + cphost.CP_MODULES:
        assert name not in sys.modules or "cp_hw" not in str(getattr(sys.modules[name], "__file__", ""))
    assert not any("cp_hw" in p for p in sys.path)
    for name in cphost.CP_MODULES:
        assert name not in sys.modules


def test_pins_come_from_microcontroller_pin(cp):
    from dicecup.hw import cp as hwcp
    from dicecup.hw.errors import HardwareError
    import microcontroller
    cp.chip = "esp32"
    assert hwcp.pin(21) is microcontroller.pin.GPIO21
    with pytest.raises(HardwareError, match="GPIO 24: no such pin"):
        hwcp.pin(24)  # the ESP32 has no GPIO24


def test_ticks_wrap_at_2_to_the_29(cp):
    from dicecup.hw import cp as hwcp
    top = (1 << 29) - 1
    assert hwcp.ticks_diff(5, top - 4) == 10 and hwcp.ticks_diff(top - 4, 5) == -10
    assert hwcp.ticks_add(top, 11) == 10


def test_the_fakes_follow_the_documented_apis(cp):
    import busio
    import keypad
    import microcontroller as mc
    cp.chip = "esp32"
    k = keypad.Keys((mc.pin.GPIO25, mc.pin.GPIO26), value_when_pressed=False,
                    interval=0.005, max_events=2, debounce_threshold=2)
    with pytest.raises(ValueError, match="GPIO25 in use"):
        busio.I2C(mc.pin.GPIO25, mc.pin.GPIO21)
    ev = keypad.Event()
    assert k.events.get_into(ev) is False and k.events.get() is None and len(k.events) == 0
    cp.press(25)
    cp.advance(20)
    got = k.events.get()
    assert got == keypad.Event(0, True) and got.pressed and not got.released
    assert got.timestamp in (5, 10)  # the scan that saw it twice, in supervisor.ticks_ms
    for _ in range(3):
        cp.release(25)
        cp.advance(20)
        cp.press(25)
        cp.advance(20)
    assert len(k.events) == 2 and k.events.overflowed  # full: the new ones were dropped
    assert k.events.get_into(ev) and ev == keypad.Event(0, False)
    k.events.clear()
    assert not k.events.overflowed and not k.events
    with pytest.raises(TypeError):
        k.events.get_into(object())
    k.deinit()
    with pytest.raises(ValueError):
        k.events
    i2c = busio.I2C(mc.pin.GPIO22, mc.pin.GPIO21, frequency=400000)
    with pytest.raises(RuntimeError, match="requires lock"):
        i2c.writeto(0x18, b"\x0f")
    assert i2c.try_lock() and not i2c.try_lock()
    assert i2c.probe(0x3C) is False and i2c.scan() == []
    with pytest.raises(TypeError):
        i2c.writeto(0x18, b"\x0f", 0)  # start/end are keyword-only
    i2c.deinit()
    with pytest.raises(ValueError, match="deinitialized"):
        i2c.try_lock()


# -- the drivers' register traffic: the same bus log as the MicroPython path ---------

SCENARIO = """
out("-- init")
bus = open_bus(b)
accel = Accel(bus, b)
w.bus.dump(out)
out("-- read")
acc.set_trace([(0.0, 0.0, 1.0), (0.51, -0.25, 1.2), (-1.5, 2.0, 0.1), (3.9, -3.9, -7.5),
               (0.02, 0.03, 0.98)], 100)
for _ in range(4):
    w.advance(10)
    s = accel.read()
    out("%.4f %.4f %.4f" % (s[0], s[1], s[2]))
a = accel.driver.acceleration
out("%.3f %.3f %.3f" % (a[0], a[1], a[2]))
w.bus.dump(out)
out("-- display init")
d = Display(bus, b)
w.bus.dump(out)
out("-- framebuffer push")
d.clear()
d.fb.pixel(0, 0, 1)
d.fb.pixel(127, 63, 1)
d.fb.fill_rect(10, 10, 30, 12, 1)
d.fb.hline(0, 32, 128, 1)
d.fb.vline(64, 0, 64, 1)
d.fb.rect(90, 40, 20, 10, 1)
d.show()
w.bus.dump(out)
out("-- done %d" % oled.lit())
"""

UPY_SETUP = """
import sys
%(install)s
import rig
from dicecup.hw import board
from dicecup.hw.i2c import open_bus
from dicecup.hw.accel import Accel
from dicecup.hw.display import Display
b = board.load(%(path)s)
w, acc, oled = rig.build(b, log=True)
out = print
"""
UPY_TAIL = """
print("BUS", type(bus).__name__, "busio" in sys.modules, "dicecup.hw.cp" in sys.modules)
"""
CP_INSTALL = "import cpruntime\ncpruntime.install()"


def cp_on_cpython():
    from dicecup.hw.accel import Accel
    from dicecup.hw.display import Display
    from dicecup.hw.i2c import open_bus
    b, w, acc, oled = build(log=True)
    lines = []
    exec(SCENARIO, {"b": b, "w": w, "acc": acc, "oled": oled, "out": lines.append,
                    "open_bus": open_bus, "Accel": Accel, "Display": Display})
    return lines


def phases(lines):
    return [ln for ln in lines if ln.startswith("-- ")]


def test_same_traffic_on_circuitpython_as_on_micropython(cp, upy, hw_path):
    cp_lines = cp_on_cpython()
    assert phases(cp_lines)[:4] == ["-- init", "-- read", "-- display init", "-- framebuffer push"]
    r = upy(UPY_SETUP % {"install": "", "path": upy_str(DEVKITC)} + SCENARIO + UPY_TAIL,
            extra_path=hw_path, heap="140K")
    assert r.returncode == 0, r.stderr.decode()
    mp_lines = r.stdout.decode().splitlines()
    assert mp_lines[-1] == "BUS I2C False False"  # the adapter; no CircuitPython code loaded
    assert cp_lines == mp_lines[:-1]


def test_same_traffic_with_the_micropython_runtime_playing_circuitpython(upy):
    r = upy(UPY_SETUP % {"install": CP_INSTALL, "path": upy_str(DEVKITC)} + SCENARIO + UPY_TAIL,
            extra_path=cphost.mpy_path(), heap=CP_HEAP)
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    lines = r.stdout.decode().splitlines()
    assert lines[-1] == "BUS I2C True True"  # busio's I2C, the CircuitPython path
    with cphost.circuitpython():
        world.reset()
        assert lines[:-1] == cp_on_cpython()


def test_traffic_is_the_drivers_own(cp):
    lines = cp_on_cpython()
    init = lines[1:lines.index("-- read")]
    assert init[:5] == ["W 18 ", "W 18 0f", "R 18 33", "W 18 2480", "W 18 2007"]
    reads = lines[lines.index("-- read") + 1:lines.index("-- display init")]
    assert reads.count("W 18 a8") == 5  # OUT_X_L with auto-increment, then 6 bytes at once
    assert sum(1 for r in reads if r.startswith("R 18 ") and len(r) == len("R 18 ") + 12) == 5
    push = lines[lines.index("-- framebuffer push") + 1:]
    assert push[:6] == ["W 3c 8021", "W 3c 8000", "W 3c 807f", "W 3c 8022", "W 3c 8000", "W 3c 8007"]
    assert push[6].startswith("W 3c 40") and len(push[6]) == len("W 3c ") + 2 * 1025
    samples = [r for r in reads if not r.startswith(("W ", "R "))]
    # cup frame (DevKitC mount -x y -z) of the sensor-frame trace, 4 mg/digit
    assert samples[0] == "-0.5120 -0.2480 -1.2000"


# -- buttons through keypad.Keys ----------------------------------------------------

def make(w, path=DEVKITC, **kw):
    from dicecup.hw.cpbuttons import Buttons
    b = load_board(path)
    w.chip = b.chip
    return b, Buttons(b, **kw)


def run_for(w, bs, ms):
    for _ in range(ms):
        w.advance(1)
        bs.poll()


def events(bs):
    out = []
    while bs.pending():
        out.append(bs.describe(bs.get()))
    return out


def test_same_button_api_as_micropython(cp):
    from dicecup.hw import buttons as mp
    b, bs = make(cp)
    public = [n for n in dir(mp.Buttons) if not n.startswith("_")]
    for name in public:
        assert hasattr(bs, name), name
    assert isinstance(bs, mp.Buttons) and bs.names == ["left", "ok", "right", "back"]
    for key in bs.buttons:
        assert hasattr(key, "down") and hasattr(key, "ever") and callable(key.read)


def test_keypad_scans_the_pins_with_pull_ups(cp):
    import keypad
    b, bs = make(cp)
    (keys, idx), = bs._scanners  # all four wired alike: one Keys
    assert isinstance(keys, keypad.Keys) and keys.key_count == 4 and idx == (0, 1, 2, 3)
    assert all(cp.line(s.pin).pull == "up" for s in b.buttons)
    assert keys._threshold == 4 and keys._interval == 5.0  # 20 ms of steady level
    bs.deinit()
    import microcontroller
    assert not any(microcontroller.in_use(getattr(microcontroller.pin, "GPIO%d" % s.pin))
                   for s in b.buttons)


def test_bounces_make_one_press(cp):
    w = cp
    b, bs = make(w)
    ok = b.buttons[1].pin
    w.bounce(ok, edges=7, gap_ms=2)
    run_for(w, bs, 60)
    assert events(bs) == [] and bs.held(1)
    w.bounce(ok, edges=6, gap_ms=1, end_pressed=False)
    run_for(w, bs, 60)
    assert events(bs) == ["press ok"] and not bs.held(1)


def test_a_glitch_shorter_than_debounce_is_ignored(cp):
    w = cp
    b, bs = make(w)
    pin = b.buttons[0].pin
    for _ in range(5):
        w.press(pin)
        run_for(w, bs, 5)
        w.release(pin)
        run_for(w, bs, 5)
    run_for(w, bs, 100)
    assert events(bs) == []


def test_long_press_fires_while_held_and_no_press_after(cp):
    w = cp
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


def test_long_press_is_timed_by_keypad_even_when_polled_late(cp):
    w = cp
    b, bs = make(w, long_ms=700)
    pin = b.buttons[0].pin
    w.press(pin)
    w.advance(800)  # nobody polls while the button is held past long_ms ...
    w.release(pin)
    w.advance(100)
    bs.poll()  # ... the timestamps still tell a long press from a press
    assert events(bs) == ["long left"]
    w.press(pin)
    w.advance(300)
    w.release(pin)
    w.advance(100)
    bs.poll()
    assert events(bs) == ["press left"]


def test_both_at_once(cp):
    w = cp
    b, bs = make(w)
    left, right = b.buttons[0].pin, b.buttons[2].pin
    w.bounce(left, edges=3)
    run_for(w, bs, 40)
    w.bounce(right, edges=5)
    run_for(w, bs, 900)
    w.release(right)
    run_for(w, bs, 10)
    w.release(left)
    run_for(w, bs, 50)
    assert events(bs) == ["both left+right"]
    for pin in (left, right):
        w.press(pin)
        run_for(w, bs, 40)
        w.release(pin)
        run_for(w, bs, 40)
    assert events(bs) == ["press left", "press right"]


def test_a_button_held_at_start_fires_nothing(cp):
    w = cp
    b = load_board(DEVKITC)
    w.chip = b.chip
    w.press(b.buttons[3].pin)
    from dicecup.hw.cpbuttons import Buttons
    bs = Buttons(b)
    assert bs.buttons[3].read()  # known at once (digitalio), before keypad settles
    run_for(w, bs, 40)
    assert bs.held(3) and bs.buttons[3].read()  # and then from keypad
    run_for(w, bs, 1000)
    w.release(b.buttons[3].pin)
    run_for(w, bs, 50)
    assert events(bs) == [] and not bs.busy()


def test_a_button_let_go_before_keypad_settled_is_not_left_down(cp):
    w = cp
    b = load_board(DEVKITC)
    w.chip = b.chip
    w.press(b.buttons[3].pin)
    from dicecup.hw.cpbuttons import Buttons
    bs = Buttons(b)
    assert bs.buttons[3].read()
    w.release(b.buttons[3].pin)  # before keypad ever saw it held
    run_for(w, bs, 100)
    assert not bs.buttons[3].read() and not bs.held(3) and not bs.busy()
    w.press(b.buttons[1].pin)
    run_for(w, bs, 40)
    w.release(b.buttons[1].pin)
    run_for(w, bs, 40)
    assert events(bs) == ["press ok"]


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_every_board_button(cp, path):
    w = cp
    b, bs = make(w, path)
    for spec in b.buttons:
        w.press(spec.pin, spec.active)
        run_for(w, bs, 40)
        w.release(spec.pin)
        run_for(w, bs, 40)
    assert events(bs) == ["press " + n for n in b.button_names()]


def test_the_queue_is_bounded(cp):
    w = cp
    b, bs = make(w)
    for _ in range(20):
        w.press(b.buttons[0].pin)
        run_for(w, bs, 30)
        w.release(b.buttons[0].pin)
        run_for(w, bs, 30)
    assert bs.pending() == 16 and bs.dropped == 4


def test_keypad_overflow_starts_over(cp):
    w = cp
    b, bs = make(w)
    left, ok = b.buttons[0].pin, b.buttons[1].pin
    for _ in range(20):  # 40 transitions unread: keypad's queue (32) keeps the first
        w.press(left)
        w.advance(30)
        w.release(left)
        w.advance(30)
    w.press(ok)
    w.advance(10)
    (keys, _), = bs._scanners
    assert keys.events.overflowed
    run_for(w, bs, 60)
    assert events(bs) == ["press left"] * 16  # what keypad kept, then a fresh start
    assert not keys.events.overflowed and bs.held(1)
    w.release(ok)
    run_for(w, bs, 40)
    assert events(bs) == ["press ok"]
    w.press(left)
    run_for(w, bs, 800)
    w.release(left)
    run_for(w, bs, 40)
    assert events(bs) == ["long left"]


def test_across_the_ticks_wrap(cp):
    import microcontroller
    w = cp
    microcontroller._state().ticks_offset = (1 << 29) - 300  # supervisor.ticks_ms wraps soon
    b, bs = make(w, long_ms=700)
    w.press(b.buttons[3].pin)
    run_for(w, bs, 650)
    assert events(bs) == []
    run_for(w, bs, 100)
    assert events(bs) == ["long back"]
    w.release(b.buttons[3].pin)
    run_for(w, bs, 40)
    w.press(b.buttons[1].pin)
    run_for(w, bs, 100)
    w.release(b.buttons[1].pin)
    run_for(w, bs, 40)
    assert events(bs) == ["press ok"]


async def _drive(w, b, bs):
    task = asyncio.create_task(bs.run(tick_ms=1, idle_ms=2))
    got = []

    async def collect():
        while True:
            got.append(bs.describe(await bs.next()))

    col = asyncio.create_task(collect())
    ok, left, right = b.buttons[1].pin, b.buttons[0].pin, b.buttons[2].pin
    for i in range(4):
        w.press(ok) if i % 2 == 0 else w.release(ok)
    w.press(ok)
    await asyncio.sleep(0.06)
    w.release(ok)
    await asyncio.sleep(0.06)
    w.press(left)
    await asyncio.sleep(0.6)
    w.release(left)
    await asyncio.sleep(0.06)
    w.press(left)
    w.press(right)
    await asyncio.sleep(0.06)
    w.release(left)
    w.release(right)
    await asyncio.sleep(0.06)
    task.cancel()
    col.cancel()
    return got


def test_asyncio_task(cp):
    from dicecup.hw.cpbuttons import Buttons
    w = world.reset(real_time=True)
    b = load_board(DEVKITC)
    w.chip = b.chip
    bs = Buttons(b, debounce_ms=10, long_ms=300)
    assert asyncio.run(_drive(w, b, bs)) == ["press ok", "long left", "both left+right"]


# -- a missing chip, wrong pins ------------------------------------------------------

def test_missing_accelerometer_by_name(cp):
    from dicecup.hw import hardware
    b, w, acc, oled = build(accel=False)
    out = []
    hw = hardware.open(str(DEVKITC), out=out.append)
    assert hw.display is not None and hw.accel is None and hw.buttons is not None
    assert out == ["dicecup: NOT FOUND: LIS3DH accelerometer not found at 0x18 on I2C SDA=21 SCL=22"]
    assert oled.lit() > 100  # shown on the screen too


def test_missing_display_by_name(cp):
    from dicecup.hw import hardware
    b, w, acc, oled = build(display=False)
    out = []
    hw = hardware.open(str(DEVKITC), out=out.append)
    assert hw.display is None and hw.accel is not None and hw.found == [0x18]
    assert out == ["dicecup: NOT FOUND: SSD1306 display not found at 0x3C on I2C SDA=21 SCL=22"]


def test_something_else_at_the_accelerometer_address(cp):
    from dicecup.hw import hardware
    b, w, acc, oled = build()
    acc.regs[0x0F] = 0x44
    out = []
    hardware.open(str(DEVKITC), out=out.append)
    assert len(out) == 1 and "WHO_AM_I is not 0x33" in out[0] and "LIS3DH" in out[0]


def test_chips_on_other_pins_than_the_board_file_says(cp):
    from dicecup.hw import hardware
    b, w, acc, oled = build()
    w.i2c_pins = (5, 4)  # nothing pulls SDA/SCL up where the file says: busio refuses
    out = []
    hw = hardware.open(str(DEVKITC), out=out.append)
    assert hw.i2c is None and hw.display is None
    assert out == ["dicecup: HARDWARE: I2C bus on SDA=21 SCL=22: RuntimeError No pull up "
                   "found on SDA or SCL; check your wiring"]


# -- motion wake: alarm.pin.PinAlarm on INT1, radio off first ------------------------

def at_rest(t):
    n = 0.01 * math.sin(t * 0.37)
    return (n, 0.3 + n, 0.95)  # resting a little tilted


def shake(t):
    return (1.5 * math.sin(2 * math.pi * 4 * t / 1000), 0.0, 1.0 + 0.3 * math.sin(t / 40))


def wake_setup(path=DEVKITC):
    from dicecup.hw.accel import Accel
    from dicecup.hw.display import Display
    from dicecup.hw.i2c import open_bus
    b, w, acc, oled = build(path)
    bus = open_bus(b)
    return b, w, acc, oled, Accel(bus, b), Display(bus, b)


def feel(acc, b, fn):
    acc.set_function(lambda t: lis3dh.to_sensor(fn(t), b.mount))


def test_sleep_until_motion_wakes_on_int1_with_the_radio_off(cp):
    import alarm
    from dicecup.hw import power
    b, w, acc, oled, accel, display = wake_setup()
    w.radio["wifi"] = True
    w.radio["ble"] = True
    feel(acc, b, lambda t: shake(t) if t >= 2000 else at_rest(t))
    assert power.wake_method(b) == "pinalarm"
    assert power.sleep_until_motion(accel, b, display, max_ms=60000) == "motion"
    ms, slept, kind, radio_on = w.sleeps[-1]
    # the TimeAlarm is set for 60 s from when it was made; the sleep starts a moment later
    assert 59900 <= ms <= 60000 and (kind, radio_on) == ("pin", False) and len(w.sleeps) == 1
    assert 2000 <= slept <= 2200
    assert w.radio == {"wifi": False, "ble": False}
    assert isinstance(alarm.wake_alarm, alarm.pin.PinAlarm)
    assert repr(alarm.wake_alarm.pin) == "microcontroller.pin.GPIO%d" % b.int1
    assert display.on and oled.on and acc.regs[0x30] == 0 and acc.odr() == b.rate_hz


def test_sleep_until_motion_times_out_at_rest(cp):
    from dicecup.hw import power
    b, w, acc, oled, accel, display = wake_setup()
    feel(acc, b, at_rest)
    assert power.sleep_until_motion(accel, b, display, max_ms=5000) == "timeout"
    # the alarm is set at an absolute monotonic time: what the host's clock moved between
    # the firmware reading it and the alarm being made comes off (a few ms, under load)
    ms, slept, kind = w.sleeps[-1][:3]
    assert 4900 <= ms <= 5000 and ms <= slept <= 5000 and kind == "time"
    assert acc.int1_events == 0


def test_wakes_on_a_shake_from_the_trace_library(cp):
    from dicecup.hw import power
    from dicecup_host import traces
    tr = traces.load(traces.library_dir() / "lib" / "shake-short-01.txt")
    b, w, acc, oled, accel, display = wake_setup()
    rest = [tr.samples[0]] * (tr.rate_hz * 2)  # two seconds on the table first
    rig.cup_trace(acc, b, rest + tr.samples, tr.rate_hz)
    assert power.sleep_until_motion(accel, b, display, max_ms=60000) == "motion"
    slept = w.sleeps[-1][1]
    assert 2000 <= slept < 2000 + tr.duration_ms()


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_every_board_wakes_on_its_int1_pin(cp, path):
    from dicecup.hw import power
    b, w, acc, oled, accel, display = wake_setup(path)
    feel(acc, b, lambda t: shake(t) if t >= 1500 else at_rest(t))
    assert power.sleep_until_motion(accel, b, display, max_ms=10000) == "motion"
    assert len(w.sleeps) == 1 and w.sleeps[0][2] == "pin"  # the C3 too: GPIO wake in light sleep
    assert 1500 <= w.sleeps[0][1] <= 1800


def test_without_int1_short_naps(cp):
    from dicecup.hw import power
    b, w, acc, oled, accel, display = wake_setup()
    b.int1 = None
    feel(acc, b, lambda t: shake(t) if t >= 1000 else at_rest(t))
    assert power.wake_method(b) == "poll"
    assert power.sleep_until_motion(accel, b, display, max_ms=10000) == "motion"
    assert len(w.sleeps) >= 4 and all(s[0] == 250 and s[2] == "time" for s in w.sleeps)


def test_pin_alarm_rules_of_the_espressif_port(cp):
    import alarm
    import digitalio
    import microcontroller
    cp.chip = "esp32"
    with pytest.raises(ValueError, match="Only level"):
        alarm.pin.PinAlarm(microcontroller.pin.GPIO34, value=True, edge=True)
    with pytest.raises(ValueError, match="input-only"):
        alarm.pin.PinAlarm(microcontroller.pin.GPIO34, value=True, pull=True)
    d = digitalio.DigitalInOut(microcontroller.pin.GPIO34)
    with pytest.raises(ValueError, match="GPIO34 in use"):
        alarm.pin.PinAlarm(microcontroller.pin.GPIO34, value=True)
    d.deinit()
    assert alarm.light_sleep_until_alarms() is None


def test_battery_volts_through_analogio(cp):
    from dicecup.hw import power
    b = load_board(DEVKITC)
    rig.build(b, battery_v=3.86)
    assert abs(power.battery_volts(b) - 3.86) < 0.01
    import microcontroller
    assert not microcontroller.in_use(microcontroller.pin.GPIO35)  # AnalogIn deinit()ed


# -- the self-test and safe mode -----------------------------------------------------

def test_selftest_runs(cp):
    from dicecup.hw import hardware
    from dicecup.hw.selftest import SelfTest
    b, w, acc, oled = build(battery_v=3.92)
    out = []
    hw = hardware.open(str(DEVKITC), out=out.append)
    assert hw.ok(), out
    st = SelfTest(hw, out=out.append, clock=w.now)
    st.start()
    for t in range(300):
        if t == 50:
            w.press(b.buttons[1].pin)
        if t == 60:
            w.release(b.buttons[1].pin)
        if t == 120:
            w.press(b.buttons[0].pin)
            w.press(b.buttons[3].pin)
        if t == 140:
            w.release(b.buttons[0].pin)
            w.release(b.buttons[3].pin)
        w.advance(10)
        st.step(w.now())
    text = "\n".join(out)
    assert "selftest: board esp32-devkitc (esp32) I2C SDA=21 SCL=22" in text
    assert "selftest: i2c scan: 0x18 LIS3DH, 0x3C SSD1306" in text
    assert "selftest: battery 3.92 V" in text
    assert "selftest: button press ok" in text and "selftest: button both left+back" in text
    status = [ln for ln in out if ln.startswith("selftest: accel")]
    assert len(status) == 3 and "z=+1.00 g" in status[0]
    assert status[-1].endswith("left* ok* right. back*")
    assert oled.frames >= 14 and oled.lit() > 200


def test_safe_mode_sees_the_button_held_at_power_on(cp):
    from dicecup.hw import hardware, safemode
    b, w, acc, oled = build()
    safe = b.buttons[b.safe_button].pin
    w.press(safe)
    assert safemode.held_at_boot(hardware.open(str(DEVKITC), out=lambda s: None))
    w.release(safe)
    world.reset()
    build()
    assert not safemode.held_at_boot(hardware.open(str(DEVKITC), out=lambda s: None))


# -- the whole CircuitPython path inside the heap-capped MicroPython ------------------

UPY_WHOLE = """
import cpruntime
cpruntime.install()
import gc, sys, math, rig, lis3dh
from dicecup.hw import board, hardware, power, safemode
from dicecup.hw.selftest import SelfTest
b = board.load(%(path)s)
w, acc, oled = rig.build(b, battery_v=3.92)
w.radio["wifi"] = True
w.press(b.buttons[b.safe_button].pin)
gc.collect()
m0 = gc.mem_alloc()
hw = hardware.open(%(path)s)
print("held", safemode.held_at_boot(hw))
w.release(b.buttons[b.safe_button].pin)
st = SelfTest(hw)
st.start()
for t in range(200):
    if t == 20:
        w.press(b.buttons[1].pin)
    if t == 30:
        w.release(b.buttons[1].pin)
    if t == 60:
        w.press(b.buttons[2].pin)
    if t == 150:
        w.release(b.buttons[2].pin)
    w.advance(10)
    st.step()
gc.collect()
print("HEAP", gc.mem_alloc() - m0)
def f(t):
    if t < 4000:
        return lis3dh.to_sensor((0.0, 0.0, 1.0), b.mount)
    return lis3dh.to_sensor((1.5 * math.sin(t / 40), 0.0, 1.0), b.mount)
acc.set_function(f)
print("rest", power.sleep_until_motion(hw.accel, b, hw.display, max_ms=1000))
print("moved", power.sleep_until_motion(hw.accel, b, hw.display, max_ms=9000))
print("sleeps", w.sleeps)
from dicecup.hw import record
print("recorded", record.record(hw.accel, 0.1))  # shake-record's loop on CircuitPython's time
print("modules", sorted(m for m in sys.modules if m.startswith("dicecup.hw.cp")))
"""


def test_whole_circuitpython_path_in_micropython(upy):
    r = upy(UPY_WHOLE % {"path": upy_str(DEVKITC)}, extra_path=cphost.mpy_path(), heap=CP_HEAP)
    out = r.stdout.decode()
    assert r.returncode == 0, out + r.stderr.decode()
    assert "held True" in out  # safe mode through keypad's side of the buttons
    assert "selftest: i2c scan: 0x18 LIS3DH, 0x3C SSD1306" in out
    assert "selftest: battery 3.92 V" in out
    assert "selftest: button press ok" in out and "selftest: button long right" in out
    assert "rest timeout" in out and "moved motion" in out
    sleeps = ast.literal_eval(out.split("sleeps ")[1].splitlines()[0])
    (ms1, slept1, kind1, radio1), (ms2, slept2, kind2, radio2) = sleeps
    assert abs(ms1 - 1000) <= 2 and slept1 >= 995 and kind1 == "time" and not radio1
    assert abs(ms2 - 9000) <= 2 and 900 <= slept2 <= 1300 and kind2 == "pin"  # moved at 4 s
    assert "modules ['dicecup.hw.cp', 'dicecup.hw.cpbuttons', 'dicecup.hw.cppower']" in out
    assert "# dicecup-record start" in out and "# dicecup-record stop samples=" in out
    heap = int(out.split("HEAP")[1].split()[0])
    print("\nCircuitPython path in MicroPython: bring-up + self-test heap %d B" % heap)
