"""The virtual board end to end: real mpremote against it, `make flash` onto it (and a
second flash that copies nothing), the firmware it boots playing a game on its serial
port, and the cable pulled and the reset pressed under a reader."""
import os
import re
import signal
import subprocess
import sys
import time

import pytest
import serial

from images import image
from vboards import Board, events, make_flash

pytestmark = pytest.mark.heavy
MPREMOTE = [sys.executable, "-m", "mpremote", "connect"]


@pytest.fixture
def board(tmp_path):
    b = Board(tmp_path)
    yield b
    b.stop()


def mpremote(port, *args):
    return subprocess.run(MPREMOTE + [port] + list(args), capture_output=True, text=True, timeout=30)


def test_real_mpremote_runs_code_copies_and_skips_what_is_there(board, tmp_path):
    r = mpremote(board.port, "exec", "import sys, os\nprint(sum(range(10)), sys.implementation.name, os.uname().machine)")
    assert r.returncode == 0 and r.stdout.strip() == "45 micropython virtual dice cup with ESP32", r
    src = tmp_path / "hello.py"
    src.write_text("print('hi from the flash')\n")
    r = mpremote(board.port, "fs", "cp", str(src), ":", "+", "fs", "ls", "+", "fs", "cp", str(src), ":")
    assert r.returncode == 0, r
    assert "hello.py" in r.stdout and "Up to date: ./hello.py" in r.stdout
    assert (board.flash / "hello.py").read_text() == src.read_text()     # the board's flash is that folder
    r = mpremote(board.port, "exec", "import hello")
    assert r.stdout.strip() == "hi from the flash"
    r = mpremote(board.port, "exec", "1/0")
    assert r.returncode != 0 and "ZeroDivisionError" in r.stdout + r.stderr
    r = mpremote(board.port, "exec", "x = 5", "+", "soft-reset", "+", "exec", "print('x' in globals())")
    assert r.returncode == 0 and r.stdout.strip().endswith("False"), r     # a soft reset is a fresh interpreter


def test_the_friendly_repl_answers_a_person(board):
    """A Ctrl-C as the board boots, then a line typed: it answers (a SIGINT that landed
    after boot.py ended by itself once cut a byte out of the next command)."""
    with serial.Serial(board.port, 115200, timeout=2) as s:
        s.write(b"\x03")
        time.sleep(0.3)
        s.reset_input_buffer()
        s.write(b"6*7\r")
        seen = b""
        end = time.monotonic() + 30      # a wait, not a timing: a loaded machine answers late
        while b"42\r\n>>> " not in seen and time.monotonic() < end:
            seen += s.read(64)
    assert b"6*7\r\n42\r\n>>> " in seen, seen


def test_make_flash_succeeds_a_second_copies_nothing_and_the_cup_plays(board):
    res, first_s = make_flash(board.port, "PLAY=liars", "BOTS=2", "NAME=vera")
    assert res.returncode == 0, res.stdout + res.stderr
    total = int(re.search(r"copying (\d+) files", res.stdout).group(1))
    assert "%d copied, 0 already up to date" % total in res.stdout
    assert "changed: name, play" in res.stdout
    assert (board.flash / "main.py").exists() and (board.flash / "dicecup" / "play").read_text() == "liars 2"
    res, second_s = make_flash(board.port, "PLAY=liars", "BOTS=2", "NAME=vera")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 copied, %d already up to date" % total in res.stdout
    assert "unchanged" in res.stdout
    print("make flash onto the virtual board: %.1f s, again %.1f s (%d files)" % (first_s, second_s, total))
    # after the reset the copied firmware boots as master of a table of bots and plays
    seen, other = events(board.port, lambda ev: ev["k"] == "win", timeout=240)
    assert {"start", "bid", "challenge", "win"} <= {ev["k"] for ev in seen}
    assert any(ev["k"] == "joined" and ev.get("name") == "bot2" for ev in seen) or seen[0]["v"] > 1


def test_firmware_onto_the_virtual_board_fails_and_leaves_it_as_it_was(board, tmp_path):
    fw = tmp_path / "firmware.bin"
    fw.write_bytes(image("esp32", size=200000))
    t0 = time.monotonic()
    res, _ = make_flash(board.port, "FIRMWARE=" + str(fw), timeout=120)
    assert res.returncode != 0
    assert "esptool could not reach the esp32 bootloader" in res.stderr and "nothing was erased" in res.stderr
    assert time.monotonic() - t0 < 60
    assert list(board.flash.iterdir()) == []


def test_a_port_that_is_not_micropython_fails_in_seconds(tmp_path):
    master, slave = os.openpty()
    port = os.ttyname(slave)
    try:
        t0 = time.monotonic()
        res, _ = make_flash(port, timeout=120)
        took = time.monotonic() - t0
    finally:
        os.close(slave)
        os.close(master)
    assert res.returncode != 0
    assert "does not answer as a MicroPython board" in res.stderr and "nothing was changed on it" in res.stderr
    assert took < 40, took


def test_play_unplug_replug_and_reset_under_a_reader(tmp_path):
    board = Board(tmp_path, "--play", "perudo", "--bots", "2", "--unplug-s", "2")
    try:
        before, _ = events(board.port, lambda ev: ev["k"] == "bid", timeout=60)
        board.signal(signal.SIGUSR1)                       # the cable out, and back in
        board.status("unplugged")
        # the device is gone while unplugged: not a link to a closed pty whose number
        # the system hands to the next program asking for one
        assert not os.path.lexists(board.link)
        board.status("plugged in")
        after, _ = events(board.port, lambda ev: ev["k"] in ("bid", "win"), timeout=60)
        assert after[-1]["v"] > before[-1]["v"]            # the game went on meanwhile
        board.signal(signal.SIGUSR2)                       # the reset button
        board.status("reset")
        seen, other = events(board.port, lambda ev: ev["k"] in ("bid", "win"), timeout=90)
        assert any("no radio: this cup plays alone" in line for line in other)   # it booted again
    finally:
        board.stop()
    assert not os.path.lexists(board.link)                 # stopped: the link is gone
