"""`dicecup flash`: every check before the board is touched, and a port that is not a
MicroPython board failing in seconds with the truth about the board's state."""
import glob
import os
import pty
import subprocess
import sys
import tempfile
import time
from types import SimpleNamespace

import pytest

from dicecup_host import cmd_flash, flashcheck

DICECUP = [sys.executable, "-m", "dicecup_host.cli", "flash"]


def image(path, chip_id, size=200000, magic=0xE9):
    data = bytearray(size)
    data[0] = magic
    data[12] = chip_id
    path.write_bytes(bytes(data))
    return str(path)


def test_an_image_is_checked_for_its_chip(tmp_path):
    assert flashcheck.image_chip(image(tmp_path / "a.bin", 0)) == "esp32"
    assert flashcheck.image_chip(image(tmp_path / "b.bin", 9)) == "esp32s3"
    assert flashcheck.image_chip(image(tmp_path / "c.bin", 5)) == "esp32c3"
    for bad in (image(tmp_path / "d.bin", 0, magic=0x7F),           # an ELF, a zip, text...
                image(tmp_path / "e.bin", 0, size=1000),             # cut short
                image(tmp_path / "f.bin", 77),                       # an unknown chip
                str(tmp_path / "missing.bin")):
        with pytest.raises(flashcheck.FlashError):
            flashcheck.image_chip(bad)


def test_the_port_is_found_when_exactly_one_board_is_attached():
    cp210x = SimpleNamespace(device="/dev/ttyUSB0", vid=0x10C4)
    s3 = SimpleNamespace(device="/dev/ttyACM0", vid=0x303A)
    mouse = SimpleNamespace(device="/dev/ttyS0", vid=None)
    assert flashcheck.find_port([mouse, cp210x]) == "/dev/ttyUSB0"
    with pytest.raises(flashcheck.FlashError, match="no board found"):
        flashcheck.find_port([mouse])
    with pytest.raises(flashcheck.FlashError, match="several boards: give PORT"):
        flashcheck.find_port([cp210x, s3])


@pytest.mark.parametrize("argv,says", [
    (["--firmware", "{s3}", "--port", "/dev/null"], "built for esp32s3, the board (esp32-devkitc) is esp32"),
    (["--firmware", "{s3}", "--board", "esp32-s3-devkitc-1", "--chip", "esp32", "--port", "/dev/null"],
     "--chip esp32, but the board file says esp32s3"),
    (["--firmware", "{junk}", "--port", "/dev/null"], "not an ESP firmware image"),
    (["--board", "nosuch"], "no board nosuch"),
    (["--name", "x" * 20], "a name of 1 to 12"),
])
def test_a_wrong_image_chip_or_board_stops_before_anything(tmp_path, argv, says):
    files = {"s3": image(tmp_path / "s3.bin", 9), "junk": image(tmp_path / "junk.bin", 0, magic=0)}
    r = subprocess.run(DICECUP + [a.format(**files) for a in argv], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stdout == ""


def test_a_dry_run_shows_every_step_at_the_chips_offset(tmp_path):
    fw = image(tmp_path / "c3.bin", 5)
    r = subprocess.run(DICECUP + ["--dry-run", "--board", "xiao-esp32c3", "--firmware", fw, "--port", "/dev/x"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert any("erase-flash" in ln for ln in lines)
    assert any("write-flash 0x0 " + fw in ln for ln in lines)
    assert any("fs cp -r" in ln and "dicecup" in ln and "lib" in ln for ln in lines)
    assert lines[-1].endswith("reset")


def test_the_staged_tree_carries_the_board_and_the_cups_configuration(tmp_path):
    tree = cmd_flash.stage(tmp_path / "t", "xiao-esp32c3", name="Zoé", lang="fr")
    assert (tree / "board.json").exists() and (tree / "lib" / "adafruit_ssd1306.mpy").exists()
    assert (tree / "dicecup" / "name").read_text() == "Zoé" and (tree / "dicecup" / "lang").read_text() == "fr"


@pytest.mark.heavy
def test_a_port_that_is_not_a_micropython_board_fails_in_seconds_and_says_so():
    before = set(glob.glob(os.path.join(tempfile.gettempdir(), "dicecup-flash-*")))
    master, slave = pty.openpty()             # a serial port where nothing answers
    try:
        t = time.monotonic()
        r = subprocess.run(DICECUP + ["--port", os.ttyname(slave)], capture_output=True, text=True, timeout=120)
        took = time.monotonic() - t
    finally:
        os.close(master)
        os.close(slave)
    assert r.returncode == 1
    assert "did not answer" in r.stderr or "no answer" in r.stderr, r.stderr
    assert "nothing was copied: the board keeps what it had" in r.stderr
    assert took < cmd_flash.TIMEOUTS["probe"] + 30
    assert set(glob.glob(os.path.join(tempfile.gettempdir(), "dicecup-flash-*"))) == before   # cleaned up
