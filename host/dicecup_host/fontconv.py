"""BDF bitmap fonts -> the firmware's font modules (`firmware/dicecup/ui/font_*.py`).

    python -m dicecup_host.fontconv            # rewrite the modules from hardware/fonts/
    python -m dicecup_host.fontconv --check    # exit 1 if a committed module differs

The cup draws text by OR-ing glyph columns into the SSD1306's MONO_VLSB buffer (a byte
is 8 pixels stacked vertically), so glyphs are stored the same way: column by column,
left to right, each column `BPC` bytes little-endian, bit r = row r from the top of
the cell. A glyph is then a few shifts and ORs per column, with no per-pixel work, and
the data is one `bytes` literal: frozen into the firmware it stays in flash.

Glyph order (the same for every font): 0x20-0x7E, 0xA0-0xFF, then the placeholder
(the BDF's DEFAULT_CHAR, a dotted box in misc-fixed) that `ui/text.py` draws for every
other character. Only monospaced BDFs whose glyphs fit the font's cell are accepted.
"""
import argparse
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCES = ROOT / "hardware" / "fonts"
OUT = ROOT / "firmware" / "dicecup" / "ui"
FONTS = ("6x10", "5x8")  # hardware/fonts/NAME.bdf -> ui/font_NAME.py
CODES = list(range(0x20, 0x7F)) + list(range(0xA0, 0x100))


class FontError(ValueError):
    """The BDF is malformed, not monospaced, or lacks a glyph the firmware needs."""


class Font:
    """A parsed BDF: cell size, ascent, and {code: rows}, each row a list of 0/1 over
    the cell's width, the cell's rows from top to bottom."""

    def __init__(self, width, height, ascent, default, glyphs):
        self.width, self.height, self.ascent = width, height, ascent
        self.default, self.glyphs = default, glyphs


def parse(text, name="font"):
    """Parse BDF source text into a Font."""
    props, glyphs = {}, {}
    lines = iter(text.splitlines())
    bbox = None
    for line in lines:
        word, _, rest = line.partition(" ")
        if word == "FONTBOUNDINGBOX":
            bbox = [int(v) for v in rest.split()]
        elif word in ("FONT_ASCENT", "FONT_DESCENT", "DEFAULT_CHAR"):
            props[word] = int(rest)
        elif word == "STARTCHAR":
            code, dwidth, bbx, rows = None, None, None, None
            for line in lines:
                word, _, rest = line.partition(" ")
                if word == "ENCODING":
                    code = int(rest.split()[0])
                elif word == "DWIDTH":
                    dwidth = int(rest.split()[0])
                elif word == "BBX":
                    bbx = [int(v) for v in rest.split()]
                elif word == "BITMAP":
                    rows = []
                elif word == "ENDCHAR":
                    break
                elif rows is not None:
                    rows.append(int(line, 16))
            if code is None or dwidth is None or bbx is None or rows is None:
                raise FontError("%s: a glyph lacks ENCODING, DWIDTH, BBX or BITMAP" % name)
            if code >= 0:
                glyphs[code] = (dwidth, bbx, rows)
    if bbox is None or "FONT_ASCENT" not in props or "FONT_DESCENT" not in props:
        raise FontError("%s: no FONTBOUNDINGBOX, FONT_ASCENT or FONT_DESCENT" % name)
    width, ascent = bbox[0], props["FONT_ASCENT"]
    height = ascent + props["FONT_DESCENT"]
    cells = {}
    for code, (dwidth, (w, h, xoff, yoff), rows) in glyphs.items():
        if dwidth != width:
            raise FontError("%s: U+%04X advances %d, not %d: only monospaced fonts" % (name, code, dwidth, width))
        if len(rows) != h:
            raise FontError("%s: U+%04X has %d bitmap rows, BBX says %d" % (name, code, len(rows), h))
        cell = [[0] * width for _ in range(height)]
        nbits = 8 * ((w + 7) // 8)  # each BDF row is padded to whole bytes
        top = ascent - (yoff + h)
        for r, bits in enumerate(rows):
            for c in range(w):
                if bits >> (nbits - 1 - c) & 1:
                    x, y = xoff + c, top + r
                    if not (0 <= x < width and 0 <= y < height):
                        raise FontError("%s: U+%04X has a pixel outside the %dx%d cell" % (name, code, width, height))
                    cell[y][x] = 1
        cells[code] = cell
    return Font(width, height, ascent, props.get("DEFAULT_CHAR", 0), cells)


def columns(font, cell):
    """A glyph's bytes: per column, the rows as bits (bit r = row r), little-endian."""
    bpc = (font.height + 7) // 8
    out = bytearray()
    for x in range(font.width):
        v = 0
        for y in range(font.height):
            v |= cell[y][x] << y
        out += v.to_bytes(bpc, "little")
    return bytes(out)


def _label(code):
    return "U+%04X %s" % (code, unicodedata.name(chr(code), "?"))


def module(font, name, source):
    """The generated module's text for one font."""
    missing = [c for c in CODES if c not in font.glyphs]
    if missing:
        raise FontError("%s: no glyph for %s" % (name, ", ".join("U+%04X" % c for c in missing)))
    if font.default not in font.glyphs:
        raise FontError("%s: no DEFAULT_CHAR glyph (code %d) for the placeholder" % (name, font.default))
    bpc = (font.height + 7) // 8
    out = [
        '"""The %s misc-fixed font (public domain), as column bytes for a MONO_VLSB buffer.' % name,
        "",
        "Generated by `python -m dicecup_host.fontconv` from %s: do not edit." % source,
        "Glyphs 0-94 are U+0020-U+007E, 95-190 U+00A0-U+00FF, 191 the placeholder; each is",
        "WIDTH columns of BPC bytes (little-endian, bit r = row r from the top of the cell).",
        '"""',
        "from micropython import const",
        "",
        "WIDTH = const(%d)  # advance in pixels (every glyph: a monospaced font)" % font.width,
        "HEIGHT = const(%d)  # cell height = line height in pixels" % font.height,
        "ASCENT = const(%d)  # baseline: rows above it in the cell" % font.ascent,
        "BPC = const(%d)  # bytes per glyph column" % bpc,
        "GLYPHS = (",
    ]
    for code in CODES + [None]:
        data = columns(font, font.glyphs[font.default if code is None else code])
        lit = "".join("\\x%02x" % b for b in data)
        out.append('    b"%s"  # %s' % (lit, "placeholder" if code is None else _label(code)))
    out.append(")")
    return "\n".join(out) + "\n"


def generate(name, sources=SOURCES):
    """The module text for hardware/fonts/NAME.bdf."""
    path = Path(sources) / (name + ".bdf")
    font = parse(path.read_text(encoding="latin-1"), name)
    return module(font, name, "hardware/fonts/%s.bdf" % name)


def target(name, out=OUT):
    return Path(out) / ("font_%s.py" % name.lower())


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m dicecup_host.fontconv", description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed modules, write nothing")
    ap.add_argument("--out", default=str(OUT), help="folder for the font_*.py modules (default: firmware/dicecup/ui)")
    ap.add_argument("--sources", default=str(SOURCES), help="folder holding the .bdf files (default: hardware/fonts)")
    args = ap.parse_args(argv)
    stale = []
    for name in FONTS:
        text = generate(name, args.sources)
        path = target(name, args.out)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print("%s: %d glyphs, %d bytes" % (path, len(CODES) + 1, text.count("\\x")))
    if stale:
        print("out of date (run python -m dicecup_host.fontconv): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
