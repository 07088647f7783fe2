"""After boot, drop what the cup never uses again from RAM: `trim()`, called by
appboot.make_app when the hardware came up clean.

On MicroPython a module's function and class objects stay in RAM even when its code is
frozen in flash; these are parts no cup calls after boot.
"""

# What a cup never uses of the Adafruit drivers (their SPI flavours, digitalio for
# interrupt pins it does not give them) and of this layer once it is up (the error
# classes: a fault after boot imports them again): dropped from RAM when the app is made
# on hardware that came up clean (appboot.make_app; not in safe mode, whose self-test
# runs on the heap as it is).
from micropython import const

_TRIM = const((("adafruit_lis3dh", "LIS3DH_SPI"), ("adafruit_lis3dh", "digitalio"),
               ("adafruit_lis3dh", "namedtuple"), ("adafruit_lis3dh", "__version__"),
               ("adafruit_lis3dh", "__repo__"), ("adafruit_ssd1306", "SSD1306_SPI"),
               ("adafruit_ssd1306", "spi_device"), ("adafruit_ssd1306", "__version__"),
               ("adafruit_ssd1306", "__repo__")))


def trim():
    """Drop the parts in _TRIM, and the modules digitalio, the bus_device's SPI,
    hw/errors.py, hw/hardware.py (the bring-up: its Hardware lives in hw/__init__.py)
    and this module (MicroPython only: dicecup.unload; the drivers' objects stay on
    CPython, where tests share them)."""
    import sys
    if sys.implementation.name != "micropython":
        return
    from dicecup import unload
    for mod, name in _TRIM:
        m = sys.modules.get(mod)
        if m is not None and name in m.__dict__:
            delattr(m, name)
    unload("digitalio", "adafruit_bus_device.spi_device", "dicecup.hw.errors", "dicecup.hw.hardware",
           "dicecup.hw.trim")
