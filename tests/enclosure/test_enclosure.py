"""The printable cup (hardware/enclosure/cup.py) for every board file: it builds, each
printed part is a closed solid mesh, the parts fit, the OLED shows in the mouth, and
every part prints in its stated orientation without supports. The checkers themselves
are shown to catch what they look for on small made-up solids."""
import json
import math
import struct

import numpy as np
import pytest

from dicecup_host import bundle, cli, enclosure, mechanical

BOARDS = bundle.boards()


@pytest.fixture(scope="module")
def models():
    return {}


@pytest.fixture(params=BOARDS)
def built(request, models):
    """(board name, model) built once per board for the whole module."""
    name = request.param
    if name not in models:
        models[name] = enclosure.model(name)
    return name, models[name]


def _bb(solid):
    bb = solid.bounding_box()
    return np.array([bb.min.X, bb.min.Y, bb.min.Z]), np.array([bb.max.X, bb.max.Y, bb.max.Z])


def test_every_board_file_has_a_checked_mechanical_section():
    for name in BOARDS:
        data = json.loads((bundle.BOARDS / (name + ".json")).read_text())
        m = mechanical.board_mechanical(data, name)
        assert m and m["usb"] and "source" in m and m["l"] > m["w"] > 0


def test_builds_within_the_hand_size_limit(built):
    name, m = built
    c = enclosure.cup()
    L = m.layout
    assert c.CROWN <= L["crown"] and L["mouth"] <= c.MOUTH_LIMIT
    assert L["mouth"] - L["crown"] == c.MOUTH - c.CROWN          # the taper kept
    assert {"body", "tray", "lid"} == {p.name for p in m.printed()}
    wanted = [b["name"] for b in json.loads((bundle.BOARDS / (name + ".json")).read_text())["buttons"]]
    assert sorted(n[len("button_"):] for n in m.parts if n.startswith("button_")) == sorted(wanted)


def test_the_crown_grows_only_for_a_board_that_needs_it(models):
    m = models.get("esp32-s3-devkitc-1") or enclosure.model("esp32-s3-devkitc-1")
    c = enclosure.cup()
    # a 62.7 mm board does not pass a 70 mm crown's opening: the cup widens, a little
    assert c.CROWN < m.layout["crown"] <= c.CROWN + 5
    small = models.get("xiao-esp32c3") or enclosure.model("xiao-esp32c3")
    assert small.layout["crown"] == c.CROWN


def test_printed_parts_are_closed_manifold_meshes(built, tmp_path):
    name, m = built
    enclosure.write(m, tmp_path, previews=False)
    for p in m.printed():
        v, t = enclosure.read_stl(tmp_path / (p.name + ".stl"))
        assert enclosure.mesh_problems(v, t) == [], (name, p.name)
        vol = enclosure.mesh_volume(v, t)
        assert vol == pytest.approx(p.solid.volume, rel=0.01), (name, p.name)
        assert (tmp_path / (p.name + ".step")).read_bytes().startswith(b"ISO-10303-21")


def test_parts_fit_and_the_screen_faces_the_mouth(built):
    name, m = built
    assert enclosure.collisions(m) == []
    lo, hi = _bb(m.parts["oled_active"].solid)
    centre = (lo + hi) / 2
    assert math.hypot(centre[0], centre[1]) <= 0.5, (name, centre)
    # nothing between the active area and the table: a player looking up sees all of it
    from build123d import Solid, Location
    sight = Solid.make_box(*(hi - lo)[:2], lo[2] - 0.01).moved(Location((lo[0], lo[1], 0)))
    for pname, p in m.parts.items():
        if pname in ("oled_active", "oled"):
            continue
        common = p.solid & sight
        assert common is None or common.volume < 1e-3, (name, pname)
    # the long side of the panel along the player's left-right (cup x)
    assert hi[0] - lo[0] > hi[1] - lo[1]
    # every bought part sits inside the crown: above the tray's underside, below the lid's top
    z_lo, z_hi = m.layout["z_tray"], m.layout["z_top"] + enclosure.cup().LID_T
    for pname in ("oled", "lipo", "board", "switch"):
        plo, phi = _bb(m.parts[pname].solid)
        assert z_lo - 1e-6 <= plo[2], pname
        assert phi[2] <= z_hi + 1e-6, pname


def test_parts_print_in_their_orientation_without_overhangs(built):
    name, m = built
    for p in m.printed():
        s = p.print_solid()
        lo, _ = _bb(s)
        assert abs(lo[2]) < 1e-6, (name, p.name)           # lies on the bed
        assert enclosure.overhangs(p) == [], (name, p.name)


