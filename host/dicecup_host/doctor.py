"""What `dicecup doctor` makes of the cup's answers: one verdict per step, in words a
maker can act on. Pure: the answers (dicts, from upy/doctorprobe.py) in, `Verdict`s
out; cmd_doctor.py does the talking over the serial port.

A verdict is PASS, FAIL or SKIP (not tested, and why: the virtual board has no radio,
--no-wait skips what needs hands). A FAIL carries a short `diagnosis` ("display
missing", "button left stuck") named again in the summary, and the fixes to try.
"""

PASS = "PASS"
FAIL = "FAIL"
SKIP = "SKIP"

OLED = "SSD1306 OLED"
ACCEL = "LIS3DH accelerometer"
OTHER_ADDR = {0x3C: 0x3D, 0x3D: 0x3C, 0x18: 0x19, 0x19: 0x18}
LIS3DH_ID = 0x33


class Verdict:
    def __init__(self, step, status, text, diagnosis=None, fixes=()):
        self.step = step
        self.status = status
        self.text = text
        self.diagnosis = diagnosis
        self.fixes = list(fixes)

    def lines(self):
        out = ["%s  %s: %s" % (self.status, self.step, self.text)]
        out += ["      -> %s" % f for f in self.fixes]
        return out

    def __repr__(self):
        return "Verdict(%r, %r, %r)" % (self.step, self.status, self.diagnosis or self.text)


def gpio(n):
    return "GPIO%d" % n


def bus_pins(board):
    return "check SDA=%s SCL=%s, 3V3, GND" % (gpio(board["sda"]), gpio(board["scl"]))


def virtual(ident):
    """The cup is `dicecup vboard` (its os.uname().machine says so)."""
    return "virtual dice cup" in (ident.get("machine") or "")


def firmware(ident, host_version, want_board=None):
    """Firmware version and board file. `want_board`: the name given with --board."""
    where = " (virtual board)" if virtual(ident) else ""
    if "missing" in ident:
        return Verdict("firmware", FAIL, "no dicecup firmware on the cup%s (%s)" % (where, ident["missing"]),
                       "no firmware", ["make flash PORT=... BOARD=<your board>"])
    v = ident.get("version")
    if v is None:
        return Verdict("firmware", FAIL, "the cup's firmware is too old to say its version", "old firmware",
                       ["make flash PORT=... to update it to %s" % host_version])
    if "board_error" in ident:
        return Verdict("firmware", FAIL, "dicecup %s, but %s" % (v, ident["board_error"]), "board file broken",
                       ["make flash PORT=... BOARD=<your board> copies a good board file"])
    b = ident["board"]
    text = "dicecup %s on %s (%s)%s" % (v, b["name"], b["chip"], where)
    if want_board and want_board != b["name"]:
        return Verdict("firmware", FAIL, text + ", not the %s you named" % want_board, "wrong board file",
                       ["make flash PORT=... BOARD=%s (or drop --board)" % want_board])
    if v != host_version:
        return Verdict("firmware", FAIL, text + "; this tool is %s" % host_version, "firmware out of date",
                       ["make flash PORT=... to bring the cup to %s" % host_version])
    return Verdict("firmware", PASS, text)


def _chip(step, part, addr, board, found, diag, extra=None):
    if addr in found:
        return None
    alt = OTHER_ADDR.get(addr)
    if alt in found:
        return Verdict(step, FAIL, "no %s at 0x%02X, but something answers at 0x%02X" % (part, addr, alt),
                       diag, ["the board file says 0x%02X: set its address to 0x%02X, or the chip's "
                              "address pin (%s) is strapped the other way" % (addr, alt, extra or "SA0/SDO")])
    return Verdict(step, FAIL, "no %s at 0x%02X (no ACK on the I2C bus)" % (part, addr), diag,
                   ["%s of the %s" % (bus_pins(board), "OLED module" if part == OLED else "LIS3DH board")])


