"""`dicecup doctor` against the virtual board on a pty, running the project's firmware:
a healthy cup (presses and a shake done through the vboard's control FIFO, as a maker
would answer the prompts), the OLED or the LIS3DH left off the I2C bus, a button stuck;
each diagnosis named. Bad arguments: one line, exit 2."""
import shutil
import signal
import subprocess
import time

import pytest
import serial

from vboards import DICECUP, Board

import dicecup


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    from dicecup_host import bundle as b
    return b.build_bundle(tmp_path_factory.mktemp("bundle") / "tree", None)


def cup(tmp_path, bundle, *args):
    shutil.copytree(bundle, tmp_path / "flash")
    return Board(tmp_path, *args)


def doctor(port, *args, control=None, timeout=60):
    """Run `dicecup doctor`; with `control` (the vboard's FIFO) answer its prompts: tap
    the button it asks for, shake when it says shake. Returns (exit code, output)."""
    ctl = open(control, "w") if control else None
    p = subprocess.Popen([DICECUP, "doctor", "--port", port] + list(args), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    out = []
    end = time.monotonic() + timeout
    try:
        for line in p.stdout:
            out.append(line.rstrip("\n"))
            s = line.strip()
            if ctl and s.startswith("press "):
                ctl.write("tap %s\n" % s.split()[1])
                ctl.flush()
            elif ctl and s.startswith("shake the cup"):
                ctl.write("shake\n")
                ctl.flush()
            assert time.monotonic() < end, out
        return p.wait(10), "\n".join(out)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        if ctl:
            ctl.close()


def stop_game(port, timeout=15):
    """Ctrl-C on the port: what the cup says. A game running again after the doctor's
    soft reset says it stopped (or, caught still booting, main.py's traceback)."""
    seen = b""
    end = time.monotonic() + timeout
    with serial.Serial(port, 115200, timeout=0.3) as s:
        time.sleep(1.0)
        while b"stopped" not in seen and b'File "main.py"' not in seen and time.monotonic() < end:
            s.write(b"\x03")
            seen += s.read(4096)
    return seen.decode(errors="replace")


def verdicts(text, status):
    return [ln for ln in text.splitlines() if ln.startswith(status + "  ")]


def test_a_healthy_cup_passes_every_step(tmp_path, bundle):
    fifo = str(tmp_path / "ctl")
    board = cup(tmp_path, bundle, "--control", fifo)
    try:
        board.status("control FIFO")
        code, out = doctor(board.port, "--timeout", "10", "--board", "esp32-devkitc", control=fifo)
        again = stop_game(board.port)
    finally:
        board.stop()
    assert "dicecup: stopped (Ctrl-C): the REPL is yours" in again or 'File "main.py"' in again, again
    assert code == 0, out
    assert verdicts(out, "FAIL") == []
    assert "PASS  firmware: dicecup %s on esp32-devkitc (esp32) (virtual board)" % dicecup.VERSION in out
    assert "PASS  display: SSD1306 OLED at 0x3C" in out and "PASS  accelerometer: LIS3DH accelerometer at 0x18" in out
    for name in ("left", "ok", "right", "back"):
        assert "PASS  button %s: pressed and released" % name in out
    assert "shaking -> settling -> rolled: a roll" in out
    assert "PASS  battery: 3.90 V" in out
    assert "SKIP  radio: the virtual board has no radio" in out     # said, not pretended
    assert out.splitlines()[-1].startswith("all 12 checks passed, 1 skipped")


CHIPS_OFF = {
    "display": ("display missing", "FAIL  display: no SSD1306 OLED at 0x3C (no ACK on the I2C bus)"),
    "accel": ("accelerometer missing", "FAIL  accelerometer: no LIS3DH accelerometer at 0x18 (no ACK on the I2C bus)"),
}


def test_a_chip_off_the_bus_is_named_with_the_pins_to_check(tmp_path, bundle):
    """Two virtual boards, one without its OLED, one without its LIS3DH (side by side:
    the suite's time)."""
    from concurrent.futures import ThreadPoolExecutor
    boards = {}
    try:
        for chip in CHIPS_OFF:
            (tmp_path / chip).mkdir()
            boards[chip] = cup(tmp_path / chip, bundle, "--no-chip", chip)
        with ThreadPoolExecutor(2) as pool:
            runs = {chip: pool.submit(doctor, b.port, "--no-wait") for chip, b in boards.items()}
            got = {chip: r.result() for chip, r in runs.items()}
    finally:
        for b in boards.values():
            b.stop()
    for chip, (diagnosis, line) in CHIPS_OFF.items():
        code, out = got[chip]
        assert code == 1, out
        assert line in out
        assert "-> check SDA=GPIO21 SCL=GPIO22, 3V3, GND" in out
        assert len(verdicts(out, "FAIL")) == 1, out
        assert out.splitlines()[-1] == "1 problem: %s" % diagnosis


def test_a_stuck_button_is_named_and_unanswered_steps_time_out(tmp_path, bundle):
    """Left held from power-on; nobody presses the others nor shakes: each of those
    steps ends at its 1 s limit with its own diagnosis."""
    board = cup(tmp_path, bundle, "--hold", "left")
    try:
        t0 = time.monotonic()
        code, out = doctor(board.port, "--timeout", "1")
        took = time.monotonic() - t0
    finally:
        board.stop()
    assert code == 1, out
    assert "FAIL  button left: reads pressed at the start (GPIO25 held low): stuck" in out
    assert "press left" not in out                    # a stuck button is not asked for
    for name, pin in (("ok", 26), ("right", 27), ("back", 33)):
        assert "FAIL  button %s: no press seen in 1 s" % name in out
        assert "-> check the %s button between GPIO%d and GND (pressed reads low)" % (name, pin) in out
    assert "still: no shake seen in 1 s" in out and "FAIL  shake detector: " in out
    assert out.splitlines()[-1] == ("5 problems: button left stuck; button ok dead; button right dead; "
                                    "button back dead; no shake seen")
    assert took < 30, took


def test_the_boot_line_says_the_version_and_the_board(tmp_path, bundle):
    """The first thing the cup prints at power-on (a reset under a reader)."""
    board = cup(tmp_path, bundle)
    try:
        with serial.Serial(board.port, 115200, timeout=0.5) as s:
            board.signal(signal.SIGUSR2)
            board.status("reset")
            lines = []
            end = time.monotonic() + 30
            while len(lines) < 1 and time.monotonic() < end:
                ln = s.readline().decode(errors="replace").strip()
                if ln:
                    lines.append(ln)
    finally:
        board.stop()
    assert lines == ["dicecup %s on esp32-devkitc (esp32)" % dicecup.VERSION]


def one_line(args):
    r = subprocess.run([DICECUP] + args, capture_output=True, text=True, timeout=60)
    return r.returncode, r.stderr.strip().splitlines(), r.stdout


@pytest.mark.parametrize("args, says", [
    (["doctor", "--port", "/nonexistent/cup"], "no such port /nonexistent/cup"),
    (["doctor", "--port", "/tmp", "--timeout", "0"], "--timeout"),
    (["doctor", "--port", "/tmp"], "is a folder, not a serial port"),
    (["doctor", "--port", "/tmp/x", "--board", "no-such-board"], "--board"),
    (["vboard", "--hold", "middle"], "the board has no such button (it has left, ok, right, back)"),
    (["vboard", "--no-chip", "lcd"], "--no-chip"),
])
def test_bad_arguments_are_one_line_and_exit_2(args, says):
    code, err, out = one_line(args)
    assert code == 2 and len(err) == 1 and says in err[0] and "Traceback" not in err[0], (code, err, out)
