"""dicecup.hw.i2c: busio.I2C's calls turned into machine.I2C's (positional `stop`, no
lock, no slices), checked on the fake machine.I2C, which refuses keyword arguments
just like MicroPython's."""
import pytest

from dicecup.hw.i2c import I2C, open_bus
from dicecup_host.emu import lis3dh

from hwhelpers import load_board


def bus(w):
    import machine
    lis3dh.Lis3dh(w, 0x18)
    return I2C(machine.I2C(0, scl=machine.Pin(22), sda=machine.Pin(21)), 21, 22)


def test_lock_is_exclusive(fake_machine):
    i2c = bus(fake_machine)
    assert i2c.try_lock() and not i2c.try_lock()
    i2c.unlock()
    assert i2c.try_lock()


def test_slices_and_repeated_start(fake_machine):
    w = fake_machine
    i2c = bus(w)
    i2c.writeto(0x18, bytearray(b"\x00\x20\x57\x99"), start=1, end=3)  # CTRL_REG1 = 0x57
    buf = bytearray(4)
    i2c.writeto_then_readfrom(0x18, b"\x0f\x20", buf, out_start=0, out_end=1, in_start=1, in_end=2)
    assert buf == bytearray(b"\x00\x33\x00\x00")
    i2c.writeto(0x18, b"\x20")
    i2c.readfrom_into(0x18, buf, start=2)
    assert buf[2] == 0x57
    assert w.bus.lines() == ["W 18 2057", "W 18 0f +", "R 18 33", "W 18 20", "R 18 5757"]  # no auto-increment without bit 7


def test_probe_and_scan(fake_machine):
    w = fake_machine
    i2c = bus(w)
    i2c.writeto(0x18, b"")  # what adafruit_bus_device does to probe
    with pytest.raises(OSError):
        i2c.writeto(0x3C, b"")
    assert i2c.scan() == [0x18] and w.bus.lines()[-1] == "W 3c - NACK"


def test_machine_i2c_takes_no_keywords(fake_machine):
    import machine
    m = machine.I2C(0, scl=machine.Pin(22), sda=machine.Pin(21))
    with pytest.raises(TypeError):
        m.writeto(0x18, b"\x0f", stop=False)


def test_open_bus_uses_the_board_pins(fake_machine):
    b = load_board()
    i2c = open_bus(b)
    assert (i2c.bus.scl, i2c.bus.sda, i2c.bus.freq) == (22, 21, 400000) and i2c.where() == "SDA=21 SCL=22"