# ------------------------------------------------ the checkers catch what they look for

def _cube_mesh():
    v = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], float)
    t = np.array([[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
                  [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]])
    return v, t


def test_mesh_check_finds_holes_flips_and_inside_out():
    v, t = _cube_mesh()
    assert enclosure.mesh_problems(v, t) == []
    assert enclosure.mesh_volume(v, t) == pytest.approx(1.0)
    assert any("not shared by exactly two" in p for p in enclosure.mesh_problems(v, t[1:]))
    flipped = t.copy()
    flipped[0] = flipped[0][::-1]
    assert any("inconsistent orientation" in p for p in enclosure.mesh_problems(v, flipped))
    assert any("not positive" in p for p in enclosure.mesh_problems(v, t[:, ::-1]))


def test_read_stl_merges_the_corners(tmp_path):
    v, t = _cube_mesh()
    path = tmp_path / "cube.stl"
    with open(path, "wb") as fh:
        fh.write(b"\0" * 80 + struct.pack("<I", len(t)))
        for tri in t:
            fh.write(struct.pack("<3f", 0, 0, 0) + b"".join(struct.pack("<3f", *v[i]) for i in tri) + b"\0\0")
    v2, t2 = enclosure.read_stl(path)
    assert len(v2) == 8 and enclosure.mesh_problems(v2, t2) == []


def _part(solid):
    return enclosure.cup().Part("test", solid, True)


def test_overhang_check_allows_bed_and_short_bridges_only():
    from build123d import Location, Solid
    c = enclosure.cup()

    def box(x0, x1, y0, y1, z0, z1):
        return c._box(x0, x1, y0, y1, z0, z1)
    post = box(0, 5, 0, 5, 0, 20)
    assert enclosure.overhangs(_part(post)) == []                     # bottom on the bed
    shelf = post + box(5, 25, 0, 5, 15, 20)                           # a 20 mm flat shelf
    bad = enclosure.overhangs(_part(shelf))
    assert len(bad) == 1 and "flat" in bad[0][0]
    arch = box(0, 5, 0, 5, 0, 20) + box(13, 18, 0, 5, 0, 20) + box(0, 18, 0, 5, 15, 20)
    assert enclosure.overhangs(_part(arch)) == []                     # an 8 mm bridge
    wide = box(0, 5, 0, 5, 0, 20) + box(17, 22, 0, 5, 0, 20) + box(0, 22, 0, 5, 15, 20)
    assert len(enclosure.overhangs(_part(wide))) == 1                  # a 12 mm one is not
    for slope, ok in ((40, False), (50, True)):
        run = 10.0
        rise = run * math.tan(math.radians(slope))
        cone = Solid.make_cone(1, 1 + run, rise).moved(Location((0, 0, 5))) + c._cyl(0, 0, 0, 5, 2)
        assert (enclosure.overhangs(_part(cone)) == []) is ok, slope


def test_collision_check_reports_overlaps_not_contact():
    c = enclosure.cup()
    a = c.Part("a", c._box(0, 10, 0, 10, 0, 10), True)
    b = c.Part("b", c._box(10, 20, 0, 10, 0, 10), False)             # touching: fine
    d = c.Part("d", c._box(9, 12, 2, 4, 2, 4), False)                 # 1 x 2 x 2 inside a
    got = enclosure.collisions(c.Model({}, {}, {"a": a, "b": b}))
    assert got == []
    got = enclosure.collisions(c.Model({}, {}, {"a": a, "b": b, "d": d}))
    assert [(x, y) for x, y, _ in got] == [("a", "d"), ("b", "d")]
    assert got[0][2] == pytest.approx(4.0)


# ------------------------------------------------ data errors and the command

def _own_board(tmp_path, edit):
    d = json.loads((bundle.BOARDS / "esp32-devkitc.json").read_text())
    edit(d)
    p = tmp_path / "mine.json"
    p.write_text(json.dumps(d))
    return p


def test_hw_check_names_the_bad_mechanical_field(tmp_path, capsys):
    def bad(d):
        d["mechanical"]["usb"][0]["x"] = 40
    p = _own_board(tmp_path, bad)
    assert cli.main(["hw", "check", str(p)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "mechanical.usb[0].x" in out[0]

    def typed(d):
        d["mechanical"]["pcb"]["w"] = "wide"
    assert cli.main(["hw", "check", str(_own_board(tmp_path, typed))]) == 1
    assert 'mechanical.pcb.w: must be a number (mm), not "wide"' in capsys.readouterr().out


def test_parts_table_errors_name_the_field(tmp_path):
    d = json.loads(mechanical.PARTS.read_text())
    d["oled"]["active_offset"] = [0, 5]
    p = tmp_path / "parts.json"
    p.write_text(json.dumps(d))
    with pytest.raises(mechanical.PartsError, match="oled.active_offset: puts the active area off the glass"):
        mechanical.parts(p)
    del d["lipo"]["size"]
    p.write_text(json.dumps(d))
    with pytest.raises(mechanical.PartsError, match="lipo.size: missing"):
        mechanical.parts(p)


@pytest.mark.parametrize("edit, words", [
    (lambda d: d.pop("mechanical"), "no \"mechanical\" section"),
    (lambda d: d["mechanical"]["pcb"].update(l=0), "mechanical.pcb.l"),
])
def test_enclosure_refuses_a_bad_board_in_one_line(tmp_path, capsys, edit, words):
    p = _own_board(tmp_path, edit)
    with pytest.raises(SystemExit) as e:
        cli.main(["enclosure", "--board", str(p), "--out", str(tmp_path / "o")])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]
    assert not (tmp_path / "o").exists()


def test_enclosure_refuses_an_out_folder_it_cannot_make(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(SystemExit) as e:
        cli.main(["enclosure", "--board", "xiao-esp32c3", "--out", str(f / "sub")])
    assert e.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_a_board_too_big_for_a_hand_is_refused(tmp_path, capsys):
    p = _own_board(tmp_path, lambda d: d["mechanical"]["pcb"].update(l=90))
    assert cli.main(["enclosure", "--board", str(p), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "hand-size limit" in err[0] and "90.0 x 27.9" in err[0]


@pytest.mark.heavy    # ~12 s: four matplotlib renders of the whole cup
def test_enclosure_command_writes_parts_and_previews(tmp_path, capsys):
    out = tmp_path / "cup"
    assert cli.main(["enclosure", "--board", "xiao-esp32c3", "--out", str(out)]) == 0
    for part in ("body", "tray", "lid"):
        assert (out / (part + ".stl")).stat().st_size > 1000
        assert (out / (part + ".step")).exists()
    assert (out / "assembly.step").exists()
    for view in enclosure.PREVIEWS:
        png = (out / (view + ".png")).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10000
    assert "mouth 85 mm, crown 70 mm" in capsys.readouterr().out


def test_readme_and_assembly_point_at_files_that_exist():
    import re
    root = bundle.mpy.ROOT
    readme = (root / "README.md").read_text()
    section = readme[readme.index("## Enclosure"):]
    section = section[:section.index("\n## ", 5)]
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", section)
    assert len(images) >= 3
    for rel in images:
        assert (root / rel).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", rel
    assembly = (root / "hardware" / "ASSEMBLY.md").read_text()
    for rel in re.findall(r"`(enclosure/[^`]+)`", assembly):
        assert (root / "hardware" / rel).exists(), rel


def _pixels(path):
    from PIL import Image
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.int16)


def _looks_changed(old, new):
    """True when two renders differ by more than OCC's tessellation jitter.

    The same model renders with a few dozen anti-aliased edge pixels off by a
    shade from one machine to the next; a moved or resized part changes whole
    outlines, thousands of pixels."""
    if old.shape != new.shape:
        return True
    changed = (np.abs(old - new).max(axis=2) > 40).sum()
    return changed > 0.002 * old.shape[0] * old.shape[1]


def test_preview_check_ignores_jitter_but_sees_a_moved_part():
    base = _pixels(enclosure.PREVIEW_DIR / "esp32-devkitc-section.png")
    jitter = base.copy()
    jitter[100:110, 200:210] += 30                          # a shade off on 100 edge pixels
    assert not _looks_changed(base, jitter)
    assert _looks_changed(base, np.roll(base, 2, axis=1))   # everything 2 px to the right


@pytest.mark.heavy    # ~10 s: the four renders
def test_checked_in_previews_are_current(tmp_path):
    fresh = enclosure.readme_previews(tmp_path)
    stale = [p.name for p in fresh if _looks_changed(_pixels(enclosure.PREVIEW_DIR / p.name), _pixels(p))]
    assert not stale, "stale previews %s: run make enclosure-previews" % stale

