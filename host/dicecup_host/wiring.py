"""Wiring diagrams drawn from the board files: hardware/boards/<name>.json -> .svg.

    python -m dicecup_host.wiring            # rewrite hardware/wiring/*.svg
    python -m dicecup_host.wiring --check    # exit 1 if any committed SVG is stale

Each diagram shows the dev board on the left with the GPIOs the cup uses, the parts on
the right (SSD1306 OLED, LIS3DH, the buttons, the battery divider), a wire per signal,
power pins as net labels (3V3, GND), and a table of every connection underneath. The
output depends on the board file only (no dates, fixed number formatting), so
regenerating gives the same bytes, which a test checks.
"""
import json
import sys
from pathlib import Path

from dicecup.hw import board as fw_board
from dicecup_host import mpy

BOARDS = mpy.ROOT / "hardware" / "boards"
OUT = mpy.ROOT / "hardware" / "wiring"

COLORS = {"SDA": "#1f6fd1", "SCL": "#e07b00", "INT1": "#8a3fc7", "BTN": "#1c8c3a",
          "ADC": "#8c564b", "3V3": "#d62728", "GND": "#222222"}
W = 960
ROW = 26


def _esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _Svg:
    def __init__(self):
        self.parts = []

    def add(self, s):
        self.parts.append(s)

    def rect(self, x, y, w, h, fill="#ffffff", stroke="#333333", rx=6, sw=2):
        self.add('<rect x="%d" y="%d" width="%d" height="%d" rx="%d" fill="%s" stroke="%s" '
                 'stroke-width="%d"/>' % (x, y, w, h, rx, fill, stroke, sw))

    def text(self, x, y, s, size=13, anchor="start", weight="normal", fill="#111111"):
        self.add('<text x="%d" y="%d" font-size="%d" text-anchor="%s" font-weight="%s" '
                 'fill="%s">%s</text>' % (x, y, size, anchor, weight, fill, _esc(s)))

    def line(self, pts, color, width=3):
        self.add('<polyline points="%s" fill="none" stroke="%s" stroke-width="%d" '
                 'stroke-linejoin="round"/>' % (" ".join("%d,%d" % p for p in pts), color, width))

    def dot(self, x, y, color):
        self.add('<circle cx="%d" cy="%d" r="4" fill="%s"/>' % (x, y, color))

    def net(self, x, y, name, left=False):
        """A power pin's net label: a short stub and the net's name."""
        color = COLORS[name]
        x2 = x - 28 if left else x + 28
        self.line([(x, y), (x2, y)], color, 2)
        self.text(x2 + (-4 if left else 4), y + 4, name, 12, "end" if left else "start", "bold", color)


def connections(b):
    """[(signal, colour key, GPIO, part, part pin)] for the board, in drawing order."""
    out = [("I2C SDA", "SDA", b.sda, "OLED", "SDA"), ("I2C SCL", "SCL", b.scl, "OLED", "SCL"),
           ("I2C SDA", "SDA", b.sda, "LIS3DH", "SDA"), ("I2C SCL", "SCL", b.scl, "LIS3DH", "SCL")]
    if b.int1 is not None:
        out.append(("motion wake", "INT1", b.int1, "LIS3DH", "INT"))
    for btn in b.buttons:
        out.append(("button " + btn.name, "BTN", btn.pin, "button " + btn.name, ""))
    if b.battery_pin is not None:
        out.append(("battery sense", "ADC", b.battery_pin, "divider", "tap"))
    return out


