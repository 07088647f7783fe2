"""What `dicecup flash` checks before it touches a board: which serial port is the cup,
and whether a firmware image is a MicroPython build for the board's chip -- so nothing is
erased for a typo, a truncated download or the wrong board's image.

An ESP image starts with a 24-byte header (esptool's image format): magic 0xE9, the
segment count, SPI mode and flash size, the entry point, then the extended header whose
bytes 12-13 are the chip id (ESP32 0, ESP32-S3 9, ESP32-C3 5). The ESP32's combined
image (bootloader first, written at 0x1000) starts with the bootloader's header, so the
same check holds for it.
"""
import os

OFFSETS = {"esp32": "0x1000", "esp32s3": "0x0", "esp32c3": "0x0"}
CHIP_IDS = {0: "esp32", 9: "esp32s3", 5: "esp32c3"}
MAGIC = 0xE9
MIN_IMAGE = 64 * 1024           # a MicroPython build is over a megabyte; less is cut short
MAX_IMAGE = 16 * 1024 * 1024    # the largest flash these boards carry
# USB vendor ids of the boards' USB serial: Espressif's native USB, Silicon Labs CP210x,
# WCH CH340/CH9102, FTDI
USB_VENDORS = {0x303A: "Espressif USB", 0x10C4: "CP210x", 0x1A86: "CH34x/CH9102", 0x0403: "FTDI"}


class FlashError(ValueError):
    """A check failed before anything was written (the one line to print)."""


def image_chip(path):
    """The chip a firmware image is built for; FlashError when it is not an ESP image."""
    path = os.path.expanduser(path)
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            head = fh.read(24)
    except OSError as e:
        raise FlashError("--firmware %s: cannot read it (%s)" % (path, e.strerror or e))
    if size < MIN_IMAGE or size > MAX_IMAGE:
        raise FlashError("--firmware %s: %d bytes is not a MicroPython image (%d KB to %d MB)" % (
            path, size, MIN_IMAGE // 1024, MAX_IMAGE // (1024 * 1024)))
    if len(head) < 24 or head[0] != MAGIC:
        raise FlashError("--firmware %s: not an ESP firmware image (no 0xE9 header; a .bin from "
                         "micropython.org/download is)" % path)
    chip_id = head[12] | head[13] << 8
    if chip_id not in CHIP_IDS:
        raise FlashError("--firmware %s: an image for chip id %d, none of %s" % (
            path, chip_id, ", ".join(sorted(OFFSETS))))
    return CHIP_IDS[chip_id]


def chip_for(board_chip, chip_arg):
    """The chip to flash: the board file's, `--chip` only confirming it."""
    if chip_arg and chip_arg != board_chip:
        raise FlashError("--chip %s, but the board file says %s" % (chip_arg, board_chip))
    return board_chip


def find_port(comports=None):
    """The one attached board's serial port. FlashError when there is none or several."""
    if comports is None:
        from serial.tools import list_ports
        comports = list_ports.comports()
    found = [p for p in comports if getattr(p, "vid", None) in USB_VENDORS]
    if not found:
        raise FlashError("no board found: plug one in by USB, or give PORT=... (--port)")
    if len(found) > 1:
        raise FlashError("several boards: give PORT=... (--port); found %s" % ", ".join(
            "%s (%s)" % (p.device, USB_VENDORS[p.vid]) for p in found))
    return found[0].device
