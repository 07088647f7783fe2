"""The cup's screens, from real game states (host/dicecup_host/gallery.py), in every
language: golden images, the screen each state picks, and `dicecup screens`.

Regenerate the golden images after a deliberate change, then look at them:
    DICECUP_REGOLD=1 .venv/bin/python -m pytest -q tests/ui/test_screens.py
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dicecup.ui import fb, lang
from dicecup.ui.screens import draw
from dicecup_host import gallery, png

GOLDEN = Path(__file__).parent / "golden" / "screens"
REGOLD = os.environ.get("DICECUP_REGOLD") == "1"

# the screen each sample must pick (its name says what it shows)
PICKED = {
    "lobby-menu": "menu", "lobby-code": "code", "lobby-table": "table", "shake": "shake",
    "rolled": "waiting", "bidding": "bidding", "peek": "peek", "toast-master": "bidding",
    "toast-bot": "bidding", "link-lost": "bidding", "quorum": "bidding", "battery-low": "bidding",
    "my-turn": "entry", "bid-entry": "entry", "bid-quantity": "entry", "menteur-turn": "entry",
    "bluff-turn": "entry", "reveal": "reveal", "dixmille-roll": "dixmille",
    "dixmille-watch": "dixmille", "spectator": "spectator", "over-won": "over", "over-lost": "over",
    "palifico": "bidding", "dixmille-keep": "dixmille",
}


@pytest.mark.parametrize("code", lang.LANGS)
def test_every_screen_matches_its_golden_image(code):
    GOLDEN.mkdir(parents=True, exist_ok=True)
    names = []
    for name, sc in gallery.samples(code):
        buf = fb.new()
        assert draw(buf, sc) == PICKED[name], name
        path = GOLDEN / ("%s-%s.png" % (name, code))
        if REGOLD:
            png.render(buf, str(path), scale=2)
        assert path.exists(), "no golden image for %s (regenerate, see the docstring)" % path.name
        assert png.load(str(path), scale=2) == buf, "%s differs from its golden image" % path.name
        names.append(name)
    assert sorted(names) == sorted(PICKED)


def test_screens_differ_by_language_and_the_product_name_only_is_shared():
    en = dict((n, _bytes(sc)) for n, sc in gallery.samples("en"))
    fr = dict((n, _bytes(sc)) for n, sc in gallery.samples("fr"))
    assert [n for n in en if en[n] == fr[n]] == []


def _bytes(sc):
    buf = fb.new()
    draw(buf, sc)
    return bytes(buf)


def test_the_command_writes_every_screen_and_refuses_bad_arguments(tmp_path):
    out = tmp_path / "shots"
    r = subprocess.run([sys.executable, "-m", "dicecup_host.cli", "screens", str(out), "--lang", "it"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    files = sorted(p.name for p in out.iterdir())
    assert files == sorted("%s-it.png" % n for n in PICKED)
    assert png.load(str(out / "peek-it.png"), scale=4) == bytes(_bytes(dict(gallery.samples("it"))["peek"]))
    for bad in (["--lang", "xx"], ["--scale", "0"]):
        r = subprocess.run([sys.executable, "-m", "dicecup_host.cli", "screens", str(out)] + bad,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = subprocess.run([sys.executable, "-m", "dicecup_host.cli", "screens", str(blocker / "sub")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "cannot write" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_the_screens_are_the_same_bytes_inside_micropython():
    """The same scenes drawn in the unix MicroPython port. (As .mpy the language table
    alone takes 135 KB of the 64-bit port's heap, so this runs with a large heap; a cup
    without PSRAM runs the firmware frozen, where it stays in flash.)"""
    from dicecup_host import mpy
    script = str(mpy.ROOT / "host" / "dicecup_host" / "upy" / "screencards.py")
    r = mpy.run([script], heap="600K")
    assert r.returncode == 0, r.stderr.decode()[-800:]
    c = subprocess.run([sys.executable, script], capture_output=True)
    assert c.returncode == 0 and r.stdout == c.stdout and len(r.stdout.splitlines()) == 20
    b = mpy.run([script, "bench"], heap="600K")
    print("screens in MicroPython (64-bit unix, .mpy): " + b.stdout.decode().strip())
