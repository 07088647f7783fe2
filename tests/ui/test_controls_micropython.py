"""The button model as a cup runs it: compiled by mpy-cross, inside real MicroPython
with an ESP32's heap, playing the same button-driven games as CPython, and answering
presses without allocating."""
import subprocess
import sys

import pytest

from dicecup_host import mpy

GAME = str(mpy.ROOT / "host" / "dicecup_host" / "upy" / "buttongame.py")


def test_the_ui_modules_compile_with_mpy_cross(mpy_dir):
    for name in ("__init__", "controls", "keymap", "bids", "picking"):
        assert (mpy_dir / "dicecup" / "ui" / (name + ".mpy")).stat().st_size > 0, name


@pytest.mark.parametrize("args", [
    ["perudo", "3", "4", "4", "calza_anyone=true"],
    ["bluff", "3", "1", "3", "reroll=true"],
    ["menteur", "4", "2", "3"],
    ["liars", "2", "5", "4", "spot_on=true"],
    ["dixmille", "2", "1", "3"],
], ids=lambda a: "-".join(a[:1] + a[3:4]))
def test_a_button_game_plays_the_same_inside_micropython(args, mpy_dir):
    cpy = subprocess.run([sys.executable, GAME] + args, capture_output=True, text=True, timeout=300)
    assert cpy.returncode == 0, cpy.stderr
    upy = mpy.run([GAME] + args, path=mpy_dir, timeout=300)  # the ESP32's 110 KB heap
    assert upy.returncode == 0, upy.stdout.decode() + upy.stderr.decode()
    line = upy.stdout.decode().strip()
    assert line == cpy.stdout.strip()
    assert " winner=" in line and " sent=0" not in line


NO_ALLOC = r"""
import gc
from dicecup.engine import new_game
from dicecup.engine.actions import bid
from dicecup.ui import keymap as K
from dicecup.ui.controls import AT_DICE, AT_FACE, AT_QUANTITY, BOARD4, Controls
g = new_game("bluff", 4, {"reroll": True}, opener=0)
g.start_round()
g.apply(0, bid(3, 4))
c = Controls(BOARD4, 0, None)
c.update(g.view(1, [2, 3, 3, 6, 5]))

def burst(cmds, n):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for i in range(n):
        for cmd in cmds:
            c.command(cmd)
    used = gc.mem_alloc() - before
    gc.enable()
    return used

c.command(K.OK)
face = burst((K.NEXT, K.NEXT, K.PREV), 100)
c.command(K.OK)
quantity = burst((K.NEXT, K.PREV), 150)
c.command(K.OK)
dice = burst((K.PREV, K.OK, K.PREV, K.OK, K.NEXT, K.NEXT), 50)
print("focus=%d face=%d quantity=%d dice=%d" % (c.focus, face, quantity, dice))
"""


def test_presses_allocate_nothing_inside_micropython(upy):
    """Stepping faces and quantities and picking dice (300 presses each) leave the heap
    as it was: a cup can answer buttons in its UI loop without feeding the collector."""
    res = upy(NO_ALLOC)
    assert res.returncode == 0, res.stdout.decode() + res.stderr.decode()
    assert res.stdout.decode().split() == ["focus=3", "face=0", "quantity=0", "dice=0"]
    # focus 3 is AT_DICE: the bid's set-aside field, reached by buttons alone


def test_the_model_is_frozen_into_the_32_bit_build(fw32):
    res = fw32.run_code("from dicecup.ui.controls import BOARD4, Controls\nprint(Controls(BOARD4, 0, None).keys.command(1, 2))")
    assert res.returncode == 0, res.stdout.decode() + res.stderr.decode()
    assert res.stdout.decode().strip() == "3"  # press ok -> OK
