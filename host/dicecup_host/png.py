"""A cup's framebuffer as a PNG: screenshots for people, golden images for tests.

`render(buf, path)` writes the MONO_VLSB bytes (byte (y // 8) * width + x, bit y % 8,
the SSD1306's layout) as a 2-colour image, each pixel an integer `scale` x `scale`
square (nearest neighbour: crisp, no smoothing), lit pixels light on a dark ground as
on the OLED. `load(path)` reads such a PNG back into the bytes, so a test can compare
framebuffers and name the pixels that differ. Written with pypng (pure Python).
"""
import png as pypng

OFF = (12, 14, 22)  # the panel, not quite black
ON = (225, 236, 255)  # a white SSD1306 pixel


class UnwritableOutput(OSError):
    """The PNG's path cannot be written (no such folder, a folder, no permission)."""


def _check(buf, scale, width, height):
    if not isinstance(scale, int) or isinstance(scale, bool) or scale < 1:
        raise ValueError("scale must be a positive integer, not %r" % (scale,))
    if width < 1 or height < 1 or height % 8:
        raise ValueError("width >= 1 and a height that is a multiple of 8, not %dx%d" % (width, height))
    if len(buf) != width * height // 8:
        raise ValueError("a %dx%d framebuffer has %d bytes, not %d" % (width, height, width * height // 8, len(buf)))


def rows(buf, width=128, height=64):
    """The pixels as lists of 0/1, one per row from the top."""
    return [[buf[(y >> 3) * width + x] >> (y & 7) & 1 for x in range(width)] for y in range(height)]


def render(buf, path, scale=4, width=128, height=64):
    """Write the framebuffer `buf` as a PNG at `path`; returns path. Raises ValueError
    for a buffer that is not width x height, and UnwritableOutput (before any work)
    when the file cannot be opened for writing."""
    _check(buf, scale, width, height)
    try:
        fh = open(path, "wb")
    except OSError as e:
        raise UnwritableOutput(e.errno, "cannot write the PNG %s: %s" % (path, e.strerror or e)) from e
    with fh:
        out = []
        for row in rows(buf, width, height):
            wide = [v for v in row for _ in range(scale)]
            out.extend([wide] * scale)
        pypng.Writer(width * scale, height * scale, palette=[OFF, ON], bitdepth=1).write(fh, out)
    return path


def load(path, scale=4, width=128, height=64):
    """Read a PNG written by render() back into framebuffer bytes (the top-left pixel of
    each scale x scale square decides)."""
    w, h, pixels, info = pypng.Reader(filename=str(path)).read()
    if (w, h) != (width * scale, height * scale):
        raise ValueError("%s is %dx%d, not %dx%d at scale %d" % (path, w, h, width, height, scale))
    if "palette" in info:
        lit = [1 if sum(c[:3]) > 384 else 0 for c in info["palette"]]
        value = lambda row, x: lit[row[x]]  # noqa: E731
    else:
        planes = info["planes"]
        top = (1 << info["bitdepth"]) - 1
        value = lambda row, x: 1 if row[x * planes] * 2 > top else 0  # noqa: E731
    buf = bytearray(width * height // 8)
    for y, row in enumerate(pixels):
        if y % scale:
            continue
        yy = y // scale
        for x in range(width):
            if value(row, x * scale):
                buf[(yy >> 3) * width + x] |= 1 << (yy & 7)
    return buf
