"""Die faces on the OLED's framebuffer, in two sizes: LARGE (22 px: the face being
bid, the shake, Dix mille's roll) and SMALL (12 px: my dice on the play screens, a
bid, rows of everyone's dice; its pips still read at arm's length).

Faces: 1-6 pips; STAR, the Bluff 6 (wild); PARROT, the Menteur joker on the 1 face;
HIDDEN, a die still under a cup. `shown(rules, value)` maps an engine value (1-6) to
the face a rule set prints on it. A die in play is drawn solid (a lit die with dark
pips, like a real white die); `outline=True` draws it hollow (lit border and pips) for
a die set aside (Bluff's reroll) or kept (Dix mille); HIDDEN is a solid die whose face
is a grey dither where the pips would be, so a hidden die and the same die shown
differ only inside its face box (the square `side - 4` px at x + 2, y + 2): `turn()`
repaints just that box, which is all a peek changes (on a SMALL die, 8 rows: one page
of the OLED when y + 2 is a multiple of 8). All of it is filled rectangles and a few
small bitmaps, clipped to the screen.
"""
from micropython import const

from dicecup.ui import fb

HIDDEN = const(0)
STAR = const(7)
PARROT = const(8)

LARGE = const(22)
SMALL = const(12)

# which of the 3 x 3 pip spots each face uses: bit row * 3 + col
_PIPS = const((0, 0b000010000, 0b100000001, 0b100010001, 0b101000101, 0b101010101, 0b101101101))

# per size: side, spot offsets, pip bitmap (width, rows), corner cut per row (outside,
# then inside the 1-px border), symbol offset, star, parrot
_L = (
    LARGE, (3, 9, 15), 4, (0b0110, 0b1111, 0b1111, 0b0110),
    (3, 1, 1), (2, 1),
    3, 16,
    (   # star, 16 x 15
        0b0000000110000000,
        0b0000000110000000,
        0b0000001111000000,
        0b0000001111000000,
        0b0000011111100000,
        0b1111111111111111,
        0b0111111111111110,
        0b0011111111111100,
        0b0001111111111000,
        0b0000111111110000,
        0b0000111111110000,
        0b0001111111111000,
        0b0001111001111000,
        0b0011100000011100,
        0b0011000000001100,
    ),
    (   # parrot, 16 x 16: on a perch facing left, hooked beak, eye, tail below
        0b0000011110000000,
        0b0001111111100000,
        0b0011101111110000,
        0b0111111111110000,
        0b1111001111110000,
        0b1110000111111000,
        0b1100000111111100,
        0b0100000011111110,
        0b0000000011111110,
        0b0000000011111110,
        0b0000000001111110,
        0b1111111111111111,
        0b0000000000011110,
        0b0000000000001110,
        0b0000000000001110,
        0b0000000000000110,
    ),
)
_S = (
    SMALL, (2, 5, 8), 2, (0b11, 0b11),
    (1,), (),
    2, 8,
    (   # star, 8 x 8
        0b00011000,
        0b00011000,
        0b11111111,
        0b01111110,
        0b00111100,
        0b01111110,
        0b01100110,
        0b11000011,
    ),
    (   # parrot, 8 x 8: the 22 px one's profile (hooked beak, eye, feet, tail below)
        0b00111000,
        0b01101100,
        0b11111100,
        0b10111110,
        0b00011111,
        0b00011111,
        0b00110111,
        0b00000011,
    ),
)

# HIDDEN: a 50 % dither over the face box (dark where a bit is set; 18 and 8 pixels)
# (written out: a constant tuple, not one made in RAM at import by `* 9`)
_DITHER_L = const((0b010101010101010101, 0b101010101010101010, 0b010101010101010101, 0b101010101010101010,
                   0b010101010101010101, 0b101010101010101010, 0b010101010101010101, 0b101010101010101010,
                   0b010101010101010101, 0b101010101010101010, 0b010101010101010101, 0b101010101010101010,
                   0b010101010101010101, 0b101010101010101010, 0b010101010101010101, 0b101010101010101010,
                   0b010101010101010101, 0b101010101010101010))
_DITHER_S = const((0b01010101, 0b10101010, 0b01010101, 0b10101010,
                   0b01010101, 0b10101010, 0b01010101, 0b10101010))
del const   # (compile-time only: 17 globals, a 144 B table, not 192)


def shown(rules, value):
    """The face a rule set shows for an engine die value 1-6: Bluff's 6 is the star,
    Menteur's 1 the parrot; anything else shows its pips."""
    if rules == "bluff" and value == 6:
        return STAR
    if rules == "menteur" and value == 1:
        return PARROT
    return value


def _rounded(buf, x, y, side, cut, c):
    """A filled square whose corners lose cut[r] pixels on row r (top and bottom)."""
    n = len(cut)
    for r in range(n):
        k = cut[r]
        fb.fill_rect(buf, x + k, y + r, side - 2 * k, 1, c)
        fb.fill_rect(buf, x + k, y + side - 1 - r, side - 2 * k, 1, c)
    fb.fill_rect(buf, x, y + n, side, side - 2 * n, c)


def draw(buf, face, x, y, size, outline):
    """Draw a die showing `face` (1-6, STAR, PARROT or HIDDEN) with its top-left corner
    at x, y, `size` LARGE or SMALL pixels square. Clears the square first, so a die can
    be redrawn in place."""
    g = _geometry(size)
    side = g[0]
    fb.fill_rect(buf, x, y, side, side, 0)
    _rounded(buf, x, y, side, g[4], 1)
    if outline and face != HIDDEN:
        _rounded(buf, x + 1, y + 1, side - 2, g[5], 0)
        _art(buf, face, x, y, g, 1)
    else:
        _art(buf, face, x, y, g, 0)


def turn(buf, face, x, y, size, outline):
    """Turn a solid (not hollow) die already drawn at x, y to show `face`: repaints
    only its face box, the same pixels draw() gives (a peek turns my dice up, its end
    turns them HIDDEN again). Called like draw(); `outline` must be false."""
    g = _geometry(size)
    fb.fill_rect(buf, x + 2, y + 2, g[0] - 4, g[0] - 4, 1)
    _art(buf, face, x, y, g, 0)


def _geometry(size):
    g = _L if size == LARGE else _S
    if size != g[0]:
        raise ValueError("die size must be LARGE or SMALL")
    return g


def _art(buf, face, x, y, g, ink):
    # the face's marks in `ink` (0: dark on a solid die, 1: lit inside a hollow one)
    if face == HIDDEN:
        fb.bitmap(buf, x + 2, y + 2, g[0] - 4, _DITHER_L if g is _L else _DITHER_S, 0)
    elif face == STAR or face == PARROT:
        art = g[8] if face == STAR else g[9]
        off = g[6]
        fb.bitmap(buf, x + off, y + off + (g[7] - len(art)) // 2, g[7], art, ink)
    elif 1 <= face <= 6:
        spots = g[1]
        pw = g[2]
        pip = g[3]
        bits = _PIPS[face]
        for k in range(9):
            if bits >> k & 1:
                fb.bitmap(buf, x + spots[k % 3], y + spots[k // 3], pw, pip, ink)
    else:
        raise ValueError("no die face %r" % (face,))


def row(buf, faces, x, y, size, gap, outlined):
    """Draw dice side by side from x: `faces` a sequence of faces, `outlined` a bit mask
    of the ones drawn hollow (bit i: faces[i]). Returns the x after the last die."""
    for i in range(len(faces)):
        draw(buf, faces[i], x, y, size, outlined >> i & 1)
        x += size + gap
    return x
