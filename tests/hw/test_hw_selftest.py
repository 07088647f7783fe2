"""The self-test from safe mode, on emulated hardware: a few simulated seconds inside
the heap-capped MicroPython (screen and serial checked), and the same code on CPython."""
import os

import pytest

from dicecup_host import bundle, hwsim
from hwhelpers import BOARD_FILES, DEVKITC, EMU_HEAP, load_board, upy_str

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")


def motion_available():
    try:
        from dicecup.hw import motion  # noqa: F401  (another part of issue 4)
        return True
    except ImportError:
        return False


def page(screen, p):
    return "\n".join(screen.rows(y0=8 * p, h=8))


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_selftest_on_each_board(path):
    lines, screen = hwsim.selftest(path.stem, seconds=5)
    b = load_board(path)
    text = "\n".join(lines)
    assert "selftest: board %s (%s) I2C SDA=%d SCL=%d" % (b.name, b.chip, b.sda, b.scl) in text
    assert "selftest: i2c scan: 0x18 LIS3DH, 0x3C SSD1306" in text
    assert "selftest: battery 3.92 V" in text
    for name in b.button_names():
        assert "selftest: button press %s" % name in text
    assert "selftest: button both %s+%s" % (b.button_names()[0], b.button_names()[-1]) in text
    status = [ln for ln in lines if ln.startswith("selftest: accel")]
    assert len(status) >= 5  # one a second
    assert "x=+0.01 y=-0.02 z=+1.00 g" in status[0]  # cup frame, whatever the mounting
    assert status[-1].endswith(" ".join(n + "*" for n in b.button_names()))
    if motion_available():  # the detector's own verdicts are tested with it; here: shown
        from dicecup.hw.motion import STATES
        assert "motion shaking" in text
        assert status[-1].split(" | ")[1].split()[1] in STATES
    else:
        assert "motion n/a" in status[-1]
    assert screen.on and all(page(screen, p).strip() for p in range(8))


def test_selftest_screen_matches_golden():
    """Every row but the motion row (its words belong to the shake detector)."""
    _, screen = hwsim.selftest("esp32-devkitc", seconds=5)
    path = os.path.join(GOLDEN, "selftest-esp32-devkitc.txt")
    pages = [page(screen, p) for p in range(8)]
    if os.environ.get("DICECUP_REGOLD") or not os.path.exists(path):
        with open(path, "w") as fh:
            fh.write("\n--\n".join(pages) + "\n")
    with open(path) as fh:
        golden = fh.read().rstrip("\n").split("\n--\n")
    for p in (0, 1, 2, 3, 5, 6, 7):
        assert pages[p] == golden[p], "row %d differs" % p


def test_selftest_runs_on_cpython(fake_machine):
    from dicecup.hw import hardware
    from dicecup.hw.selftest import SelfTest
    from dicecup_host.emu import rig
    b = load_board(DEVKITC)
    w, acc, oled = rig.build(b)
    out = []
    hw = hardware.open(str(DEVKITC), clock=w.now, out=out.append)
    assert hw.ok(), out
    st = SelfTest(hw, out=out.append, clock=w.now)
    st.start()
    for t in range(200):
        if t == 50:
            w.press(b.buttons[1].pin)
        if t == 60:
            w.release(b.buttons[1].pin)
        w.advance(10)
        st.step(w.now())
    assert "selftest: button press ok" in out
    assert sum(1 for ln in out if ln.startswith("selftest: accel x=+0.00 y=+0.00 z=+1.00")) == 2
    assert oled.frames >= 10  # the screen was pushed ~5 times a second


SAFE = """
import rig
from dicecup.hw import board, safemode
b = board.load(%(path)s)
w, acc, oled = rig.build(b)
%(press)s
hw = safemode.main(%(path)s, duration_ms=300)
print("RESULT", hw is None)
"""


def test_safe_mode_needs_the_button_held(upy_hw, tmp_path):
    b = load_board(DEVKITC)
    safe = b.buttons[b.safe_button].pin
    cup_board = str(tmp_path / "board.json")      # the board file as flashed onto a cup
    bundle.write_cup_board(DEVKITC, cup_board)
    out = upy_hw(SAFE % {"path": upy_str(cup_board), "press": "w.press(%d)" % safe}, heap=EMU_HEAP)
    assert "dicecup: safe mode (back held): self-test" in out
    assert "selftest: i2c scan: 0x18 LIS3DH, 0x3C SSD1306" in out and "RESULT True" in out
    out = upy_hw(SAFE % {"path": upy_str(cup_board), "press": ""}, heap=EMU_HEAP)
    assert "safe mode" not in out and "RESULT False" in out
