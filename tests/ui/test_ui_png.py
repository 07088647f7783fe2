"""Framebuffer -> PNG: crisp integer scaling, light on dark, read back exactly, and an
unwritable path refused before any work."""
import os
import random

import png as pypng
import pytest

from dicecup.ui import fb
from dicecup_host import png


def some_buffer(seed=1):
    rnd = random.Random(seed)
    return bytearray(rnd.randrange(256) for _ in range(fb.SIZE))


@pytest.mark.parametrize("scale", [1, 3, 4])
def test_pixels_become_scale_by_scale_squares(tmp_path, scale):
    buf = some_buffer()
    path = png.render(buf, tmp_path / "s.png", scale=scale)
    w, h, rows, info = pypng.Reader(filename=str(path)).read()
    assert (w, h) == (128 * scale, 64 * scale)
    assert info["bitdepth"] == 1 and len(info["palette"]) == 2
    rows = [list(r) for r in rows]
    for y in range(64):
        for x in range(128):
            v = buf[(y >> 3) * 128 + x] >> (y & 7) & 1
            block = {rows[y * scale + j][x * scale + i] for i in range(scale) for j in range(scale)}
            assert block == {v}, (x, y)
    off, on = info["palette"]
    assert sum(on) > 3 * 200 > 3 * 30 > sum(off)  # lit pixels light on a dark panel


def test_load_reads_render_back(tmp_path):
    for seed in range(3):
        buf = some_buffer(seed)
        assert png.load(png.render(buf, tmp_path / ("%d.png" % seed))) == buf
    blank = fb.new()
    assert png.load(png.render(blank, tmp_path / "b.png", scale=2), scale=2) == blank
    with pytest.raises(ValueError, match="not 128x64 at scale 4"):
        png.load(tmp_path / "b.png")


def test_other_screen_sizes(tmp_path):
    buf = bytearray(range(64 * 32 // 8))
    path = png.render(buf, tmp_path / "small.png", scale=2, width=64, height=32)
    assert png.load(path, scale=2, width=64, height=32) == buf


@pytest.mark.parametrize("where", ["missing-dir", "a-directory", "under-a-file"])
def test_an_unwritable_path_is_refused_before_drawing(tmp_path, monkeypatch, where):
    calls = []
    monkeypatch.setattr(png, "rows", lambda *a: calls.append(a) or [])
    target = {"missing-dir": tmp_path / "nope" / "x.png", "a-directory": tmp_path,
              "under-a-file": tmp_path / "file.txt" / "x.png"}[where]
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(png.UnwritableOutput, match="cannot write the PNG") as e:
        png.render(fb.new(), target)
    assert isinstance(e.value, OSError) and e.value.errno
    assert calls == []  # refused before any pixel was looked at
    assert not os.path.exists(tmp_path / "nope")


def test_a_folder_without_write_permission_is_refused(tmp_path):
    """A read-only folder; as root (CI), which writes anywhere else, sysfs."""
    if os.geteuid() != 0:
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o500)
    elif os.path.isdir("/sys/kernel"):
        folder = "/sys/kernel"
    else:
        pytest.skip("running as root with no sysfs: every folder is writable")
    with pytest.raises(png.UnwritableOutput) as e:
        png.render(fb.new(), os.path.join(folder, "x.png"))
    assert e.value.errno in (13, 30)  # EACCES, EROFS


def test_bad_arguments_are_value_errors(tmp_path):
    for kw in ({"scale": 0}, {"scale": 1.5}, {"scale": True}, {"height": 60}):
        with pytest.raises(ValueError):
            png.render(fb.new(), tmp_path / "x.png", **kw)
    with pytest.raises(ValueError, match="1024"):
        png.render(bytearray(1000), tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()  # checked before the file is opened
