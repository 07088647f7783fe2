"""`make flash` onto a board whose MicroPython image has the cup firmware frozen in (the
virtual board on the 32-bit fw32 build, `dicecup vboard --frozen`): only main.py and the
board file go on, the .mpy files of an earlier flash are removed (settings kept), and the
frozen firmware boots and plays. An image frozen from another version is refused before
anything changes."""
import signal
import time
import types

import pytest
import serial

from dicecup import VERSION
from dicecup_host import cmd_flash
from vboards import Board, events, make_flash


@pytest.mark.heavy
def test_flash_onto_a_frozen_image_copies_only_main_and_the_board_file(tmp_path, fw32):
    plain = Board(tmp_path)
    try:
        res, _ = make_flash(plain.port, "NAME=ines")
        assert res.returncode == 0, res.stdout + res.stderr
    finally:
        plain.stop()
    copied = sorted(p for p in plain.flash.rglob("*.mpy"))
    assert len(copied) > 50
    frozen = Board(tmp_path, "--frozen")
    try:
        res, _ = make_flash(frozen.port, "PLAY=perudo", "BOTS=2")
        out = res.stdout
        assert res.returncode == 0, out + res.stderr
        assert "the cup firmware %s is frozen into its image" % VERSION in out
        assert "copying 2 files" in out
        assert "%d .mpy files of an earlier flash removed" % len(copied) in out
        assert list(frozen.flash.rglob("*.mpy")) == []
        assert (frozen.flash / "dicecup" / "name").read_text() == "ines"       # settings kept
        assert (frozen.flash / "main.py").exists() and (frozen.flash / "board.json").exists()
        seen, _ = events(frozen.port, lambda ev: ev["k"] == "win", timeout=240)
        assert {"start", "bid", "win"} <= {ev["k"] for ev in seen}
        # The boot line after flashing can go out before anyone holds the port: press
        # reset with the port open to read it (the frozen firmware's version).
        with serial.Serial(frozen.port, 115200, timeout=0.5) as s:
            frozen.signal(signal.SIGUSR2)
            frozen.status("reset")
            first = b""
            end = time.monotonic() + 30
            while not first.strip() and time.monotonic() < end:
                first = s.readline()
        assert first.decode().startswith("dicecup %s on esp32-devkitc" % VERSION), first
    finally:
        frozen.stop()


def test_an_image_frozen_from_another_version_is_refused_before_any_change(monkeypatch):
    said = []
    ran = []

    def run_step(cmd, timeout, cwd=None, on_line=None):
        ran.append(cmd)
        return 0, "micropython | Generic ESP32 module with ESP32 | 0.0.9\n"
    monkeypatch.setattr(cmd_flash, "run_step", run_step)
    f = cmd_flash.Flash(types.SimpleNamespace(port="/dev/ttyUSB0", chip="esp32", firmware=None), say=said.append)
    with pytest.raises(cmd_flash.FlashError) as e:
        f.probe()
    assert "dicecup 0.0.9 frozen in" in str(e.value) and "nothing was changed" in str(e.value)
    assert len(ran) == 1                       # the probe only: nothing copied, nothing reset
