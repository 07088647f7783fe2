"""`dicecup hw ...` and the power budget."""
import json

import pytest

from dicecup_host import bundle, cli, powerbudget

from hwhelpers import BASE_JSON


def test_check_good_and_broken(tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_text(BASE_JSON)
    d = json.loads(BASE_JSON)
    d["accel"]["int1"] = 6
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    assert cli.main(["hw", "check", str(good)]) == 0
    assert cli.main(["hw", "check", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "good.json: ok (esp32-devkitc, esp32, 4 buttons)" in out
    assert "board esp32-devkitc (%s): accel.int1: GPIO 6 is wired to the SPI flash" % bad in out


def test_boards_bundle_and_power(tmp_path, capsys):
    assert cli.main(["hw", "boards"]) == 0
    assert cli.main(["hw", "bundle", "--board", "xiao-esp32c3", "--out", str(tmp_path / "b")]) == 0
    assert cli.main(["hw", "power", "--mah", "1000"]) == 0
    out = capsys.readouterr().out
    assert "xiao-esp32c3" in out and "lib/adafruit_lis3dh.mpy" in out and "esp32c3" in out
    with pytest.raises(SystemExit) as e:       # an unknown board: a bad argument
        cli.main(["hw", "bundle", "--board", "nope", "--out", str(tmp_path / "c")])
    assert e.value.code == 2
    # a board file of one's own, given by its path, is accepted
    own = tmp_path / "my-board.json"
    own.write_text((bundle.BOARDS / "xiao-esp32c3.json").read_text())
    assert cli.main(["hw", "bundle", "--board", str(own), "--out", str(tmp_path / "d")]) == 0


def test_power_budget_numbers():
    # radio listening dominates: ~10 h of play on 1200 mAh, weeks of light sleep
    rows = {r[0]: r for r in powerbudget.table(1200)}
    assert 9 < rows["esp32"][2] < 11 and rows["esp32"][4] > 30
    assert powerbudget.play_ma("esp32", peek_pct=0) < powerbudget.play_ma("esp32")
