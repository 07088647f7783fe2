"""Display.push (hw/display.py): only the pages that changed go on the I2C bus, within
a page only the changed columns, and the emulated SSD1306's RAM always ends up holding
exactly the framebuffer -- after any sequence of real screens (the gallery's samples),
heals, a power cycle or a failed write. On CPython (the real Display and Adafruit driver
over the emulated bus) and once inside the heap-capped MicroPython. About 2 s in all."""
import random

import pytest

from dicecup.hw.display import Display
from dicecup.hw.i2c import open_bus
from dicecup.ui import screens
from dicecup_host import gallery
from dicecup_host.emu import rig

from hwhelpers import DEVKITC, load_board, upy_str

FULL_BYTES = 1037        # show(): six 2-byte commands, 0x40 + 1024 bytes


class Wire:
    """Records the SSD1306's transfers (their bytes); `fail_data`: the next data
    transfer fails as one the panel does not ACK."""

    def __init__(self, w):
        self.log = []
        self.fail_data = False
        real = w.bus.write

        def write(addr, data, stop=True):
            data = bytes(data)
            if self.fail_data and data[:1] == b"\x40":
                self.fail_data = False
                raise OSError(5)        # EIO
            if addr == 0x3C:
                self.log.append(data)
            return real(addr, data, stop)
        w.bus.write = write

    def take(self):
        out = self.log
        self.log = []
        return out

    @staticmethod
    def windows(log):
        """(columns, page) of every window command pushed: 0x00 0x21 a b 0x22 p p."""
        out = []
        for t in log:
            if t[0] == 0x00 and t[1] == 0x21 and t[4] == 0x22:
                assert t[5] == t[6]
                out.append((range(t[2], t[3] + 1), t[5]))
        return out


@pytest.fixture
def cup(fake_machine):
    b = load_board(DEVKITC)
    w, acc, oled = rig.build(b)
    d = Display(open_bus(b), b)
    return d, oled, Wire(w)


