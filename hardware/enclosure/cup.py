"""The cup of hardware/ASSEMBLY.md as a build123d model, one per board file.

    from cup import build
    model = build(board_data, parts)        # parts: mechanical.parts()
    model.parts["body"].solid, .printed, .print_solid(), model.layout[...]

Frame (mm): the cup resting mouth-down, z up from the table, x to the player's right,
y away from the player (the far side is the back). Printed parts: `body` (the cone
shell with the tray ledge, lid bosses, the USB notch and the switch slot), `tray` (the
carrier: OLED window and pocket, the LiPo rails, the board's end supports) and `lid`
(the crown's cover with the button holes and sockets, 4 x M2). The rest are stand-ins
of the bought parts, for the fit checks and the previews.

Every size of a bought part comes from the board file's `mechanical` section or from
parts.json; the constants below are the design's own choices (wall, gaps, the cup's
proportions). Stacked in the crown, top down: the buttons under the lid, the board, the
LiPo, the OLED module face-down in the tray's window. The crown widens (the mouth with
it, keeping the taper) until the board fits, up to the hand-size limit.
"""
import math

from build123d import Axis, Face, Location, Solid, Vector, Wire

HEIGHT = 95.0          # cup, lid included
MOUTH = 85.0           # outer diameters of the classic leather cup
CROWN = 70.0
MOUTH_LIMIT = 95.0     # hand-size limit: the mouth may grow to this, no further
WALL = 2.0
LID_T = 2.0
FLOOR_MIN = 2.0        # tray floor
GAP = 0.5              # between stacked parts
CLEAR = 0.5            # from the wall (at the crown opening, the narrowest)
RAIL_T = 1.2           # tray rails and pocket walls
SOCKET_T = 1.2         # button socket walls
BOSS_D = 7.0
BOSS_ANGLES = (30.0, 150.0, 210.0, 330.0)   # degrees from +x, clear of buttons and USB
STEEP = math.tan(math.radians(55.0))        # rise per run of every printed slope (> 45 deg)
BUTTON_PITCH = 13.0
SWITCH_ANGLE = 45.0    # back right, near the USB
BRIDGE_MAX = 10.0


class ModelError(ValueError):
    """The parts cannot fit within the hand-size limit (one line)."""


def _box(x0, x1, y0, y1, z0, z1):
    return Solid.make_box(x1 - x0, y1 - y0, z1 - z0).moved(Location((x0, y0, z0)))


def _cyl(x, y, z0, z1, d):
    return Solid.make_cylinder(d / 2, z1 - z0).moved(Location((x, y, z0)))


def _revolve(points):
    """A solid of revolution about z from an (r, z) outline."""
    face = Face(Wire.make_polygon([Vector(r, 0, z) for r, z in points], close=True))
    return Solid.revolve(face, 360, Axis.Z)


class Part:
    def __init__(self, name, solid, printed, print_loc=None, color="#bbbbbb", note=""):
        self.name = name
        self.solid = solid
        self.printed = printed
        self.print_loc = print_loc
        self.color = color
        self.note = note

    def print_solid(self):
        """The part as it lies on the printer's bed (z = 0 is the bed)."""
        s = self.solid.moved(self.print_loc) if self.print_loc else self.solid
        return s


class Model:
    def __init__(self, board, layout, parts):
        self.board = board
        self.layout = layout
        self.parts = parts

    def printed(self):
        return [p for p in self.parts.values() if p.printed]


def _button_spots(names, R, half):
    """Centres of the buttons: all but `back` in a row along the near edge, `back` on
    its own on the far side (ASSEMBLY.md), every socket inside radius R."""
    row = [n for n in names if n != "back"]
    xs = [(i - (len(row) - 1) / 2) * BUTTON_PITCH for i in range(len(row))]
    outer = max(abs(x) for x in xs) + half
    if outer >= R:
        raise ModelError("the buttons' row (%.0f mm) does not fit the crown" % (2 * outer))
    y_near = -(math.sqrt(R * R - outer * outer) - half)
    spots = {n: (x, y_near) for n, x in zip(row, xs)}
    if "back" in names:
        xb = -BUTTON_PITCH + 1
        spots["back"] = (xb, math.sqrt(R * R - (abs(xb) + half) ** 2) - half)
    return spots


