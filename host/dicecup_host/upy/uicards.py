"""Test cards for the cup's drawing code (`dicecup.ui`), written to run unchanged on
CPython and inside MicroPython: both must give the same 1024 bytes per card, and
tests/ui/golden/ holds each card as a PNG.

As a script: `uicards.py` prints `NAME HEX` per card; `uicards.py bench [N]` prints
`screen_us=` (best time over N draws of a full 21 x 6 screen of 6x10 text),
`screen_alloc=` (heap bytes one such screen allocates, MicroPython only), the same
for a screen of dice (`dice_us=`, `dice_alloc=`: 5 large and 15 small) and
`glyph_bytes=` (glyph data of both fonts).
"""
import sys

from dicecup.ui import dice, fb, font_5x8, font_6x10, text

SMALL_FONT = font_5x8


def card_text_6x10(buf):
    """The main font: a line per language, accents, inverse (a cursor), alignment."""
    text.draw(buf, "Enchère: 3 × 5 à ça", 0, 0)
    text.draw(buf, "Hoch die Becher! ßÄÖÜ", 0, 10)
    text.draw(buf, "Dubito! perché più", 0, 20)
    text.draw(buf, "¡Dudo! ¿Calza? año", 0, 30)
    x = text.draw(buf, "Tout pile ", 0, 41)
    text.draw(buf, "OK", x, 41, inverse=True)
    text.right(buf, "ÉÀÈÙÎ", 41)
    text.centre(buf, "é è ê ë î ï ô ù", 53)


def card_text_5x8(buf):
    """The small font, eight dense lines: Latin-1's upper half, odd offsets, the
    placeholder for characters outside Latin-1."""
    f = SMALL_FONT
    y = 0
    for lo in (0xA0, 0xB8, 0xD0, 0xE8):
        s = "".join([chr(c) for c in range(lo, min(lo + 24, 0x100))])
        text.draw(buf, s, 0, y, f)
        y += 8
    text.draw(buf, "Menteur! ÉCHEC À ÇA", 0, y, f)
    text.draw(buf, "Würfel ñ ¿ ¡ ç œ € ★", 1, y + 8, f)
    text.draw(buf, "Un dé à côté", 3, y + 16, f, inverse=True)
    text.centre(buf, "Perudo · Bluff · Dudo", y + 24, f)


