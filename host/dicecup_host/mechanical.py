"""The sizes the enclosure is built from: a board file's `mechanical` section and
`hardware/enclosure/parts.json` (the other parts). Checked here, on the host: the cup
never reads them (its own check, dicecup.hw.boardcheck, ignores the section).

A board file's section (mm; the PCB's own frame: x across its width from one long
edge, y along its length from the end without USB, z up from its underside):

    "mechanical": {
      "source": "where the figures come from",
      "pcb":   {"w": 27.9, "l": 54.4, "t": 1.6},
      "above": 3.5,        tallest part above the PCB (module shield, USB receptacle)
      "below": 2.5,        below it (header plastic, pins cut flush; solder)
      "usb":   [{"type": "micro-b" | "usb-c", "x": 13.95, "w": 8.0, "h": 3.0,
                 "overhang": 0.6}],     receptacles on the end y = l, centred at x
      "holes": [{"x": 2.5, "y": 2.5, "d": 2.2}]    mounting holes (may be empty)
    }

Every problem raises BoardError (or PartsError for parts.json) naming the key, the
one line `dicecup hw check` and `dicecup enclosure` print.
"""
import json

from dicecup.hw.errors import BoardError

from dicecup_host import mpy

PARTS = mpy.ROOT / "hardware" / "enclosure" / "parts.json"
USB_TYPES = ("micro-b", "usb-c")


class PartsError(ValueError):
    pass


