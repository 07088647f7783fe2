"""A register-level SSD1306 (128x64 OLED controller) on the simulated I2C bus.

Every I2C write starts with a control byte: Co (bit 7) = 1 means one byte follows and
then another control byte; Co = 0 means the rest of the transfer is all of one kind.
D/C# (bit 6) says whether those bytes are commands (0) or display RAM data (1).

Commands decoded (SSD1306 datasheet rev 1.1, section 9/10): memory addressing mode
(0x20: horizontal, vertical, page), column and page ranges (0x21, 0x22), page-mode
column/page start (0x00-0x1F, 0xB0-0xB7), start line (0x40-0x7F), contrast (0x81),
charge pump (0x8D), segment remap (0xA0/A1), entire-on (0xA4/A5), invert (0xA6/A7),
multiplex (0xA8), IREF (0xAD), display off/on (0xAE/AF), COM scan direction
(0xC0/C8), display offset (0xD3), clock (0xD5), precharge (0xD9), COM pins (0xDA),
VCOMH (0xDB), NOP (0xE3), scrolling (0x26/27/29/2A/2E/2F/A3: parsed, not animated).
Unknown bytes are kept in `unknown`.

`ram` is the 128x8-page GDDRAM. `pixel(x, y)` is what a person sees at (x, y) with the
module held the usual way up: it applies remap, scan direction, start line, offset,
invert, entire-on and display off. `text()` and `png()` render it for golden screens.
"""
try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world

_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1,
         0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}

W = 128
H = 64
_BLOCKS = (" ", "\u2580", "\u2584", "\u2588")


