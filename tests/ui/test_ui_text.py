"""The text writer against a per-pixel model: any position (clipped, never wrapping
round), inverse, the placeholder, width() matching what is drawn, str and UTF-8 bytes."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from uihelpers import LANGS, bbox, glyph, glyph_pixels, lit, model_text, PLACEHOLDER

from dicecup.ui import fb, font_5x8, font_6x10, text

FONTS = {"6x10": font_6x10, "5x8": font_5x8}
ALPHABET = "".join(LANGS.values()) + "AgjpqyW ?!|_" + "€★\x01\x7f\x9f😀"


def drawn(s, x, y, font, inverse=False, before=None):
    buf = bytearray(before) if before is not None else fb.new()
    end = text.draw(buf, s, x, y, font, inverse)
    assert len(buf) == fb.SIZE
    return buf, end


@settings(max_examples=300, deadline=None)
@given(s=st.text(alphabet=ALPHABET, max_size=30), x=st.integers(-220, 260), y=st.integers(-25, 90),
       font=st.sampled_from(sorted(FONTS)), inverse=st.booleans(), seed=st.binary(min_size=fb.SIZE, max_size=fb.SIZE))
def test_any_position_matches_the_pixel_model(s, x, y, font, inverse, seed):
    """Over what is already on screen, at any offset (negative, past the edges, not a
    multiple of 8): exactly the model's pixels, so nothing is written off screen or
    wrapped round to the other side (a negative index would)."""
    f = FONTS[font]
    buf, end = drawn(s, x, y, f, inverse, before=seed)
    assert buf == model_text(seed, s, x, y, f, inverse)
    assert end == x + len(s) * f.WIDTH


@pytest.mark.parametrize("font", FONTS.values(), ids=FONTS.keys())
def test_every_page_offset_on_a_blank_screen(font):
    s = "Ég¿ß"
    for y in range(-font.HEIGHT - 1, fb.HEIGHT + 2):
        for x in (-30, -7, -1, 0, 3, 100, 120, 127, 128):
            for inverse in (False, True):
                buf, _ = drawn(s, x, y, font, inverse)
                assert buf == model_text(fb.new(), s, x, y, font, inverse), (x, y, inverse)


@pytest.mark.parametrize("font", FONTS.values(), ids=FONTS.keys())
def test_width_is_the_box_that_is_drawn(font):
    for s in ["Hoch die Becher!", "Enchère à ça", "¡Dudo!", "gjpqy", "W", "€"] + list(LANGS["fr"]):
        x, y = 7, 13
        normal, end = drawn(s, x, y, font)
        inverse, _ = drawn(s, x, y, font, True)
        w = text.width(s, font)
        assert end == x + w == x + len(s) * font.WIDTH
        x0, y0, x1, y1 = bbox(lit(normal))
        assert x <= x0 and x1 <= x + w and y <= y0 and y1 <= y + font.HEIGHT
        assert x1 > x + w - font.WIDTH  # the last cell has ink
        box = fb.new()
        fb.fill_rect(box, x, y, w, font.HEIGHT, 1)
        assert bytes(a ^ b for a, b in zip(normal, inverse)) == box  # inverse = box minus glyphs


@pytest.mark.parametrize("font", FONTS.values(), ids=FONTS.keys())
def test_characters_outside_latin1_draw_as_one_placeholder_cell(font):
    box = glyph_pixels(font, PLACEHOLDER)
    for ch in ["€", "★", "œ", "’", "…", "😀", "\x00", "\n", "\x7f", "\x85", "\ud800"]:
        buf, end = drawn(ch, 0, 0, font)
        assert lit(buf) == box, repr(ch)
        assert end == font.WIDTH == text.width(ch, font)


def test_utf8_bytes_draw_as_their_str():
    s = "Würfel: 3 × ★ ¿sí?"
    a, end_a = drawn(s, 5, 9, font_6x10)
    b, end_b = drawn(s.encode(), 5, 9, font_6x10)
    c, _ = drawn(bytearray(s.encode()), 5, 9, font_6x10)
    assert a == b == c and end_a == end_b
    assert text.count(s.encode()) == text.count(s) == len(s)


def test_malformed_utf8_gives_one_placeholder_per_stray_byte():
    for raw, cells in [(b"\xff", 1), (b"a\x80b", 3), (b"\xc3", 1), (b"\xe2\x98", 2), (b"\xc3(", 2), (b"\xf8\x88", 2)]:
        buf, end = drawn(raw, 0, 0, font_6x10)
        assert end == cells * 6 == text.width(raw, text.FONT), raw
    buf, _ = drawn(b"\xc3(", 0, 0, font_6x10)
    ref, _ = drawn("\u2605(", 0, 0, font_6x10)
    assert buf == ref


def test_an_empty_string_draws_nothing():
    buf, end = drawn("", 40, 20, font_6x10, True)
    assert buf == fb.new() and end == 40 and text.width("", text.FONT) == 0


def test_centre_and_right():
    buf = fb.new()
    assert text.centre(buf, "OK", 0) == (128 - 12) // 2
    assert text.centre(buf, "OK", 0, font_5x8, x=10, w=30) == 10 + (30 - 10) // 2
    assert text.right(buf, "OK", 20) == 116
    assert text.right(buf, "OK", 20, font_5x8, end=64) == 54
    long = "x" * 30
    assert text.centre(buf, long, 40) == 0  # too wide: its beginning shows
    assert text.cols(text.FONT, 128) == 21 and text.cols(font_5x8, 128) == 25 and text.cols(font_6x10, 60) == 10


def test_a_full_screen_of_the_main_font_is_21_by_6():
    buf = fb.new()
    for row in range(6):
        text.draw(buf, "Ä" * 21, 0, row * font_6x10.HEIGHT)
    x0, y0, x1, y1 = bbox(lit(buf))
    assert x1 <= 126 and y1 <= 60  # 21 x 6 cells, inside 128 x 64
    assert glyph(font_6x10, "Ä") <= {(x, y) for x, y in lit(buf) if x < 6 and y < 10}
