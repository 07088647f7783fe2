"""The printable cup per board (hardware/enclosure/cup.py): files, previews, checks.

    model(board)            the build123d model for a board name or board file
    write(model, out)       per printed part STL + STEP (as it lies on the bed), the whole
                            assembly as STEP, PNG previews; returns the paths written
    read_stl(path)          (vertices, triangles) of a binary STL, vertices merged
    mesh_problems(v, t)     why a mesh is not a closed, consistently oriented solid
    overhangs(part)         faces over 45 deg in print orientation (bed and short
                            bridges allowed)
    collisions(model)       pairs of parts that overlap, with the shared volume

build123d (OCP) is imported only here, on first use: the rest of the host tool starts
without it.
"""
import importlib.util
import json
import math
import struct
import sys
from pathlib import Path

import numpy as np

from dicecup_host import bundle, mechanical, mpy

CUP_PY = mpy.ROOT / "hardware" / "enclosure" / "cup.py"
PREVIEWS = ("assembly", "section", "mouth", "print")
PREVIEW_DIR = mpy.ROOT / "hardware" / "enclosure" / "previews"
# the previews the README shows: (board, view), written as <board>-<view>.png
CHECKED_IN = (("esp32-devkitc", "assembly"), ("esp32-devkitc", "section"),
              ("esp32-devkitc", "mouth"), ("esp32-s3-devkitc-1", "print"))


class EnclosureError(ValueError):
    pass


def cup():
    """hardware/enclosure/cup.py as a module (it lives beside the data, not in the package)."""
    mod = sys.modules.get("dicecup_cup")
    if mod is None:
        spec = importlib.util.spec_from_file_location("dicecup_cup", CUP_PY)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["dicecup_cup"] = mod
        spec.loader.exec_module(mod)
    return mod


def board_data(board):
    """A board file (name or path), checked by the cup's rules and for its mechanical
    section: the parsed dict with the section as ["_mech"]. EnclosureError, one line."""
    try:
        path = bundle.board_file(board)
    except bundle.BundleError as e:
        raise EnclosureError(str(e))
    with open(path) as fh:
        data = json.load(fh)
    try:
        mech = mechanical.board_mechanical(data, str(path))
    except Exception as e:  # BoardError
        raise EnclosureError(str(e))
    if mech is None:
        raise EnclosureError("board file %s has no \"mechanical\" section: add the board's outline "
                             "and USB position (see hardware/boards/esp32-devkitc.json)" % path)
    data["_mech"] = mech
    return data


def model(board, parts_path=mechanical.PARTS):
    data = board if isinstance(board, dict) else board_data(board)
    try:
        parts = mechanical.parts(parts_path)
    except mechanical.PartsError as e:
        raise EnclosureError(str(e))
    c = cup()
    try:
        return c.build(data, parts)
    except c.ModelError as e:
        raise EnclosureError("board %s: %s" % (data.get("board"), e))


# ---------------------------------------------------------------- meshes

def read_stl(path):
    """Vertices (n x 3) and triangles (m x 3 indices) of a binary STL, equal points merged."""
    raw = Path(path).read_bytes()
    if raw[:5].lower() == b"solid" and b"facet" in raw[:300]:
        pts = [tuple(float(v) for v in ln.split()[1:4]) for ln in raw.decode().splitlines()
               if ln.strip().startswith("vertex")]
        tri = np.array(pts, dtype=np.float64)
    else:
        n = struct.unpack_from("<I", raw, 80)[0]
        rec = np.frombuffer(raw, dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")]),
                            count=n, offset=84)
        tri = rec["v"].astype(np.float64).reshape(-1, 3)
    keys = np.round(tri / 1e-4).astype(np.int64)
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    verts = np.zeros((len(uniq), 3))
    verts[inv.ravel()] = tri
    return verts, inv.reshape(-1, 3)


