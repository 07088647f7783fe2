"""Die faces: the right number of pips, every face told apart at both sizes, inside
their square, clipped at any position, and the rule sets' special faces."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from uihelpers import lit, on_screen, shifted

from dicecup.ui import dice, fb

FACES = (1, 2, 3, 4, 5, 6, dice.STAR, dice.PARROT, dice.HIDDEN)
SIZES = (dice.LARGE, dice.SMALL)


def drawn(face, x, y, size, outline=False, before=None):
    buf = bytearray(before) if before is not None else fb.new()
    dice.draw(buf, face, x, y, size, outline)
    assert len(buf) == fb.SIZE
    return buf


def islands(pixels, diagonal=False):
    """Groups of connected pixels (4-connected, or 8 with diagonal)."""
    left, out = set(pixels), []
    while left:
        todo, group = [left.pop()], set()
        while todo:
            x, y = todo.pop()
            group.add((x, y))
            steps = ((1, 0), (-1, 0), (0, 1), (0, -1)) + (((1, 1), (1, -1), (-1, 1), (-1, -1)) if diagonal else ())
            for n in ((x + dx, y + dy) for dx, dy in steps):
                if n in left:
                    left.discard(n)
                    todo.append(n)
        out.append(group)
    return out


def inside(size, x=40, y=20):
    return {(x + i, y + j) for i in range(size) for j in range(size)}


SCREEN = {(x, y) for x in range(fb.WIDTH) for y in range(fb.HEIGHT)}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("face", range(1, 7))
def test_the_pips_count_the_face(face, size):
    sq = inside(size)
    solid = lit(drawn(face, 40, 20, size))
    dark = [g for g in islands(sq - solid) if all(n in sq for p in g for n in
                                                  ((p[0] + 1, p[1]), (p[0] - 1, p[1]), (p[0], p[1] + 1), (p[0], p[1] - 1)))]
    assert len(dark) == face  # dark pips on a lit die (the rounded corners touch the edge)
    hollow = lit(drawn(face, 40, 20, size, True))
    assert len(islands(hollow, True)) == face + 1  # the border (corners step diagonally), the pips
    turned = {(2 * 40 + size - 1 - px, 2 * 20 + size - 1 - py) for px, py in solid}
    assert turned == solid  # a die face looks the same turned half round


@pytest.mark.parametrize("size", SIZES)
def test_every_face_and_style_is_its_own_picture_inside_its_square(size):
    seen = {}
    for face in FACES:
        for outline in (False, True):
            px = frozenset(lit(drawn(face, 40, 20, size, outline)))
            assert px and px <= inside(size)
            if face == dice.HIDDEN:
                assert len(px) > size * size // 3  # grey: about half lit
                continue
            assert px not in seen, (face, outline, seen.get(px))
            seen[px] = (face, outline)
    assert lit(drawn(dice.HIDDEN, 40, 20, size)) == lit(drawn(dice.HIDDEN, 40, 20, size, True))


@pytest.mark.parametrize("size", SIZES)
def test_star_and_parrot_are_symmetric_or_not_as_they_should_be(size):
    """The star is mirror-symmetric (it is a star); the parrot looks one way."""
    for face, symmetric in ((dice.STAR, True), (dice.PARROT, False)):
        px = lit(drawn(face, 40, 20, size))
        assert ({(2 * 40 + size - 1 - x, y) for x, y in px} == px) == symmetric


def test_a_die_clears_its_square_so_it_can_be_redrawn():
    buf = fb.new()
    fb.fill(buf, 1)
    dice.draw(buf, 3, 10, 10, dice.SMALL, True)
    sq = inside(dice.SMALL, 10, 10)
    assert {p for p in lit(buf) if p in sq} == lit(drawn(3, 10, 10, dice.SMALL, True))
    assert {p for p in lit(buf) if p not in sq} == SCREEN - sq  # nothing else touched
    assert drawn(3, 10, 10, dice.SMALL, True, before=buf) == buf


@settings(max_examples=200, deadline=None)
@given(face=st.sampled_from(FACES), size=st.sampled_from(SIZES), outline=st.booleans(),
       x=st.integers(-30, 140), y=st.integers(-30, 80))
def test_clipped_anywhere_without_wrapping(face, size, outline, x, y):
    """At any position the die is its on-screen picture moved there and cut to the
    screen; nothing else changes (a wrapped index would light the far side)."""
    ref = lit(drawn(face, 50, 20, size, outline))
    assert lit(drawn(face, x, y, size, outline)) == on_screen(shifted(ref, x - 50, y - 20))
    after = lit(drawn(face, x, y, size, outline, before=b"\xff" * fb.SIZE))
    sq = inside(size, x, y)
    assert after == (SCREEN - sq) | on_screen(shifted(ref, x - 50, y - 20))


def test_shown_maps_engine_values_to_faces():
    assert dice.shown("bluff", 6) == dice.STAR
    assert dice.shown("menteur", 1) == dice.PARROT
    for rules in ("perudo", "liars", "dixmille", "bluff", "menteur"):
        for v in range(2, 6):
            assert dice.shown(rules, v) == v
    assert dice.shown("perudo", 1) == 1 and dice.shown("perudo", 6) == 6
    assert dice.shown("bluff", 1) == 1 and dice.shown("menteur", 6) == 6


def test_row_draws_side_by_side_and_outlines_by_mask():
    buf = fb.new()
    end = dice.row(buf, (1, 2, dice.STAR), 3, 5, dice.SMALL, 2, 0b010)
    assert end == 3 + 3 * (dice.SMALL + 2)
    ref = fb.new()
    dice.draw(ref, 1, 3, 5, dice.SMALL, False)
    dice.draw(ref, 2, 17, 5, dice.SMALL, True)
    dice.draw(ref, dice.STAR, 31, 5, dice.SMALL, False)
    assert buf == ref
    assert dice.row(fb.new(), b"", 9, 0, dice.SMALL, 1, 0) == 9


def test_a_wrong_size_or_face_is_an_error():
    with pytest.raises(ValueError):
        dice.draw(fb.new(), 1, 0, 0, 16, False)
    for face in (9, -1, 100):
        with pytest.raises(ValueError):
            dice.draw(fb.new(), face, 0, 0, dice.LARGE, False)


@settings(max_examples=200, deadline=None)
@given(x=st.integers(-10, 130), y=st.integers(-10, 70), w=st.integers(0, 150), h=st.integers(0, 80),
       c=st.integers(0, 1), before=st.integers(0, 255))
def test_a_filled_rectangle_sets_or_clears_its_pixels_and_nothing_else(x, y, w, h, c, before):
    """Whole page rows cleared by a copy (the fast path) or column by column: the same
    pixels as one at a time."""
    buf = bytearray([before ^ (i * 37 & 0xFF) for i in range(fb.SIZE)])
    ref = bytearray(buf)
    fb.fill_rect(buf, x, y, w, h, c)
    for yy in range(max(0, y), min(fb.HEIGHT, y + h)):
        for xx in range(max(0, x), min(fb.WIDTH, x + w)):
            fb.pixel(ref, xx, yy, c)
    assert buf == ref
    fb.fill(buf, 0)
    assert buf == fb.new()


def test_the_written_out_constants_are_what_they_spell():
    """Tables written out as literals (constants in flash when frozen, not built in RAM)."""
    from dicecup.ui import dice, fb
    assert dice._DITHER_L == (0b010101010101010101, 0b101010101010101010) * 9
    assert dice._DITHER_S == (0b01010101, 0b10101010) * 4
    assert fb._ROW == bytes(fb.WIDTH)
