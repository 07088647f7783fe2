"""main.py on every board of hardware/boards/, inside the real MicroPython unix port with
the emulated chips (host/dicecup_host/appmp.py): the app comes up on the lobby's menu
(the real UI, what the OLED shows is what ui/screens.py draws of the UI's Scene) and two
presses of ok ("create", the first game) make the cup a table master showing its join
code; with the safe button held at power-on the self-test runs instead and the game
never starts.

Two runtimes: the unix wheel (64-bit, firmware as .mpy: its code sits in the heap, so
the cap is appmp.HEAP, far above an ESP32's) and the 32-bit build with the firmware
frozen in (the `fw32` fixture; 110 KB plus the emulation's ~30 KB, appmp.FW32_HEAP)."""
import re

import pytest

from dicecup.engine import RULES
from dicecup.hw import board as fwb
from dicecup.ui import ui
from dicecup_host import appmp, bundle

from apphelpers import BOARDS

RUN_MS = 3000


def plan():
    p = [(1200, "screen", "alone")]
    appmp.press(p, 1500, "ok")            # "create", the first item
    p.append((1800, "screen", "games"))
    appmp.press(p, 2000, "ok")            # the first game: bluff
    p.append((2600, "screen", "master"))
    p.append((2800, "mem", "lobby"))
    return p


def check_lobby(r):
    assert r.rc == 0, r.text()
    s = r.screens["alone"]
    assert s["on"] and s["same"], s       # the OLED holds what screens.draw makes of the Scene
    assert s["screen"] == "menu" and s["menu"] == list(ui._MENU) and s["cursor"] == 0, s
    s = r.screens["games"]
    assert s["same"] and s["screen"] == "menu" and s["menu"] == list(RULES) and s["cursor"] == 0, s
    s = r.screens["master"]
    assert s["on"] and s["same"] and s["screen"] == "table" and s["mode"] == "table", s
    assert re.match(r"\d{4}$", s["code"]) and s["players"] == ["cup0001"], s
    k = r.kinds()
    assert "joined" in k and "rules" in k and "internal" not in k, r.text()
    assert r.returned is not None and r.returned >= RUN_MS   # main.py returned after RUN_MS


@pytest.mark.parametrize("name", BOARDS)
def test_main_boots_to_the_lobby(name):
    r = appmp.boot(name, plan(), run_ms=RUN_MS)
    check_lobby(r)
    used = r.mem["lobby"][0] - r.mem["base"][0]
    print("\n%s, 64-bit wheel (.mpy): app in the lobby %d B above the emulation" % (name, used))


@pytest.mark.parametrize("name", BOARDS)
def test_main_boots_to_the_lobby_frozen_32_bit(name, fw32):
    r = appmp.boot(name, plan(), run_ms=RUN_MS, fw32=True)
    check_lobby(r)
    used = r.mem["lobby"][0] - r.mem["base"][0]
    print("\n%s, 32-bit frozen, %s heap: app in the lobby %d B above the emulation, %d B free"
          % (name, appmp.FW32_HEAP, used, r.mem["lobby"][1]))


@pytest.mark.parametrize("name", BOARDS)
def test_safe_mode_wins(name):
    b = fwb.load(str(bundle.BOARDS / (name + ".json")))
    r = appmp.boot(name, [(100, "screen", "selftest")], safe=True, run_ms=RUN_MS, selftest_ms=300)
    assert r.rc == 0, r.text()
    held = b.buttons[b.safe_button].name
    assert "dicecup: safe mode (%s held): self-test, Ctrl-C for the REPL" % held in r.lines
    assert r.events == []                                   # no table, no game, no log
    assert not any("ESP-NOW" in ln or "radio" in ln for ln in r.lines)
    s = r.screens["selftest"]
    assert s["on"] and s["rows"][0].startswith("SELF-TEST") and s["rows"][1] == "i2c 18 3c", s
    assert r.returned is not None and r.returned < RUN_MS  # main.py returned: the REPL is free
