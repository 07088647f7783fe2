"""Wiring diagrams drawn from the board files: hardware/boards/<name>.json -> .svg + .md.

    python -m dicecup_host.wiring            # rewrite hardware/wiring/*.svg and *.md
    python -m dicecup_host.wiring --check    # exit 1 if any committed file is stale

Each diagram shows the dev board on the left with the GPIOs the cup uses, the parts on
the right (SSD1306 OLED, LIS3DH, the buttons, the battery divider) with their
decoupling capacitors, a wire per signal, and underneath the power path from the
board file's `power` section (powerspec.py): LiPo, charger, slide switch, regulator
into the board (or the XIAO's own charger through its BAT pads), the bulk capacitor at
the board. Power reaches the parts by net labels (3V3, GND, VBAT: the same label is the
same wire). The pin table (signal, board pin, where to, wire colour) is drawn under it
and written as `<board>.md` too. The output depends on the board file only (no dates,
fixed number formatting), so regenerating gives the same bytes, which a test checks.
"""
import json
import sys
from pathlib import Path

from dicecup.hw import board as fw_board
from dicecup.hw.errors import BoardError
from dicecup_host import mpy, powerspec

BOARDS = mpy.ROOT / "hardware" / "boards"
OUT = mpy.ROOT / "hardware" / "wiring"

# per net: the colour drawn and the wire colour to use (the pin table's column)
COLORS = {"SDA": "#1f6fd1", "SCL": "#e07b00", "INT1": "#8a3fc7", "BTN": "#1c8c3a",
          "ADC": "#8c564b", "3V3": "#d62728", "GND": "#222222", "VBAT": "#c9a200",
          "BAT+": "#e377c2"}
WIRE = {"SDA": "blue", "SCL": "orange", "INT1": "purple", "BTN": "green", "ADC": "brown",
        "3V3": "red", "GND": "black", "VBAT": "yellow", "BAT+": "pink (or the cell's red lead)"}
W = 980
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


    def cap(self, x, y1, y2, label):
        """A capacitor standing between two rows at x, its value to its left."""
        ym = (y1 + y2) // 2
        self.line([(x, y1), (x, ym - 3)], "#333333", 2)
        self.line([(x, ym + 3), (x, y2)], "#333333", 2)
        self.add('<path d="M %d %d h 16 M %d %d h 16" stroke="#333" stroke-width="3"/>'
                 % (x - 8, ym - 3, x - 8, ym + 3))
        self.text(x - 12, ym + 4, label, 11, "end", fill="#444444")

    def cap_across(self, x, y1, y2, x_edge, label):
        """A decoupling capacitor across two power pins of a part (rows y1, y2)."""
        for yy in (y1, y2):
            self.line([(x, yy), (x_edge, yy)], "#333333", 2)
        self.cap(x, min(y1, y2), max(y1, y2), label)

    def hcap(self, x1, x2, y, label):
        """A capacitor lying between two vertical wires at x1 < x2, its value above."""
        xm = (x1 + x2) // 2
        self.line([(x1, y), (xm - 3, y)], "#333333", 2)
        self.line([(xm + 3, y), (x2, y)], "#333333", 2)
        self.add('<path d="M %d %d v 16 M %d %d v 16" stroke="#333" stroke-width="3"/>'
                 % (xm - 3, y - 8, xm + 3, y - 8))
        self.dot(x1, y, "#333333")
        self.dot(x2, y, "#333333")
        self.text(xm, y - 12, label, 11, "middle", fill="#444444")

    def resistor(self, x, y1, y2, label):
        """A resistor between two rows at x, its name and value to its right."""
        ym = (y1 + y2) // 2
        self.line([(x, y1), (x, ym - 8)], "#333333", 2)
        self.line([(x, ym + 8), (x, y2)], "#333333", 2)
        self.add('<rect x="%d" y="%d" width="8" height="16" fill="#ffffff" stroke="#333" '
                 'stroke-width="2"/>' % (x - 4, ym - 8))
        self.text(x + 10, ym + 4, label, 11, fill="#444444")

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


def _ohms(v):
    """100000 -> "100k", 4700 -> "4.7k", 470 -> "470" (fixed formatting)."""
    if v >= 1000000:
        t, u = v / 1000000, "M"
    elif v >= 1000:
        t, u = v / 1000, "k"
    else:
        t, u = v, ""
    return ("%.3g" % t) + u


