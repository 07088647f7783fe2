"""The board file's `power` section: how the LiPo reaches the board, for the wiring.

The cup itself never reads this section (its firmware only needs `battery` for the
ADC), so it is checked on the host, by `dicecup hw check` and the wiring generator,
and raises the same BoardError (board, key, problem) as the firmware's checks:

    "power": {
      "feed": "3V3" | "BAT",        the board pin the battery's power enters by:
                                    3V3 through an external LDO, BAT for a board
                                    with its own charger and regulator (XIAO)
      "charger":   {"part": "...", "on_board": false},
      "regulator": {"part": "...", "on_board": false},
      "switch": "...",              the slide switch, in the battery's + lead
      "divider": {"r1_ohm": 100000, "r2_ohm": 100000, "c_nf": 100},
      "decoupling": {"oled_nf": 100, "accel_nf": 100, "bulk_uf": 100}
    }

R1 runs from the switched battery + to the tap (the `battery.pin` ADC input), R2 from
the tap to GND, so (R1 + R2) / R2 must be the `battery.divider` the firmware scales by.
"""
from dicecup.hw.errors import BoardError

FEEDS = ("3V3", "BAT")


class Power:
    """A checked power section (attributes as the keys above, resistors in ohms)."""

    def __init__(self, d):
        self.feed = d["feed"]
        self.charger = d["charger"]["part"]
        self.charger_on_board = d["charger"]["on_board"]
        self.regulator = d["regulator"]["part"]
        self.regulator_on_board = d["regulator"]["on_board"]
        self.switch = d["switch"]
        self.r1 = d["divider"]["r1_ohm"]
        self.r2 = d["divider"]["r2_ohm"]
        self.c_nf = d["divider"]["c_nf"]
        self.oled_nf = d["decoupling"]["oled_nf"]
        self.accel_nf = d["decoupling"]["accel_nf"]
        self.bulk_uf = d["decoupling"]["bulk_uf"]


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check(d, board):
    """The power section of the parsed board file `d` (its Board already validated as
    `board`) as a Power; None when the file has none. Raises BoardError."""
    def fail(key, problem):
        raise BoardError(board.name, key, problem, board.path)

    p = d.get("power")
    if p is None:
        return None
    if not isinstance(p, dict):
        fail("power", "must be an object")

    def need(obj, key, path, kind):
        if key not in obj:
            fail(path, "missing")
        v = obj[key]
        ok = {"str": lambda: isinstance(v, str) and v.strip() != "",
              "bool": lambda: isinstance(v, bool),
              "dict": lambda: isinstance(v, dict),
              "num": lambda: _is_num(v) and v > 0}[kind]()
        if not ok:
            fail(path, {"str": "must be a non-empty string", "bool": "must be true or false",
                        "dict": "must be an object", "num": "must be a number above 0"}[kind])
        return v

    feed = need(p, "feed", "power.feed", "str")
    if feed not in FEEDS:
        fail("power.feed", "must be \"3V3\" (through an external regulator) or \"BAT\" "
             "(the board's own charger and regulator), not \"%s\"" % feed)
    for part in ("charger", "regulator"):
        sec = need(p, part, "power." + part, "dict")
        need(sec, "part", "power.%s.part" % part, "str")
        need(sec, "on_board", "power.%s.on_board" % part, "bool")
    need(p, "switch", "power.switch", "str")
    div = need(p, "divider", "power.divider", "dict")
    for k in ("r1_ohm", "r2_ohm", "c_nf"):
        need(div, k, "power.divider." + k, "num")
    dec = need(p, "decoupling", "power.decoupling", "dict")
    for k in ("oled_nf", "accel_nf", "bulk_uf"):
        need(dec, k, "power.decoupling." + k, "num")

    if feed == "3V3" and p["regulator"]["on_board"]:
        fail("power.regulator.on_board", "feed \"3V3\" needs an external regulator: the LiPo's "
             "4.2 V on a 3V3 pin would damage the chip")
    if feed == "BAT" and not p["regulator"]["on_board"]:
        fail("power.feed", "\"BAT\" means the board's own regulator: set regulator.on_board "
             "true, or feed \"3V3\" from the external one")
    if feed == "3V3" and p["charger"]["on_board"]:
        fail("power.charger.on_board", "a charger on the board charges through its BAT pins: "
             "use feed \"BAT\"")
    if board.battery_pin is None:
        fail("power.divider", "the file has no battery pin (\"battery\": null) for the divider's tap")
    ratio = (div["r1_ohm"] + div["r2_ohm"]) / div["r2_ohm"]
    if abs(ratio - board.battery_divider) > 0.01 * board.battery_divider:
        fail("power.divider", "(R1 + R2) / R2 = %.3g but battery.divider says %.3g"
             % (ratio, board.battery_divider))
    if div["r1_ohm"] + div["r2_ohm"] < 20000:
        fail("power.divider", "R1 + R2 = %d ohm drains the battery: use 20 kohm or more"
             % (div["r1_ohm"] + div["r2_ohm"]))
    return Power(p)
