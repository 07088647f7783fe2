"""The quick-start cards (host/dicecup_host/cards.py, `dicecup cards`): each language's
card builds and fits its page, every screen on it is pixel for pixel the render
`dicecup screens` writes of that screen in that language, its words are the cup's,
the PDF holds the same pixels, the cards in docs/cards/ are current, and bad arguments
are one line and exit 2 before any work."""
import re
import zlib
from pathlib import Path

import numpy as np
import png as pypng
import pytest

from dicecup.ui import lang
from dicecup_host import cards, cli, gallery

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "cards"

_CARDS = {}


def card(code):
    """compose(code), once per test session (about 1.5 s a card)."""
    if code not in _CARDS:
        _CARDS[code] = cards.compose(code)
    return _CARDS[code]


def read_rgb(path):
    w, h, rows, _ = pypng.Reader(filename=str(path)).asRGB8()
    return np.vstack([np.frombuffer(bytes(r), np.uint8) for r in rows]).reshape(h, w, 3)


@pytest.mark.parametrize("code", cards.LANGS)
def test_every_card_builds_and_its_screens_are_the_gallery_renders(code, tmp_path):
    c = card(code)
    assert c.image.shape == (cards.HEIGHT, cards.SHEET, 3)
    assert [p[0] for p in c.placements] == list(cards.SCREENS)
    # the gallery's own PNGs of these screens, as `dicecup screens --scale 2` writes them
    written = {p.name: p for p in gallery.render(tmp_path, [code], scale=cards.SCALE)}
    for name, x, y, scale in c.placements:
        assert scale == cards.SCALE
        shot = read_rgb(written["%s-%s.png" % (name, code)])
        region = c.image[y:y + 64 * scale, x:x + 128 * scale]
        assert region.shape == shot.shape, name
        diff = np.argwhere((region != shot).any(axis=2))
        assert not len(diff), "%s on the %s card differs from its render at %s" % (name, code, diff[:5].tolist())
    # and only the panel's two colours in each (no smoothing, no blending)
    colours = {tuple(v) for v in c.image[c.placements[0][2]:c.placements[0][2] + 128,
                                         c.placements[0][1]:c.placements[0][1] + 256].reshape(-1, 3)}
    assert colours <= {cards._png.OFF, cards._png.ON}


def test_the_composer_is_fed_the_gallery_framebuffers():
    """What the card embeds is the framebuffer gallery.samples + screens.draw give."""
    from dicecup.ui import fb
    from dicecup.ui.screens import draw
    scenes = dict(gallery.samples("es"))
    bufs = cards.screen_buffers("es")
    for name in cards.SCREENS:
        buf = fb.new()
        draw(buf, scenes[name])
        assert bufs[name] == bytes(buf), name
    c = card("es")
    for name, x, y, scale in c.placements:
        region = c.image[y:y + 64 * scale, x:x + 128 * scale]
        assert (region == cards.screen_pixels(bufs[name], scale)).all(), name


@pytest.mark.parametrize("code", cards.LANGS)
def test_the_cards_words_are_the_cups(code):
    t = cards.texts(code)
    body = " ".join([t["legend"], t["lang"], t["tips"]] + [t[k][1] for k, _ in cards.STEPS])
    assert "{" not in body and "}" not in body
    plain = body.replace("**", "").replace("\u00a0", " ")
    for key in ("menu_create", "menu_join", "btn_back", "shake", "your_turn", "menu_lang"):
        assert lang.t(key, code) in plain, key
    assert lang.tr("perudo", "btn_bid", code) in plain
    for rules in cards.GAMES_CALL:       # each game's call as its move reads on the cup
        assert lang.tr(rules, "btn_call", code) in plain, rules
    for rules in cards.GAMES_EXACT:      # and its exact call as the game says it
        said = lang.game_word(rules, "exact", code).replace("¡", "").rstrip("!").strip()
        assert said.replace("\u00a0", " ") in plain, rules
    # every character is one DejaVu Sans draws (no missing-glyph boxes on the card)
    from matplotlib import ft2font
    regular, bold = cards.fonts()
    texts = [body, t["title"], t["subtitle"], t["xiao"], t["same"]] + [c for row in t["rows"] for c in row] + \
        list(t["cols"]) + [t[k][0] for k, _ in cards.STEPS]
    for f in (regular, bold):
        font = ft2font.FT2Font(f)
        missing = {ch for s in texts for ch in s.replace("**", "") if ch != "\n" and not font.get_char_index(ord(ch))}
        assert not missing, (code, f, missing)


def test_a_card_that_does_not_fit_is_refused(monkeypatch):
    long = dict(cards.TEXT["en"])
    long["peek"] = ("Peek", " ".join(["Hold OK and look inside."] * 40))
    monkeypatch.setitem(cards.TEXT, "en", long)
    with pytest.raises(cards.LayoutError):
        cards.compose("en")
    long["peek"] = ("Peek", "A" * 200)      # one word wider than its column
    with pytest.raises(cards.LayoutError):
        cards.compose("en")


def test_no_block_of_a_card_overlaps_another_or_leaves_its_side():
    c = card("de")                           # the longest words
    cards._check_boxes("de", c.boxes)        # (compose ran it too: it raises)
    steps = [b for b in c.boxes if b[0].startswith("step ")]
    assert len(steps) == len(cards.STEPS)
    for what, x0, y0, x1, y1 in c.boxes:
        assert y1 <= cards.HEIGHT - 4 * cards.MM, what