def mesh_problems(verts, tris):
    """[] for a closed 2-manifold with consistent orientation and positive volume, else
    the reasons (counts of bad edges, degenerate triangles, the volume)."""
    out = []
    tris = np.asarray(tris)
    degenerate = (tris[:, 0] == tris[:, 1]) | (tris[:, 1] == tris[:, 2]) | (tris[:, 0] == tris[:, 2])
    if degenerate.any():
        out.append("%d degenerate triangles" % int(degenerate.sum()))
        tris = tris[~degenerate]
    directed = np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]])
    und = np.sort(directed, axis=1)
    _, counts = np.unique(und, axis=0, return_counts=True)
    if (counts != 2).any():
        out.append("%d edges not shared by exactly two triangles" % int((counts != 2).sum()))
    _, dcounts = np.unique(directed, axis=0, return_counts=True)
    if (dcounts != 1).any():
        out.append("%d edges run the same way in both triangles (inconsistent orientation)"
                   % int((dcounts != 1).sum()))
    v = verts[tris]
    vol = float(np.einsum("ij,ij->i", v[:, 0], np.cross(v[:, 1], v[:, 2])).sum() / 6)
    if vol <= 0:
        out.append("volume %.1f mm3 is not positive" % vol)
    return out


def mesh_volume(verts, tris):
    v = verts[np.asarray(tris)]
    return float(np.einsum("ij,ij->i", v[:, 0], np.cross(v[:, 1], v[:, 2])).sum() / 6)


def tessellate(solid, tol=0.05, ang=0.2):
    pts, tris = solid.tessellate(tol, ang)
    return np.array([[p.X, p.Y, p.Z] for p in pts]), np.array(tris, dtype=np.int64)


# ---------------------------------------------------------------- printability

def overhangs(part, limit_deg=45.0, bridge=None, tol=0.05):
    """Faces of a printed part, in its print orientation, that hang over more than
    `limit_deg` from vertical: [(why, centre, worst angle)]. Allowed: faces on the bed
    (z = 0) and horizontal downward faces at most `bridge` mm across (a bridge)."""
    from build123d import Vector
    c = cup()
    bridge = c.BRIDGE_MAX if bridge is None else bridge
    solid = part.print_solid()
    zmin = solid.bounding_box().min.Z
    bad = []
    lim = -math.sin(math.radians(90 - limit_deg)) - 1e-6    # normal z below this: too flat
    for face in solid.faces():
        v, t = tessellate(face, tol)
        if len(t) == 0:
            continue
        # the surface's own normal at the mesh's points (a coarse mesh's facets tilt
        # near an apex or a trimmed edge; the surface does not)
        pts = v if len(v) <= 300 else v[np.linspace(0, len(v) - 1, 300).astype(int)]
        nz = np.array([face.normal_at(Vector(*p)).Z for p in pts])
        if nz.min() >= lim:
            continue
        if np.all(np.abs(v[:, 2] - zmin) < 1e-4):
            continue                                  # on the bed
        bb = face.bounding_box()
        flat = bb.size.Z < 1e-4
        span = max(bb.size.X, bb.size.Y)
        if flat and span <= bridge + 1e-6:
            continue                                  # a short bridge
        slope = math.degrees(math.acos(max(-1.0, min(1.0, -nz.min()))))   # from horizontal
        c_ = face.center()
        bad.append(("%s face at (%.1f, %.1f, %.1f): %.0f deg from horizontal%s"
                    % ("flat" if flat else "sloped", c_.X, c_.Y, c_.Z, slope,
                       ", a %.1f mm bridge" % span if flat else ""), (c_.X, c_.Y, c_.Z), slope))
    return bad


def collisions(model, min_volume=1e-3):
    """[(a, b, shared mm3)] for every two parts that overlap by more than min_volume."""
    names = [n for n in model.parts if n != "oled_active"]
    boxes = {n: model.parts[n].solid.bounding_box() for n in names}
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            A, B = boxes[a], boxes[b]
            if (A.min.X >= B.max.X or B.min.X >= A.max.X or A.min.Y >= B.max.Y or B.min.Y >= A.max.Y
                    or A.min.Z >= B.max.Z or B.min.Z >= A.max.Z):
                continue
            common = model.parts[a].solid & model.parts[b].solid
            vol = common.volume if common is not None else 0.0
            if vol > min_volume:
                out.append((a, b, vol))
    return out


# ---------------------------------------------------------------- files

