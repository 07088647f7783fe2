"""Rectangles and small bitmaps on the OLED's framebuffer, a plain `bytearray`.

The layout is the SSD1306's MONO_VLSB, as `adafruit_ssd1306` keeps it in `.buffer`:
128 x 64 pixels in 1024 bytes, byte (y // 8) * 128 + x, bit y % 8. Drawing on the
bytes directly (not through `framebuf`) gives the same result on MicroPython,
CircuitPython and CPython, so host screenshots and golden tests show what a cup shows.
Everything clips to the screen: off-screen parts are skipped, never wrapped round.
"""
from micropython import const

WIDTH = const(128)
HEIGHT = const(64)
SIZE = const(1024)  # bytes in a buffer
# a page's row of bytes, all off: clears whole pages by a copy; a literal, so a constant
# (flash when frozen), not 128 bytes made in RAM at import
_ROW = const(
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
)
del const   # (compile-time only: its globals slot goes to a function, 12 names: a 96 B table, not 144)


def new():
    """A blank framebuffer (all pixels off)."""
    return bytearray(SIZE)


def fill_rect(buf, x, y, w, h, c):
    """Set (c=1) or clear (c=0) the pixels of a w x h rectangle at x, y: one masked
    byte per column and 8-row page."""
    x0 = x if x > 0 else 0
    x1 = x + w if x + w < WIDTH else WIDTH
    y0 = y if y > 0 else 0
    y1 = y + h if y + h < HEIGHT else HEIGHT
    if x0 >= x1 or y0 >= y1:
        return
    for p in range(y0 >> 3, ((y1 - 1) >> 3) + 1):
        top = p << 3
        lo = y0 - top if y0 > top else 0
        hi = y1 - top if y1 - top < 8 else 8
        mask = ((1 << hi) - 1) ^ ((1 << lo) - 1)
        base = p * WIDTH
        if not c and mask == 0xFF and x1 - x0 == WIDTH:
            buf[base:base + WIDTH] = _ROW    # a whole page row off: one copy (no loop)
        elif c:
            for i in range(base + x0, base + x1):
                buf[i] |= mask
        else:
            mask ^= 0xFF
            for i in range(base + x0, base + x1):
                buf[i] &= mask


def fill(buf, c):
    """The whole screen off (c=0) or on (c=1)."""
    fill_rect(buf, 0, 0, WIDTH, HEIGHT, c)


def rect(buf, x, y, w, h, c):
    """A 1-pixel outline of a w x h rectangle."""
    fill_rect(buf, x, y, w, 1, c)
    fill_rect(buf, x, y + h - 1, w, 1, c)
    fill_rect(buf, x, y + 1, 1, h - 2, c)
    fill_rect(buf, x + w - 1, y + 1, 1, h - 2, c)


def pixel(buf, x, y, c):
    if 0 <= x < WIDTH and 0 <= y < HEIGHT:
        if c:
            buf[(y >> 3) * WIDTH + x] |= 1 << (y & 7)
        else:
            buf[(y >> 3) * WIDTH + x] &= 0xFF ^ (1 << (y & 7))


def get(buf, x, y):
    """1 if the pixel is on (0 off-screen)."""
    if 0 <= x < WIDTH and 0 <= y < HEIGHT:
        return buf[(y >> 3) * WIDTH + x] >> (y & 7) & 1
    return 0


def bitmap(buf, x, y, w, rows, c):
    """Set (c=1) or clear (c=0) the lit pixels of a small bitmap at x, y: `rows` is a
    sequence of ints, one per row from the top, bit w-1 the leftmost pixel (so a binary
    literal reads as the picture). For icons of a few dozen pixels, not for text."""
    for r in range(len(rows)):
        yy = y + r
        if yy < 0 or yy >= HEIGHT:
            continue
        bits = rows[r]
        base = (yy >> 3) * WIDTH
        bit = 1 << (yy & 7)
        if not c:
            bit ^= 0xFF
        for i in range(w):
            if bits >> (w - 1 - i) & 1:
                xx = x + i
                if 0 <= xx < WIDTH:
                    if c:
                        buf[base + xx] |= bit
                    else:
                        buf[base + xx] &= bit
