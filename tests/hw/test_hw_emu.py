"""The emulated chips themselves, against the datasheets' rules."""
import busio
import adafruit_ssd1306

from dicecup_host.emu import lis3dh, ssd1306, world


def test_driver_page_addressing_lands_64_columns_off_on_128_wide_panels():
    """Why dicecup.hw.display keeps the driver's default (horizontal) mode: in page mode
    adafruit_ssd1306 2.12.24 sends 0x20 0x10 (A[1:0] = 00: horizontal, per the datasheet)
    and a column start of 0x00 0x14 = column 64 (its centring formula, right for 64-wide
    panels), so on a 128-wide panel the picture shows shifted by 64 columns."""
    w = world.reset()
    oled = ssd1306.Ssd1306(w, 0x3C)
    d = adafruit_ssd1306.SSD1306_I2C(128, 64, busio.I2C(22, 21), page_addressing=True)
    d.fill_rect(3, 5, 7, 20, 1)
    d.show()
    assert oled.mode == 0 and oled.lit() == 7 * 20
    assert not oled.pixel(3, 5) and oled.pixel(3 + 64, 5)


def test_ssd1306_vertical_mode_ranges_and_wrap():
    w = world.reset()
    oled = ssd1306.Ssd1306(w, 0x3C)
    cmds = [0xAE, 0x20, 0x01, 0x21, 10, 11, 0x22, 2, 3, 0xA1, 0xC8, 0xAF]
    w.bus.write(0x3C, bytes(x for c in cmds for x in (0x80, c)))
    w.bus.write(0x3C, bytes([0x40, 0x01, 0x02, 0x04, 0x08, 0xFF]))  # 5th byte wraps to (10, 2)
    assert oled.ram[2 * 128 + 10] == 0xFF and oled.ram[3 * 128 + 10] == 0x02
    assert oled.ram[2 * 128 + 11] == 0x04 and oled.ram[3 * 128 + 11] == 0x08
    assert oled.pixel(10, 16) and oled.pixel(11, 27) and oled.pixel(10, 25)
    # one control byte with Co=0 carries many commands: invert, then entire display on
    w.bus.write(0x3C, bytes([0x00, 0xA7]))
    assert oled.invert and oled.pixel(0, 0) and not oled.pixel(10, 16)
    w.bus.write(0x3C, bytes([0x00, 0xA5, 0xAE]))
    assert oled.entire_on and not oled.on and oled.lit() == 0
    assert oled.png()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ssd1306_orientation_commands():
    w = world.reset()
    oled = ssd1306.Ssd1306(w, 0x3C)
    w.bus.write(0x3C, bytes([0x00, 0x20, 0x00, 0xAF]))  # A0/C0: the reset orientation
    w.bus.write(0x3C, bytes([0x40, 0x01]))  # RAM column 0, row 0
    assert oled.pixel(127, 63) and not oled.pixel(0, 0)  # shows rotated by 180 degrees


def _lis(**regs):
    w = world.reset()
    acc = lis3dh.Lis3dh(w, 0x18, int1_pin=5)
    for r, v in regs.items():
        w.bus.write(0x18, bytes([int(r[1:], 16), v]))
    return w, acc


def read_xyz(w):
    w.bus.write(0x18, b"\xa8", False)
    buf = bytearray(6)
    w.bus.read_into(0x18, buf)
    out = []
    for i in range(3):
        v = buf[2 * i] | buf[2 * i + 1] << 8
        out.append(v - 65536 if v & 0x8000 else v)
    return out


def test_lis3dh_resolution_and_range():
    # normal mode (10 bit), +-2 g: 4 mg/digit, left-justified by 6
    w, acc = _lis(r20=0x57, r23=0x00)
    acc.set_static(0.5, -1.0, 3.0)
    w.advance(20)
    assert read_xyz(w) == [125 << 6, -250 << 6, 511 << 6]  # z clips at +511 digits
    # low power (8 bit), +-16 g: 192 mg/digit
    w.bus.write(0x18, bytes([0x20, 0x5F]))
    w.bus.write(0x18, bytes([0x23, 0x30]))
    w.advance(20)
    assert read_xyz(w) == [3 << 8, -5 << 8, 16 << 8]


def test_lis3dh_int1_and_mode_polarity_and_no_latch():
    # AND of X high and Y high, threshold 0.5 g (+-2 g: 16 mg/LSB -> 32), no latch, active low
    w, acc = _lis(r20=0x57, r21=0x00, r22=0x40, r25=0x02, r30=0x8A, r32=32, r33=0)
    acc.set_static(0.9, 0.1, 0.0)
    w.advance(50)
    assert w.line(5).level() == 1  # only X is high: AND not met; active low idles high
    acc.set_static(0.9, 0.9, 0.0)
    w.advance(20)
    assert w.line(5).level() == 0
    acc.set_static(0.0, 0.0, 1.0)
    w.advance(20)
    assert w.line(5).level() == 1  # not latched: released when the condition ends


def test_lis3dh_duration_counts_samples():
    w, acc = _lis(r20=0x57, r22=0x40, r24=0x08, r30=0x02, r32=10, r33=5)  # X high > 5 samples
    acc.set_static(0.5, 0.0, 0.0)
    w.advance(50)  # 5 samples at 100 Hz
    assert w.line(5).level() == 0
    w.advance(20)
    assert w.line(5).level() == 1 and acc.int1_events == 1
