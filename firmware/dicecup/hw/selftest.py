"""The self-test a maker runs from safe mode: is every part wired right?

On the screen (16x8 characters) and on the serial console:
* the I2C scan, with the parts it recognises (LIS3DH 0x18/0x19, SSD1306 0x3C/0x3D);
* each button: held now (#), pressed at least once (*), not yet (.), and the last
  event (press / long / both);
* live acceleration in g in the cup frame (z = +1.00 when the cup rests on the table)
  and the shake detector's state (`dicecup.hw.motion`, "n/a" until it exists), with
  a count of rolls;
* the battery voltage where the board wires it.

`step(now)` does one round (one sample, button poll, and a screen/status line when
due); `run()` loops it under asyncio at the accelerometer's rate. Tests drive `step`
with simulated time.
"""
from micropython import const

from dicecup.hw.clock import ticks_ms, ticks_diff, asleep_ms

_DRAW_MS = const(200)  # a full screen push is ~25 ms of I2C at 400 kHz
_STATUS_MS = const(1000)
KNOWN = {0x18: "LIS3DH", 0x19: "LIS3DH", 0x3C: "SSD1306", 0x3D: "SSD1306"}


class SelfTest:
    def __init__(self, hw, out=print, clock=None):
        self.hw = hw
        self.out = out
        self.clock = clock or ticks_ms
        self.detector = None
        self.motion = "n/a"
        b = hw.board
        try:
            from dicecup.hw.motion import ShakeDetector
            self.detector = ShakeDetector(rate_hz=b.rate_hz if b else 100)
        except ImportError:
            pass
        self.sample = (0.0, 0.0, 0.0)
        self.rolls = 0
        self.last = "-"
        self.volts = None
        self._draw_t = None
        self._status_t = None
        self.steps = 0
        if hw.buttons is not None:
            hw.buttons.on_event = self._button

    def _button(self, kind, mask):
        self.last = self.hw.buttons.describe((kind, mask))
        self.out("selftest: button %s" % self.last)

    def start(self):
        """Print the scan and the board; draw the first screen."""
        hw = self.hw
        b = hw.board
        if b is not None:
            self.out("selftest: board %s (%s) I2C SDA=%d SCL=%d" % (b.name, b.chip, b.sda, b.scl))
        parts = []
        for a in hw.found:
            parts.append("0x%02X %s" % (a, KNOWN.get(a, "?")))
        self.out("selftest: i2c scan: %s" % (", ".join(parts) if parts else "nothing answers"))
        for e in hw.errors:
            self.out("selftest: problem: %s" % e)
        if b is not None:
            from dicecup.hw.power import battery_volts
            try:
                self.volts = battery_volts(b)
            except Exception:
                self.volts = None
            if self.volts is not None:
                self.out("selftest: battery %.2f V" % self.volts)

    def step(self, now=None):
        if now is None:
            now = self.clock()
        hw = self.hw
        self.steps += 1
        if hw.accel is not None:
            try:
                self.sample = hw.accel.read()
            except OSError:
                self.sample = (0.0, 0.0, 0.0)
            if self.detector is not None:
                if self.detector.feed(self.sample[0], self.sample[1], self.sample[2]) == "roll":
                    self.rolls += 1
                    self.out("selftest: roll %d" % self.rolls)
                self.motion = self.detector.state
        if hw.buttons is not None:
            hw.buttons.poll(now)
        if self._draw_t is None or ticks_diff(now, self._draw_t) >= _DRAW_MS:
            self._draw_t = now
            self.draw()
        if self._status_t is None or ticks_diff(now, self._status_t) >= _STATUS_MS:
            self._status_t = now
            self.out(self.status())

    def _marks(self):
        bs = self.hw.buttons
        out = []
        for b in bs.buttons:
            out.append("#" if b.down else ("*" if b.ever else "."))
        return out

    def status(self):
        x, y, z = self.sample
        s = "selftest: accel x=%+.2f y=%+.2f z=%+.2f g | motion %s" % (x, y, z, self.motion)
        if self.detector is not None:
            s += " rolls %d" % self.rolls
        if self.hw.buttons is not None:
            names = self.hw.buttons.names
            marks = self._marks()
            parts = []
            for i in range(len(names)):
                parts.append("%s%s" % (names[i], marks[i]))
            s += " | buttons %s" % " ".join(parts)
        return s

    def draw(self):
        d = self.hw.display
        if d is None:
            return
        fb = d.fb
        fb.fill(0)
        title = "SELF-TEST"
        if self.volts is not None:
            title = "SELF-TEST %.2fV" % self.volts
        d.line(0, title, True)
        addrs = " ".join(["%02x" % a for a in self.hw.found])
        d.text("i2c " + (addrs or "none!"), 0, 8, 1)
        if self.hw.accel is None:
            d.text("accel missing", 0, 16, 1)
        else:
            x, y, z = self.sample
            d.text("x%+.2f y%+.2f" % (x, y), 0, 16, 1)
            d.text("z%+.2f g" % z, 0, 24, 1)
        d.text("motion %s" % self.motion, 0, 32, 1)
        if self.hw.buttons is not None:
            names = self.hw.buttons.names
            marks = self._marks()
            row1 = ""
            row2 = ""
            for i in range(len(names)):
                row1 += names[i][:3] + " "
                row2 += marks[i] + "   "
            d.text(row1, 0, 40, 1)
            d.text(row2, 0, 48, 1)
        d.text(self.last[:16], 0, 56, 1)
        d.show()

    async def run(self, duration_ms=None):
        """Loop until `duration_ms` (None: until interrupted with Ctrl-C)."""
        rate = self.hw.board.rate_hz if self.hw.board else 100
        period = 1000 // rate
        t0 = self.clock()
        self.start()
        while duration_ms is None or ticks_diff(self.clock(), t0) < duration_ms:
            self.step()
            await asleep_ms(period)
