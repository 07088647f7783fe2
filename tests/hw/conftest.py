"""Fixtures for the hardware layer: emulated chips on CPython and inside MicroPython."""
import sys
from pathlib import Path

import pytest

from dicecup_host import bundle, emu, mpy

BOARDS_DIR = mpy.ROOT / "hardware" / "boards"
BOARD_FILES = sorted(BOARDS_DIR.glob("*.json"))
DEVKITC = BOARDS_DIR / "esp32-devkitc.json"
BASE_JSON = DEVKITC.read_text()
# Whole-cup tests also load the emulation (fake machine, world, both chips: ~30 KB of
# heap on the 64-bit unix port), which the cup does not carry: they get that on top of
# the ESP32's 110 KB. Driver-only tests keep the plain cap.
EMU_HEAP = "140K"


@pytest.fixture(scope="session")
def hw_path():
    """MICROPYPATH entries for firmware tests on emulated hardware: the frozen modules
    (asyncio), the emulation (fake machine first) and the Adafruit drivers as .mpy."""
    return [".frozen", str(emu.build_mpy()), str(bundle.drivers_mpy_dir())]


@pytest.fixture
def upy_hw(upy, hw_path):
    """Run code in the heap-capped MicroPython with the emulated hardware importable;
    returns stdout as text, failing the test (with stderr) on a non-zero exit."""
    def run(code, heap=mpy.ESP32_HEAP, timeout=120):
        r = upy(code, heap=heap, extra_path=hw_path, timeout=timeout)
        out = r.stdout.decode()
        if r.returncode:
            pytest.fail("MicroPython failed (%d):\n%s\n%s" % (r.returncode, out, r.stderr.decode()))
        return out
    return run


@pytest.fixture
def fake_machine():
    """CPython: `import machine`/`esp32`/`network` give the fakes; a fresh world."""
    from dicecup_host.emu import world
    emu.install()
    w = world.reset()
    yield w
    emu.uninstall()


def load_board(path=DEVKITC):
    from dicecup.hw import board
    return board.load(str(path))


def upy_str(p):
    """A path as a MicroPython string literal."""
    return repr(str(Path(p)))