def _wrap(text, width):
    out, line = [], ""
    for w in text.split():
        if line and len(line) + 1 + len(w) > width:
            out.append(line)
            line = w
        else:
            line = (line + " " + w).strip()
    if line:
        out.append(line)
    return out


def power_wires(b, pw):
    """[(from, to, net)]: every power wire, battery to parts, in the order to solder."""
    if pw.feed == "3V3":
        out = [("LiPo +", "charger BAT+", "BAT+"), ("LiPo -", "charger BAT-", "GND"),
               ("charger OUT+", "slide switch", "BAT+"), ("slide switch", "LDO VIN", "VBAT"),
               ("charger OUT-", "LDO GND", "GND"), ("LDO VOUT", "board 3V3", "3V3"),
               ("LDO GND", "board GND", "GND")]
    else:
        out = [("LiPo +", "slide switch", "BAT+"), ("slide switch", "board BAT+ pad", "VBAT"),
               ("LiPo -", "board BAT- pad (GND)", "GND")]
    out += [("slide switch (VBAT)", "divider R1", "VBAT"),
            ("board 3V3", "OLED VCC, LIS3DH VIN", "3V3"),
            ("board GND", "OLED GND, LIS3DH GND, divider R2, buttons", "GND")]
    return out


def capacitors(pw):
    """[(value, where)]: the capacitors the diagram draws."""
    return [("%s nF" % ("%.3g" % pw.oled_nf), "OLED VCC to GND, at the module's pins"),
            ("%s nF" % ("%.3g" % pw.accel_nf), "LIS3DH VIN to GND, at the breakout's pins"),
            ("%s nF" % ("%.3g" % pw.c_nf), "divider tap to GND (steadies the ADC)"),
            ("%s uF" % ("%.3g" % pw.bulk_uf), "board 3V3 to GND, at the board (radio bursts)")]


def pin_table(b, pw):
    """[(signal, board pin, goes to, net)]: the pin table of the SVG and the .md."""
    rows = [(c[0], "GPIO%d" % c[2], ("%s %s" % (c[3], c[4])).strip(), c[1]) for c in connections(b)]
    for frm, to, net in power_wires(b, pw):
        pin = frm[6:] if frm.startswith("board ") else ("BAT+" if "BAT+ pad" in to else
                                                       "BAT-" if "BAT- pad" in to else "3V3" if to == "board 3V3"
                                                       else "GND" if to == "board GND" else "-")
        rows.append(("power: " + frm, pin, to, net))
    return rows


