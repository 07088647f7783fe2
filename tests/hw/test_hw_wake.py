"""Motion wake: the LIS3DH activity interrupt on INT1 fires on motion and not at rest,
and the cup light-sleeps with the radio off until it does."""
import math

import pytest

from dicecup.hw import power
from dicecup.hw.accel import Accel
from dicecup.hw.display import Display
from dicecup.hw.i2c import open_bus
from dicecup_host.emu import lis3dh, machine, rig

from hwhelpers import BOARD_FILES, DEVKITC, EMU_HEAP, load_board, upy_str


def noise(t, amp=0.01):
    """Deterministic sensor noise, a few mg."""
    return amp * math.sin(t * 0.37) * math.cos(t * 1.3)


def at_rest(t, tilt_deg=0.0):
    a = math.radians(tilt_deg)
    return (noise(t), math.sin(a) + noise(t + 5), math.cos(a) + noise(t + 9))


def shake(t):
    """A hand shaking the cup side to side at 4 Hz, about 1.5 g."""
    return (1.5 * math.sin(2 * math.pi * 4 * t / 1000), noise(t), 1.0 + 0.3 * math.sin(t / 40))


def rest_then(t0, motion, tilt_deg=0.0):
    return lambda t: motion(t) if t >= t0 else at_rest(t, tilt_deg)


def setup(fake_machine, path=DEVKITC):
    b = load_board(path)
    w, acc, oled = rig.build(b)
    bus = open_bus(b)
    return b, w, acc, oled, Accel(bus, b), Display(bus, b)


def feel(acc, b, fn):
    acc.set_function(lambda t: lis3dh.to_sensor(fn(t), b.mount))


def test_int1_fires_on_motion_not_at_rest(fake_machine):
    b, w, acc, oled, accel, _ = setup(fake_machine)
    feel(acc, b, rest_then(4000, shake, tilt_deg=20))  # a cup resting at an angle
    ths, dur = accel.arm_wake(threshold_g=0.15, duration_ms=20, rate_hz=25)
    assert (ths, dur) == (3, 0)  # 3 x 62 mg at +-8 g; 20 ms is under one sample at 25 Hz
    assert acc.regs[0x30] == 0x2A and acc.regs[0x22] == 0x40 and acc.regs[0x21] == 0x01
    assert acc.odr() == 25
    w.advance(3900)
    assert w.line(b.int1).level() == 0 and acc.int1_events == 0
    w.advance(300)
    assert w.line(b.int1).level() == 1 and acc.int1_events == 1
    src = accel.wake_source()
    assert src & 0x40 and src & 0x02  # IA, X high
    assert w.line(b.int1).level() in (0, 1)  # released; may re-latch while still shaking
    accel.disarm_wake()
    assert acc.regs[0x30] == 0 and acc.regs[0x22] == 0 and acc.odr() == b.rate_hz


def test_without_high_pass_gravity_alone_would_fire(fake_machine):
    """Why HP_IA1 matters: with the filter off, 1 g of gravity is 'activity'."""
    b, w, acc, oled, accel, _ = setup(fake_machine)
    feel(acc, b, at_rest)
    accel.arm_wake()
    accel._reg(0x21, 0x00)
    w.advance(200)
    assert w.line(b.int1).level() == 1


def test_sleep_until_motion_wakes_on_int1(fake_machine):
    b, w, acc, oled, accel, display = setup(fake_machine)
    w.radio[0] = True  # ESP-NOW up, as mid-game
    feel(acc, b, rest_then(2000, shake))
    assert power.wake_method(b) == "ext0"
    assert power.sleep_until_motion(accel, b, display, max_ms=60000) == "motion"
    ms, slept, reason, radio_on = w.sleeps[-1]
    assert reason == machine.EXT0_WAKE and not radio_on and w.radio[0] is False
    assert 2000 <= slept <= 2200
    assert display.on and oled.on and acc.regs[0x30] == 0  # back to normal


def test_sleep_until_motion_times_out_at_rest(fake_machine):
    b, w, acc, oled, accel, display = setup(fake_machine)
    feel(acc, b, at_rest)
    assert power.sleep_until_motion(accel, b, display, max_ms=5000) == "timeout"
    assert w.sleeps[-1][:3] == (5000, 5000, machine.TIMER_WAKE)
    assert acc.int1_events == 0


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_every_board_wakes(fake_machine, path):
    b, w, acc, oled, accel, display = setup(fake_machine, path)
    feel(acc, b, rest_then(1500, shake))
    assert power.sleep_until_motion(accel, b, display, max_ms=10000) == "motion"
    if b.chip == "esp32c3":  # no EXT0: short sleeps, INT1_SRC read between them
        assert power.wake_method(b) == "poll"
        assert len(w.sleeps) >= 6 and all(s[0] == 250 for s in w.sleeps)
    else:
        assert len(w.sleeps) == 1
    assert 1500 <= sum(s[1] for s in w.sleeps) <= 1800


def test_battery_volts(fake_machine):
    b = load_board(DEVKITC)
    w, acc, oled = rig.build(b, battery_v=3.86)
    assert abs(power.battery_volts(b) - 3.86) < 0.01
    assert power.battery_percent(b, 3.86) == 62


UPY_WAKE = """
import math, rig, world, lis3dh, network
from dicecup.hw import board, power
from dicecup.hw.i2c import open_bus
from dicecup.hw.accel import Accel
b = board.load(%s)
w, acc, oled = rig.build(b)
accel = Accel(open_bus(b), b)
network.WLAN(network.STA_IF).active(True)
def f(t):
    if t < 1500:
        return lis3dh.to_sensor((0.0, 0.0, 1.0), b.mount)
    return lis3dh.to_sensor((1.5 * math.sin(t / 40), 0.0, 1.0), b.mount)
acc.set_function(f)
print("rest", power.sleep_until_motion(accel, b, max_ms=1000))
print("moved", power.sleep_until_motion(accel, b, max_ms=5000))
print("sleeps", w.sleeps)
"""


def test_motion_wake_in_micropython(upy_hw):
    out = upy_hw(UPY_WAKE % upy_str(DEVKITC), heap=EMU_HEAP)
    assert "rest timeout" in out and "moved motion" in out
    assert "sleeps [(1000, 1000, 4, False), (5000, 5" in out
