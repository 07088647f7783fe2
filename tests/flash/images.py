"""Small ESP images built byte by byte for the image checks (the format esptool reads:
header, extended header with the chip id, segments, XOR checksum, partition table)."""
import struct

from dicecup_host import espimage

IDS = {v: k for k, v in espimage.CHIP_IDS.items()}


def image(chip="esp32", segments=(b"\x01\x02\x03\x04" * 64,), flash_nibble=2, checksum=None, table=True,
          size=None):
    """A whole-flash image for `chip` as written at its offset: a bootloader of
    `segments`, the partition table where flash 0x8000 falls, padding up to `size`."""
    head = bytes([espimage.MAGIC, len(segments), 2, flash_nibble << 4]) + struct.pack("<I", 0x40080000)
    ext = bytes([0xEE, 0, 0, 0]) + struct.pack("<H", IDS[chip]) + bytes(10)
    body = bytearray(head + ext)
    x = 0xEF
    addr = 0x3FFF0000
    for seg in segments:
        body += struct.pack("<II", addr, len(seg)) + seg
        for b in seg:
            x ^= b
        addr += len(seg)
    body += bytes(15 - len(body) % 16)
    body.append(x if checksum is None else checksum)
    at = espimage.PARTITION_TABLE - espimage.OFFSETS[chip]
    body += bytes(max(0, at - len(body)))
    if table:
        body[at:at + 32] = b"\xaa\x50" + bytes(30)
    if size and len(body) < size:
        body += bytes(size - len(body))
    return bytes(body)