def render(b, pw):
    """The SVG text for a validated Board and its Power section."""
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
    mcu_h = max(y - top + 90, 300)
    mcu_bot = top + mcu_h
    parts_x, parts_w = 600, 260
    s.text(W // 2, 34, "Smart dice cup wiring: %s" % b.title, 18 if len(b.title) < 60 else 15,
           "middle", "bold")
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
    # power pins on the bottom edge: (label, net, x); GND leftmost so no wire crosses
    if pw.feed == "3V3":
        bottom = [("GND", "GND", mcu_x + 70), ("3V3", "3V3", mcu_x + 180)]
        note = ("3.3 V from the LDO into 3V3 (not 5V)", "switch off before USB flashing")
    else:
        bottom = [("GND", "GND", mcu_x + 40), ("3V3", "3V3", mcu_x + 110), ("BAT+", "VBAT", mcu_x + 190)]
        note = ("battery into the BAT pads: its own", "charger (USB-C) and 3V3 regulator")
    s.text(mcu_x + mcu_w // 2, mcu_bot - 58, note[0], 11, "middle", fill="#444444")
    s.text(mcu_x + mcu_w // 2, mcu_bot - 44, note[1], 11, "middle", fill="#444444")
    bx = {}
    for label, net, x in bottom:
        s.dot(x, mcu_bot, COLORS[net])
        s.text(x, mcu_bot - 12, label, 13, "middle", "bold", COLORS[net])
        bx[label] = x
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
    s.cap_across(parts_x + parts_w - 50, boxes["OLED"]["GND"], boxes["OLED"]["VCC"],
                 parts_x + parts_w, "%.3g nF" % pw.oled_nf)
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
    s.cap_across(parts_x + parts_w - 50, boxes["LIS3DH"]["VIN"], boxes["LIS3DH"]["GND"],
                 parts_x + parts_w, "%.3g nF" % pw.accel_nf)
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
    # battery divider: VBAT -R1- tap -R2- GND, C from the tap to GND
    if b.battery_pin is not None:
        h = 40 + ROW * 3 + 10
        s.rect(parts_x, py, parts_w, h, fill="#f4f4f4")
        s.text(parts_x + parts_w // 2, py + 22, "battery sense divider (%.3g:1)" % b.battery_divider,
               13, "middle", "bold")
        y_v, y_t, y_g = py + 44, py + 44 + ROW, py + 44 + 2 * ROW
        boxes["divider"] = {"tap": y_t}
        rx, cx = parts_x + 160, parts_x + 95
        for yy, name in ((y_v, "VBAT"), (y_t, "tap"), (y_g, "GND")):
            s.text(parts_x + 12, yy + 4, name, 13)
        s.line([(rx, y_v), (parts_x + parts_w, y_v)], COLORS["VBAT"], 2)
        s.net(parts_x + parts_w, y_v, "VBAT")
        s.line([(parts_x + 44, y_t), (rx, y_t)], COLORS["ADC"], 2)
        s.line([(cx, y_g), (parts_x + parts_w, y_g)], COLORS["GND"], 2)
        s.net(parts_x + parts_w, y_g, "GND")
        s.resistor(rx, y_v, y_t, "R1 " + _ohms(pw.r1))
        s.resistor(rx, y_t, y_g, "R2 " + _ohms(pw.r2))
        s.cap(cx, y_t, y_g, "%.3g nF" % pw.c_nf)
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
    # -- the power path, under everything: battery on the right, the board's feed on the left
    y0 = max(py, mcu_bot + 90) + 30
    s.text(40, y0, "Power: LiPo -> %s -> board (right to left); same-named labels are one net"
           % (" -> ".join(["charger", "slide switch", "LDO"] if pw.feed == "3V3" else ["slide switch"])),
           14, weight="bold")
    by, bh = y0 + 20, 150
    yp, ym = by + 90, by + 125
    if pw.feed == "3V3":
        stages = [("LDO", "regulator 3.3 V", pw.regulator), ("switch", "slide switch", pw.switch),
                  ("charger", "LiPo charger", pw.charger + "; charge from its own USB socket"),
                  ("cell", "LiPo 3.7 V", "1 cell with protection, JST-PH")]
    else:
        stages = [("switch", "slide switch", pw.switch), ("cell", "LiPo 3.7 V", "1 cell with protection, JST-PH")]
    if pw.feed == "3V3":                 # the regulator under the board, its output straight up
        xs = [mcu_x] + [330 + 220 * i for i in range(len(stages) - 1)]
        ws = [mcu_w] + [180] * (len(stages) - 1)
    else:                                # the switch's leads go left, then up to the pads
        xs = [330 + 220 * i for i in range(len(stages))]
        ws = [180] * len(stages)
    plus_out = bx["3V3"] if pw.feed == "3V3" else bx["BAT+"]
    gnd_out = bx["GND"]
    for i, (kind, title, desc) in enumerate(stages):
        x, w = xs[i], ws[i]
        last = i == 0 and pw.feed == "3V3"
        s.rect(x, by, w, bh, fill="#fbf6e9")
        ty = by + (40 if last else 18)
        s.text(x + w // 2, ty, title, 13, "middle", "bold")
        for k, ln in enumerate(_wrap(desc, 40 if last else 27)[:4]):
            s.text(x + w // 2, ty + 15 + 13 * k, ln, 11, "middle", fill="#444444")
        pin_in = {"cell": None, "charger": ("BAT+", "BAT-"), "switch": None, "LDO": ("VIN", "GND")}[kind]
        pin_out = {"cell": ("+", "-"), "charger": ("OUT+", "OUT-"), "switch": None, "LDO": ("VOUT", "GND")}[kind]
        if pin_in:
            s.text(x + w - 8, yp + 4, pin_in[0], 12, "end")
            s.text(x + w - 8, ym + 4, pin_in[1], 12, "end")
        if pin_out and not last:
            s.text(x + 8, yp + 4, pin_out[0], 12)
            s.text(x + 8, ym + 4, pin_out[1], 12)
        if kind == "switch":             # + through the switch, - straight through
            sx = x + w - 70
            plus_in = COLORS["BAT+"]
            s.line([(x + w, yp), (sx + 24, yp)], plus_in)
            s.add('<path d="M %d %d l -24 -12" stroke="#333" stroke-width="3"/>' % (sx + 24, yp))
            s.dot(sx + 24, yp, "#333")
            s.dot(sx, yp, "#333")
            if last:
                s.line([(sx, yp), (plus_out, yp), (plus_out, by)], COLORS["VBAT"])
                s.line([(x + w, ym), (gnd_out, ym), (gnd_out, by)], COLORS["GND"])
            else:
                s.line([(sx, yp), (x, yp)], COLORS["VBAT"])
                s.line([(x + w, ym), (x, ym)], COLORS["GND"])
            s.text(sx + 12, yp + 22, "OFF for storage", 11, "middle", fill="#444444")
        if last:
            s.text(gnd_out + 6, by + 16, pin_out[1] if pin_out else "GND", 12)
            s.text(plus_out + 6, by + 16, pin_out[0] if pin_out else "BAT+", 12)
            s.line([(gnd_out, by), (gnd_out, mcu_bot)], COLORS["GND"])
            s.line([(plus_out, by), (plus_out, mcu_bot)], COLORS["3V3" if pw.feed == "3V3" else "VBAT"])
            s.dot(gnd_out, by, COLORS["GND"])
            s.dot(plus_out, by, COLORS["3V3" if pw.feed == "3V3" else "VBAT"])
        if i + 1 < len(stages):          # wires to the next stage (to the right)
            xr = xs[i + 1]
            plus_net = "VBAT" if kind == "LDO" else "BAT+"   # (switched only after the switch)
            s.line([(x + w, yp), (xr, yp)], COLORS[plus_net])
            s.line([(x + w, ym), (xr, ym)], COLORS["GND"])
            s.dot(x + w, yp, COLORS[plus_net])
            s.dot(x + w, ym, COLORS["GND"])
            s.dot(xr, yp, COLORS[plus_net])
            s.dot(xr, ym, COLORS["GND"])
            if kind == "LDO":            # the switched battery: VBAT, also to the divider
                tx = (x + w + xr) // 2
                s.dot(tx, yp, COLORS["VBAT"])
                s.line([(tx, yp), (tx, yp - 24)], COLORS["VBAT"], 2)
                s.text(tx, yp - 28, "VBAT", 12, "middle", "bold", COLORS["VBAT"])
    if pw.feed == "BAT":                 # the switch's leads to the BAT pads, VBAT labelled
        s.line([(xs[0], yp), (plus_out, yp), (plus_out, mcu_bot)], COLORS["VBAT"])
        s.line([(xs[0], ym), (gnd_out, ym), (gnd_out, mcu_bot)], COLORS["GND"])
        for xx, yy, net in ((xs[0], yp, "VBAT"), (xs[0], ym, "GND"), (plus_out, yp, "VBAT"),
                            (gnd_out, ym, "GND")):
            s.dot(xx, yy, COLORS[net])
        s.text(plus_out - 6, yp - 8, "to the BAT+ pad", 11, "end", fill="#444444")
        s.text(gnd_out + 6, ym - 8, "to the BAT- pad", 11, fill="#444444")
        ty = mcu_bot + 60
        s.dot(plus_out, ty, COLORS["VBAT"])
        s.line([(plus_out, ty), (plus_out - 28, ty)], COLORS["VBAT"], 2)
        s.text(plus_out - 32, ty + 4, "VBAT", 12, "end", "bold", COLORS["VBAT"])
    # bulk capacitor across 3V3 and GND at the board
    yc = mcu_bot + 30
    x3 = bx["3V3"]
    if pw.feed == "BAT":
        s.line([(x3, mcu_bot), (x3, yc)], COLORS["3V3"])
    s.hcap(gnd_out, x3, yc, "%.3g uF" % pw.bulk_uf)
    height = by + bh + 20
    # pin table
    ty = height + 16
    s.text(40, ty, "Pin table", 14, weight="bold")
    ty += 22
    for head, x in (("signal", 40), ("board pin", 290), ("goes to", 390), ("wire", 760)):
        s.text(x, ty, head, 12, weight="bold", fill="#555555")
    ty += 18
    for sig, pin, to, net in pin_table(b, pw):
        s.text(40, ty, sig, 12)
        s.text(290, ty, pin, 12, weight="bold")
        s.text(390, ty, to, 12)
        s.add('<rect x="760" y="%d" width="18" height="8" fill="%s"/>' % (ty - 8, COLORS[net]))
        s.text(784, ty, WIRE[net], 12)
        ty += 18
    ty += 8
    s.text(40, ty, "Capacitors", 14, weight="bold")
    ty += 20
    for val, where in capacitors(pw):
        s.text(40, ty, val, 12, weight="bold")
        s.text(120, ty, where, 12)
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


def markdown(b, pw):
    """hardware/wiring/<board>.md: the pin table and the power path as text."""
    out = ["# Wiring: %s" % b.title, "",
           "Generated from `hardware/boards/%s.json` by `host/dicecup_host/wiring.py` "
           "(`dicecup hw wiring`); do not edit. Drawn in [%s.svg](%s.svg)." % (b.name, b.name, b.name), "",
           "## Pin table", "", "| signal | board pin | goes to | wire |", "|---|---|---|---|"]
    for sig, pin, to, net in pin_table(b, pw):
        out.append("| %s | %s | %s | %s |" % (sig, pin, to, WIRE[net]))
    out += ["", "## Power", ""]
    if pw.feed == "3V3":
        out.append("LiPo -> charger (%s) -> slide switch -> regulator (%s) -> the board's 3V3 pin. "
                   "Charge through the charger's own USB socket; switch the battery off before "
                   "plugging the board's USB in to flash it." % (pw.charger, pw.regulator))
    else:
        out.append("LiPo -> slide switch -> the board's BAT pads: its charger (%s) and regulator "
                   "(%s) do the rest; it charges from its USB-C while switched on."
                   % (pw.charger, pw.regulator))
    out += ["", "Switch: %s. Battery sense: R1 %s ohm from the switched battery (VBAT) to the tap, "
            "R2 %s ohm from the tap to GND, tap to GPIO%d (%.3g:1)."
            % (pw.switch, _ohms(pw.r1), _ohms(pw.r2), b.battery_pin, b.battery_divider), "",
            "| capacitor | where |", "|---|---|"]
    for val, where in capacitors(pw):
        out.append("| %s | %s |" % (val, where))
    if b.reserved:
        out += ["", "Left free on purpose (board file \"reserved\"): GPIO %s."
                % ", ".join(str(p) for p in b.reserved)]
    return "\n".join(out) + "\n"


def load(name):
    return fw_board.from_dict(json.loads((BOARDS / (name + ".json")).read_text()), name + ".json", None)


def load_power(name, b=None):
    """(Board, Power) of a board file; a file without a power section cannot be drawn."""
    d = json.loads((BOARDS / (name + ".json")).read_text())
    b = b or fw_board.from_dict(d, name + ".json", None)
    pw = powerspec.check(d, b)
    if pw is None:
        raise BoardError(b.name, "power", "missing: the wiring needs the charger, regulator and divider",
                         name + ".json")
    return b, pw


def outputs(name):
    """{file name: text} of one board's generated files."""
    b, pw = load_power(name)
    return {name + ".svg": render(b, pw), name + ".md": markdown(b, pw)}


def generate(out_dir=OUT):
    """Write the SVG and the Markdown pin table of every board file; returns the paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for p in sorted(BOARDS.glob("*.json")):
        for fname, text in outputs(p.stem).items():
            dst = out_dir / fname
            dst.write_text(text)
            paths.append(dst)
    return paths


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--check" in argv:
        stale = []
        for p in sorted(BOARDS.glob("*.json")):
            for fname, text in outputs(p.stem).items():
                if not (OUT / fname).exists() or (OUT / fname).read_text() != text:
                    stale.append(fname)
        for fname in stale:
            print("stale: hardware/wiring/%s" % fname)
        return 1 if stale else 0
    for p in generate():
        print(p.relative_to(mpy.ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
