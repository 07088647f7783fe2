"""Shared helpers of the hardware tests (a unique module name, unlike conftest)."""
from pathlib import Path

from dicecup_host import mpy

BOARDS_DIR = mpy.ROOT / "hardware" / "boards"
BOARD_FILES = sorted(BOARDS_DIR.glob("*.json"))
DEVKITC = BOARDS_DIR / "esp32-devkitc.json"
BASE_JSON = DEVKITC.read_text()
# Whole-cup tests also load the emulation (fake machine, world, both chips: ~30 KB of
# heap on the 64-bit unix port), which the cup does not carry: they get that on top of
# the ESP32's 110 KB. Driver-only tests keep the plain cap.
EMU_HEAP = "140K"


def load_board(path=DEVKITC):
    from dicecup.hw import board
    return board.load(str(path))


def upy_str(p):
    """A path as a MicroPython string literal."""
    return repr(str(Path(p)))
