"""Emulated hardware for tests: an I2C bus with a traffic log, a register-level LIS3DH
and SSD1306, and fake `machine`, `esp32` and `network` modules.

Every module here also runs inside the unix MicroPython, imported by its bare name with
this folder on MICROPYPATH (`FOLDER`); `build_mpy()` compiles them with mpy-cross so
they load there without spending the capped heap on compiling. On CPython,
`install()` makes the fakes importable as `machine`, `esp32` and `network`.
"""
import sys
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
MODULES = ("world", "bus", "lis3dh", "ssd1306", "machine", "esp32", "network", "rig", "vtime", "thumb")


def install():
    """Make `import machine` / `esp32` / `network` give the fakes (CPython)."""
    from . import esp32, machine, network
    sys.modules["machine"] = machine
    sys.modules["esp32"] = esp32
    sys.modules["network"] = network


def uninstall():
    for name in ("machine", "esp32", "network"):
        sys.modules.pop(name, None)


def build_mpy(out=None):
    """Compile the emulation modules to .mpy in `out` (default build/mpy-emu); returns it."""
    from dicecup_host import mpy
    out = Path(out) if out else mpy.ROOT / "build" / "mpy-emu"
    out.mkdir(parents=True, exist_ok=True)
    for name in MODULES:
        src = FOLDER / (name + ".py")
        dst = out / (name + ".mpy")
        if dst.exists() and dst.stat().st_mtime >= src.stat().st_mtime:
            continue
        mpy.cross(src, dst, name + ".py")
    return out