def render(b):
    """The SVG text for a validated Board."""
    s = _Svg()
    conns = connections(b)
    gpios = []
    for c in conns:
        if c[2] not in [g[0] for g in gpios]:
            gpios.append((c[2], c[0], c[1]))
    # -- geometry --
    mcu_x, mcu_w, top = 40, 250, 96
    pin_y = {}
    y = top + 70
    for gpio, label, key in gpios:
        pin_y[gpio] = y
        y += ROW
    mcu_h = max(y - top + 70, 300)
    parts_x, parts_w = 600, 260
    s.text(W // 2, 34, "Smart dice cup wiring: %s" % b.title, 18, "middle", "bold")
    s.text(W // 2, 56, "generated from hardware/boards/%s.json by host/dicecup_host/wiring.py"
           % b.name, 12, "middle", fill="#555555")
    # dev board
    s.rect(mcu_x, top, mcu_w, mcu_h, fill="#eef3f8")
    s.text(mcu_x + mcu_w // 2, top + 24, b.name, 15, "middle", "bold")
    s.text(mcu_x + mcu_w // 2, top + 42, "chip %s, I2C%d at %d kHz" % (b.chip, b.i2c_id, b.freq // 1000),
           12, "middle", fill="#444444")
    right = mcu_x + mcu_w
    for gpio, label, key in gpios:
        yy = pin_y[gpio]
        s.text(right - 10, yy + 4, "GPIO%d  %s" % (gpio, label), 13, "end")
        s.dot(right, yy, COLORS[key])
    for name, dy in (("3V3", 44), ("GND", 18)):  # power: net labels, as on the parts
        s.dot(right, top + mcu_h - dy, COLORS[name])
        s.text(right - 10, top + mcu_h - dy + 4, name, 13, "end", "bold", COLORS[name])
    # parts, stacked on the right
    py = top + ROW // 2  # part pins sit between dev-board pin rows: no wire overlaps a dot
    boxes = {}
    # OLED
    oled_pins = ["GND", "VCC", "SCL", "SDA"]
    h = 40 + ROW * len(oled_pins)
    s.rect(parts_x, py, parts_w, h, fill="#f4f4f4")
    s.text(parts_x + parts_w // 2, py + 22, "SSD1306 OLED 128x%d @0x%02X" % (b.display_h, b.display_addr),
           13, "middle", "bold")
    boxes["OLED"] = {}
    for i, p in enumerate(oled_pins):
        yy = py + 44 + ROW * i
        boxes["OLED"][p] = yy
        s.text(parts_x + 12, yy + 4, p, 13)
        if p in ("GND", "VCC"):
            s.net(parts_x + parts_w, yy, "GND" if p == "GND" else "3V3")
    py += h + 18
    # LIS3DH
    acc_pins = ["VIN", "GND", "SCL", "SDA"] + (["INT"] if b.int1 is not None else [])
    h = 58 + ROW * len(acc_pins)
    s.rect(parts_x, py, parts_w, h, fill="#f4f4f4")
    s.text(parts_x + parts_w // 2, py + 22, "LIS3DH @0x%02X" % b.accel_addr, 13, "middle", "bold")
    s.text(parts_x + parts_w // 2, py + 40, "mount: cup x,y,z = sensor %s" % ",".join(b.mount), 11,
           "middle", fill="#444444")
    boxes["LIS3DH"] = {}
    for i, p in enumerate(acc_pins):
        yy = py + 62 + ROW * i
        boxes["LIS3DH"][p] = yy
        s.text(parts_x + 12, yy + 4, p + (" (INT1)" if p == "INT" else ""), 13)
        if p in ("GND", "VIN"):
            s.net(parts_x + parts_w, yy, "GND" if p == "GND" else "3V3")
    py += h + 18
    # buttons
    h = 40 + ROW * len(b.buttons)
    s.rect(parts_x, py, parts_w, h, fill="#f4f4f4")
    s.text(parts_x + parts_w // 2, py + 22, "buttons (momentary, to %s)" %
           ("GND" if b.buttons[0].active == 0 else "3V3"), 13, "middle", "bold")
    for i, btn in enumerate(b.buttons):
        yy = py + 44 + ROW * i
        boxes["button " + btn.name] = {"": yy}
        mark = " (safe mode)" if i == b.safe_button else ""
        s.text(parts_x + 12, yy + 4, "%s%s" % (btn.name, mark), 13)
        s.add('<path d="M %d %d l 12 -8 M %d %d h 8 M %d %d h 8" stroke="#333" stroke-width="2"/>'
              % (parts_x + parts_w - 70, yy, parts_x + parts_w - 78, yy, parts_x + parts_w - 58, yy))
        s.net(parts_x + parts_w, yy, "GND" if btn.active == 0 else "3V3")
    py += h + 18
    # battery divider
    if b.battery_pin is not None:
        h = 96
        s.rect(parts_x, py, parts_w, h, fill="#f4f4f4")
        s.text(parts_x + parts_w // 2, py + 22, "battery divider (%.1f:1)" % b.battery_divider,
               13, "middle", "bold")
        yy = py + 48
        boxes["divider"] = {"tap": yy}
        s.text(parts_x + 12, yy + 4, "tap: BAT+ -R1- tap -R2- GND", 12)
        s.text(parts_x + 12, yy + 30, "R1 = R2 = 100k, 100nF tap to GND", 12, fill="#444444")
        py += h + 18
    # wires, each in its own vertical lane
    lanes = {}
    lane_x = right + 40
    for c in conns:
        gpio = c[2]
        if gpio not in lanes:
            lanes[gpio] = lane_x
            lane_x += 22
        x_l = lanes[gpio]
        y0 = pin_y[gpio]
        y1 = boxes[c[3]][c[4]]
        color = COLORS[c[1]]
        s.line([(right, y0), (x_l, y0), (x_l, y1), (parts_x, y1)], color)
        s.dot(parts_x, y1, color)
        if y1 != y0:
            s.dot(x_l, y0, color)
    height = max(py, top + mcu_h + 20) + 20
    # connection table
    ty = height + 10
    s.text(40, ty, "Connections", 14, weight="bold")
    ty += 22
    rows = [(c[0], "GPIO%d" % c[2], ("%s %s" % (c[3], c[4])).strip()) for c in conns]
    rows.append(("power", "3V3", "OLED VCC, LIS3DH VIN" + (", buttons" if b.buttons[0].active else "")))
    rows.append(("ground", "GND", "OLED GND, LIS3DH GND, buttons, divider R2"))
    for r in rows:
        s.text(40, ty, r[0], 12)
        s.text(240, ty, r[1], 12, weight="bold")
        s.text(340, ty, r[2], 12)
        ty += 18
    if b.reserved:
        s.text(40, ty + 6, "Left free on purpose (board file \"reserved\"): GPIO %s" %
               ", ".join(str(p) for p in b.reserved), 12, fill="#555555")
        ty += 24
    total_h = ty + 20
    head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="DejaVu Sans, Arial, sans-serif">\n<rect width="100%%" height="100%%" '
            'fill="#ffffff"/>\n' % (W, total_h, W, total_h))
    return head + "\n".join(s.parts) + "\n</svg>\n"


def load(name):
    return fw_board.from_dict(json.loads((BOARDS / (name + ".json")).read_text()), name + ".json")


def generate(out_dir=OUT):
    """Write one SVG per board file; returns the paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for p in sorted(BOARDS.glob("*.json")):
        dst = out_dir / (p.stem + ".svg")
        dst.write_text(render(load(p.stem)))
        paths.append(dst)
    return paths


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--check" in argv:
        stale = [p.stem for p in sorted(BOARDS.glob("*.json"))
                 if not (OUT / (p.stem + ".svg")).exists()
                 or (OUT / (p.stem + ".svg")).read_text() != render(load(p.stem))]
        for name in stale:
            print("stale: hardware/wiring/%s.svg" % name)
        return 1 if stale else 0
    for p in generate():
        print(p.relative_to(mpy.ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
