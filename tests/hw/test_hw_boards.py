"""Board files: every one shipped loads (CPython and MicroPython); a broken one is a
BoardError naming the board and the key; bring-up never crashes and shows the error."""
import copy
import json

import pytest

from dicecup.hw import board
from dicecup.hw.errors import BoardError

from hwhelpers import BOARD_FILES, DEVKITC, EMU_HEAP, upy_str

BASE = json.loads(DEVKITC.read_text())


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.stem)
def test_every_board_loads(path):
    b = board.load(str(path))
    assert b.name == path.stem
    assert 3 <= len(b.buttons) <= 4
    assert b.chip in ("esp32", "esp32s3", "esp32c3")
    assert b.buttons[b.safe_button].name in b.button_names()
    assert len(b.mount) == 3


def test_every_board_loads_in_micropython(upy_hw):
    code = "from dicecup.hw import board\n"
    for p in BOARD_FILES:
        code += "b = board.load(%s)\nprint(b.name, b.chip, len(b.buttons), b.mount)\n" % upy_str(p)
    code += "import sys\nprint('boardcheck' in str(list(sys.modules)))\n"
    lines = upy_hw(code).splitlines()
    assert [ln.split()[0] for ln in lines[:-1]] == [p.stem for p in BOARD_FILES]
    assert lines[-1] == "False"  # the checks are dropped from memory after loading


def _set(path, value):
    def mutate(d):
        keys = path.split(".")
        obj = d
        for k in keys[:-1]:
            obj = obj[int(k)] if isinstance(obj, list) else obj[k]
        last = keys[-1]
        if value is KeyError:
            del obj[last]
        elif isinstance(obj, list):
            obj[int(last)] = value
        else:
            obj[last] = value
    return mutate


BROKEN = [
    ("chip", _set("chip", "esp8266"), "chip", "unknown chip"),
    ("no i2c", _set("i2c", KeyError), "i2c", "missing"),
    ("sda text", _set("i2c.sda", "21"), "i2c.sda", 'must be a whole number, not "21"'),
    ("flash pin", _set("i2c.scl", 6), "i2c.scl", "GPIO 6 is wired to the SPI flash"),
    ("no such pin", _set("buttons.0.pin", 24), "buttons[0].pin", "GPIO 24 does not exist"),
    ("input-only SDA", _set("i2c.sda", 36), "i2c.sda", "input-only"),
    ("pull on 34", _set("buttons.1.pin", 34), "buttons[1].pin", "no internal pull-up"),
    ("twice", _set("buttons.2.pin", 25), "buttons[2].pin", "already used by button left"),
    ("console", _set("buttons.3.pin", 1), "buttons[3].pin", "serial console"),
    ("two buttons", _set("buttons", BASE["buttons"][:2]), "buttons", "3 or 4 buttons"),
    ("pull/active", _set("buttons.0.active", 1), "buttons[0]", "pressed button would read"),
    ("safe name", _set("safe_button", "start"), "safe_button", "not one of the buttons"),
    ("safe on GPIO0", _set("buttons.3.pin", 0), "safe_button", "ROM downloader"),
    ("ADC2 battery", _set("battery.pin", 4), "battery.pin", "not an ADC1 pin"),
    ("mirror mount", _set("accel.mount", ["x", "y", "-z"]), "accel.mount", "mirror image"),
    ("mount axes", _set("accel.mount", ["x", "x", "z"]), "accel.mount", "each of x, y, z once"),
    ("mount word", _set("accel.mount", ["x", "up", "z"]), "accel.mount[1]", "an axis"),
    ("range", _set("accel.range_g", 3), "accel.range_g", "2, 4, 8, 16"),
    ("same addr", _set("accel.addr", 60), "accel.addr", "display's address"),
    ("addr range", _set("display.addr", 200), "display.addr", "outside 0x08..0x77"),
    ("display size", _set("display.height", 48), "display", "128x64"),
    ("freq", _set("i2c.freq", 5000000), "i2c.freq", "outside"),
    ("button list", _set("buttons", {"a": 1}), "buttons", "must be a list"),
    ("reserved", _set("reserved", [26]), "buttons[1].pin", "reserved on this board"),
]


@pytest.mark.parametrize("mutate,key,words", [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_a_broken_board_names_board_and_key(mutate, key, words):
    d = copy.deepcopy(BASE)
    mutate(d)
    with pytest.raises(BoardError) as err:
        board.from_dict(d, "/board.json", None)
    e = err.value
    assert e.board == "esp32-devkitc" and e.key == key, str(e)
    assert words in str(e)
    assert str(e).startswith("board esp32-devkitc (/board.json): %s: " % key)


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(BoardError) as err:
        board.load(str(tmp_path / "board.json"))
    assert "file not found" in str(err.value) and err.value.key is None
    bad = tmp_path / "board.json"
    bad.write_text('{"board": "x", ')
    with pytest.raises(BoardError) as err:
        board.load(str(bad))
    assert "not valid JSON" in str(err.value)
    bad.write_text("[1, 2]")
    with pytest.raises(BoardError) as err:
        board.load(str(bad))
    assert "one JSON object" in str(err.value)


def test_chip_must_match_the_cup():
    with pytest.raises(BoardError) as err:
        board.load(str(DEVKITC), chip="esp32c3")
    assert "for esp32 but this cup runs on esp32c3" in str(err.value)


BRING_UP = """
import rig, world
from dicecup.hw import board, hardware
b = board.load(%(good)s)
w, acc, oled = rig.build(b)
hw = hardware.open(%(path)s)
print("ERRORS", len(hw.errors), hw.board is None)
oled.dump()
"""


def test_broken_board_file_shows_on_screen_and_serial(upy_hw, tmp_path):
    d = copy.deepcopy(BASE)
    d["buttons"][2]["pin"] = 6
    p = tmp_path / "board.json"
    p.write_text(json.dumps(d))
    out = upy_hw(BRING_UP % {"good": upy_str(DEVKITC), "path": upy_str(p)}, heap=EMU_HEAP)
    assert "dicecup: BOARD FILE: board esp32-devkitc (%s): buttons[2].pin: GPIO 6 is wired to " \
           "the SPI flash on esp32" % p in out
    assert "ERRORS 1 True" in out
    screen = out.split("ERRORS 1 True\n", 1)[1]
    assert screen.count("\n") >= 20 and "█" in screen  # the error drawn on the OLED


def test_missing_board_file_is_reported_not_raised(upy_hw, tmp_path):
    out = upy_hw(BRING_UP % {"good": upy_str(DEVKITC), "path": upy_str(tmp_path / "none.json")},
                 heap=EMU_HEAP)
    assert "dicecup: BOARD FILE: board none.json" in out and "file not found" in out
    assert "ERRORS 1 True" in out