def i2c(board, probe):
    """The scan: each chip at the board file's address, or which pins to check."""
    found = probe["found"]
    seen = ", ".join("0x%02X" % a for a in found) or "nothing"
    out = []
    if not found:
        out.append(Verdict("I2C bus", FAIL, "nothing answers on SDA=%s SCL=%s" % (gpio(board["sda"]), gpio(board["scl"])),
                           "I2C bus dead", [bus_pins(board) + " of both chips, and that the board file's pins are "
                                            "the ones wired (I2C modules carry the pull-ups)"]))
    else:
        out.append(Verdict("I2C bus", PASS, "answers at %s" % seen))
    d = _chip("display", OLED, board["display"], board, found, "display missing", "SA0 / the module's address jumper")
    out.append(d or Verdict("display", PASS, "%s at 0x%02X (it shows DOCTOR now)" % (OLED, board["display"])))
    a = _chip("accelerometer", ACCEL, board["accel"], board, found, "accelerometer missing")
    if a is None and probe.get("who") not in (None, LIS3DH_ID):
        a = Verdict("accelerometer", FAIL, "0x%02X answers but WHO_AM_I is %r, not 0x33: not a LIS3DH"
                    % (board["accel"], probe.get("who")), "accelerometer not a LIS3DH",
                    ["check the part on the module (a LIS3DH reads 0x33 at register 0x0F)"])
    out.append(a or Verdict("accelerometer", PASS, "%s at 0x%02X (WHO_AM_I 0x33)" % (ACCEL, board["accel"])))
    known = {board["display"], board["accel"]}
    strange = [x for x in found if x not in known and x not in OTHER_ADDR]
    if strange:
        out[0].text += " (unknown: %s)" % ", ".join("0x%02X" % x for x in strange)
    return out


def _button_fix(b):
    name, pin, active = b
    return "check the %s button between %s and %s (pressed reads %s)" % (
        name, gpio(pin), "GND" if active == 0 else "3V3", "low" if active == 0 else "high")


def stuck(board, held):
    """Buttons that read pressed before anyone pressed them."""
    out = []
    for i in held:
        b = board["buttons"][i]
        fixes = ["a key jammed, a solder bridge, or %s shorted to %s" % (gpio(b[1]), "GND" if b[2] == 0 else "3V3"),
                 _button_fix(b)]
        if i == board.get("safe"):
            fixes.append("%s is the safe button: held at power-on the cup starts the self-test, not the game" % b[0])
        out.append(Verdict("button %s" % b[0], FAIL, "reads pressed at the start (%s held %s): stuck"
                           % (gpio(b[1]), "low" if b[2] == 0 else "high"), "button %s stuck" % b[0], fixes))
    return out


def press(board, i, probe, seconds):
    b = board["buttons"][i]
    got = probe.get("pressed")
    if got == i and probe.get("released"):
        return Verdict("button %s" % b[0], PASS, "pressed and released (%s)" % gpio(b[1]))
    if got == i:
        return Verdict("button %s" % b[0], FAIL, "pressed but not released within %g s" % seconds,
                       "button %s does not release" % b[0], [_button_fix(b)])
    if got is not None:
        o = board["buttons"][got]
        return Verdict("button %s" % b[0], FAIL, "asked for %s, the cup saw %s (%s)" % (b[0], o[0], gpio(o[1])),
                       "buttons %s/%s swapped" % (b[0], o[0]),
                       ["the wrong button pressed, or %s and %s swapped in the wiring" % (gpio(b[1]), gpio(o[1]))])
    return Verdict("button %s" % b[0], FAIL, "no press seen in %g s" % seconds, "button %s dead" % b[0],
                   [_button_fix(b)])


def rest(g):
    """The accelerometer at rest: 1 g, z up, in the cup's frame."""
    x, y, z = g
    total = (x * x + y * y + z * z) ** 0.5
    text = "x=%+.2f y=%+.2f z=%+.2f g (%.2f g)" % (x, y, z, total)
    if not 0.8 <= total <= 1.2:
        return Verdict("accel at rest", FAIL, text + ": not 1 g at rest", "accelerometer reads wrong",
                       ["leave the cup still; a reading far from 1 g is a damaged chip or a wrong range"])
    if z < 0.9:
        return Verdict("accel at rest", FAIL, text + ": z is not up with the cup mouth-down on the table",
                       "accelerometer mounting wrong",
                       ["the board file's accel.mount does not match how the LIS3DH sits (or the cup is not "
                        "standing on the table)"])
    return Verdict("accel at rest", PASS, text + ", upright")


