"""The flash bundle holds the firmware and the pinned Adafruit drivers as .mpy, the
board file and main.py; it imports and brings a cup up inside MicroPython."""
import json

import pytest

from dicecup_host import bundle, emu, mpy

from hwhelpers import BOARD_FILES, EMU_HEAP


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("bundle") / "esp32-devkitc"
    assert bundle.build_bundle(out, "esp32-devkitc") == out
    return out, bundle.files(out)


def test_bundle_layout(built):
    out, files = built
    for need in ("board.json", "main.py", "digitalio.mpy", "dicecup/__init__.mpy",
                 "dicecup/hw/hardware.mpy", "dicecup/hw/boardcheck.mpy",
                 "lib/adafruit_ssd1306.mpy", "lib/adafruit_lis3dh.mpy",
                 "lib/adafruit_bus_device/__init__.mpy", "lib/adafruit_bus_device/i2c_device.mpy"):
        assert need in files, need
    assert not [f for f in files if f.endswith(".py") and f != "main.py"]
    assert "lib/adafruit_framebuf.mpy" not in files  # MicroPython has framebuf built in
    assert _cup_board(out / "board.json") == _cup_board(bundle.BOARDS / "esp32-devkitc.json")
    assert all((out / f).read_bytes()[:1] == b"M" for f in files if f.endswith(".mpy"))


def test_bundle_boots_in_micropython(built, tmp_path):
    out, _ = built
    code = """
import rig
from dicecup.hw import board, hardware
import adafruit_ssd1306, adafruit_lis3dh
print("drivers", adafruit_ssd1306.__file__, adafruit_lis3dh.__file__)
b = board.load(%r)
w, acc, oled = rig.build(b)
hw = hardware.open(%r)
w.advance(20)
print("ok", hw.ok(), hw.found, hw.accel.read())
""" % (str(out / "board.json"), str(out / "board.json"))
    # the bundle's own files only (no build/mpy), the fake machine in front
    r = mpy.run_code(code, heap=EMU_HEAP, path=out, extra_path=[emu.build_mpy(), out / "lib"])
    text = r.stdout.decode()
    assert r.returncode == 0, text + r.stderr.decode()
    assert "lib/adafruit_ssd1306.mpy" in text and "lib/adafruit_lis3dh.mpy" in text
    assert "ok True [24, 60] (0.0, 0.0, 1.0)" in text


def test_a_bundle_for_every_board(tmp_path):
    for p in BOARD_FILES:
        files = bundle.files(bundle.build_bundle(tmp_path / p.stem, p.stem))
        assert "board.json" in files


def test_unknown_board_and_pin_check(tmp_path, monkeypatch):
    with pytest.raises(bundle.BundleError, match="no board nope "):
        bundle.build_bundle(tmp_path / "x", "nope")
    monkeypatch.setattr(bundle, "pins", lambda: {"adafruit-circuitpython-lis3dh": "0.0.1"})
    with pytest.raises(bundle.BundleError, match="drivers.txt pins 0.0.1"):
        bundle.driver_sources()


def test_default_board_for_dicecup_flash(tmp_path):
    from dicecup_host import cmd_flash
    tree = cmd_flash.stage(tmp_path / "t")  # what `dicecup flash` copies, no --board
    assert _cup_board(tree / "board.json") == _cup_board(bundle.BOARDS / "esp32-devkitc.json")
    assert (tree / "lib" / "adafruit_lis3dh.mpy").exists()


def _cup_board(path):
    """A board file's content as the cup gets it (the enclosure's and the wiring's
    sections are left behind)."""
    d = json.loads(path.read_text())
    d.pop("mechanical", None)
    d.pop("power", None)
    return d


def test_the_cup_gets_the_board_file_without_the_enclosure_data(tmp_path):
    src = bundle.BOARDS / "esp32-devkitc.json"
    assert {"mechanical", "power"} <= set(json.loads(src.read_text()))
    bundle.write_cup_board(src, tmp_path / "board.json")
    got = json.loads((tmp_path / "board.json").read_text())
    assert "mechanical" not in got and "power" not in got and got == _cup_board(src)
    assert (tmp_path / "board.json").stat().st_size < src.stat().st_size