def _charset(buf, font, first, last, placeholder=False):
    per = text.cols(font, 128)
    k = 0
    for c in list(range(0x20, 0x7F)) + list(range(0xA0, 0x100)) + [0x2605]:
        if first <= c <= last or (placeholder and c == 0x2605):
            text.draw(buf, chr(c), (k % per) * font.WIDTH, (k // per) * font.HEIGHT, font)
            k += 1


def card_charset_6x10_ascii(buf):
    """Every 6x10 glyph of 0x20-0x7E."""
    _charset(buf, font_6x10, 0x20, 0x7E)


def card_charset_6x10_latin1(buf):
    """Every 6x10 glyph of 0xA0-0xFF, then the placeholder."""
    _charset(buf, font_6x10, 0xA0, 0xFF, True)


def card_charset_5x8(buf):
    """Every 5x8 glyph, then the placeholder."""
    _charset(buf, SMALL_FONT, 0x20, 0xFF, True)


def card_dice_large(buf):
    """Large dice: 1-6, star, parrot, hidden, and a die set aside (outline)."""
    x = 0
    for f in (1, 2, 3, 4, 5):
        dice.draw(buf, f, x, 0, dice.LARGE, False)
        x += 26
    x = 0
    for f in (6, dice.STAR, dice.PARROT, dice.HIDDEN):
        dice.draw(buf, f, x, 24, dice.LARGE, False)
        x += 26
    dice.draw(buf, 4, x, 24, dice.LARGE, outline=True)
    text.draw(buf, "Bluff: star = 6", 0, 48, SMALL_FONT)
    text.draw(buf, "Menteur: parrot = 1", 0, 56, SMALL_FONT)
    text.right(buf, "22 px", 56, SMALL_FONT)


def card_dice_small(buf):
    """Small dice: every face solid and outlined, and a table of everyone's dice."""
    faces = (1, 2, 3, 4, 5, 6, dice.STAR, dice.PARROT, dice.HIDDEN)
    dice.row(buf, faces, 0, 0, dice.SMALL, 1, 0)
    dice.row(buf, faces, 0, 13, dice.SMALL, 1, outlined=0x1FF)
    rows = (("Ana", (2, 5, 5, dice.STAR, 1), 0b00110), ("Bo", (dice.PARROT, 3, 3), 0),
            ("Cé", (0, 0, 0, 0), 0))
    y = 27
    for name, hand, kept in rows:
        text.draw(buf, name, 0, y + 3, SMALL_FONT)
        dice.row(buf, hand, 20, y, dice.SMALL, 1, kept)
        y += 13
    dice.draw(buf, 6, 118, 27, dice.SMALL, False)
    dice.draw(buf, 1, 118, 40, dice.SMALL, True)


def card_clipped(buf):
    """Everything partly off screen: nothing wraps round to the other side."""
    text.draw(buf, "Überlauf links", -20, -3)
    text.draw(buf, "rechts à droite", 100, 20, inverse=True)
    text.draw(buf, "unten", 20, 59)
    text.draw(buf, "petit", -7, 30, SMALL_FONT)
    dice.draw(buf, 5, -11, 40, dice.LARGE, False)
    dice.draw(buf, dice.STAR, 117, -9, dice.LARGE, False)
    dice.draw(buf, dice.PARROT, 60, 54, dice.LARGE, False)
    dice.draw(buf, 6, 122, 58, dice.SMALL, False)
    dice.draw(buf, dice.HIDDEN, 90, -6, dice.SMALL, False)

CARDS = (
    ("text-6x10", card_text_6x10),
    ("text-5x8", card_text_5x8),
    ("charset-6x10-ascii", card_charset_6x10_ascii),
    ("charset-6x10-latin1", card_charset_6x10_latin1),
    ("charset-5x8", card_charset_5x8),
    ("dice-large", card_dice_large),
    ("dice-small", card_dice_small),
    ("clipped", card_clipped),
)


def render(fn):
    buf = fb.new()
    fn(buf)
    return buf


FULL = ("Enchère: 12 × ★ à ça", "Würfel: ß Ä Ö Ü é è!", "¡Dudo! ¿Calza? ñ áíó",
        "perché più città è ò", "Tout pile! Menteur?!", "0123456789 ABCDEFGHIJ")


def screen(buf):
    """A full screen of the main font: 21 columns x 6 lines."""
    for i in range(6):
        text.draw(buf, FULL[i], 0, i * 10)


def _hex(buf):
    import binascii
    return binascii.hexlify(buf).decode()


def _best_us(fn, buf, n):
    import time
    ticks = getattr(time, "ticks_us", None)
    best = None
    for _ in range(n):
        if ticks:
            t0 = ticks()
            fn(buf)
            dt = time.ticks_diff(ticks(), t0)
        else:
            t0 = time.perf_counter()
            fn(buf)
            dt = int((time.perf_counter() - t0) * 1e6)
        best = dt if best is None or dt < best else best
    return best


ROW_L = (1, 2, 3, 4, 5)
ROW_S = (6, dice.STAR, dice.PARROT, dice.HIDDEN, 2)


def dice_screen(buf):
    """Five large dice and three rows of five small ones."""
    dice.row(buf, ROW_L, 0, 0, dice.LARGE, 3, 0)
    for r in range(3):
        dice.row(buf, ROW_S, 0, 25 + 13 * r, dice.SMALL, 1, 0b10)


def bench(n):
    import gc
    buf = fb.new()
    print("screen_us=%d" % _best_us(screen, buf, n))
    print("dice_us=%d" % _best_us(dice_screen, buf, n))
    if hasattr(gc, "mem_alloc"):
        for name, fn in (("screen_alloc", screen), ("dice_alloc", dice_screen)):
            gc.collect()
            gc.disable()
            a0 = gc.mem_alloc()
            fn(buf)
            print("%s=%d" % (name, gc.mem_alloc() - a0))
            gc.enable()
    print("glyph_bytes=%d" % (len(font_6x10.GLYPHS) + len(font_5x8.GLYPHS)))


def main(argv):
    if len(argv) > 1 and argv[1] == "bench":
        bench(int(argv[2]) if len(argv) > 2 else 20)
        return
    for name, fn in CARDS:
        print(name + " " + _hex(render(fn)))


if __name__ == "__main__":
    main(sys.argv)
