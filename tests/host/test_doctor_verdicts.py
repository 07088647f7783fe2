"""dicecup doctor's verdicts (host/dicecup_host/doctor.py) on answers a real cup can
give and the virtual board cannot: a chip at its other address, buttons swapped, a flat
battery, other cups heard, old firmware."""
from dicecup_host import doctor

BOARD = {"name": "esp32-devkitc", "chip": "esp32", "sda": 21, "scl": 22, "display": 0x3C, "accel": 0x18,
         "buttons": [["left", 25, 0], ["ok", 26, 0], ["right", 27, 0], ["back", 33, 0]], "safe": 3,
         "battery": [35, 2.0, 4.2, 3.3]}


def test_a_chip_at_its_other_address_says_which_to_set():
    vs = doctor.i2c(BOARD, {"found": [0x19, 0x3C], "who": None})
    a = [v for v in vs if v.step == "accelerometer"][0]
    assert a.status == doctor.FAIL and a.diagnosis == "accelerometer missing"
    assert "something answers at 0x19" in a.text and "set its address to 0x19" in a.fixes[0]


def test_an_empty_bus_points_at_the_pins():
    vs = doctor.i2c(BOARD, {"found": [], "who": None})
    assert [v.status for v in vs] == [doctor.FAIL] * 3
    assert "check SDA=GPIO21 SCL=GPIO22, 3V3, GND" in vs[0].fixes[0]
    assert doctor.summary(vs) == (1, "3 problems: I2C bus dead; display missing; accelerometer missing")


def test_the_wrong_button_is_named():
    v = doctor.press(BOARD, 0, {"pressed": 1, "released": True}, 10)
    assert v.status == doctor.FAIL and v.diagnosis == "buttons left/ok swapped"
    assert "GPIO25 and GPIO26 swapped" in v.fixes[0]
    assert doctor.press(BOARD, 0, {"pressed": 0, "released": True}, 10).status == doctor.PASS


def test_battery_readings():
    assert doctor.battery(BOARD, 3.1).diagnosis == "battery low"
    assert doctor.battery(BOARD, 0.0).diagnosis == "battery sense reads nothing"
    assert doctor.battery(BOARD, 5.0).diagnosis == "battery sense too high"
    assert doctor.battery(BOARD, 4.2).text.startswith("4.20 V (about 100 %)")
    no = dict(BOARD, battery=[None, 2.0, 4.2, 3.3])
    assert doctor.battery(no, None).status == doctor.SKIP


def test_radio_names_the_cups_it_heard_and_a_real_cup_without_espnow_fails():
    v = doctor.radio({"radio": "240ac4000001", "heard": {"240ac4000002": 3}}, False, 3)
    assert v.status == doctor.PASS and "24:0a:c4:00:00:01" in v.text and "heard 1 cup in 3 s: 24:0a:c4:00:00:02 (3 frames)" in v.text
    from dicecup.engine import RULES
    v = doctor.radio({"radio": "240ac4000001", "heard": {"240ac4000002": 3, "240ac4000003": 1},
                      "tables": {"240ac4000002": ["vera", RULES.index("perudo") + 1, 2]}}, False, 3)
    assert "heard 2 cups in 3 s: 24:0a:c4:00:00:02 (3 frames, master of vera's perudo table, 2 cups), " \
           "24:0a:c4:00:00:03 (1 frame)" in v.text
    down = {"radio": None, "error": "OSError: no espnow module on this firmware"}
    assert doctor.radio(down, False, 3).diagnosis == "radio down"
    assert doctor.radio(down, True, 3).status == doctor.SKIP


def test_firmware_out_of_date_or_another_board():
    ident = {"machine": "ESP32 module with ESP32", "version": "0.0.9", "board": BOARD}
    assert doctor.firmware(ident, "0.1.0").diagnosis == "firmware out of date"
    ident["version"] = "0.1.0"
    assert doctor.firmware(ident, "0.1.0").status == doctor.PASS
    assert doctor.firmware(ident, "0.1.0", "xiao-esp32c3").diagnosis == "wrong board file"
    assert doctor.firmware({"machine": "x", "missing": "no module named 'dicecup'"}, "0.1.0").diagnosis == "no firmware"


def test_the_firmware_version_is_the_package_version():
    import re
    from pathlib import Path

    import dicecup
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert re.search(r'^version = "([^"]+)"', text, re.M).group(1) == dicecup.VERSION


def test_a_stuck_safe_button_says_what_it_does_at_power_on():
    v = doctor.stuck(BOARD, [3])[0]
    assert v.diagnosis == "button back stuck" and "safe button" in v.fixes[-1]
    assert not any("safe button" in f for f in doctor.stuck(BOARD, [0])[0].fixes)


def test_vboard_control_requests_in_the_board_s_words():
    from dicecup.hw import board as fwb
    from dicecup_host import bundle, vboard
    b = fwb.load(str(bundle.board_file("esp32-devkitc")))
    assert vboard.control_line(b, "tap left") == "tap 25 0"
    assert vboard.control_line(b, "release back") == "release 33"
    assert vboard.control_line(b, "shake") == "shake"
    for bad in ("press middle", "jump", "shake hard"):
        try:
            vboard.control_line(b, bad)
        except ValueError as e:
            assert "left, ok, right, back" in str(e) or "unknown request" in str(e)
        else:
            raise AssertionError(bad)


RADIO = """
import fakeair
from dicecup.net import wire
from dicecup.net.espnow import ESPNowTransport
air = fakeair.reset()
fakeair.use(bytes((2, 0xE5, 0, 0, 0, 2)))
other = ESPNowTransport()
fakeair.use(bytes((2, 0xE5, 0, 0, 0, 1)))
g = {}
exec(open(%r).read(), g)
real = g["sleep_ms"]
sent = []

def nap(ms):                 # the other cup beacons once the doctor listens
    if not sent:
        other.send(b"\\xff" * 6,
                   wire.encode(wire.BEACON, 7, 0, 1, 0, (3, 2, 0, b"vera")))
        sent.append(1)
    real(ms)

g["sleep_ms"] = nap
g["radio"](200)
"""


def test_the_probe_hears_a_cup_beaconing_through_the_espnow_fake(upy):
    """upy/doctorprobe.py's radio step inside MicroPython, on tests/fakes' espnow."""
    import json
    import sys
    from pathlib import Path

    from dicecup.engine import RULES
    from dicecup_host.cmd_doctor import PROBE
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fakes"))
    try:
        import harness
    finally:
        sys.path.pop(0)
    r = upy(RADIO % str(PROBE), extra_path=harness.MPY_PATH)
    out = r.stdout.decode()
    line = [ln for ln in out.splitlines() if ln.startswith("DOC ")]
    assert line, out + r.stderr.decode()
    probe = json.loads(line[-1][4:])
    assert probe["radio"] == "02e500000001" and probe["heard"] == {"02e500000002": 1}
    v = doctor.radio(probe, False, 0.2)
    assert v.status == doctor.PASS
    assert "heard 1 cup in 0.2 s: 02:e5:00:00:00:02 (1 frame, master of vera's %s table, 2 cups)" % RULES[2] in v.text