def plan(mech, parts, buttons):
    """The numbers of the layout (no solids): sizes, heights, positions. Widens the
    crown in 1 mm steps until the board fits; ModelError past the hand-size limit."""
    o, lp, sw, bt = parts["oled"], parts["lipo"], parts["switch"], parts["button"]
    crown = CROWN
    while True:
        mouth = crown + (MOUTH - CROWN)
        if mouth > MOUTH_LIMIT + 1e-9:
            raise ModelError("the %.1f x %.1f mm board does not fit a cup whose mouth is at most "
                             "%.0f mm (the hand-size limit)" % (mech["l"], mech["w"], MOUTH_LIMIT))
        L = _try(mech, o, lp, sw, bt, crown, mouth, buttons)
        if L:
            return L
        crown += 1.0


def _try(mech, o, lp, sw, bt, crown, mouth, buttons):
    L = {"crown": crown, "mouth": mouth}
    hb = HEIGHT - LID_T
    taper = (mouth - crown) / 2 / hb                      # radius lost per mm of height
    wall_h = WALL * math.sqrt(1 + taper * taper)          # horizontal wall for a 2 mm normal one
    L.update(body_h=hb, taper=taper, wall_h=wall_h, z_top=hb)
    r_in_top = crown / 2 - wall_h
    R = r_in_top - CLEAR                                  # everything passes the crown opening
    L["R"] = R
    # the stack, top down
    z = hb
    L["btn_z0"] = z - bt["body"][2]
    L["pcb_top"] = L["btn_z0"] - GAP - mech["above"]
    L["pcb_bot"] = L["pcb_top"] - mech["t"]
    L["board_low"] = L["pcb_bot"] - mech["below"]
    L["lipo_top"] = L["board_low"] - GAP
    L["lipo_bot"] = L["lipo_top"] - lp["size"][2]
    L["oled_pcb_top"] = L["lipo_bot"] - GAP - o["back_h"]
    L["floor_top"] = L["oled_pcb_top"] - o["pcb"][2]
    L["floor_t"] = max(FLOOR_MIN, o["glass"][2] + 0.4)
    L["z_tray"] = L["floor_top"] - L["floor_t"]
    # the board along y, its USB end toward the back, as far back as the crown lets it
    hw = mech["w"] / 2
    if hw >= R:
        return None
    y1 = math.sqrt(R * R - hw * hw)
    for u in mech["usb"]:
        xr = max(abs(u["x"] - hw - u["w"] / 2), abs(u["x"] - hw + u["w"] / 2))
        y1 = min(y1, math.sqrt(R * R - xr * xr) - u["overhang"])
    y0 = y1 - mech["l"]
    if hw * hw + y0 * y0 > R * R:
        return None
    L["board_y"] = (y0, y1)
    lx, ly = lp["size"][0] / 2, lp["size"][1] / 2
    if lx * lx + ly * ly > R * R:
        return None
    ox, oy = o["pcb"][0] / 2, o["pcb"][1] / 2
    cx = -(o["glass_offset"][0] + o["active_offset"][0])   # module centre: active area on the axis
    cy = -(o["glass_offset"][1] + o["active_offset"][1])
    L["oled_c"] = (cx, cy)
    rail_x = ox + abs(cx) + 0.3 + RAIL_T / 2
    if rail_x + RAIL_T / 2 > lx or oy + abs(cy) + 0.3 + RAIL_T > ly:
        return None                                       # the LiPo must bridge the OLED pocket
    L["rail_x"] = rail_x
    half = bt["body"][0] / 2 + 0.2 + SOCKET_T
    try:
        L["buttons"] = _button_spots(buttons, R - 0.3, half)
    except ModelError:
        return None
    L["btn_half"] = half
    L["protrude"] = bt["height"] - bt["body"][2] - LID_T
    if L["protrude"] < 0.8:
        raise ModelError("button.height %.1f mm leaves the stem %.1f mm above the %.1f mm lid "
                         "(at least 0.8 to press)" % (bt["height"], L["protrude"], LID_T))
    L["boss_r"] = r_in_top - 1.6
    return L


def r_in(L, z):
    return L["mouth"] / 2 - L["taper"] * z - L["wall_h"]