def _num(fail, obj, key, path, lo=0.0, hi=1000.0, lo_ok=False):
    """A number in (lo, hi] (or [lo, hi] when lo_ok) at obj[key]."""
    if not isinstance(obj, dict):
        fail(path.rsplit(".", 1)[0], "must be an object")
    if key not in obj:
        fail(path, "missing")
    v = obj[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
        fail(path, "must be a number (mm), not %s" % json.dumps(v))
    if v > hi or v < lo or (v == lo and not lo_ok):
        fail(path, "%s mm is outside %s%s..%s" % (v, "[" if lo_ok else "(", lo, hi))
    return float(v)


def _obj(fail, obj, key, path, kind=dict):
    if key not in obj:
        fail(path, "missing")
    v = obj[key]
    if not isinstance(v, kind):
        fail(path, "must be %s, not %s" % ("an object" if kind is dict else "a list", json.dumps(v)[:40]))
    return v


def board_mechanical(data, path=None):
    """The checked `mechanical` section of a parsed board file as plain dicts of
    floats, or None when the file has none. Raises BoardError."""
    name = data.get("board") if isinstance(data, dict) else None
    name = name if isinstance(name, str) and name else str(path or "?").rsplit("/", 1)[-1]

    def fail(key, problem):
        raise BoardError(name, key, problem, path)

    if not isinstance(data, dict) or data.get("mechanical") is None:
        return None
    m = data["mechanical"]
    if not isinstance(m, dict):
        fail("mechanical", "must be an object")
    src = m.get("source")
    if not isinstance(src, str) or len(src.strip()) < 8:
        fail("mechanical.source", "say where the figures come from (a datasheet, a drawing)")
    pcb = _obj(fail, m, "pcb", "mechanical.pcb")
    out = {"source": src,
           "w": _num(fail, pcb, "w", "mechanical.pcb.w", 5, 150),
           "l": _num(fail, pcb, "l", "mechanical.pcb.l", 5, 150),
           "t": _num(fail, pcb, "t", "mechanical.pcb.t", 0.4, 3.2),
           "above": _num(fail, m, "above", "mechanical.above", 0, 20, lo_ok=True),
           "below": _num(fail, m, "below", "mechanical.below", 0, 20, lo_ok=True),
           "usb": [], "holes": []}
    usbs = _obj(fail, m, "usb", "mechanical.usb", list)
    if not usbs:
        fail("mechanical.usb", "list the board's USB receptacle(s): the cup charges through one")
    for i, u in enumerate(usbs):
        p = "mechanical.usb[%d]" % i
        if not isinstance(u, dict):
            fail(p, "must be an object")
        if u.get("type") not in USB_TYPES:
            fail(p + ".type", "must be one of %s, not %s" % (", ".join(USB_TYPES), json.dumps(u.get("type"))))
        c = {"type": u["type"], "x": _num(fail, u, "x", p + ".x", 0, out["w"], lo_ok=True),
             "w": _num(fail, u, "w", p + ".w", 1, 20), "h": _num(fail, u, "h", p + ".h", 0.5, 10),
             "overhang": _num(fail, u, "overhang", p + ".overhang", 0, 5, lo_ok=True)}
        if c["x"] - c["w"] / 2 < -0.01 or c["x"] + c["w"] / 2 > out["w"] + 0.01:
            fail(p + ".x", "a %.2f mm wide receptacle centred at %.2f does not sit on the %.1f mm edge"
                 % (c["w"], c["x"], out["w"]))
        if c["h"] > out["above"]:
            fail(p + ".h", "%.2f mm is taller than mechanical.above (%.2f)" % (c["h"], out["above"]))
        for j, o in enumerate(out["usb"]):
            if abs(o["x"] - c["x"]) < (o["w"] + c["w"]) / 2:
                fail(p + ".x", "overlaps mechanical.usb[%d]" % j)
        out["usb"].append(c)
    for i, h in enumerate(_obj(fail, m, "holes", "mechanical.holes", list)):
        p = "mechanical.holes[%d]" % i
        if not isinstance(h, dict):
            fail(p, "must be an object")
        d = _num(fail, h, "d", p + ".d", 0.5, 6)
        x = _num(fail, h, "x", p + ".x", 0, out["w"], lo_ok=True)
        y = _num(fail, h, "y", p + ".y", 0, out["l"], lo_ok=True)
        if min(x, y, out["w"] - x, out["l"] - y) < d / 2:
            fail(p, "a %.1f mm hole at (%.1f, %.1f) breaks out of the %.1f x %.1f mm board"
                 % (d, x, y, out["w"], out["l"]))
        out["holes"].append({"x": x, "y": y, "d": d})
    return out


# parts.json: key -> {field: (lo, hi)} for the sizes (mm); lists are [x, y(, z)]
_PARTS = {
    "oled": {"pcb": 3, "glass": 3, "glass_offset": 2, "active": 2, "active_offset": 2, "back_h": 1},
    "lipo": {"size": 3},
    "switch": {"body": 3, "lever": 3, "travel": 1},
    "button": {"body": 3, "stem_d": 1, "height": 1},
    "insert": {"od": 1, "length": 1, "hole_d": 1, "screw_d": 1},
    "usb_plug": {"micro-b": 3, "usb-c": 3},
}


def parts(path=PARTS):
    """The checked parts table: {part: {field: float or [floats]}}. Raises PartsError."""
    label = str(path).rsplit("/", 1)[-1]

    def fail(key, problem):
        raise PartsError("%s: %s: %s" % (label, key, problem))

    try:
        with open(path) as fh:
            d = json.load(fh)
    except OSError as e:
        raise PartsError("%s: cannot read: %s" % (label, e.strerror or e))
    except ValueError as e:
        raise PartsError("%s: not valid JSON: %s" % (label, e))
    if not isinstance(d, dict):
        fail("(file)", "must hold one JSON object")
    out = {}
    for part, fields in _PARTS.items():
        obj = _obj(fail, d, part, part)
        src = obj.get("source")
        if not isinstance(src, str) or len(src.strip()) < 8:
            fail(part + ".source", "say where the figures come from")
        got = {"source": src}
        for f, n in fields.items():
            key = "%s.%s" % (part, f)
            if f not in obj:
                fail(key, "missing")
            v = obj[f]
            offset = f.endswith("offset")
            if n == 1:
                got[f] = _num(fail, obj, f, key, 0, 100)
                continue
            if not isinstance(v, list) or len(v) != n:
                fail(key, "must be a list of %d numbers (mm)" % n)
            vals = []
            for i in range(n):
                vals.append(_num(fail, {i: v[i]}, i, "%s[%d]" % (key, i), -50 if offset else 0, 100,
                                 lo_ok=offset))
            got[f] = vals
        out[part] = got
    o = out["oled"]
    if o["glass"][0] > o["pcb"][0] + 1 or o["glass"][1] > o["pcb"][1]:
        fail("oled.glass", "larger than the module's board (oled.pcb)")
    for i, axis in enumerate("xy"):
        if abs(o["active_offset"][i]) + o["active"][i] / 2 > o["glass"][i] / 2:
            fail("oled.active_offset", "puts the active area off the glass along %s" % axis)
    b = out["button"]
    if b["stem_d"] >= min(b["body"][:2]):
        fail("button.stem_d", "must be narrower than the switch body")
    if b["height"] <= b["body"][2]:
        fail("button.height", "must be more than the body's height (the stem stands above it)")
    ins = out["insert"]
    if not ins["screw_d"] < ins["hole_d"] < ins["od"] + 0.5:
        fail("insert.hole_d", "must lie between screw_d and the insert's od")
    return out