def motion(states, rolled, seconds):
    """The shake detector's states seen while the maker shook the cup and set it down."""
    path = " -> ".join(states) or "none"
    if rolled and "shaking" in states:
        return Verdict("shake detector", PASS, "%s: a roll" % path)
    if "shaking" in states:
        return Verdict("shake detector", FAIL, "%s: a shake, but no roll within %g s" % (path, seconds),
                       "no roll after the shake", ["set the cup down mouth-down and leave it still for a second"])
    return Verdict("shake detector", FAIL, "%s: no shake seen in %g s" % (path, seconds), "no shake seen",
                   ["shake harder, 3-6 times a second; if the readings never change, check INT1/the LIS3DH wiring"])


def battery(board, volts):
    pin, div, full, empty = board["battery"]
    if pin is None:
        return Verdict("battery", SKIP, "the board file wires no battery sense pin")
    where = "%s through the %g:1 divider" % (gpio(pin), div)
    if volts is None or volts < 0.5:
        return Verdict("battery", FAIL, "reads %.2f V on %s" % (volts or 0.0, where), "battery sense reads nothing",
                       ["check the divider on %s, the battery connector and the power switch" % gpio(pin)])
    if volts > full + 0.25:
        return Verdict("battery", FAIL, "%.2f V on %s: above a full LiPo (%.1f V)" % (volts, where, full),
                       "battery sense too high", ["the divider's resistors are not %g:1, or the board file's "
                                                  "divider is wrong" % div])
    if volts < empty:
        return Verdict("battery", FAIL, "%.2f V: below empty (%.1f V)" % (volts, empty), "battery low",
                       ["charge it over USB"])
    pct = int(round((volts - empty) * 100 / (full - empty)))
    return Verdict("battery", PASS, "%.2f V (about %d %%) on %s" % (volts, max(0, min(100, pct)), where))


def radio(probe, is_virtual, seconds):
    if probe.get("radio") is None:
        err = probe.get("error", "?")
        if is_virtual:
            return Verdict("radio", SKIP, "the virtual board has no radio (%s): not tested" % err)
        return Verdict("radio", FAIL, "ESP-NOW did not come up (%s)" % err, "radio down",
                       ["flash an official MicroPython image with espnow (see README: Firmware for every board)"])
    mac = probe["radio"]
    mac = ":".join(mac[i:i + 2] for i in range(0, len(mac), 2))
    heard = probe.get("heard") or {}
    tables = probe.get("tables") or {}
    if heard:
        cups = ", ".join("%s (%d frame%s%s)" % (":".join(k[i:i + 2] for i in range(0, 12, 2)), n, "" if n == 1 else "s", _table(tables.get(k)))
                         for k, n in sorted(heard.items()))
        return Verdict("radio", PASS, "ESP-NOW up as %s; heard %d cup%s in %g s: %s"
                       % (mac, len(heard), "" if len(heard) == 1 else "s", seconds, cups))
    return Verdict("radio", PASS, "ESP-NOW up as %s; heard no other cup in %g s (a cup sends while it is at a "
                   "table or looking for one: open a table on another cup to check reception)" % (mac, seconds))


def _table(beacon):
    """', master of vera's perudo table, 2 cups' from a beacon's [name, rules number, members]."""
    if not beacon:
        return ""
    from dicecup.engine import RULES
    name, rules, members = beacon
    game = RULES[rules - 1] if 1 <= rules <= len(RULES) else "?"
    return ", master of %s's %s table, %d cup%s" % (name, game, members, "" if members == 1 else "s")


def summary(verdicts):
    """(exit code, the closing line): 0 when nothing failed, else 1 naming each diagnosis."""
    failed = [v for v in verdicts if v.status == FAIL]
    skipped = [v for v in verdicts if v.status == SKIP]
    if not failed:
        return 0, "all %d checks passed%s" % (len(verdicts) - len(skipped),
                                              ", %d skipped" % len(skipped) if skipped else "")
    return 1, "%d problem%s: %s" % (len(failed), "" if len(failed) == 1 else "s",
                                    "; ".join(v.diagnosis or v.step for v in failed))
