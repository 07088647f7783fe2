"""The cup's 128x64 SSD1306 OLED, through Adafruit's `adafruit_ssd1306` driver.

The driver is a framebuffer: draw with `fb.fill/pixel/line/rect/fill_rect/text`, then
`show()` pushes all 1024 bytes in one I2C write. On MicroPython the drawing is the
built-in `framebuf` (8x8 font: 16 characters x 8 lines); on CircuitPython (which
has no framebuf) and under CPython it is `adafruit_framebuf`, whose text needs a
`font5x8.bin` file in the working folder (5x8 font, 6 pixels a character): when that
is missing, text is skipped (the host renders screens through MicroPython).

`show()` pushes the whole frame: 1,037 bytes in 7 transfers, 23.5 ms of wire at 400 kHz.
`push()` sends only what changed since the last push, which is what makes a press show
at once. The screen is 8 pages of 8 pixel rows, each cut into 16-column spans: a CRC-32
of every page says which pages changed, and within a changed page the 16-bit CRCs of
its spans say which columns. What is kept for that is about 0.3 KB (the CRCs), not a
1 KB shadow copy; a push makes only the CRC ints and a view per page and per span
hashed (on a 32-bit cup about 0.6 KB of short-lived heap for a cursor move,
3 KB when most of the screen changed). Each changed page goes as two transfers: its
column/page window (0x21, 0x22 in one command stream) and the span's bytes, sent in
place from the driver's buffer (no copy); when most of the screen changed, one whole
frame is shorter on the wire and goes instead. A page a hash collision (or a glitch on
the wire) left stale heals: `heal()` re-sends one page in turn, and a power-on, a
contrast change, a message or a failed write sends the whole frame next.
"""
from micropython import const


_COLS = const(16)
_ROWS = const(8)
_SPAN = const(16)             # columns per hashed span of a page
# I2C clocks (9 a byte with its ACK, 2 for START/STOP, the address byte each transfer):
# a page's window (7 bytes) and its data transfer cost 94 clocks + 9 a column
_PAGE_CLOCKS = const(94)
_NONE = const(0xFF)           # push(): this page did not change
del const   # (compile-time only: one globals slot fewer, a 32 B table, not 48)


