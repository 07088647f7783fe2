"""Host side (CPython only) of the CircuitPython fakes in this folder.

* `circuitpython()`: a `with` block in which `import busio` etc. give these fakes and
  `dicecup.hw` takes its CircuitPython path (dicecup.hw.PLATFORM); on leaving, the
  fakes, dicecup.hw's cp* modules and the platform are taken away again, and the
  modules the fakes shadowed (the host's busio/digitalio stubs) come back, so no
  other test sees them. The hw modules and the Adafruit drivers are imported before
  the fakes go on the path, so what they bound at import stays the host's.
* `build_mpy()`: the fakes, the emulated chips (world, bus, lis3dh, ssd1306, rig --
  not the fake `machine`, which CircuitPython does not have) and `adafruit_framebuf`
  compiled by mpy-cross into build/mpy-cp, for the unix MicroPython (`mpy_path()`
  gives the MICROPYPATH entries, drivers included).
"""
import contextlib
import importlib.util
import sys
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
FAKES = ("microcontroller", "supervisor", "busio", "digitalio", "keypad", "analogio",
         "alarm", "wifi", "_bleio")
MPY_FAKES = FAKES + ("cptime", "cpruntime")
EMU = ("world", "bus", "lis3dh", "ssd1306", "rig")
CP_MODULES = ("dicecup.hw.cp", "dicecup.hw.cpbuttons", "dicecup.hw.cppower")


def _forget_cp_modules():
    import dicecup.hw
    for name in CP_MODULES:
        sys.modules.pop(name, None)
        short = name.rsplit(".", 1)[1]
        if short in dicecup.hw.__dict__:
            delattr(dicecup.hw, short)


@contextlib.contextmanager
def circuitpython():
    """CPython plays CircuitPython within the block (see the module doc)."""
    import adafruit_lis3dh  # noqa: F401
    import adafruit_ssd1306  # noqa: F401
    import dicecup.hw
    from dicecup.hw import (accel, board, buttons, clock, display, hardware, i2c,  # noqa: F401
                            power, safemode, selftest)
    saved = {n: sys.modules.pop(n) for n in FAKES if n in sys.modules}
    sys.path.insert(0, str(FOLDER))
    dicecup.hw.PLATFORM = "circuitpython"
    try:
        yield
    finally:
        dicecup.hw.PLATFORM = None
        sys.path.remove(str(FOLDER))
        for n in FAKES:
            sys.modules.pop(n, None)
        _forget_cp_modules()
        sys.modules.update(saved)


def _compile(src, dst, name):
    from dicecup_host import mpy
    if dst.exists() and dst.stat().st_mtime >= src.stat().st_mtime:
        return
    mpy.cross(src, dst, name + ".py")


def build_mpy(out=None):
    """Compile the fakes, the chip emulation and adafruit_framebuf; returns the folder."""
    from dicecup_host import emu, mpy
    out = Path(out) if out else mpy.ROOT / "build" / "mpy-cp"
    out.mkdir(parents=True, exist_ok=True)
    for name in MPY_FAKES:
        _compile(FOLDER / (name + ".py"), out / (name + ".mpy"), name)
    for name in EMU:
        _compile(emu.FOLDER / (name + ".py"), out / (name + ".mpy"), name)
    spec = importlib.util.find_spec("adafruit_framebuf")
    _compile(Path(spec.origin), out / "adafruit_framebuf.mpy", "adafruit_framebuf")
    return out


def mpy_path():
    """MICROPYPATH entries for a CircuitPython run in the unix MicroPython: the fakes
    (ahead of the firmware's digitalio shim) and the Adafruit drivers."""
    from dicecup_host import bundle
    return [str(build_mpy()), str(bundle.drivers_mpy_dir())]
