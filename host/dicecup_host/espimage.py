"""Is this file a MicroPython image for this chip? Checked before anything is erased.

A MicroPython `firmware.bin` for an ESP32 board is the whole flash from the chip's
bootloader offset on (0x1000 on the ESP32, 0 on the S3 and C3): the second-stage
bootloader (an ESP image), the partition table at flash 0x8000, the app at 0x10000.
What is checked, as esptool's `image-info` reads an image:
* the ESP image header: magic 0xE9, 1..16 segments, a known SPI flash mode;
* the extended header's chip id (the chip the image was built for);
* every segment's header and length inside the file, then the XOR checksum
  (seed 0xEF) in the last byte of the 16-byte padding after the segments;
* the partition table's magic (0xAA 0x50) where flash 0x8000 falls in the file --
  an app image alone (micropython.bin) has none and belongs at 0x10000;
* the size: more than the bootloader and table, and not past the flash size the
  header declares.
`ImageError` carries the one line to show.
"""
import struct

OFFSETS = {"esp32": 0x1000, "esp32s3": 0x0, "esp32c3": 0x0}
CHIP_IDS = {0: "esp32", 2: "esp32s2", 5: "esp32c3", 9: "esp32s3", 12: "esp32c2", 13: "esp32c6",
            16: "esp32h2", 18: "esp32p4", 20: "esp32c61", 23: "esp32c5"}
FLASH_SIZES = {0: 1, 1: 2, 2: 4, 3: 8, 4: 16, 5: 32, 6: 64, 7: 128}   # header nibble -> MB
PARTITION_TABLE = 0x8000
MAGIC = 0xE9
OTHER_FORMATS = ((b"\x7fELF", "an ELF file (firmware.elf): give the .bin beside it"),
                 (b"UF2\n", "a UF2 file (for drag-and-drop boards): give the .bin"),
                 (b"PK\x03\x04", "a zip archive: unpack it and give the .bin"),
                 (b"\x1f\x8b", "a gzip archive: unpack it and give the .bin"))


class ImageError(ValueError):
    """Not a MicroPython image for this chip (the message says why, in one line)."""


def read(path):
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise ImageError("no such file %s" % path)
    except IsADirectoryError:
        raise ImageError("%s is a folder: give the firmware .bin file" % path)
    except OSError as e:
        raise ImageError("cannot read %s: %s" % (path, e.strerror or e))


def check(data, chip, name="the image"):
    """Raise ImageError unless `data` (bytes) is a whole-flash image for `chip` written at
    OFFSETS[chip]; returns a short description ("esp32 image, 1.6 MB, 4 MB flash")."""
    offset = OFFSETS[chip]
    if len(data) < 24:
        raise ImageError("%s is %d bytes: too small for an ESP image" % (name, len(data)))
    for magic, what in OTHER_FORMATS:
        if data.startswith(magic):
            raise ImageError("%s is %s" % (name, what))
    if data[0] != MAGIC:
        raise ImageError("%s does not start with the ESP image magic 0xE9 (0x%02X): not a MicroPython .bin"
                         % (name, data[0]))
    segments = data[1]
    if not 1 <= segments <= 16:
        raise ImageError("%s: %d segments in the header (an ESP image has 1 to 16)" % (name, segments))
    if data[2] > 5:
        raise ImageError("%s: unknown SPI flash mode %d in the header" % (name, data[2]))
    chip_id = struct.unpack_from("<H", data, 12)[0]
    built_for = CHIP_IDS.get(chip_id)
    if built_for is None:
        raise ImageError("%s: unknown chip id %d in the header" % (name, chip_id))
    if built_for != chip:
        raise ImageError("%s is built for an %s, the board is an %s" % (name, built_for, chip))
    pos = 24
    checksum = 0xEF
    for i in range(segments):
        if pos + 8 > len(data):
            raise ImageError("%s is cut short in segment %d's header" % (name, i))
        addr, length = struct.unpack_from("<II", data, pos)
        pos += 8
        if pos + length > len(data):
            raise ImageError("%s is cut short in segment %d (%d bytes at 0x%08X)" % (name, i, length, addr))
        for b in data[pos:pos + length]:
            checksum ^= b
        pos += length
    pos += 15 - pos % 16
    if pos >= len(data) or data[pos] != checksum:
        raise ImageError("%s: the bootloader's checksum does not match: a damaged file" % name)
    table = PARTITION_TABLE - offset
    if len(data) < table + 32 or data[table:table + 2] != b"\xaa\x50":
        raise ImageError("%s has no partition table at flash 0x%X (file offset 0x%X): an app image alone, "
                         "not the whole firmware .bin that goes at 0x%X" % (name, PARTITION_TABLE, table, offset))
    flash_mb = FLASH_SIZES.get(data[3] >> 4)
    if flash_mb is not None and offset + len(data) > flash_mb << 20:
        raise ImageError("%s is %d bytes: more than the %d MB flash its header declares" % (name, len(data), flash_mb))
    return "%s image, %.1f MB%s" % (chip, len(data) / 1048576.0,
                                     ", %d MB flash" % flash_mb if flash_mb else "")