def _truncates():
    """True where an array("H") keeps the low 16 bits of a bigger int (MicroPython:
    no masked int made); CPython raises instead, so the CRC is masked there."""
    from array import array
    a = array("H", [0])
    try:
        a[0] = 0x12345
    except OverflowError:
        return False
    return a[0] == 0x2345


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
            from dicecup.hw.errors import DeviceMissing   # (here: hw/trim.py unloads it after boot)
            raise DeviceMissing("SSD1306 display", self.addr, board.sda, board.scl,
                                None if "No I2C device" in str(e) else str(e))
        self._text_ok = True
        self._buf = None
        self.on = True
        self.pages = self.height // 8
        self.spans = (self.width + _SPAN - 1) // _SPAN
        self._full = True             # the next push() sends the whole frame
        self._heal = 0                # the page heal() re-sends next
        self._crc = None
        try:
            from binascii import crc32
            if not getattr(self.fb, "page_addressing", False):
                self._crc = crc32
        except ImportError:           # no CRC here: push() is show()
            pass
        if self._crc is not None:
            from array import array
            from struct import pack_into
            self._pack = pack_into
            self._trunc = _truncates()
            # what the panel holds: each page's CRC-32 (4 bytes, little-endian: no int
            # kept) and each span's low 16 bits; `_stale`: a bit per page it may not hold
            self._sums = bytearray(4 * self.pages)
            self._span_crc = array("H", bytes(2 * self.pages * self.spans))
            self._stale = (1 << self.pages) - 1
            self._new = bytearray(4 * self.pages)     # push(): the changed pages' CRCs
            self._span = bytearray(2 * self.pages)    # ... their first and last span
            # the window command, one stream (control byte 0x00): columns a..b, page p..p
            self._cmd = bytearray((0x00, 0x21, 0, 0, 0x22, 0, 0))
        try:
            from framebuf import FrameBuffer  # noqa: F401  (MicroPython's, font built in)
        except ImportError:  # adafruit_framebuf: text needs its font file
            try:
                open("font5x8.bin").close()
            except OSError:
                self._text_ok = False

    def text(self, s, x, y, color):
        if not self._text_ok:
            return
        try:
            self.fb.text(s, x, y, color)
        except OSError:  # CPython without font5x8.bin
            self._text_ok = False

    def line(self, row, s, invert):
        """Text on one of the 8 rows of 8 pixels, cleared first; `invert` for a title bar."""
        y = row * 8
        self.fb.fill_rect(0, y, self.width, 8, 1 if invert else 0)
        self.text(s[:_COLS], 0, y, 0 if invert else 1)

    def buffer(self):
        """The 1024-byte MONO_VLSB framebuffer (a view without the driver's leading
        I2C control byte): what the screens draw into, sent by `show()` or `push()`."""
        if self._buf is None:
            self._buf = memoryview(self.fb.buffer)[1:]
        return self._buf

    def clear(self):
        self.fb.fill(0)

    def show(self):
        """The whole frame, 1,037 bytes (23.5 ms at 400 kHz); what is seen is known again."""
        if self._crc is None:
            self.fb.show()
            return
        self._stale = (1 << self.pages) - 1   # until it went out
        self.fb.show()
        for p in range(self.pages):
            self._rehash(p)
        self._full = False
        self._stale = 0

    def push(self):
        """Send the pages that changed since the last push (within each, the changed
        columns only), or the whole frame when that is as short on the wire (most of
        the screen changed) or one is due. Returns the pages sent."""
        if self._crc is None or self._full:
            self.show()
            return self.pages
        crc = self._crc
        pack = self._pack
        sums = self._sums
        new = self._new
        span = self._span
        buf = self.buffer()
        w = self.width
        clocks = 0                        # I2C clocks of the changed pages, page by page
        n = 0
        for p in range(self.pages):
            k = 4 * p
            pack("<I", new, k, crc(buf[p * w:(p + 1) * w]))   # a view per page, not 8 kept
            span[2 * p] = _NONE
            if (self._stale >> p & 1 or new[k] != sums[k] or new[k + 1] != sums[k + 1]
                    or new[k + 2] != sums[k + 2] or new[k + 3] != sums[k + 3]):
                self._spans(p)
                clocks += _PAGE_CLOCKS + 9 * _SPAN * (span[2 * p + 1] - span[2 * p] + 1)
                n += 1
        if n == 0:
            return 0
        if clocks >= 6 * 29 + (2 + w * self.pages) * 9 + 2:   # show(): 6 commands, then the frame
            self._stale = (1 << self.pages) - 1
            self.fb.show()
            self._stale = 0
            sums[:] = new                 # unchanged pages: the same CRC
            return n
        for p in range(self.pages):
            if span[2 * p] != _NONE:
                self._stale |= 1 << p     # until it went out
                self._send(p, span[2 * p], span[2 * p + 1])
                self._stale &= ~(1 << p)
                k = 4 * p
                for i in range(k, k + 4):
                    sums[i] = new[i]
        return n

    def heal(self):
        """Re-send one page whole, the next in turn (8 calls cover the screen): a page a
        hash collision or a glitch left stale is right again. About 3 ms of wire."""
        if self._crc is None or self._full:
            return
        p = self._heal
        self._heal = (p + 1) % self.pages
        self._stale |= 1 << p
        self._send(p, 0, self.spans - 1)
        self._rehash(p)
        self._stale &= ~(1 << p)

    def _rehash(self, p):
        w = self.width
        v = self.buffer()[p * w:(p + 1) * w]
        crc = self._crc
        base = p * self.spans
        for s in range(self.spans):
            c = crc(v[s * _SPAN:(s + 1) * _SPAN])
            self._span_crc[base + s] = c if self._trunc else c & 0xFFFF
        self._pack("<I", self._sums, 4 * p, crc(v))

    def _spans(self, p):
        # page p changed: its first and last span whose CRC changed, into _span
        w = self.width
        v = self.buffer()[p * w:(p + 1) * w]
        crc = self._crc
        sc = self._span_crc
        base = p * self.spans
        lo = -1
        hi = -1
        for s in range(self.spans):
            i = base + s
            was = sc[i]
            c = crc(v[s * _SPAN:(s + 1) * _SPAN])
            sc[i] = c if self._trunc else c & 0xFFFF     # stored: its low 16 bits
            if sc[i] != was:
                if lo < 0:
                    lo = s
                hi = s
        if lo < 0 or self._stale >> p & 1:   # a span CRC collided, or the panel's
            lo = 0                               # page is not known: all of it
            hi = self.spans - 1
        self._span[2 * p] = lo
        self._span[2 * p + 1] = hi

    def _send(self, p, lo, hi):
        """Page p, spans lo..hi: the window, then the bytes in place in the driver's
        buffer, its byte before the span lent for the 0x40 data control byte."""
        w = self.width
        x0 = lo * _SPAN
        x1 = min((hi + 1) * _SPAN, w) - 1
        col0 = (128 - w) // 2             # narrow panels sit centred in the 128 columns
        cmd = self._cmd
        cmd[2] = x0 + col0
        cmd[3] = x1 + col0
        cmd[5] = p
        cmd[6] = p
        buf = self.fb.buffer
        start = p * w + x0                # the data is buf[start + 1 .. end - 1]
        end = start + 2 + x1 - x0
        dev = self.fb.i2c_device
        keep = buf[start]
        try:
            with dev:
                dev.write(cmd)
            buf[start] = 0x40
            with dev:
                dev.write(buf, start=start, end=end)
        except OSError:
            self._full = True             # what the panel shows is not known now
            raise
        finally:
            buf[start] = keep

    def message(self, title, lines):
        """A whole-screen notice: an inverted title bar and up to 7 lines under it."""
        self.fb.fill(0)
        self.line(0, title, True)
        for i in range(min(len(lines), _ROWS - 1)):
            self.text(lines[i][:_COLS], 0, 8 * (i + 1), 1)
        self.show()

    def power(self, on):
        if on and not self.on:
            self.fb.poweron()
            self._full = True             # the panel kept its RAM, maybe not all of it
        elif not on and self.on:
            self.fb.poweroff()
        self.on = on

    def contrast(self, level):
        self.fb.contrast(level)
        self._full = True
