"""What the hardware layer costs the cup: .mpy sizes and heap inside MicroPython at the
ESP32's 110 KB cap (the unix port is 64-bit: its objects are up to twice an ESP32's,
so these are upper bounds). `pytest -s` prints the figures."""
from dicecup_host import bundle, mpy

MEASURE = """
import gc
gc.collect()
a0 = gc.mem_alloc()
import adafruit_ssd1306, adafruit_lis3dh
gc.collect()
a1 = gc.mem_alloc()
from dicecup.hw import board, i2c, display, accel, buttons, power, hardware
gc.collect()
a2 = gc.mem_alloc()
print("drivers", a1 - a0)
print("hw", a2 - a1)
print("free", gc.mem_free())
"""


def test_drivers_and_hw_fit_the_heap(upy, hw_path):
    r = upy(MEASURE, extra_path=hw_path)
    assert r.returncode == 0, r.stderr.decode()
    got = dict(line.split() for line in r.stdout.decode().splitlines())
    drivers, hw, free = int(got["drivers"]), int(got["hw"]), int(got["free"])
    print("\nheap: drivers %d B, hw %d B, free after both %d B of 110 KB (64-bit unix port)"
          % (drivers, hw, free))
    assert drivers < 30000 and hw < 30000 and free > 50000


def test_mpy_sizes():
    hw = mpy.sizes(under="dicecup/hw")
    drv = {str(p.relative_to(bundle.drivers_mpy_dir())): p.stat().st_size
           for p in sorted(bundle.drivers_mpy_dir().rglob("*.mpy"))}
    print("\n.mpy bytes: hw %d (%s), drivers %d (%s)" % (
        sum(hw.values()), ", ".join("%s %d" % (k.split("/")[-1], v) for k, v in hw.items()),
        sum(drv.values()), ", ".join("%s %d" % kv for kv in drv.items())))
    assert sum(drv.values()) < 12000
