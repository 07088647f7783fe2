"""The cup's LIS3DH accelerometer, through Adafruit's `adafruit_lis3dh` driver.

The driver brings the chip up (WHO_AM_I check, reboot, high resolution, block data
update, INT1 latched) and sets range and data rate. Samples are read here from the
driver's register access in one 6-byte auto-increment transfer from OUT_X_L (0xA8)
and turned into g in the cup's frame (the board file's `accel.mount`), at the
datasheet's nominal sensitivity (high-resolution mode: 1/2/4/12 mg per digit at
+-2/4/8/16 g). The driver's own `acceleration` (m/s^2, one more register read per
sample) stays available as `accel.driver.acceleration`.

Motion wake (`arm_wake`): the activity interrupt on INT1 per ST's AN3308 -- INT1_CFG
(0x30) OR of the X/Y/Z high events, INT1_THS (0x32), INT1_DURATION (0x33), the
high-pass filter on the interrupt path (CTRL_REG2 HP_IA1) so gravity and a tilted
resting cup do not count, IA1 routed to the INT1 pin (CTRL_REG3 I1_IA1), active high
(CTRL_REG6), latched until INT1_SRC (0x31) is read.
"""
from micropython import const


_CTRL1 = const(0x20)
_CTRL2 = const(0x21)
_CTRL3 = const(0x22)
_CTRL5 = const(0x24)
_CTRL6 = const(0x25)
_REFERENCE = const(0x26)
_OUT_X_L_AUTO = const(0xA8)
_INT1_CFG = const(0x30)
_INT1_SRC = const(0x31)
_INT1_THS = const(0x32)
_INT1_DUR = const(0x33)

# constant tuples (flash when frozen; dicts would be built in RAM)
_RATES = const((1, 10, 25, 50, 100, 200, 400))       # Hz; the rate code is the index + 1
_RANGES = const((2, 4, 8, 16))                         # g; the range code is the index
_MG_DIGIT = (1.0, 2.0, 4.0, 12.0)  # by range code: high resolution, 12-bit
_THS_MG = (16.0, 32.0, 62.0, 186.0)  # by range code: INT1_THS LSB


class Accel:
    """`Accel(i2c, board)`: raises DeviceMissing if no LIS3DH answers."""

    def __init__(self, i2c, board):
        import adafruit_lis3dh
        self.addr = board.accel_addr
        from dicecup.hw.errors import DeviceMissing   # (here: hw/trim.py unloads it after boot)
        try:
            self.driver = adafruit_lis3dh.LIS3DH_I2C(i2c, address=self.addr)
        except ValueError as e:
            raise DeviceMissing("LIS3DH accelerometer", self.addr, board.sda, board.scl,
                                None if "No I2C device" in str(e) else str(e))
        except RuntimeError:
            raise DeviceMissing("LIS3DH accelerometer", self.addr, board.sda, board.scl,
                                "something else answers there: WHO_AM_I is not 0x33")
        except OSError as e:
            raise DeviceMissing("LIS3DH accelerometer", self.addr, board.sda, board.scl,
                                "bus error %s" % e)
        self.range_g = board.range_g
        self.rate_hz = board.rate_hz
        self.driver.range = _RANGES.index(board.range_g)
        self.driver.data_rate = _RATES.index(board.rate_hz) + 1
        self._scale = _MG_DIGIT[_RANGES.index(board.range_g)] / 16000.0  # raw 16-bit left-justified -> g
        axes = []
        signs = []
        for m in board.mount:
            axes.append("xyz".index(m[-1]))
            signs.append(-1 if m[0] == "-" else 1)
        self._ax = tuple(axes)
        self._sg = tuple(signs)
        self._raw = [0, 0, 0]
        self._wake_ctrl1 = None

    def read(self):
        """One sample (x, y, z) in g, cup frame."""
        buf = self.driver._read_register(_OUT_X_L_AUTO, 6)
        raw = self._raw
        for i in range(3):
            v = buf[2 * i] | (buf[2 * i + 1] << 8)
            raw[i] = v - 65536 if v & 0x8000 else v
        s = self._scale
        ax = self._ax
        sg = self._sg
        return (sg[0] * raw[ax[0]] * s, sg[1] * raw[ax[1]] * s, sg[2] * raw[ax[2]] * s)

    def _reg(self, reg, value):
        if value is None:
            return self.driver._read_register_byte(reg)
        self.driver._write_register_byte(reg, value)
        return value

    def arm_wake(self, threshold_g=0.15, duration_ms=20, rate_hz=25):
        """Raise INT1 when the cup moves by more than `threshold_g` (beyond gravity) for
        `duration_ms`; the chip runs at `rate_hz` (low current) until `disarm_wake()`.
        Returns the register values written, for the record."""
        if self._wake_ctrl1 is None:
            self._wake_ctrl1 = self._reg(_CTRL1, None)
        self._reg(_CTRL1, ((_RATES.index(rate_hz) + 1) << 4) | 0x07)
        ths = int(threshold_g * 1000.0 / _THS_MG[_RANGES.index(self.range_g)] + 0.999)
        ths = 1 if ths < 1 else (127 if ths > 127 else ths)
        dur = int(duration_ms * rate_hz / 1000)
        dur = 127 if dur > 127 else dur
        self._reg(_CTRL2, 0x01)  # high-pass filter on the INT1 generator
        self._reg(_CTRL5, self._reg(_CTRL5, None) | 0x08)  # latch INT1
        self._reg(_CTRL6, 0x00)  # INT1 active high
        self._reg(_INT1_THS, ths)
        self._reg(_INT1_DUR, dur)
        self._reg(_REFERENCE, None)  # reading it resets the filter to the present attitude
        self._reg(_INT1_CFG, 0x2A)  # OR of X, Y, Z high events
        self._reg(_INT1_SRC, None)  # drop anything latched before
        self._reg(_CTRL3, 0x40)  # IA1 on the INT1 pin
        return ths, dur

    def wake_source(self):
        """INT1_SRC (reading it releases the latched INT1 line): bit 6 set = activity."""
        return self._reg(_INT1_SRC, None)

    def disarm_wake(self):
        self._reg(_CTRL3, 0x00)
        self._reg(_INT1_CFG, 0x00)
        self._reg(_CTRL2, 0x00)
        self._reg(_INT1_SRC, None)
        if self._wake_ctrl1 is not None:
            self._reg(_CTRL1, self._wake_ctrl1)
            self._wake_ctrl1 = None
