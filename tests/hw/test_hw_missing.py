"""A chip that does not answer at boot is reported by name, address and pins."""
import pytest

from dicecup.hw import hardware
from dicecup.hw.accel import Accel
from dicecup.hw.display import Display
from dicecup.hw.errors import DeviceMissing
from dicecup.hw.i2c import open_bus
from dicecup_host.emu import rig

from hwhelpers import DEVKITC, EMU_HEAP, load_board, upy_str


def test_missing_accelerometer_by_name(fake_machine):
    b = load_board(DEVKITC)
    rig.build(b, accel=False)
    with pytest.raises(DeviceMissing) as err:
        Accel(open_bus(b), b)
    assert str(err.value) == "LIS3DH accelerometer not found at 0x18 on I2C SDA=21 SCL=22"


def test_missing_display_by_name(fake_machine):
    b = load_board(DEVKITC)
    rig.build(b, display=False)
    with pytest.raises(DeviceMissing) as err:
        Display(open_bus(b), b)
    assert str(err.value) == "SSD1306 display not found at 0x3C on I2C SDA=21 SCL=22"


def test_something_else_at_the_accelerometer_address(fake_machine):
    b = load_board(DEVKITC)
    w, acc, oled = rig.build(b)
    acc.regs[0x0F] = 0x44  # say an LIS2DH12's sibling
    with pytest.raises(DeviceMissing) as err:
        Accel(open_bus(b), b)
    assert "WHO_AM_I is not 0x33" in str(err.value)


def test_bring_up_goes_on_past_a_missing_chip(fake_machine):
    b = load_board(DEVKITC)
    w, acc, oled = rig.build(b, accel=False)
    out = []
    hw = hardware.open(str(DEVKITC), out=out.append)
    assert hw.display is not None and hw.accel is None and hw.buttons is not None
    assert out == ["dicecup: NOT FOUND: LIS3DH accelerometer not found at 0x18 on I2C SDA=21 SCL=22"]
    assert oled.lit() > 100  # the error is on the screen


UPY = """
import rig, world
from dicecup.hw import board, hardware
b = board.load(%s)
w, acc, oled = rig.build(b)
w.i2c_pins = (5, 4)  # the chips hang on other pins than the board file says
hw = hardware.open(%s)
print("found", hw.found, hw.display is None, hw.accel is None)
"""


def test_wrong_pins_report_both_chips_in_micropython(upy_hw):
    out = upy_hw(UPY % (upy_str(DEVKITC), upy_str(DEVKITC)), heap=EMU_HEAP)
    assert "dicecup: NOT FOUND: SSD1306 display not found at 0x3C on I2C SDA=21 SCL=22" in out
    assert "dicecup: NOT FOUND: LIS3DH accelerometer not found at 0x18 on I2C SDA=21 SCL=22" in out
    assert "found [] True True" in out