class Ssd1306:
    def __init__(self, world=None, addr=0x3C):
        self.world = world or _world.current()
        self.addr = addr
        self.ram = bytearray(W * 8)
        self.mode = 2  # page addressing after reset
        self.col_lo, self.col_hi = 0, 127
        self.page_lo, self.page_hi = 0, 7
        self.col, self.page = 0, 0
        self.on = False
        self.contrast = 0x7F
        self.remap = False
        self.com_flip = False
        self.invert = False
        self.entire_on = False
        self.start_line = 0
        self.offset = 0
        self.mux = 63
        self.charge_pump = 0x10
        self.scroll = False
        self.unknown = []
        self.commands = 0
        self.data_bytes = 0
        self.frames = 0  # data transfers that wrote a whole frame
        self._cmd = None
        self._args = []
        self.world.bus.attach(self)

    # -- I2C --
    def i2c_write(self, data):
        i = 0
        n = len(data)
        while i < n:
            ctrl = data[i]
            i += 1
            dc = ctrl & 0x40
            if ctrl & 0x80:
                if i < n:
                    self._byte(dc, data[i])
                i += 1
            else:
                if dc and n - i >= W * 8:
                    self.frames += 1
                while i < n:
                    self._byte(dc, data[i])
                    i += 1

    def i2c_read(self, n):
        # reading the status byte: bit 6 is display off
        return bytearray([0x00 if self.on else 0x40] * n)

    def _byte(self, dc, b):
        if dc:
            self._data(b)
        else:
            self._command(b)

    def _data(self, b):
        self.data_bytes += 1
        self.ram[self.page * W + self.col] = b
        if self.mode == 0:  # horizontal
            self.col += 1
            if self.col > self.col_hi:
                self.col = self.col_lo
                self.page += 1
                if self.page > self.page_hi:
                    self.page = self.page_lo
        elif self.mode == 1:  # vertical
            self.page += 1
            if self.page > self.page_hi:
                self.page = self.page_lo
                self.col += 1
                if self.col > self.col_hi:
                    self.col = self.col_lo
        else:  # page: the column wraps within the page
            self.col += 1
            if self.col > 127:
                self.col = self._page_col_start

    _page_col_start = 0

    def _command(self, b):
        if self._cmd is not None:
            self._args.append(b)
            if len(self._args) == _ARGS[self._cmd]:
                self._apply(self._cmd, self._args)
                self._cmd = None
                self._args = []
            return
        self.commands += 1
        if b in _ARGS:
            self._cmd = b
            self._args = []
            return
        if b <= 0x0F:
            self.col = (self.col & 0xF0) | b
            self._page_col_start = self.col
        elif b <= 0x1F:
            self.col = ((b & 0x0F) << 4) | (self.col & 0x0F)
            self._page_col_start = self.col
        elif 0x40 <= b <= 0x7F:
            self.start_line = b & 0x3F
        elif b in (0xA0, 0xA1):
            self.remap = b == 0xA1
        elif b in (0xA4, 0xA5):
            self.entire_on = b == 0xA5
        elif b in (0xA6, 0xA7):
            self.invert = b == 0xA7
        elif b in (0xAE, 0xAF):
            self.on = b == 0xAF
        elif 0xB0 <= b <= 0xB7:
            self.page = b & 7
        elif b in (0xC0, 0xC8):
            self.com_flip = b == 0xC8
        elif b == 0x2E:
            self.scroll = False
        elif b == 0x2F:
            self.scroll = True
        elif b == 0xE3:
            pass
        else:
            self.unknown.append(b)

    def _apply(self, cmd, a):
        if cmd == 0x20:
            self.mode = a[0] & 3
        elif cmd == 0x21:
            self.col_lo, self.col_hi = a[0] & 0x7F, a[1] & 0x7F
            self.col = self.col_lo
        elif cmd == 0x22:
            self.page_lo, self.page_hi = a[0] & 7, a[1] & 7
            self.page = self.page_lo
        elif cmd == 0x81:
            self.contrast = a[0]
        elif cmd == 0x8D:
            self.charge_pump = a[0]
        elif cmd == 0xA8:
            self.mux = a[0] & 0x3F
        elif cmd == 0xD3:
            self.offset = a[0] & 0x3F

    # -- what is seen --
    def ram_pixel(self, col, row):
        return (self.ram[(row >> 3) * W + col] >> (row & 7)) & 1

    def pixel(self, x, y):
        """1 where the panel is lit at (x, y), x to the right, y down."""
        if not self.on or y > self.mux:
            return 0
        if self.entire_on:
            return 1
        # the usual module is built for A1 (column 127 on SEG0) and C8 (COM scan from
        # the bottom): with those, RAM column x, row y shows at (x, y)
        col = x if self.remap else 127 - x
        com = y if self.com_flip else self.mux - y
        row = (com + self.start_line + self.offset) & 63
        v = self.ram_pixel(col, row)
        return v ^ 1 if self.invert else v

    def lit(self):
        """How many pixels are lit (for quick checks and the power budget)."""
        n = 0
        for y in range(H):
            for x in range(W):
                n += self.pixel(x, y)
        return n

    def rows(self, x0=0, y0=0, w=W, h=H):
        """The screen as lines of text, two pixel rows per character (' ▀▄█')."""
        for y in range(y0, y0 + h, 2):
            row = []
            for x in range(x0, x0 + w):
                top = self.pixel(x, y)
                bot = self.pixel(x, y + 1) if y + 1 < y0 + h else 0
                row.append(_BLOCKS[top | (bot << 1)])
            yield "".join(row).rstrip()

    def text(self, x0=0, y0=0, w=W, h=H):
        """The screen as one string (see rows)."""
        return "\n".join(list(self.rows(x0, y0, w, h)))

    def dump(self, out=print):
        """Print the screen row by row (light on a capped heap)."""
        for line in self.rows():
            out(line)

    def png(self, scale=4):
        """The screen as PNG bytes (CPython only): lit pixels pale blue on black."""
        import struct
        import zlib
        w, h = W * scale, H * scale
        raw = bytearray()
        for y in range(h):
            raw.append(0)
            for x in range(w):
                if self.pixel(x // scale, y // scale):
                    raw += b"\x9c\xd8\xff"
                else:
                    raw += b"\x08\x08\x10"

        def chunk(kind, body):
            c = struct.pack(">I", len(body)) + kind + body
            return c + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))