def test_the_pdf_holds_the_two_sides(tmp_path):
    c = card("it")
    path = cards.write_pdf(c.image, tmp_path / "card.pdf")
    data = Path(path).read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert len(re.findall(rb"/Type /Page\b", data)) == 2
    # every xref offset points at its object
    xref = int(re.search(rb"startxref\n(\d+)", data).group(1))
    table = data[xref:].split(b"\n")
    count = int(table[1].split()[1])
    for k in range(1, count):
        off = int(table[2 + k].split()[0])
        assert data[off:].startswith(b"%d 0 obj" % k)
    images = re.findall(rb"/Width (\d+) /Height (\d+) .*?/Length (\d+) >>\nstream\n", data)
    assert len(images) == 2
    pos = 0
    for side, (w, h, n) in zip(cards.sides(c.image), images):
        start = data.index(b">>\nstream\n", data.index(b"/Length %s >>" % n, pos)) + len(b">>\nstream\n")
        raw = zlib.decompress(data[start:start + int(n)])
        pos = start + int(n)
        assert (int(w), int(h)) == (cards.WIDTH, cards.HEIGHT)
        assert raw == np.ascontiguousarray(side).tobytes()
    # A6 in points
    assert b"/MediaBox [0 0 297.64 419.53]" in data


@pytest.mark.parametrize("code", cards.LANGS)
def test_the_cards_in_docs_are_current(code, tmp_path):
    path = DOCS / ("quickstart-%s.png" % code)
    assert path.stat().st_size < 300_000
    fresh = cards.write_png(card(code).image, tmp_path / path.name)
    have, want = read_rgb(path), read_rgb(fresh)
    assert have.shape == want.shape and (have == want).all(), \
        "docs/cards/%s is not the card the code draws now: make cards-docs, then look at it" % path.name


def test_the_command_writes_png_and_pdf(tmp_path, capsys):
    assert cli.main(["cards", str(tmp_path / "out"), "--lang", "fr", "--lang", "fr"]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["quickstart-fr.pdf", "quickstart-fr.png"]
    assert "2 files written" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["cards"],
    ["cards", "/tmp/x", "--lang", "nl"],
    ["cards", "README.md"],                 # a file, not a folder
    ["cards", "README.md/cards"],           # under a file
    ["cards", "/tmp/x", "--bogus"],
])
def test_bad_arguments_are_one_line_and_exit_2_before_any_work(argv, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(cards, "compose", lambda *a, **k: pytest.fail("a card was composed"))
    try:
        rc = cli.main(argv)
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    assert rc == 2, (rc, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_the_gestures_on_the_cards_are_the_keymaps():
    """What every card says of the buttons, checked against the firmware: the XIAO's
    table, the 0.7 s hold, the 3 s peek, the safe-mode buttons."""
    import inspect
    import json

    from dicecup.hw import buttons
    from dicecup.hw.buttons import BOTH, LONG, PRESS
    from dicecup.ui import ui
    from dicecup.ui.keymap import BACK, CALL_EXACT, MENU, NEXT, OK, PEEK, PREV, Keymap
    xiao = Keymap(("left", "ok", "right"))
    four = Keymap(("left", "ok", "right", "back"))
    left, ok, right, back = 1, 2, 4, 8
    for keys in (xiao, four):                       # the same on every cup
        assert keys.command(PRESS, left) == PREV and keys.command(PRESS, right) == NEXT
        assert keys.command(PRESS, ok) == OK
        assert keys.command(LONG, ok) == PEEK       # peek: hold OK
        assert keys.command(BOTH, left | right) == CALL_EXACT
        assert keys.command(LONG, left) == BACK     # "hold ◀"
        assert keys.command(LONG, right) == MENU    # "hold ▶"
    assert four.command(PRESS, back) == BACK and four.command(LONG, back) == MENU
    assert xiao.gesture(BACK) == (LONG, left) and xiao.gesture(MENU) == (LONG, right)
    assert inspect.signature(buttons.Buttons.__init__).parameters["long_ms"].default == 700
    assert ui._PEEK_MS == 3000
    from dicecup.settings import WAITS
    assert WAITS["bot_ms"] == 60000                 # "after a minute its own bot plays for you"
    boards = ROOT / "hardware" / "boards"
    safe = {p.stem: json.loads(p.read_text())["safe_button"] for p in boards.glob("*.json")}
    assert safe == {"esp32-devkitc": "back", "esp32-s3-devkitc-1": "back", "xiao-esp32c3": "ok"}


@pytest.mark.parametrize("names", [("left", "ok", "right", "back"), ("left", "ok", "right")])
def test_step_one_joins_and_creates_as_the_card_says(names):
    """Step 1 on the real UI: Create a table, ◀ ▶ to the game, OK; Join a table, ◀ ▶
    change a digit, OK the next one, back (on the XIAO: hold ◀) the one before."""
    from dicecup.engine import RULES
    from dicecup.hw.buttons import LONG, PRESS
    from dicecup.ui.ui import Ui
    bit = {n: 1 << names.index(n) for n in names}
    u = Ui(names)
    press = lambda n: u.on_buttons(PRESS, bit[n])        # noqa: E731
    back = (lambda: press("back")) if "back" in names else (lambda: u.on_buttons(LONG, bit["left"]))
    assert u.sc.menu[u.sc.cursor] == "menu_create"
    press("ok")                                          # the game to create a table for
    press("right")
    assert press("ok") == [("create", RULES[1], {})]
    press("right")                                       # Join a table
    assert u.sc.menu[u.sc.cursor] == "menu_join"
    press("ok")
    assert u.sc.screen == "code"
    for digit in "4711":
        for _ in range(int(digit)):
            press("right")
        if digit == "4":
            press("ok")
            back()                                       # the digit before
            assert u.sc.cursor == 0 and u.sc.code == "4"
        out = press("ok")
    assert out == [("join", "4711")]
