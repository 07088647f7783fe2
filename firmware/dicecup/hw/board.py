"""The board file: which pins this cup's parts hang on, read once at boot.

On the cup the file is `/board.json` (the flash bundle copies
`hardware/boards/<name>.json` there). Its keys, all checked here:

    board        name, e.g. "esp32-devkitc"           title   free text
    chip         "esp32" | "esp32s3" | "esp32c3"
    reserved     optional list of GPIOs the board uses for something else
    i2c          {"id": 0, "sda": 21, "scl": 22, "freq": 400000}
    display      {"addr": 60, "width": 128, "height": 64}       SSD1306
    accel        {"addr": 24, "int1": 34 | null, "range_g": 2|4|8|16,
                  "rate_hz": 1|10|25|50|100|200|400, "mount": ["-x", "y", "-z"]}
    buttons      3 or 4 of {"name": "ok", "pin": 26, "pull": "up"|"down"|"none",
                            "active": 0|1}
    safe_button  name of the button held at power-on for safe mode
    battery      {"pin": 35, "divider": 2.0, "full_v": 4.2, "empty_v": 3.3} | null
    mechanical   the enclosure's sizes: checked on the host (dicecup_host/mechanical.py),
                 left out of the cup's copy by the flash bundle, ignored here

`accel.mount` says how the LIS3DH sits in the cup: entry i is the sensor axis (with
sign) that gives cup axis i, so the samples come out in the cup's frame: x to the
player's right, y away from the player, z up when the cup rests on the table. It
must be a rotation (a chip cannot be mounted mirror-imaged).

The checks live in `boardcheck.py`, which `load()` imports and lets go of again
(the cup needs them once, at boot). A problem raises `BoardError` naming the board, the key and what is wrong. Pin rules
come from the chips' datasheets: pins that do not exist, that the SPI flash, the
serial console or USB use, input-only pins for outputs or internal pulls, ADC2 pins
(unusable while the radio is on) for the battery, and the boot-mode strapping pin
for the safe-mode button (holding it at power-on starts the ROM downloader instead).
"""
import json


PATH = "/board.json"


class Button:
    """One button: `name`, `pin`, `pull` ("up", "down", None) and `active` level."""

    def __init__(self, name, pin, pull, active):
        self.name = name
        self.pin = pin
        self.pull = pull
        self.active = active


class Board:
    """A validated board file. Attributes are plain values (see the module doc)."""

    def __init__(self):
        self.name = ""
        self.title = ""
        self.chip = ""
        self.path = None
        self.i2c_id = 0
        self.sda = 0
        self.scl = 0
        self.freq = 400000
        self.display_addr = 0x3C
        self.display_w = 128
        self.display_h = 64
        self.accel_addr = 0x18
        self.int1 = None
        self.range_g = 8
        self.rate_hz = 100
        self.mount = ("x", "y", "z")
        self.buttons = []
        self.safe_button = 0
        self.battery_pin = None
        self.battery_divider = 2.0
        self.full_v = 4.2
        self.empty_v = 3.3
        self.reserved = ()
        self.rtc_pins = ()

    def button_names(self):
        return [b.name for b in self.buttons]


def _basename(path):
    return path.rsplit("/", 1)[-1]


def detect_chip():
    """The chip MicroPython or CircuitPython runs on ("esp32", "esp32s3", "esp32c3"),
    None off-device. CircuitPython may spell it "ESP32-S3"."""
    import sys
    m = getattr(sys.implementation, "_machine", "").replace("-", "")
    if "ESP32S3" in m:
        return "esp32s3"
    if "ESP32C3" in m:
        return "esp32c3"
    if "ESP32" in m and "ESP32S2" not in m and "ESP32C6" not in m:
        return "esp32"
    return None


def load(path=PATH, chip=None):
    """Read and validate a board file; raises BoardError (never anything else)."""
    from dicecup.hw.errors import BoardError   # (here: hw/trim.py unloads it after boot)
    name = _basename(path)
    try:
        f = open(path)
    except OSError:
        raise BoardError(name, None, "file not found: copy hardware/boards/<your board>.json "
                         "to the cup as %s" % PATH, path)
    try:
        try:
            d = json.load(f)
        except ValueError as e:
            raise BoardError(name, None, "not valid JSON (%s)" % e, path)
    finally:
        f.close()
    return from_dict(d, path, chip)


def from_dict(d, path, chip):
    """Validate a parsed board file (see boardcheck); returns a Board or raises
    BoardError. The checking code is dropped from memory afterwards."""
    import sys
    from dicecup.hw import boardcheck
    try:
        return boardcheck.validate(d, path, chip)
    finally:
        sys.modules.pop("dicecup.hw.boardcheck", None)
        import dicecup.hw
        try:
            delattr(dicecup.hw, "boardcheck")
        except AttributeError:
            pass


def guess_i2c(path):
    """Best-effort (sda, scl, display addr) for showing an error when the board file
    is broken: the file's own values where they read as numbers, else the chip's usual
    pins. Never raises."""
    chip = detect_chip() or "esp32"
    sda, scl, addr = {"esp32": (21, 22), "esp32s3": (8, 9), "esp32c3": (6, 7)}[chip] + (0x3C,)
    try:
        f = open(path)
        try:
            d = json.load(f)
        finally:
            f.close()
        i2c = d.get("i2c", {})
        if isinstance(i2c.get("sda"), int):
            sda = i2c["sda"]
        if isinstance(i2c.get("scl"), int):
            scl = i2c["scl"]
        disp = d.get("display", {})
        if isinstance(disp.get("addr"), int):
            addr = disp["addr"]
    except Exception:
        pass
    return sda, scl, addr

