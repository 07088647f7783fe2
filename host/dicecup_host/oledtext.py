"""A cup's OLED as terminal text, from what the emulated SSD1306 panel lights (its own
RAM, read through the chip's orientation, inversion and power -- the pixels a player
would see, not what the UI meant to draw).

* `halfblock(px)`: full resolution, 128 x 32 characters, two pixel rows per character
  (' ', '▀', '▄', '█');
* `braille(px)`: full resolution in a quarter of the room, 64 x 16 characters, a 2 x 4
  block of pixels per braille cell.

`px` is `pixels(oled)`: 64 rows of 128 values (0 / 1).
"""
W, H = 128, 64
_BLOCKS = (" ", "\u2580", "\u2584", "\u2588")
# braille dot bits for (dx, dy) in a 2 x 4 cell
_DOTS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


def pixels(oled):
    """The panel as 64 rows of 128 lit (1) / dark (0) values."""
    if not oled.on:
        return [[0] * W for _ in range(H)]
    p = oled.pixel
    return [[p(x, y) for x in range(W)] for y in range(H)]


def blank():
    return [[0] * W for _ in range(H)]


def halfblock(px):
    out = []
    for y in range(0, H, 2):
        top, bot = px[y], px[y + 1]
        out.append("".join(_BLOCKS[top[x] | (bot[x] << 1)] for x in range(W)))
    return out


def braille(px):
    out = []
    for y in range(0, H, 4):
        rows = px[y:y + 4]
        line = []
        for x in range(0, W, 2):
            bits = 0
            for dx in (0, 1):
                dots = _DOTS[dx]
                for dy in range(4):
                    if rows[dy][x + dx]:
                        bits |= dots[dy]
            line.append(chr(0x2800 + bits))
        out.append("".join(line))
    return out


def covered(label):
    """A panel that must not be seen (another player's cup while it shows their dice):
    `label` framed on a dark panel -- drawn by the host with the cup's own font, never
    from that cup's pixels."""
    from dicecup.ui import fb, text as uitext
    buf = fb.new()
    fb.fill(buf, 0)
    fb.rect(buf, 8, 20, W - 16, 24, 1)
    uitext.centre(buf, label, 27)
    return [[fb.get(buf, x, y) for x in range(W)] for y in range(H)]
