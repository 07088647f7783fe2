"""The board file's checks (see board.py for the keys). Imported by `board.load()`
for the one validation at boot and then dropped from memory again."""
from micropython import const

from dicecup.hw.board import Board, Button
from dicecup.hw.errors import BoardError

_MAX_BUTTONS = const(4)
_MIN_BUTTONS = const(3)

# chip: (highest GPIO, absent, flash, console/USB, input-only, ADC1, RTC, boot strap)
_CHIPS = {
    "esp32": (39, (20, 24, 28, 29, 30, 31), (6, 7, 8, 9, 10, 11), (1, 3),
              (34, 35, 36, 37, 38, 39), (32, 33, 34, 35, 36, 37, 38, 39),
              (0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39), 0),
    "esp32s3": (48, (22, 23, 24, 25), (26, 27, 28, 29, 30, 31, 32), (19, 20, 43, 44),
                (), (1, 2, 3, 4, 5, 6, 7, 8, 9, 10), tuple(range(22)), 0),
    "esp32c3": (21, (), (12, 13, 14, 15, 16, 17), (18, 19, 20, 21),
                (), (0, 1, 2, 3, 4), (0, 1, 2, 3, 4, 5), 9),
}
_RATES = const((1, 10, 25, 50, 100, 200, 400))
_RANGES = const((2, 4, 8, 16))


class _Check:
    """Collects the context for error messages while validating one file."""

    def __init__(self, d, path):
        self.d = d
        self.path = path
        name = d.get("board") if isinstance(d, dict) else None
        if not isinstance(name, str) or not name:
            name = _basename(path) if path else "?"
        self.name = name
        self.used = {}
        self.chip = "esp32"
        self.reserved = ()

    def fail(self, key, problem):
        raise BoardError(self.name, key, problem, self.path)

    def get(self, obj, key, path, kind, default=None, optional=False):
        if not isinstance(obj, dict):
            self.fail(path.rsplit(".", 1)[0] if "." in path else path, "must be an object")
        if key not in obj:
            if optional:
                return default
            self.fail(path, "missing")
        v = obj[key]
        if v is None and optional:
            return default
        if kind == "int":
            ok = isinstance(v, int) and not isinstance(v, bool)
            what = "a whole number"
        elif kind == "num":
            ok = isinstance(v, (int, float)) and not isinstance(v, bool)
            what = "a number"
        elif kind == "str":
            ok = isinstance(v, str)
            what = "a string"
        elif kind == "list":
            ok = isinstance(v, list)
            what = "a list"
        else:
            ok = isinstance(v, dict)
            what = "an object"
        if not ok:
            self.fail(path, "must be %s, not %s" % (what, _json_repr(v)))
        return v


def _basename(path):
    return path.rsplit("/", 1)[-1]


