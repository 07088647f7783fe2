"""Text on the OLED's framebuffer, in the Latin-1 misc-fixed fonts (`font_6x10`,
`font_5x8`), at any pixel position, clipped to the screen.

The five languages of the table (French, German, Italian, Spanish, English) need only
Latin-1, so a font holds 0x20-0x7E and 0xA0-0xFF; any other character (a control
character, an emoji, Greek...) draws as the font's placeholder box, one cell wide, so
layout never shifts. Strings are str (or UTF-8 bytes, which skips one encode).

A glyph is stored as column bytes in the MONO_VLSB order of the buffer (see
`dicecup_host.fontconv`), so drawing a column is a shift and an OR into at most three
bytes: no per-pixel loop and no allocation per character (a str costs one encode).
Monospaced: width(s, font) = characters x font.WIDTH, each cell font.HEIGHT high, including
the font's own spacing (a blank right column, rows above capitals and below
descenders), which is also the box an inverse draw fills.
"""
from micropython import const

from dicecup.ui import font_6x10

_W = const(128)
_PAGES = const(8)
_PLACEHOLDER = const(191)  # glyph index after 0x20-0x7E (95) and 0xA0-0xFF (96)

FONT = font_6x10  # the main text: 21 columns x 6 lines


def _decode(b, i, n):
    """The code point starting at b[i] and its length in bytes, as code << 3 | length.
    A malformed sequence gives one placeholder per stray byte."""
    c = b[i]
    if c < 0x80:
        return c << 3 | 1
    if c >= 0xF8 or c < 0xC0:
        return 0xFFFF << 3 | 1
    k = 3 if c >= 0xF0 else 2 if c >= 0xE0 else 1
    c &= 0x3F >> k
    j = i + 1
    while k and j < n and b[j] & 0xC0 == 0x80:
        c = c << 6 | (b[j] & 0x3F)
        j += 1
        k -= 1
    if k:
        return 0xFFFF << 3 | 1
    return c << 3 | (j - i)


def count(s):
    """How many characters (cells) `s` draws as."""
    if isinstance(s, str):
        return len(s)
    i = 0
    k = 0
    n = len(s)
    while i < n:
        i += _decode(s, i, n) & 7
        k += 1
    return k


def width(s, font):
    """Pixels `s` advances: the box draw() fills when inverse."""
    return count(s) * font.WIDTH


def cols(font, w):
    """How many characters fit in w pixels."""
    return w // font.WIDTH


def draw(buf, s, x, y, font=FONT, inverse=False):
    """Draw `s` with the cell's top-left corner at x, y (any ints; off-screen parts are
    clipped). Normal text ORs its pixels in; inverse text lights the whole cell box and
    clears the glyph's pixels (a cursor, a selection). Returns x + width(s, font)."""
    b = s.encode("utf-8", "surrogatepass") if isinstance(s, str) else s  # CPython: a lone surrogate draws as the box
    n = len(b)
    gw = font.WIDTH
    h = font.HEIGHT
    bpc = font.BPC
    g = font.GLYPHS
    sh = y & 7
    p0 = y >> 3
    # the (up to) three pages a cell row touches, and which of them are on screen
    span = (sh + h + 7) >> 3
    on0 = 0 <= p0 < _PAGES
    on1 = span > 1 and 0 <= p0 + 1 < _PAGES
    on2 = span > 2 and 0 <= p0 + 2 < _PAGES
    b0 = p0 * _W
    b1 = b0 + _W
    b2 = b1 + _W
    m = ((1 << h) - 1) << sh  # the cell's rows, for inverse
    m0 = m & 0xFF
    m1 = (m >> 8) & 0xFF
    m2 = (m >> 16) & 0xFF
    visible = on0 or on1 or on2
    cx = x
    i = 0
    while i < n:
        d = _decode(b, i, n)
        i += d & 7
        if visible and cx < _W and cx + gw > 0:
            c = d >> 3
            if 0x20 <= c < 0x7F:
                o = c - 0x20
            elif 0xA0 <= c <= 0xFF:
                o = c - 0x41
            else:
                o = _PLACEHOLDER
            o *= gw * bpc
            for xx in range(cx, cx + gw):
                v = g[o]
                if bpc > 1:
                    v |= g[o + 1] << 8
                o += bpc
                if xx < 0 or xx >= _W:
                    continue
                v <<= sh
                if inverse:
                    if on0:
                        buf[b0 + xx] = (buf[b0 + xx] | m0) ^ (v & 0xFF)
                    if on1:
                        buf[b1 + xx] = (buf[b1 + xx] | m1) ^ ((v >> 8) & 0xFF)
                    if on2:
                        buf[b2 + xx] = (buf[b2 + xx] | m2) ^ ((v >> 16) & 0xFF)
                else:
                    if on0:
                        buf[b0 + xx] |= v & 0xFF
                    if on1:
                        buf[b1 + xx] |= (v >> 8) & 0xFF
                    if on2:
                        buf[b2 + xx] |= (v >> 16) & 0xFF
        cx += gw
    return cx


def centre(buf, s, y, font=FONT, inverse=False, x=0, w=_W):
    """Draw `s` centred in the span x .. x + w (the whole width by default); text wider
    than the span starts at x, so its beginning shows. Returns the x it started at."""
    sw = width(s, font)
    x0 = x + (w - sw) // 2 if sw <= w else x
    draw(buf, s, x0, y, font, inverse)
    return x0


def right(buf, s, y, font=FONT, inverse=False, end=_W):
    """Draw `s` so that it ends at `end` (the right edge by default). Returns its x."""
    x0 = end - width(s, font)
    draw(buf, s, x0, y, font, inverse)
    return x0
