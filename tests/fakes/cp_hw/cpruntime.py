"""Makes the unix MicroPython play the CircuitPython runtime for the firmware, with the
fakes in this folder (compiled by cphost.build_mpy, first on MICROPYPATH):

    import cpruntime; cpruntime.install()

* `time` becomes CircuitPython's (cptime: no ticks_ms); asyncio is imported first so
  it keeps MicroPython's ticks, as CircuitPython's asyncio has its own;
* no `framebuf`: CircuitPython has none built in, so adafruit_ssd1306 falls back to
  the pure-Python `adafruit_framebuf` (text needs font5x8.bin). MicroPython's
  built-in cannot be taken off the path, so sys.modules gets a stand-in whose every
  attribute raises ImportError, which is where the driver's `try` looks;
* `dicecup.hw.PLATFORM = "circuitpython"`: the hardware layer takes its
  CircuitPython path (dicecup.hw.circuitpython()), as sys.implementation.name would
  tell it on a board.
The fakes' busio, digitalio, keypad, analogio, alarm, microcontroller, supervisor,
wifi and _bleio come first on the path, ahead of the firmware's own digitalio shim.
Call install() before importing anything else of dicecup.hw.
"""
import sys


class _NoFramebuf:
    def __getattr__(self, name):
        raise ImportError("no module named 'framebuf'")


def install(framebuf=True):
    import asyncio  # noqa: F401
    import cptime
    sys.modules["time"] = cptime
    if framebuf:
        sys.modules["framebuf"] = _NoFramebuf()
    import dicecup.hw
    dicecup.hw.PLATFORM = "circuitpython"
