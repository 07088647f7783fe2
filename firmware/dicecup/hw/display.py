"""The cup's 128x64 SSD1306 OLED, through Adafruit's `adafruit_ssd1306` driver.

The driver is a framebuffer: draw with `fb.fill/pixel/line/rect/fill_rect/text`, then
`show()` pushes all 1024 bytes in one I2C write. On MicroPython the drawing is the
built-in `framebuf` (8x8 font: 16 characters x 8 lines); on CircuitPython (which
has no framebuf) and under CPython it is `adafruit_framebuf`, whose text needs a
`font5x8.bin` file in the working folder (5x8 font, 6 pixels a character): when that
is missing, text is skipped (the host renders screens through MicroPython).
"""
from micropython import const

from dicecup.hw.errors import DeviceMissing

COLS = const(16)
ROWS = const(8)


class Display:
    """`Display(i2c, board)`: raises DeviceMissing if nothing answers at the address."""

    def __init__(self, i2c, board):
        import adafruit_ssd1306
        self.width = board.display_w
        self.height = board.display_h
        self.addr = board.display_addr
        try:
            self.fb = adafruit_ssd1306.SSD1306_I2C(self.width, self.height, i2c, addr=self.addr)
        except (OSError, ValueError) as e:
            raise DeviceMissing("SSD1306 display", self.addr, board.sda, board.scl,
                                None if "No I2C device" in str(e) else str(e))
        self._text_ok = True
        self._buf = None
        self.on = True
        try:
            from framebuf import FrameBuffer  # noqa: F401  (MicroPython's, font built in)
        except ImportError:  # adafruit_framebuf: text needs its font file
            try:
                open("font5x8.bin").close()
            except OSError:
                self._text_ok = False

    def text(self, s, x, y, color=1):
        if not self._text_ok:
            return
        try:
            self.fb.text(s, x, y, color)
        except OSError:  # CPython without font5x8.bin
            self._text_ok = False

    def line(self, row, s, invert=False):
        """Text on one of the 8 rows of 8 pixels, cleared first; `invert` for a title bar."""
        y = row * 8
        self.fb.fill_rect(0, y, self.width, 8, 1 if invert else 0)
        self.text(s[:COLS], 0, y, 0 if invert else 1)

    def buffer(self):
        """The 1024-byte MONO_VLSB framebuffer (a view without the driver's leading
        I2C control byte): what the screens draw into, pushed by `show()`."""
        if self._buf is None:
            self._buf = memoryview(self.fb.buffer)[1:]
        return self._buf

    def clear(self):
        self.fb.fill(0)

    def show(self):
        self.fb.show()

    def message(self, title, lines):
        """A whole-screen notice: an inverted title bar and up to 7 lines under it."""
        self.fb.fill(0)
        self.line(0, title, invert=True)
        for i in range(min(len(lines), ROWS - 1)):
            self.text(lines[i][:COLS], 0, 8 * (i + 1))
        self.fb.show()

    def power(self, on):
        if on and not self.on:
            self.fb.poweron()
        elif not on and self.on:
            self.fb.poweroff()
        self.on = on

    def contrast(self, level):
        self.fb.contrast(level)