def readme_previews(out=PREVIEW_DIR):
    """Render the README's previews (CHECKED_IN) into `out`; returns the paths
    (`make enclosure-previews` refreshes the checked-in ones)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    models, paths = {}, []
    for board, view in CHECKED_IN:
        if board not in models:
            models[board] = model(board)
        path = out / ("%s-%s.png" % (board, view))
        render(models[board], view, path)
        paths.append(path)
    return paths


def write(m, out, previews=True):
    """STL + STEP per printed part (print orientation), assembly.step, the previews.
    Returns {file name: bytes}."""
    from build123d import Compound, export_step, export_stl
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    if previews:
        # before the exports: OCC keeps a shape's finest mesh, and the previews are
        # meant to come out the same from a fresh model (make enclosure-previews)
        for view in PREVIEWS:
            render(m, view, out / ("%s.png" % view))
            written.append("%s.png" % view)
    for p in m.printed():
        s = p.print_solid()
        export_stl(s, str(out / (p.name + ".stl")), tolerance=0.02, angular_tolerance=0.1)
        export_step(s, str(out / (p.name + ".step")))
        written += [p.name + ".stl", p.name + ".step"]
    export_step(Compound([p.solid for p in m.parts.values()]), str(out / "assembly.step"))
    written.append("assembly.step")
    return {name: (out / name).stat().st_size for name in written}


def _mesh_for_view(solid, tol=0.3):
    v, t = tessellate(solid, tol, 0.5)
    return v[t] if len(t) else np.zeros((0, 3, 3))


def render(m, view, path, size=(7.0, 6.0), dpi=90):
    """A shaded PNG of the model: `assembly` (outside, from the near side above),
    `section` (cut along x = 0: the stack in the crown), `mouth` (looking up into the
    mouth, the OLED on the axis), `print` (the printed parts as they lie on the bed)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgb
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    from build123d import Location, Solid

    L = m.layout
    items = []
    if view == "print":
        dx = 0.0
        for p in m.printed():
            s = p.print_solid()
            bb = s.bounding_box()
            s = s.moved(Location((dx - bb.min.X, -bb.center().Y, 0)))
            dx += bb.size.X + 10
            items.append((s, p.color))
    else:
        cut = None
        if view == "section":
            cut = Solid.make_box(200, 200, 300).moved(Location((-200, -100, -10)))
        # parts a view cannot see are left out (mplot3d's depth sort would let them show through)
        hidden = {"assembly": ("tray", "oled", "oled_active", "lipo", "board", "insert"),
                  "mouth": ("lid", "button", "board", "lipo", "insert"),
                  "section": ("oled_active",)}[view]
        for name, p in m.parts.items():
            if name.startswith(hidden):
                continue
            s = p.solid
            if cut is not None:
                s = s & cut
                if s is None:
                    continue
            items.append((s, p.color))
    light = np.array([-0.4, -0.6, 0.7])
    light /= np.linalg.norm(light)
    if view == "mouth":
        light = np.array([0.2, -0.5, -0.85])
    fig = plt.figure(figsize=size, dpi=dpi)
    ax = fig.add_subplot(111, projection="3d")
    tris, colors = [], []
    for s, color in items:
        tri = _mesh_for_view(s)
        if not len(tri):
            continue
        n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
        n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
        shade = 0.35 + 0.65 * np.abs(n @ light)
        rgb = np.array(to_rgb(color))
        tris.append(tri)
        colors.append(np.clip(rgb[None, :] * shade[:, None], 0, 1))
    tri, fc = np.concatenate(tris), np.concatenate(colors)
    # one collection: mplot3d sorts polygons by depth only within a collection
    ax.add_collection3d(Poly3DCollection(tri, facecolors=fc, edgecolors="none", linewidths=0))
    lo, hi = tri.reshape(-1, 3).min(axis=0), tri.reshape(-1, 3).max(axis=0)
    mid, half = (lo + hi) / 2, (hi - lo).max() / 2
    ax.set_xlim(mid[0] - half, mid[0] + half)
    ax.set_ylim(mid[1] - half, mid[1] + half)
    ax.set_zlim(mid[2] - half, mid[2] + half)
    ax.set_box_aspect((1, 1, 1))
    elev, azim = {"assembly": (22, 60), "section": (12, 0), "mouth": (-62, -90), "print": (35, -60)}[view]
    ax.view_init(elev=elev, azim=azim)
    ax.set_axis_off()
    title = {"assembly": "%s: the cup, %.0f mm mouth, %.0f mm crown, %.0f mm tall",
             "section": "%s: cut at x = 0 (lid, buttons, board, LiPo, OLED, tray)",
             "mouth": "%s: looking up into the mouth (OLED active area on the axis)",
             "print": "%s: the printed parts as they lie on the bed"}[view]
    args = (m.board.get("board"),) + ((L["mouth"], L["crown"], L["body_h"] + cup().LID_T) if view == "assembly" else ())
    ax.set_title(title % args, fontsize=9)
    fig.subplots_adjust(0, 0, 1, 0.95)
    fig.savefig(str(path))
    plt.close(fig)
