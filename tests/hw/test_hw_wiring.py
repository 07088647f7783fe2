"""The wiring diagrams in hardware/wiring/ are what wiring.py makes of the board files."""
from dicecup_host import wiring

from hwhelpers import BOARD_FILES


def test_committed_svgs_are_current(tmp_path):
    made = wiring.generate(tmp_path)
    assert sorted(p.name for p in made) == sorted(p.stem + ".svg" for p in BOARD_FILES)
    for p in made:
        committed = wiring.OUT / p.name
        assert committed.exists(), "run: python -m dicecup_host.wiring"
        assert committed.read_text() == p.read_text(), "stale %s: python -m dicecup_host.wiring" % p.name
    assert wiring.main(["--check"]) == 0


def test_diagram_shows_every_pin():
    b = wiring.load("esp32-devkitc")
    svg = wiring.render(b)
    for gpio in [b.sda, b.scl, b.int1, b.battery_pin] + [x.pin for x in b.buttons]:
        assert ">GPIO%d " % gpio in svg
    assert "back (safe mode)" in svg and svg == wiring.render(b)
