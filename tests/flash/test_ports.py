"""The port is found when exactly one ESP32 board is attached (by its USB ids), and a
port given is checked: clear words for none, several, or one that does not exist."""
import os
from types import SimpleNamespace

import pytest

from dicecup_host import ports


def port(device, vid=None, pid=None):
    return SimpleNamespace(device=device, vid=vid, pid=pid, description="")


ARDUINO = port("/dev/ttyACM7", 0x2341, 0x0043)
BLUETOOTH = port("/dev/ttyS0")


def test_the_one_board_is_found_among_other_ports():
    assert ports.find([ARDUINO, BLUETOOTH, port("/dev/ttyUSB0", 0x10C4, 0xEA60)]) == "/dev/ttyUSB0"
    assert ports.find([port("/dev/ttyACM0", 0x303A, 0x1001), ARDUINO]) == "/dev/ttyACM0"


def test_no_board_says_so_and_how_to_go_on():
    with pytest.raises(ports.PortError, match="no board found.*give PORT"):
        ports.find([ARDUINO, BLUETOOTH])


def test_several_boards_are_named_and_port_asked_for():
    with pytest.raises(ports.PortError) as e:
        ports.find([port("/dev/ttyUSB1", 0x1A86, 0x7523), port("/dev/ttyACM0", 0x303A, 0x4001)])
    assert str(e.value) == ("several boards: /dev/ttyACM0 (Espressif native USB), /dev/ttyUSB1 (WCH CH340): "
                            "give PORT")


def test_a_given_port_is_checked_and_made_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.symlink("/dev/null", "cup")
    assert ports.port("cup") == str(tmp_path / "cup")          # a relative path as typed
    assert ports.port("socket://localhost:2217") == "socket://localhost:2217"
    with pytest.raises(ports.PortError, match="no such port nope"):
        ports.port("nope")
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(ports.PortError, match="is a file, not a serial port"):
        ports.port("notes.txt")
