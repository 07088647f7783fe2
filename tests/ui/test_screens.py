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
from dicecup.ui.controls import REDRAW
from dicecup.ui.keymap import NEXT
from dicecup.ui.screens import DICE, MOVES, draw, in_view, redraw
from dicecup_host import gallery, png

GOLDEN = Path(__file__).parent / "golden" / "screens"
REGOLD = os.environ.get("DICECUP_REGOLD") == "1"

# the screen each sample must pick (its name says what it shows)
PICKED = {
    "lobby-menu": "menu", "lobby-code": "code", "lobby-tables": "tables", "lobby-table": "table", "shake": "shake",
    "rolled": "waiting", "bidding": "bidding", "peek": "bidding", "toast-master": "bidding",
    "toast-bot": "bidding", "link-lost": "bidding", "quorum": "bidding", "battery-low": "bidding",
    "my-turn": "entry", "bid-entry": "entry", "bid-quantity": "entry", "menteur-turn": "entry",
    "bluff-turn": "entry", "reveal": "reveal", "reveal-six": "reveal", "dixmille-roll": "dixmille",
    "dixmille-watch": "dixmille", "spectator": "spectator", "over-won": "over", "over-lost": "over",
    "palifico": "bidding", "dixmille-keep": "dixmille",
    "lobby-table-option": "table", "lobby-table-member": "table", "toast-bot-mine": "bidding",
    "toast-back-mine": "bidding", "rolloff": "rolloff", "rolloff-tie": "rolloff", "rolloff-six": "rolloff",
    "dixmille-kept": "dixmille", "peek-bid": "entry", "peek-menteur": "entry",
    "bluff-aside": "bidding", "peek-bluff": "bidding", "peek-liars": "bidding", "game-menu": "entry", "dixmille-next": "dixmille", "dixmille-scores": "scores",
    "lobby-table-hints": "table", "game-menu-hints": "entry", "hint-bidding": "hint", "hint-turn": "hint",
    "hint-liars": "hint", "hint-bluff": "hint",
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
    assert c.returncode == 0 and r.stdout == c.stdout and len(r.stdout.splitlines()) == 45
    b = mpy.run([script, "bench"], heap="600K")
    print("screens in MicroPython (64-bit unix, .mpy): " + b.stdout.decode().strip())


def _drawn_text(monkeypatch, sc):
    """Every string a scene draws, as (s, x, y, font), via the text module's one writer."""
    from dicecup.ui import text
    seen = []
    real = text.draw

    def spy(buf, s, x, y, font=text.FONT, inverse=False):
        seen.append((s, x, y, font))
        return real(buf, s, x, y, font, inverse)
    monkeypatch.setattr(text, "draw", spy)
    try:
        draw(fb.new(), sc)
    finally:
        monkeypatch.setattr(text, "draw", real)
    return seen


@pytest.mark.parametrize("code", lang.LANGS)
def test_no_glyph_falls_outside_the_screen_in_any_language(code, monkeypatch):
    """Every string of every sample lies whole on the 128 x 64 screen, with its names
    as drawn and with every name 8 characters long (names are cut to 8 bytes on air)."""
    from dicecup.ui import text
    bad = []
    for long_names in (False, True):
        for name, sc in gallery.samples(code):
            if long_names:
                sc.names = ["Wolfgang", "Giuseppe", "Fernanda", "Mathilde", "Leopoldo", "Bernhard"][:len(sc.names)]
                sc.players = tuple(["Wolfgang", "Giuseppe", "Fernanda", "Mathilde", "Leopoldo", "Bernhard"][:len(sc.players)])
            for s, x, y, font in _drawn_text(monkeypatch, sc):
                w = text.width(s, font)
                if x < 0 or y < 0 or x + w > 128 or y + font.HEIGHT > 64:
                    bad.append("%s [%s]: %r at (%d, %d), %d x %d" % (name, code, s, x, y, w, font.HEIGHT))
    assert not bad, "\n".join(bad)


@pytest.mark.heavy
def test_frozen_in_the_32_bit_build_the_screens_are_the_same_and_the_ui_is_light(fw32):
    """The whole UI (ui.py, the screens, the button model, the strings and what they
    import) frozen in the 32-bit build: the same bytes as on CPython, and importing it
    costs the heap little (the tables and glyphs stay in flash)."""
    script = str(Path(__file__).parents[2] / "host" / "dicecup_host" / "upy" / "screencards.py")
    res = fw32.run([script])
    assert res.returncode == 0, res.stderr.decode()[-800:]
    c = subprocess.run([sys.executable, script], capture_output=True)
    assert res.stdout == c.stdout
    used = fw32.mem_after("from dicecup.ui.ui import Ui\nu = Ui()\n")["used"] - fw32.mem_after("import gc\n")["used"]
    print("32-bit frozen: importing the UI and making a Ui takes %d bytes of heap" % used)
    assert used < 16 * 1024


@pytest.mark.parametrize("code", lang.LANGS)
def test_a_peek_turns_only_my_dice_in_every_play_screen_and_every_bluffing_game(code):
    """On every sample whose screen shows my dice: peeking changes my dice's face boxes
    only (page 3, the right half), and redrawing just them gives the whole frame a
    draw gives, both ways; the four bluffing games all show them."""
    rules = set()
    for name, sc in gallery.samples(code):
        if sc.view is None or not sc.view.hand:
            continue
        sc.peek = False
        down = fb.new()
        shown = draw(down, sc)
        if not in_view(sc, shown) & DICE:
            continue
        rules.add(sc.view.rules)
        sc.peek = True
        up = fb.new()
        assert draw(up, sc) == shown, name
        changed = [i for i in range(fb.SIZE) if up[i] != down[i]]
        assert changed and {i // fb.WIDTH for i in changed} == {3}, name
        assert min(i % fb.WIDTH for i in changed) >= 64, name
        turned = bytearray(down)
        redraw(turned, sc, DICE)
        assert turned == up, name
        sc.peek = False
        redraw(turned, sc, DICE)
        assert turned == down, name
    assert rules == {"bluff", "perudo", "menteur", "liars"}


@pytest.mark.parametrize("code", lang.LANGS)
def test_a_cursor_step_on_the_moves_changes_the_moves_line_only(code):
    """On every sample with the moves line in view, a step of the cursor (right) changes
    page 7 only, and redrawing just that line gives what a whole draw gives."""
    seen = set()
    for name, sc in gallery.samples(code):
        before = fb.new()
        shown = draw(before, sc)
        if not in_view(sc, shown) & MOVES:
            continue
        c = sc.controls
        if c.command(NEXT) != REDRAW:               # a single move: nowhere to go
            continue
        seen.add(shown)
        after = fb.new()
        assert draw(after, sc) == shown, name
        changed = [i for i in range(fb.SIZE) if after[i] != before[i]]
        assert changed and {i // fb.WIDTH for i in changed} == {7}, name
        redraw(before, sc, MOVES)
        assert before == after, name
    assert seen == {"entry"}


def test_what_is_in_view_leaves_out_what_covers_it():
    samples = dict(gallery.samples("en"))
    assert in_view(samples["my-turn"], "entry") == DICE | MOVES
    assert in_view(samples["bid-quantity"], "entry") == DICE
    assert in_view(samples["bidding"], "bidding") == DICE
    for covered in ("toast-master", "link-lost", "quorum", "game-menu"):
        sc = samples[covered]
        assert in_view(sc, draw(fb.new(), sc)) == 0, covered


@pytest.mark.parametrize("code", ("en", "de"))
def test_without_a_peek_no_screen_shows_my_faces(code):
    """The hidden state never shows a pip of mine: every screen but the peek (and the
    picker, which sets dice aside face up) is the same whatever my dice are."""
    for name, sc in gallery.samples(code):
        v = sc.view
        if v is None or not v.hand or sc.peek:
            continue
        c = sc.controls
        if c is not None and c.focus == 3:      # AT_DICE: picking dice to set aside
            continue
        if sc.reveal is not None:               # a reveal shows every hand: by design
            continue
        if sc.hint:                             # the odds come from my dice: asked for, as a peek
            continue
        a = fb.new()
        draw(a, sc)
        v.hand = [(f % 6) + 1 for f in v.hand]  # every face another
        b = fb.new()
        draw(b, sc)
        assert a == b, name
