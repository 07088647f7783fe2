"""The app's heap inside the heap-capped MicroPython (gc.mem_alloc after gc.collect):
one player (button gestures by emu/thumb.py, and shakes) and one bot play a whole game
at a master cup with no radio (appmp.game). Figures are printed (`pytest -s`), not
asserted: what is asserted is that the game finishes in the cap without an `internal`
event (a MemoryError survived) and the game-over screen is on the OLED.

Readings, each above the one before: the emulation (the base, not on a cup), the
Adafruit drivers (.mpy), the hardware brought up, the app made (Cup, keys, App, the
real Ui; the frozen modules' RAM), the person at the cup (the thumb: not the cup's, left
out of the app's figures), the app running 0.5 s (tasks, the first screens), after
the game (the op history, the log's state)."""
import pytest

from dicecup_host import appmp

STEPS = ("base", "drivers", "hardware", "app", "person", "boot", "game")


def above(m, step):
    """The app's heap at `step` above the emulation, the person's share left out."""
    return m[step][0] - m["base"][0] - (m["person"][0] - m["app"][0])


def figures(r):
    m = r.mem
    parts = ["%s +%d" % (STEPS[i], m[STEPS[i]][0] - m[STEPS[i - 1]][0]) for i in range(1, len(STEPS))]
    return ("emulation %d B; %s; app after boot %d B, after the game %d B above the emulation "
            "(the person left out); %d B free at the end" % (
                m["base"][0], ", ".join(parts), above(m, "boot"), above(m, "game"), m["game"][1]))


def check(r):
    assert r.rc == 0, r.text()
    assert r.played is not None, r.text()
    shakes, moves, rolls, t, presses = r.played
    assert rolls == shakes >= 1 and moves >= 1 and presses > moves
    k = r.kinds()
    assert "win" in k and "internal" not in k, [e for e in r.events if e["k"] == "internal"]
    assert "autoplay" not in k            # the person's buttons played every move
    end = r.screens["end"]
    assert end["on"] and end["screen"] == "over" and end["same"], end


def test_heap_after_boot_and_after_a_game_frozen_32_bit(fw32):
    r = appmp.game("esp32-devkitc", "liars", fw32=True)
    check(r)
    print("\n32-bit frozen, %s heap: %s" % (appmp.FW32_HEAP, figures(r)))


@pytest.mark.heavy
def test_heap_after_boot_and_after_a_game_64_bit_wheel():
    r = appmp.game("esp32-devkitc", "liars")
    check(r)
    print("\n64-bit wheel (.mpy), %s heap: %s" % (appmp.HEAP, figures(r)))
