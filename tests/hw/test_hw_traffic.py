"""The Adafruit drivers make the same I2C traffic on CPython (through the busio stub)
and inside the heap-capped MicroPython (through dicecup.hw.i2c over machine.I2C), for
initialisation, acceleration reads and a full framebuffer push."""
from dicecup_host.emu import lis3dh, ssd1306, world

# Runs unchanged on both sides: `w` (world), `acc` (emulated LIS3DH), `i2c` (busio-like)
# and `out` (collects lines) are given.
SCENARIO = """
import adafruit_lis3dh
import adafruit_ssd1306
acc.set_trace([(0.0, 0.0, 1.0), (0.51, -0.25, 1.2), (-1.5, 2.0, 0.1), (3.9, -3.9, -7.5),
               (9.0, -9.0, 0.004)], 100)
out("-- lis3dh init")
lis = adafruit_lis3dh.LIS3DH_I2C(i2c)
lis.range = adafruit_lis3dh.RANGE_8_G
lis.data_rate = adafruit_lis3dh.DATARATE_100_HZ
w.bus.dump(out)
out("-- acceleration")
for _ in range(5):
    w.advance(10)
    a = lis.acceleration
    out("%.3f %.3f %.3f" % (a[0], a[1], a[2]))
w.bus.dump(out)
out("-- ssd1306 init")
d = adafruit_ssd1306.SSD1306_I2C(128, 64, i2c)
w.bus.dump(out)
out("-- framebuffer push")
d.fill(0)
d.pixel(0, 0, 1)
d.pixel(127, 63, 1)
d.fill_rect(10, 10, 30, 12, 1)
d.hline(0, 32, 128, 1)
d.vline(64, 0, 64, 1)
d.rect(90, 40, 20, 10, 1)
d.show()
w.bus.dump(out)
out("-- done")
"""

UPY_SETUP = """
import world, lis3dh, ssd1306, machine
from dicecup.hw.i2c import I2C
w = world.reset()
acc = lis3dh.Lis3dh(w, 0x18)
oled = ssd1306.Ssd1306(w, 0x3C)
i2c = I2C(machine.I2C(0, scl=machine.Pin(22), sda=machine.Pin(21), freq=400000), 21, 22)
out = print
"""


def cpython_run():
    import busio
    w = world.reset()
    acc = lis3dh.Lis3dh(w, 0x18)
    oled = ssd1306.Ssd1306(w, 0x3C)
    lines = []
    exec(SCENARIO, {"w": w, "acc": acc, "i2c": busio.I2C(22, 21), "out": lines.append})
    return lines, oled


def test_same_traffic_on_cpython_and_micropython(upy_hw):
    py_lines, _ = cpython_run()
    upy_lines = upy_hw(UPY_SETUP + SCENARIO).splitlines()
    assert upy_lines[-1] == "-- done"
    for phase in ("-- lis3dh init", "-- acceleration", "-- ssd1306 init", "-- framebuffer push"):
        assert phase in py_lines
    assert upy_lines == py_lines


def test_traffic_is_what_the_datasheets_say():
    lines, oled = cpython_run()
    init = lines[lines.index("-- lis3dh init") + 1:lines.index("-- acceleration")]
    # probe, WHO_AM_I, reboot, CTRL_REG1, 400 Hz, HR+BDU, ADC, latch INT1 (MICROPYTHON.md)
    assert init[:5] == ["W 18 ", "W 18 0f", "R 18 33", "W 18 2480", "W 18 2007"]
    for write in ("W 18 2077", "W 18 2388", "W 18 1f80", "W 18 2408", "W 18 23a8", "W 18 2057"):
        assert write in init
    reads = lines[lines.index("-- acceleration") + 1:lines.index("-- ssd1306 init")]
    values = [[float(f) for f in r.split()] for r in reads if not r.startswith(("W", "R"))]
    # sample k (10 ms apart) of the trace, quantised at 4 mg/digit (+-8 g, 12 bits,
    # clipped at +-2048 digits), then converted by the driver: raw / 4096 * 9.806
    trace = [(0.51, -0.25, 1.2), (-1.5, 2.0, 0.1), (3.9, -3.9, -7.5), (9.0, -9.0, 0.004)]
    for got, g in zip(values, trace):
        digits = [max(-2048, min(2047, round(v * 1000 / 4))) for v in g]
        assert got == [round(d * 16 / 4096 * 9.806, 3) for d in digits]
    assert "W 18 a8" in reads and any(r.startswith("R 18 ") and len(r) == 17 for r in reads)
    push = lines[lines.index("-- framebuffer push") + 1:lines.index("-- done")]
    # column range 0..127, page range 0..7, then 0x40 + 1024 bytes in one write
    assert push[:6] == ["W 3c 8021", "W 3c 8000", "W 3c 807f", "W 3c 8022", "W 3c 8000", "W 3c 8007"]
    assert push[6].startswith("W 3c 40") and len(push[6]) == len("W 3c ") + 2 * 1025
    assert oled.frames == 2 and oled.unknown == []


def test_pixels_drawn_show_in_the_emulated_framebuffer():
    _, oled = cpython_run()
    assert oled.on and oled.remap and oled.com_flip and oled.mode == 0
    assert oled.pixel(0, 0) and oled.pixel(127, 63)
    assert all(oled.pixel(x, y) for x in range(10, 40) for y in range(10, 22))
    assert not oled.pixel(9, 10) and not oled.pixel(40, 21)
    assert all(oled.pixel(x, 32) for x in range(128))
    assert all(oled.pixel(64, y) for y in range(64))
    assert oled.pixel(90, 40) and oled.pixel(109, 49) and not oled.pixel(100, 45)
    drawn = {(0, 0), (127, 63)} | {(x, y) for x in range(10, 40) for y in range(10, 22)}
    drawn |= {(x, 32) for x in range(128)} | {(64, y) for y in range(64)}
    drawn |= {(x, y) for x in range(90, 110) for y in (40, 49)}
    drawn |= {(x, y) for x in (90, 109) for y in range(40, 50)}
    assert oled.lit() == len(drawn)
