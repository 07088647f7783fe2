"""A register-level LIS3DH (ST 3-axis accelerometer) on the simulated I2C bus.

What it models, after the ST datasheet (DocID17530) and application note AN3308:
* the register file 0x07..0x3F with the reset values the chip comes up with, WHO_AM_I
  (0x0F) = 0x33, read-only registers that ignore writes;
* the sub-address pointer: bit 7 of the sub-address turns on auto-increment, so
  0xA8 reads OUT_X_L..OUT_Z_H in one transfer;
* the data registers: CTRL_REG1 gives the output data rate (ODR) and low-power bit,
  CTRL_REG4 the full scale (FS) and high-resolution bit; each sample is quantised to
  8 (low power), 10 (normal) or 12 (high resolution) bits, left-justified in 16, at the
  datasheet's nominal sensitivity (1/2/4/12 mg per digit at +-2/4/8/16 g in HR);
* the motion source: a constant, a list of samples at some rate (a motion trace, in g
  in the sensor's own frame) or a function of time; the chip samples it at its ODR;
* the INT1 interrupt generator: INT1_CFG (AOI, axis high/low enables), INT1_THS
  (LSB 16/32/62/186 mg by FS), INT1_DURATION (in samples), the high-pass filter on the
  interrupt path (CTRL_REG2 HP_IA1, reset by reading REFERENCE), latching (CTRL_REG5
  LIR_INT1, cleared by reading INT1_SRC), routing to the INT1 pin (CTRL_REG3 I1_IA1)
  and its polarity (CTRL_REG6 H_LACTIVE), which drives a line of the emulated world.
Not modelled: FIFO, click detection (registers only), 6D modes, the ADCs and the
temperature sensor (they read 0), the self-test.
"""
try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world

WHO_AM_I = 0x33
_RESET = {0x0F: 0x33, 0x1E: 0x10, 0x20: 0x07}
_READ_ONLY = (0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x27, 0x28, 0x29,
              0x2A, 0x2B, 0x2C, 0x2D, 0x2F, 0x31, 0x35, 0x39)
_ODR = (0, 1, 10, 25, 50, 100, 200, 400, 1600, 1344)
_SENS_HR = (1.0, 2.0, 4.0, 12.0)  # mg per digit, 12-bit
_THS_MG = (16.0, 32.0, 62.0, 186.0)
_HP_DIV = (50, 100, 200, 500)  # cut-off ~ ODR / div, per HPCF (AN3308)


