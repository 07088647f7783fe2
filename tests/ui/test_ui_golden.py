"""Golden screens: the test cards of host/dicecup_host/upy/uicards.py (both fonts with
accents, every die face at both sizes, things cut off at the edges) drawn on CPython
and compared pixel for pixel with tests/ui/golden/NAME.png.

After a deliberate change to the drawing, regenerate them and look at them before
committing:

    DICECUP_REGOLD=1 .venv/bin/python -m pytest -q tests/ui/test_ui_golden.py

(the same variable tests/hw uses for its golden self-test screen). A mismatch fails
with the first differing pixels and leaves the new picture beside the test's tmp_path.
"""
import os
from pathlib import Path

import pytest

from dicecup_host import png
from dicecup_host.upy import uicards

GOLDEN = Path(__file__).parent / "golden"
SCALE = 4


@pytest.mark.parametrize("name, card", uicards.CARDS, ids=[n for n, _ in uicards.CARDS])
def test_card_matches_its_golden_png(name, card, tmp_path):
    buf = uicards.render(card)
    path = GOLDEN / (name + ".png")
    if os.environ.get("DICECUP_REGOLD"):
        GOLDEN.mkdir(exist_ok=True)
        png.render(buf, path, scale=SCALE)
    assert path.exists(), "no golden image %s: run with DICECUP_REGOLD=1 and look at it" % path
    want = png.load(path, scale=SCALE)
    if want != buf:
        got = png.render(buf, tmp_path / (name + ".png"), scale=SCALE)
        diff = [(x, y) for y in range(64) for x in range(128)
                if (want[(y >> 3) * 128 + x] ^ buf[(y >> 3) * 128 + x]) >> (y & 7) & 1]
        pytest.fail("%s differs from its golden image at %d pixels, first %s; drawn now: %s"
                    % (name, len(diff), diff[:10], got))


def test_every_golden_image_belongs_to_a_card():
    names = {n + ".png" for n, _ in uicards.CARDS}
    assert {p.name for p in GOLDEN.glob("*.png")} == names
