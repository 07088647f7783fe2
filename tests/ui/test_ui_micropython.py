"""The drawing code inside real MicroPython: the test cards give the same 1024 bytes
as on CPython, in the heap-capped unix port (as .mpy) and in the 32-bit build with the
firmware frozen in (where the glyph data stays in flash). Also prints the figures
(run with -s to see them): glyph bytes, .mpy sizes, import RAM, the time to draw a
full 21 x 6 screen and what that allocates. Timings are printed, never asserted."""
import re

import pytest

from dicecup.ui import font_5x8, font_6x10
from dicecup_host import mpy
from dicecup_host.upy import uicards

SCRIPT = str(mpy.ROOT / "host" / "dicecup_host" / "upy" / "uicards.py")
UI = ("__init__", "fb", "text", "dice", "font_6x10", "font_5x8")
IMPORT = "from dicecup.ui import text, dice, fb, font_6x10, font_5x8\n"


def cpython_cards():
    return "".join("%s %s\n" % (name, uicards.render(fn).hex()) for name, fn in uicards.CARDS)


def figures(out):
    return dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", out))


def test_every_ui_module_compiles_with_mpy_cross(mpy_dir):
    sizes = {}
    for name in UI:
        p = mpy_dir / "dicecup" / "ui" / (name + ".mpy")
        assert p.stat().st_size > 0, p
        sizes[name] = p.stat().st_size
    print("ui .mpy bytes: %s, total %d" % (sizes, sum(sizes.values())))


def test_the_cards_are_the_same_bytes_in_micropython(mpy_dir):
    res = mpy.run([SCRIPT], path=mpy_dir)
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.decode() == cpython_cards()


def test_drawing_figures_in_micropython(mpy_dir, upy):
    res = mpy.run([SCRIPT, "bench", "30"], path=mpy_dir)
    assert res.returncode == 0, res.stderr.decode()
    f = figures(res.stdout.decode())
    assert f["glyph_bytes"] == len(font_6x10.GLYPHS) + len(font_5x8.GLYPHS) == 2304 + 960
    # six lines: one str encode each, nothing per character or per column
    assert f["screen_alloc"] <= 6 * 48
    assert f["dice_alloc"] == 0
    heap = upy("import gc\ngc.collect()\na = gc.mem_alloc()\n" + IMPORT + "gc.collect()\nprint('ui_import=%d' % (gc.mem_alloc() - a))\n")
    assert heap.returncode == 0, heap.stderr.decode()
    f.update(figures(heap.stdout.decode()))
    print("MicroPython unix (64-bit, .mpy): full 21x6 screen of 6x10 text %d us, allocates %d bytes; "
          "5 large + 15 small dice %d us, %d bytes; glyph data %d bytes; importing the ui as .mpy "
          "takes %d bytes of heap" % (f["screen_us"], f["screen_alloc"], f["dice_us"], f["dice_alloc"],
                                      f["glyph_bytes"], f["ui_import"]))


@pytest.mark.heavy
def test_frozen_in_the_32_bit_build_the_glyphs_stay_out_of_the_heap(fw32):
    res = fw32.run([SCRIPT])
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.decode() == cpython_cards()
    base = fw32.mem_after("import gc\n")["used"]
    fonts = fw32.mem_after("from dicecup.ui import font_6x10, font_5x8\n")["used"] - base
    used = fw32.mem_after(IMPORT)["used"] - base
    assert fonts < 1024 < len(font_6x10.GLYPHS)  # module objects only: the bytes are in "flash"
    bench = fw32.run([SCRIPT, "bench", "30"])
    assert bench.returncode == 0, bench.stderr.decode()
    f = figures(bench.stdout.decode())
    print("32-bit frozen build: importing both fonts takes %d bytes of heap, the whole ui %d; "
          "full text screen %d us, allocates %d bytes; dice screen %d us, %d bytes"
          % (fonts, used, f["screen_us"], f["screen_alloc"], f["dice_us"], f["dice_alloc"]))