class Lis3dh:
    def __init__(self, world=None, addr=0x18, int1_pin=None):
        self.world = world or _world.current()
        self.addr = addr
        self.int1_pin = int1_pin
        self.regs = bytearray(0x40)
        for r in _RESET:
            self.regs[r] = _RESET[r]
        self.ptr = 0
        self.auto = False
        self._static = (0.0, 0.0, 1.0)
        self._samples = None
        self._rate = 100
        self._fn = None
        self._t_sample = 0  # time of the last sample taken (ms, float)
        self._started = None
        self._ref = [0.0, 0.0, 0.0]
        self._hp = [0.0, 0.0, 0.0]
        self._count = 0  # consecutive samples the INT1 condition held
        self._ia = False
        self._src = 0
        self._pin_level = None
        self.samples_taken = 0
        self._last = None
        self.int1_events = 0
        self.world.timed.append(self)
        self.world.bus.attach(self)
        self._drive_pin()

    # -- the motion the chip feels (sensor frame, g) --
    def set_static(self, x, y, z):
        self._static = (x, y, z)
        self._samples = None
        self._fn = None

    def set_trace(self, samples, rate_hz, start_ms=None):
        """`samples`: a list of (x, y, z) in g at `rate_hz`, starting now (or at start_ms);
        before the start and after the end the chip feels the first/last sample."""
        self._samples = samples
        self._rate = rate_hz
        self._fn = None
        self._started = self.world.now() if start_ms is None else start_ms

    def set_function(self, fn):
        """`fn(t_ms)` -> (x, y, z) in g."""
        self._fn = fn
        self._samples = None

    def felt(self, t):
        if self._fn is not None:
            return self._fn(t)
        if self._samples is not None:
            i = int((t - self._started) * self._rate // 1000)
            if i < 0:
                i = 0
            if i >= len(self._samples):
                i = len(self._samples) - 1
            return self._samples[i]
        return self._static

    # -- configuration decoded from the registers --
    def odr(self):
        code = self.regs[0x20] >> 4
        if code >= len(_ODR):
            return 0
        if code == 9 and self.regs[0x20] & 0x08:
            return 5376
        return _ODR[code]

    def bits(self):
        if self.regs[0x20] & 0x08:
            return 8
        if self.regs[0x23] & 0x08:
            return 12
        return 10

    def fs(self):
        return (self.regs[0x23] >> 4) & 3

    def mg_per_digit(self):
        return _SENS_HR[self.fs()] * (1 << (12 - self.bits()))

    # -- time --
    def sync(self, now):
        odr = self.odr()
        if odr == 0 or self.regs[0x20] & 0x07 == 0:
            self._t_sample = now
            return
        period = 1000.0 / odr
        n = 0
        while self._t_sample + period <= now:
            self._t_sample += period
            self._take(self._t_sample)
            n += 1
            if n > 4000:  # a long jump: skip ahead, the chip would have overrun anyway
                self._t_sample = now
                break

    def _take(self, t):
        x, y, z = self.felt(t)
        g = (x, y, z)
        self._last = g
        mgd = self.mg_per_digit()
        shift = 16 - self.bits()
        lim = 1 << (self.bits() - 1)
        en = self.regs[0x20]
        for i in range(3):
            if not en & (1 << i):
                continue
            c = int(round(g[i] * 1000.0 / mgd))
            if c >= lim:
                c = lim - 1
            if c < -lim:
                c = -lim
            raw = (c << shift) & 0xFFFF
            self.regs[0x28 + 2 * i] = raw & 0xFF
            self.regs[0x29 + 2 * i] = raw >> 8
        st = self.regs[0x27]
        if st & 0x08:
            st |= 0x80  # overrun: the last sample was not read
        self.regs[0x27] = st | 0x0F
        self.samples_taken += 1
        self._interrupt(g)

    def _interrupt(self, g):
        ctrl2 = self.regs[0x21]
        div = _HP_DIV[(ctrl2 >> 4) & 3]
        alpha = 6.2832 / div
        for i in range(3):
            self._ref[i] += alpha * (g[i] - self._ref[i])
            self._hp[i] = g[i] - self._ref[i]
        v = self._hp if ctrl2 & 0x01 else g
        cfg = self.regs[0x30]
        enables = cfg & 0x3F
        latched = self.regs[0x24] & 0x08
        if enables == 0 or cfg & 0x40:  # off, or a 6D mode (not modelled)
            cond = False
            bits = 0
        else:
            ths = (self.regs[0x32] & 0x7F) * _THS_MG[self.fs()] / 1000.0
            bits = 0
            for i in range(3):
                a = v[i] if v[i] >= 0 else -v[i]
                if a > ths:
                    bits |= 2 << (2 * i)
                else:
                    bits |= 1 << (2 * i)
            hit = bits & enables
            if cfg & 0x80:
                cond = hit == enables
            else:
                cond = hit != 0
            bits = hit
        if cond:
            self._count += 1
        else:
            self._count = 0
        dur = self.regs[0x33] & 0x7F
        fire = cond and self._count > dur
        if fire:
            if not self._ia:
                self.int1_events += 1
            self._ia = True
            self._src = 0x40 | bits
            if (ctrl2 >> 6) == 3:  # autoreset on interrupt
                self._ref = [g[0], g[1], g[2]]
        elif not latched:
            self._ia = False
            self._src = bits if cond else 0
        self._drive_pin()

    def _drive_pin(self):
        if self.int1_pin is None:
            return
        active = bool(self._ia and self.regs[0x22] & 0x40)
        low = self.regs[0x25] & 0x02
        level = (0 if active else 1) if low else (1 if active else 0)
        if level != self._pin_level:
            self._pin_level = level
            self.world.set_level(self.int1_pin, level)

    # -- the I2C side --
    def _read_reg(self, r):
        if r == 0x31:
            v = self._src | (0x40 if self._ia else 0)
            self._ia = False
            self._src = 0
            self._count = 0
            self._drive_pin()
            return v
        if r == 0x26:  # reading REFERENCE sets the high-pass filter to the present value
            g = self._last if self._last is not None else self.felt(self.world.now())
            for i in range(3):
                self._ref[i] = g[i]
                self._hp[i] = 0.0
            return self.regs[r]
        if r == 0x2D:
            self.regs[0x27] = 0
        if r >= 0x40:
            return 0
        return self.regs[r]

    def _write_reg(self, r, v):
        if r >= 0x40 or r < 0x1E or r in _READ_ONLY:
            return
        if r == 0x24 and v & 0x80:  # BOOT: reload trimming, self-clearing
            v &= 0x7F
        self.regs[r] = v
        if r in (0x22, 0x25):
            self._drive_pin()

    def i2c_write(self, data):
        self.world.sync()
        if not data:
            return  # an address probe
        self.ptr = data[0] & 0x7F
        self.auto = bool(data[0] & 0x80)
        for b in data[1:]:
            self._write_reg(self.ptr, b)
            if self.auto:
                self.ptr = (self.ptr + 1) & 0x7F

    def i2c_read(self, n):
        self.world.sync()
        out = bytearray(n)
        for i in range(n):
            out[i] = self._read_reg(self.ptr)
            if self.auto:
                self.ptr = (self.ptr + 1) & 0x7F
        return out


def to_sensor(sample, mount):
    """A cup-frame sample (x, y, z) as the chip mounted per `mount` feels it.

    `mount` is the board file's list, e.g. ["-x", "y", "-z"]: cup axis i reads
    sign * sensor axis. Inverting it gives the sensor-frame value to feed the chip."""
    out = [0.0, 0.0, 0.0]
    for i in range(3):
        m = mount[i]
        sign = -1.0 if m[0] == "-" else 1.0
        axis = "xyz".index(m[-1])
        out[axis] = sign * sample[i]
    return (out[0], out[1], out[2])