def changed_cells(a, b):
    """{(page, column)} where two framebuffers differ: the test's own oracle."""
    return set((i // 128, i % 128) for i in range(1024) if a[i] != b[i])


def sample(name, lang="en"):
    return dict(gallery.samples(lang))[name]


def test_a_cursor_move_pushes_only_the_pages_and_columns_that_changed(cup):
    d, oled, wire = cup
    buf = d.buffer()
    screens.draw(buf, gallery._my_turn("perudo", "en"))
    d.push()
    assert bytes(oled.ram) == bytes(buf)
    before = bytes(buf)
    wire.take()
    screens.draw(buf, gallery._my_turn("perudo", "en", ("next",)))   # the cursor one move on
    cells = changed_cells(before, buf)
    assert cells, "the cursor move changed nothing on screen"
    pages = sorted(set(p for p, _ in cells))
    assert d.push() == len(pages)
    log = wire.take()
    assert bytes(oled.ram) == bytes(buf)
    wins = Wire.windows(log)
    assert sorted(p for _, p in wins) == pages                 # each changed page, once
    for cols, p in wins:
        assert all(x in cols for q, x in cells if q == p)      # every changed column inside
        assert cols.start % 16 == 0 and len(cols) % 16 == 0    # in 16-column spans
        assert len(cols) < 128                                 # not the whole page
    assert len(log) == 2 * len(pages)                          # a window and its data, each
    sent = sum(len(t) for t in log)
    assert sent == sum(7 + 1 + len(c) for c, _ in wins)
    assert sent < FULL_BYTES // 4                              # a cursor is a small push


def test_nothing_changed_sends_nothing(cup):
    d, oled, wire = cup
    buf = d.buffer()
    screens.draw(buf, sample("bidding"))
    d.push()
    wire.take()
    screens.draw(buf, sample("bidding"))                       # the same screen drawn again
    assert d.push() == 0 and wire.take() == []


def test_a_whole_new_screen_goes_as_one_frame_not_page_by_page(cup):
    d, oled, wire = cup
    buf = d.buffer()
    screens.draw(buf, sample("lobby-menu"))
    d.push()
    wire.take()
    screens.draw(buf, sample("shake"))
    d.push()
    log = wire.take()
    assert sum(len(t) for t in log) <= FULL_BYTES and bytes(oled.ram) == bytes(buf)


def test_the_oled_holds_the_framebuffer_after_any_sequence_of_screens(cup):
    d, oled, wire = cup
    buf = d.buffer()
    shots = gallery.samples("en") + gallery.samples("fr")
    rng = random.Random(5)
    total = 0
    for k in range(40):
        name, sc = rng.choice(shots)
        screens.draw(buf, sc)
        if k % 9 == 4:
            d.heal()
        if k % 13 == 6:
            d.power(False)
            d.power(True)
        d.push()
        assert bytes(oled.ram) == bytes(buf), (k, name)
        total += sum(len(t) for t in wire.take())
    assert total < 40 * FULL_BYTES            # changed pages only, on the whole


def test_a_stale_page_heals_and_a_power_cycle_sends_the_whole_frame(cup):
    d, oled, wire = cup
    buf = d.buffer()
    screens.draw(buf, sample("bidding"))
    d.push()
    oled.ram[3 * 128 + 40] ^= 0xFF          # what the hashes cannot see: a glitch on the panel
    assert d.push() == 0 and bytes(oled.ram) != bytes(buf)
    for _ in range(8):                        # one page a call: the screen in 8
        d.heal()
    assert bytes(oled.ram) == bytes(buf)
    wire.take()
    d.power(False)
    d.power(True)
    screens.draw(buf, sample("bidding"))
    d.push()
    log = wire.take()
    assert [len(t) for t in log][-1] == 1025 and sum(len(t) for t in log) >= FULL_BYTES


def test_a_failed_write_is_healed_by_the_next_push(cup):
    d, oled, wire = cup
    buf = d.buffer()
    screens.draw(buf, gallery._my_turn("perudo", "en"))
    d.push()
    screens.draw(buf, gallery._my_turn("perudo", "en", ("next",)))
    wire.fail_data = True                     # the window goes, its data does not
    with pytest.raises(OSError):
        d.push()
    assert bytes(oled.ram) != bytes(buf)
    wire.take()
    d.push()                                  # what the panel shows is unknown: all of it
    assert sum(len(t) for t in wire.take()) == FULL_BYTES and bytes(oled.ram) == bytes(buf)


UPY_PUSH = """
import rig
from dicecup.hw import board
from dicecup.hw.display import Display
from dicecup.hw.i2c import open_bus
b = board.load(%s)
w, acc, oled = rig.build(b)
d = Display(open_bus(b), b)
log = []
real = w.bus.write
def write(addr, data, stop=True):
    log.append(len(data))
    return real(addr, data, stop)
w.bus.write = write
fb = d.fb
buf = d.buffer()
seed = 7
def rnd(n):
    global seed
    seed = (seed * 1103515245 + 12345) & 0x3FFFFFFF
    return (seed >> 8) %% n
bad = 0
for k in range(30):
    if k %% 5 == 0:
        fb.fill(rnd(2))
    for _ in range(1 + rnd(4)):
        fb.fill_rect(rnd(128), rnd(64), 1 + rnd(40), 1 + rnd(12), rnd(2))
    if k %% 3 == 0:
        fb.text("k%%d" %% k, rnd(100), rnd(56), 1)
    d.push()
    if bytes(oled.ram) != bytes(buf):
        bad += 1
fb.fill(0)
d.show()
del log[:]
fb.fill_rect(70, 16, 8, 8, 1)               # one 8x8 block in page 2, columns 70..77
d.push()
print("bad", bad, "transfers", len(log), "bytes", sum(log), "same", bytes(oled.ram) == bytes(buf))
"""


def test_push_inside_micropython_keeps_the_oled_equal_to_the_buffer(upy_hw):
    from hwhelpers import EMU_HEAP
    out = upy_hw(UPY_PUSH % upy_str(DEVKITC), heap=EMU_HEAP)
    words = out.split()
    got = dict(zip(words[0::2], words[1::2]))
    assert got["bad"] == "0" and got["same"] == "True", out
    # page 2 only, columns 64..79 (one 16-column span): a 7-byte window, 0x40 + 16 bytes
    assert got["transfers"] == "2" and got["bytes"] == str(7 + 1 + 16), out
