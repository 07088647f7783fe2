"""Bad `dicecup flash` and `dicecup vboard` invocations: one line on stderr and exit 2,
before anything is compiled, erased or started."""
import json

import pytest

from dicecup_host import cli, ports

from images import image


@pytest.fixture
def files(tmp_path):
    (tmp_path / "s3.bin").write_bytes(image("esp32s3"))
    (tmp_path / "app.bin").write_bytes(image("esp32", table=False))
    (tmp_path / "broken.json").write_text("{not json")
    (tmp_path / "nochip.json").write_text(json.dumps({"board": "x"}))
    (tmp_path / "afile").write_text("x")
    return tmp_path


BAD = [
    ["flash", "--port", "/dev/null", "--board", "nosuch"],
    ["flash", "--port", "/dev/null", "--board", "{t}/missing.json"],
    ["flash", "--port", "/dev/null", "--board", "{t}/broken.json"],
    ["flash", "--port", "/dev/null", "--board", "{t}/nochip.json"],
    ["flash", "--port", "/dev/null", "--chip", "esp32s3"],
    ["flash", "--port", "/dev/null", "--chip", "esp8266"],
    ["flash", "--port", "/dev/null", "--firmware", "{t}/missing.bin"],
    ["flash", "--port", "/dev/null", "--firmware", "{t}"],
    ["flash", "--port", "/dev/null", "--firmware", "{t}/broken.json"],
    ["flash", "--port", "/dev/null", "--firmware", "{t}/s3.bin"],
    ["flash", "--port", "/dev/null", "--firmware", "{t}/app.bin"],
    ["flash", "--port", "/dev/null", "--board", "xiao-esp32c3", "--firmware", "{t}/s3.bin"],
    ["flash", "--port", "{t}/no-such-port"],
    ["flash", "--port", "{t}/afile"],
    ["flash", "--port", "/dev/null", "--bots", "2"],
    ["flash", "--port", "/dev/null", "--play", "perudo", "--bots", "6"],
    ["flash", "--port", "/dev/null", "--play", "nosuch"],
    ["flash", "--port", "/dev/null", "--name", "a very long cup name"],
    ["flash", "--port", "/dev/null", "--lang", "nl"],
    ["vboard", "--board", "nosuch"],
    ["vboard", "--board", "{t}/broken.json"],
    ["vboard", "--bots", "2"],
    ["vboard", "--play", "liars", "--bots", "0"],
    ["vboard", "--play", "perudo", "--bots", "9"],
    ["vboard", "--heap", "8"],
    ["vboard", "--link", "{t}"],
    ["vboard", "--link", "{t}/no/such/dir/port"],
    ["vboard", "--flash", "{t}/afile"],
    ["vboard", "--unplug-s", "-1"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) for a in BAD])
def test_a_bad_invocation_is_one_line_and_exit_2(argv, files, capsys):
    argv = [a.replace("{t}", str(files)) for a in argv]
    try:
        rc = cli.main(argv)
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    assert rc == 2, (rc, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "usage:" not in err
    assert out == "", out                          # nothing was started


def test_no_port_and_no_board_attached_says_no_board_found(capsys):
    if ports.boards():
        pytest.skip("an ESP32 board is attached to this machine")
    assert cli.main(["flash"]) == 2
    assert capsys.readouterr().err.strip() == (
        "dicecup flash: no board found (no USB serial port of an ESP32 board: CP210x, CH340/CH9102, FTDI or "
        "Espressif USB): plug one in, or give PORT")


def test_the_chip_comes_from_the_board_file(files, capsys):
    """--chip is only an override: the same chip is accepted, the image checked for it."""
    rc = cli.main(["flash", "--port", "/dev/null", "--board", "esp32-s3-devkitc-1", "--chip", "esp32s3",
                   "--firmware", str(files / "s3.bin"), "--dry-run"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "esptool --chip esp32s3 --port /dev/null --connect-attempts 2 --baud 460800 write-flash 0x0 " in out
    assert "mpremote connect /dev/null resume fs cp -r board.json dicecup digitalio.mpy lib main.py :" in out