def build(board, parts):
    """The model for a parsed board file (with its checked `mechanical` section as
    board["_mech"]) and the checked parts table."""
    mech = board["_mech"]
    names = [b["name"] for b in board["buttons"]]
    L = plan(mech, parts, names)
    o, lp, sw, bt, ins = parts["oled"], parts["lipo"], parts["switch"], parts["button"], parts["insert"]
    out = {}
    hb, zt = L["body_h"], L["z_top"]
    Rm, Rc, wh = L["mouth"] / 2, L["crown"] / 2, L["wall_h"]
    R = L["R"]

    # --- body: the shell as one revolved outline, with the tray ledge (its underside 55 deg)
    zl = L["z_tray"]
    ledge_in = R - 2.0
    drop = (r_in(L, zl) - ledge_in) * STEEP
    prof = [(Rm, 0), (Rc, hb), (Rc - wh, hb), (r_in(L, zl), zl), (ledge_in, zl),
            (r_in(L, zl - drop), zl - drop), (Rm - wh, 0)]
    body = _revolve(prof)
    boss_len = ins["length"] + 1.5
    cone_h = (BOSS_D / 2) * STEEP
    for a in BOSS_ANGLES:
        x, y = L["boss_r"] * math.cos(math.radians(a)), L["boss_r"] * math.sin(math.radians(a))
        boss = _cyl(x, y, zt - boss_len, zt, BOSS_D)
        boss = boss + Solid.make_cone(0.2, BOSS_D / 2, cone_h).moved(Location((x, y, zt - boss_len - cone_h)))
        boss = boss & _revolve([(0, 0), (Rm, 0), (Rc, hb), (0, hb)])   # nothing outside the wall
        body = body + boss
        body = body - _cyl(x, y, zt - ins["length"] - 0.5, zt + 1, ins["hole_d"])
    # USB: a notch from the rim down, as wide as the plug's overmold (the lid closes it)
    y0b, y1b = L["board_y"]
    hw = mech["w"] / 2
    notches = []
    for u in mech["usb"]:
        plug = parts["usb_plug"][u["type"]]
        xc = u["x"] - hw
        zc = L["pcb_top"] + u["h"] / 2
        w = max(plug[0], u["w"]) + 1.0
        zb = zc - max(plug[1], u["h"]) / 2 - 0.5
        notches.append((xc - w / 2, xc + w / 2, zb))
    for x0, x1, zb in notches:
        body = body - _box(x0, x1, 0, Rm + 2, zb, hb + 1)
    L["usb_notches"] = notches
    # the slide switch: on the tray floor at the wall, its lever out through a slot
    a = math.radians(SWITCH_ANGLE)
    sz0 = L["floor_top"]
    sz1 = sz0 + sw["body"][2]
    r_face = math.sqrt((r_in(L, sz1) - 0.3) ** 2 - (sw["body"][0] / 2) ** 2)
    rot = Location((0, 0, 0), (0, 0, SWITCH_ANGLE - 90))   # local y -> radial outward
    zl_mid = sz0 + sw["body"][2] / 2
    sw_body = _box(-sw["body"][0] / 2, sw["body"][0] / 2, r_face - sw["body"][1], r_face, sz0, sz1)
    lever = _box(-sw["lever"][0] / 2, sw["lever"][0] / 2, r_face, r_face + sw["lever"][1],
                 zl_mid - sw["lever"][2] / 2, zl_mid + sw["lever"][2] / 2)
    slot_w = sw["lever"][0] + sw["travel"] + 0.6
    slot = _box(-slot_w / 2, slot_w / 2, r_face, Rm + 2, zl_mid - sw["lever"][2] / 2 - 0.3,
                zl_mid + sw["lever"][2] / 2 + 0.3)
    body = body - slot.moved(rot)
    out["switch"] = Part("switch", (sw_body + lever).moved(rot), False, color="#333333")
    L["switch_slot"] = (slot_w, sw["lever"][2] + 0.6)
    out["body"] = Part("body", body, True, Location((0, 0, 0)), "#e8c07a",
                       "mouth on the bed, no supports")

    # --- tray: floor disc with the OLED window, pocket walls, LiPo rails, board supports
    ft, fz = L["floor_t"], L["floor_top"]
    tray = _cyl(0, 0, zl, fz, 2 * R)
    for a_ in BOSS_ANGLES:
        x, y = L["boss_r"] * math.cos(math.radians(a_)), L["boss_r"] * math.sin(math.radians(a_))
        tray = tray - _cyl(x, y, zl - 1, fz + 1, BOSS_D + 1.0)
    cx, cy = L["oled_c"]
    gx, gy = cx + o["glass_offset"][0], cy + o["glass_offset"][1]
    gw, gl = o["glass"][0] / 2 + 0.3, o["glass"][1] / 2 + 0.3
    tray = tray - _box(gx - gw, gx + gw, gy - gl, gy + gl, zl - 1, fz + 1)
    ox, oy = o["pcb"][0] / 2, o["pcb"][1] / 2
    rx = L["rail_x"]
    ly = lp["size"][1] / 2
    for s in (-1, 1):
        tray = tray + _box(s * rx - RAIL_T / 2, s * rx + RAIL_T / 2, -ly + 1, ly - 1, fz, L["lipo_bot"])
        ye = cy + s * (oy + 0.3 + RAIL_T / 2)
        tray = tray + _box(-rx, rx, ye - RAIL_T / 2, ye + RAIL_T / 2, fz, fz + o["pcb"][2])
    supports = []
    sx = min(8.0, hw - 1.0)
    if y1b - 0.5 - (ly + GAP) >= 2.0:
        supports.append((ly + GAP, y1b - 0.5))
    if -(ly + GAP) - (y0b + 0.5) >= 2.0:
        supports.append((y0b + 0.5, -(ly + GAP)))
    for s0, s1 in supports:
        tray = tray + _box(-sx, sx, s0, s1, fz, L["board_low"])
    L["supports"] = supports
    out["tray"] = Part("tray", tray, True, Location((0, 0, -zl)), "#7ab8e8",
                       "floor on the bed, no supports")

    # --- lid: the crown's cover, button holes and sockets, 4 screw holes
    lid = _cyl(0, 0, zt, zt + LID_T, 2 * Rc)
    half = L["btn_half"]
    for name, (x, y) in L["buttons"].items():
        lid = lid - _cyl(x, y, zt - 1, zt + LID_T + 1, bt["stem_d"] + 0.6)
        lid = lid + (_box(x - half, x + half, y - half, y + half, L["btn_z0"], zt)
                     - _box(x - half + SOCKET_T, x + half - SOCKET_T, y - half + SOCKET_T,
                            y + half - SOCKET_T, L["btn_z0"] - 1, zt + 0.01))
    for a_ in BOSS_ANGLES:
        x, y = L["boss_r"] * math.cos(math.radians(a_)), L["boss_r"] * math.sin(math.radians(a_))
        lid = lid - _cyl(x, y, zt - 1, zt + LID_T + 1, ins["screw_d"] + 0.4)
    flip = Location((0, 0, 0), (180, 0, 0)) * Location((0, 0, -(zt + LID_T)))
    out["lid"] = Part("lid", lid, True, flip, "#e8c07a", "top face on the bed, no supports")

    # --- the bought parts (stand-ins)
    mod = _box(cx - ox, cx + ox, cy - oy, cy + oy, fz, fz + o["pcb"][2])
    mod = mod + _box(cx - ox + 1, cx + ox - 1, cy - oy + 1, cy + oy - 1, L["oled_pcb_top"],
                     L["oled_pcb_top"] + o["back_h"])
    glass = _box(gx - o["glass"][0] / 2, gx + o["glass"][0] / 2, gy - o["glass"][1] / 2,
                 gy + o["glass"][1] / 2, fz - o["glass"][2], fz)
    out["oled"] = Part("oled", mod + glass, False, color="#2a6f2a")
    ax, ay = gx + o["active_offset"][0], gy + o["active_offset"][1]
    aw, al = o["active"][0] / 2, o["active"][1] / 2
    out["oled_active"] = Part("oled_active", _box(ax - aw, ax + aw, ay - al, ay + al,
                                                  fz - o["glass"][2] - 0.01, fz - o["glass"][2]),
                              False, color="#66ccff", note="the active area, seen from the mouth")
    lx = lp["size"][0] / 2
    out["lipo"] = Part("lipo", _box(-lx, lx, -ly, ly, L["lipo_bot"], L["lipo_top"]), False, color="#c0c0c0")
    brd = _box(-hw, hw, y0b, y1b, L["board_low"], L["pcb_top"] + mech["above"])
    for u in mech["usb"]:
        xc = u["x"] - hw
        brd = brd + _box(xc - u["w"] / 2, xc + u["w"] / 2, y1b - 5, y1b + u["overhang"],
                         L["pcb_top"], L["pcb_top"] + u["h"])
    out["board"] = Part("board", brd, False, color="#1f3f8f")
    for name, (x, y) in L["buttons"].items():
        b = _box(x - bt["body"][0] / 2, x + bt["body"][0] / 2, y - bt["body"][1] / 2,
                 y + bt["body"][1] / 2, L["btn_z0"], zt)
        b = b + _cyl(x, y, zt, L["btn_z0"] + bt["height"], bt["stem_d"])
        out["button_" + name] = Part("button_" + name, b, False, color="#222222")
    for i, a_ in enumerate(BOSS_ANGLES):
        x, y = L["boss_r"] * math.cos(math.radians(a_)), L["boss_r"] * math.sin(math.radians(a_))
        out["insert%d" % i] = Part("insert%d" % i, _cyl(x, y, zt - ins["length"], zt, ins["hole_d"]),
                                   False, color="#b08d2a")
    return Model(board, L, out)
