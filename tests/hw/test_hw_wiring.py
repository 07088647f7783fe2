"""The wiring in hardware/wiring/ (SVG + Markdown pin table) is what wiring.py makes of
the board files, power path included; `hw check` types the power section's errors."""
import json

from dicecup_host import cli, wiring

from hwhelpers import BASE_JSON, BOARD_FILES


def test_committed_wiring_is_current(tmp_path):
    made = wiring.generate(tmp_path)
    assert sorted(p.name for p in made) == sorted(
        p.stem + ext for p in BOARD_FILES for ext in (".svg", ".md"))
    for p in made:
        committed = wiring.OUT / p.name
        assert committed.exists(), "run: python -m dicecup_host.wiring"
        assert committed.read_bytes() == p.read_bytes(), "stale %s: python -m dicecup_host.wiring" % p.name
    assert wiring.main(["--check"]) == 0


def test_diagram_shows_every_pin_and_the_power_path():
    b, pw = wiring.load_power("esp32-devkitc")
    svg = wiring.render(b, pw)
    for gpio in [b.sda, b.scl, b.int1, b.battery_pin] + [x.pin for x in b.buttons]:
        assert ">GPIO%d " % gpio in svg
    assert "back (safe mode)" in svg and svg == wiring.render(b, pw)
    for part in ("LiPo charger", "slide switch", "regulator 3.3 V", "R1 100k", "R2 100k", "100 uF"):
        assert ">%s<" % part in svg
    md = wiring.markdown(b, pw)
    assert "| battery sense | GPIO35 | divider tap | brown |" in md
    assert "| power: LDO VOUT | 3V3 | board 3V3 | red |" in md


def test_xiao_feeds_its_bat_pads_without_charger_or_ldo():
    b, pw = wiring.load_power("xiao-esp32c3")
    svg = wiring.render(b, pw)
    assert ">LiPo charger<" not in svg and ">regulator 3.3 V<" not in svg
    assert "to the BAT+ pad" in svg
    assert "| power: slide switch | BAT+ | board BAT+ pad | yellow |" in wiring.markdown(b, pw)


def _check_power(tmp_path, capsys, change):
    d = json.loads(BASE_JSON)
    change(d)
    f = tmp_path / "p.json"
    f.write_text(json.dumps(d))
    rc = cli.main(["hw", "check", str(f)])
    return rc, capsys.readouterr().out.strip()


def test_hw_check_names_power_problems(tmp_path, capsys):
    def ratio(d):
        d["power"]["divider"]["r1_ohm"] = 47000
    rc, out = _check_power(tmp_path, capsys, ratio)
    assert rc == 1 and out.endswith("power.divider: (R1 + R2) / R2 = 1.47 but battery.divider says 2")
    assert len(out.splitlines()) == 1

    def lipo_on_3v3(d):
        d["power"]["regulator"]["on_board"] = True
    rc, out = _check_power(tmp_path, capsys, lipo_on_3v3)
    assert rc == 1 and "power.regulator.on_board: feed \"3V3\" needs an external regulator" in out

    def bad_feed(d):
        d["power"]["feed"] = "5V"
    rc, out = _check_power(tmp_path, capsys, bad_feed)
    assert rc == 1 and "power.feed: must be \"3V3\"" in out

    def no_cap(d):
        del d["power"]["decoupling"]["oled_nf"]
    rc, out = _check_power(tmp_path, capsys, no_cap)
    assert rc == 1 and out.endswith("power.decoupling.oled_nf: missing")

    rc, out = _check_power(tmp_path, capsys, lambda d: d.pop("power"))   # optional for the cup
    assert rc == 0 and "ok (esp32-devkitc" in out