def _json_repr(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return '"%s"' % v
    if isinstance(v, (list, dict)):
        return "a list" if isinstance(v, list) else "an object"
    return str(v)


def _pin(c, obj, key, path, role, output=False, pull=None):
    """A GPIO number that exists, is free and suits its role."""
    v = c.get(obj, key, path, "int")
    spec = _CHIPS[c.chip]
    if v < 0 or v > spec[0] or v in spec[1]:
        c.fail(path, "GPIO %d does not exist on %s" % (v, c.chip))
    if v in spec[2]:
        c.fail(path, "GPIO %d is wired to the SPI flash on %s" % (v, c.chip))
    if v in spec[3]:
        c.fail(path, "GPIO %d is the serial console or USB on %s" % (v, c.chip))
    if v in c.reserved:
        c.fail(path, "GPIO %d is reserved on this board (see \"reserved\")" % v)
    if output and v in spec[4]:
        c.fail(path, "GPIO %d is input-only on %s and %s must drive the line" % (v, c.chip, role))
    if pull and v in spec[4]:
        c.fail(path, "GPIO %d has no internal pull-%s on %s: use \"pull\": \"none\" and "
               "an external resistor" % (v, pull, c.chip))
    if v in c.used:
        c.fail(path, "GPIO %d is already used by %s" % (v, c.used[v]))
    c.used[v] = role
    return v


def _addr(c, obj, path):
    v = c.get(obj, "addr", path + ".addr", "int")
    if v < 0x08 or v > 0x77:
        c.fail(path + ".addr", "I2C address %d is outside 0x08..0x77" % v)
    return v


def validate(d, path=None, chip=None):
    """Check a parsed board file; returns a Board or raises BoardError.
    `chip`, when given (on the device: `detect_chip()`), must match the file's."""
    c = _Check(d, path)
    if not isinstance(d, dict):
        c.fail(None, "the file must hold one JSON object")
    b = Board()
    b.name = c.name
    b.path = path
    b.title = c.get(d, "title", "title", "str", "", optional=True)
    b.chip = c.get(d, "chip", "chip", "str")
    if b.chip not in _CHIPS:
        c.fail("chip", "unknown chip \"%s\" (known: esp32, esp32s3, esp32c3)" % b.chip)
    if chip and chip != b.chip:
        c.fail("chip", "the file is for %s but this cup runs on %s" % (b.chip, chip))
    c.chip = b.chip
    res = c.get(d, "reserved", "reserved", "list", [], optional=True)
    for i in range(len(res)):
        if not isinstance(res[i], int) or isinstance(res[i], bool):
            c.fail("reserved[%d]" % i, "must be a GPIO number")
    c.reserved = tuple(res)
    b.reserved = c.reserved
    b.rtc_pins = _CHIPS[b.chip][6]

    i2c = c.get(d, "i2c", "i2c", "dict")
    b.i2c_id = c.get(i2c, "id", "i2c.id", "int", 0, optional=True)
    b.sda = _pin(c, i2c, "sda", "i2c.sda", "I2C SDA", output=True)
    b.scl = _pin(c, i2c, "scl", "i2c.scl", "I2C SCL", output=True)
    b.freq = c.get(i2c, "freq", "i2c.freq", "int", 400000, optional=True)
    if b.freq < 10000 or b.freq > 1000000:
        c.fail("i2c.freq", "%d Hz is outside 10 kHz..1 MHz" % b.freq)

    disp = c.get(d, "display", "display", "dict")
    b.display_addr = _addr(c, disp, "display")
    b.display_w = c.get(disp, "width", "display.width", "int", 128, optional=True)
    b.display_h = c.get(disp, "height", "display.height", "int", 64, optional=True)
    if b.display_w != 128 or b.display_h not in (32, 64):
        c.fail("display", "only 128x64 and 128x32 SSD1306 panels are supported")

    acc = c.get(d, "accel", "accel", "dict")
    b.accel_addr = _addr(c, acc, "accel")
    if b.accel_addr == b.display_addr:
        c.fail("accel.addr", "0x%02X is the display's address too" % b.accel_addr)
    if "int1" in acc and acc["int1"] is not None:
        b.int1 = _pin(c, acc, "int1", "accel.int1", "LIS3DH INT1")
    b.range_g = c.get(acc, "range_g", "accel.range_g", "int", 8, optional=True)
    if b.range_g not in _RANGES:
        c.fail("accel.range_g", "must be one of 2, 4, 8, 16 (g)")
    b.rate_hz = c.get(acc, "rate_hz", "accel.rate_hz", "int", 100, optional=True)
    if b.rate_hz not in _RATES:
        c.fail("accel.rate_hz", "must be one of 1, 10, 25, 50, 100, 200, 400 (Hz)")
    b.mount = _mount(c, c.get(acc, "mount", "accel.mount", "list"))

    btns = c.get(d, "buttons", "buttons", "list")
    if len(btns) < _MIN_BUTTONS or len(btns) > _MAX_BUTTONS:
        c.fail("buttons", "a cup has 3 or 4 buttons, this file lists %d" % len(btns))
    for i in range(len(btns)):
        b.buttons.append(_button(c, btns[i], "buttons[%d]" % i, b.buttons))

    safe = c.get(d, "safe_button", "safe_button", "str")
    names = b.button_names()
    if safe not in names:
        c.fail("safe_button", "\"%s\" is not one of the buttons (%s)" % (safe, ", ".join(names)))
    b.safe_button = names.index(safe)
    if b.buttons[b.safe_button].pin == _CHIPS[b.chip][7]:
        c.fail("safe_button", "GPIO %d is the boot strapping pin: held at power-on it "
               "starts the ROM downloader, not safe mode" % _CHIPS[b.chip][7])

    bat = c.get(d, "battery", "battery", "dict", None, optional=True)
    if bat is not None:
        b.battery_pin = _pin(c, bat, "pin", "battery.pin", "battery sense")
        if b.battery_pin not in _CHIPS[b.chip][5]:
            c.fail("battery.pin", "GPIO %d is not an ADC1 pin on %s (ADC2 stops working "
                   "while the radio is on)" % (b.battery_pin, b.chip))
        b.battery_divider = c.get(bat, "divider", "battery.divider", "num")
        if b.battery_divider < 1:
            c.fail("battery.divider", "must be at least 1 (battery volts / ADC volts)")
        b.full_v = c.get(bat, "full_v", "battery.full_v", "num", 4.2, optional=True)
        b.empty_v = c.get(bat, "empty_v", "battery.empty_v", "num", 3.3, optional=True)
        if b.empty_v >= b.full_v:
            c.fail("battery.empty_v", "must be below full_v")
    return b


def _mount(c, m):
    path = "accel.mount"
    if len(m) != 3:
        c.fail(path, "needs 3 entries (the sensor axes giving cup x, y, z)")
    axes = []
    signs = 1
    for i in range(3):
        a = m[i]
        if not isinstance(a, str) or len(a) < 1 or len(a) > 2 or a[-1] not in "xyz" or (
                len(a) == 2 and a[0] not in "+-"):
            c.fail("%s[%d]" % (path, i), "must be an axis like \"x\", \"-y\", \"+z\"")
        axes.append("xyz".index(a[-1]))
        if a[0] == "-":
            signs = -signs
    if sorted(axes) != [0, 1, 2]:
        c.fail(path, "must use each of x, y, z once")
    # a permutation's parity times the signs: +1 for a rotation, -1 for a mirror image
    parity = 1
    p = list(axes)
    for i in range(3):
        while p[i] != i:
            j = p[i]
            p[i], p[j] = p[j], p[i]
            parity = -parity
    if parity * signs != 1:
        c.fail(path, "describes a mirror image, which no mounting can give: flip the sign of one axis")
    out = []
    for a in m:
        out.append(a if a[0] in "+-" else "+" + a)
    return tuple(out)


def _button(c, obj, path, earlier):
    if not isinstance(obj, dict):
        c.fail(path, "must be an object")
    name = c.get(obj, "name", path + ".name", "str")
    if not name:
        c.fail(path + ".name", "must not be empty")
    for other in earlier:
        if other.name == name:
            c.fail(path + ".name", "\"%s\" names two buttons" % name)
    pull = c.get(obj, "pull", path + ".pull", "str")
    if pull not in ("up", "down", "none"):
        c.fail(path + ".pull", "must be \"up\", \"down\" or \"none\"")
    active = c.get(obj, "active", path + ".active", "int")
    if active not in (0, 1):
        c.fail(path + ".active", "must be 0 (pressed pulls the line low) or 1")
    if pull == "up" and active == 1:
        c.fail(path, "pull \"up\" with active 1: a pressed button would read like a released one")
    if pull == "down" and active == 0:
        c.fail(path, "pull \"down\" with active 0: a pressed button would read like a released one")
    pin = _pin(c, obj, "pin", path + ".pin", "button " + name,
               pull=pull if pull != "none" else None)
    return Button(name, pin, None if pull == "none" else pull, active)
