"""Helpers for the ui tests: pixels of a framebuffer, and a per-pixel reference model of
text drawing to check the fast column blitter against."""
import unicodedata

from dicecup.ui import fb

W, H = fb.WIDTH, fb.HEIGHT
PLACEHOLDER = 191

# Every character the five languages' screens need beyond ASCII (English needs none),
# all of them in Latin-1. Not in Latin-1, so drawn as the placeholder: French œ Œ Ÿ,
# typographic quotes and apostrophes (’ „ “ ”), … and € (write oe, ', ", ..., EUR).
LANGS = {
    "fr": "àâæçéèêëîïôùûüÿÀÂÆÇÉÈÊËÎÏÔÙÛÜ«»",
    "de": "äöüßÄÖÜ",
    "it": "àèéìíîòóùúÀÈÉÌÍÎÒÓÙÚ",
    "es": "áéíóúüñÁÉÍÓÚÜÑ¡¿ºª",
    "en": "",
}
LATIN1_LETTERS = "".join(chr(c) for c in range(0xA0, 0x100) if unicodedata.category(chr(c)).startswith("L"))
COVERED = [chr(c) for c in list(range(0x20, 0x7F)) + list(range(0xA0, 0x100))]


def lit(buf):
    """The set of (x, y) pixels that are on."""
    out = set()
    for i in range(len(buf)):
        v = buf[i]
        if v:
            x, page = i % W, i // W
            for b in range(8):
                if v >> b & 1:
                    out.add((x, page * 8 + b))
    return out


def from_pixels(pixels):
    buf = fb.new()
    for x, y in pixels:
        if 0 <= x < W and 0 <= y < H:
            buf[(y >> 3) * W + x] |= 1 << (y & 7)
    return buf


def bbox(pixels):
    xs = [p[0] for p in pixels]
    ys = [p[1] for p in pixels]
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def glyph_index(ch):
    c = ord(ch)
    if 0x20 <= c < 0x7F:
        return c - 0x20
    if 0xA0 <= c <= 0xFF:
        return c - 0xA0 + 95
    return PLACEHOLDER


def glyph_pixels(font, index):
    """The glyph's lit pixels, (column, row) in its cell, read bit by bit."""
    size = font.WIDTH * font.BPC
    data = font.GLYPHS[index * size:(index + 1) * size]
    out = set()
    for col in range(font.WIDTH):
        v = int.from_bytes(data[col * font.BPC:(col + 1) * font.BPC], "little")
        for row in range(font.HEIGHT):
            if v >> row & 1:
                out.add((col, row))
    return out


def glyph(font, ch):
    return glyph_pixels(font, glyph_index(ch))


def model_text(before, s, x, y, font, inverse=False):
    """What text.draw must leave: the model works on unbounded pixel sets and only
    then crops to the screen."""
    px = set(lit(before))
    for k, ch in enumerate(s):
        g = {(x + k * font.WIDTH + cx, y + cy) for cx, cy in glyph(font, ch)}
        if inverse:
            box = {(x + k * font.WIDTH + cx, y + cy) for cx in range(font.WIDTH) for cy in range(font.HEIGHT)}
            px |= box
            px -= g
        else:
            px |= g
    return from_pixels(px)


def shifted(pixels, dx, dy):
    return {(x + dx, y + dy) for x, y in pixels}


def on_screen(pixels):
    return {(x, y) for x, y in pixels if 0 <= x < W and 0 <= y < H}
