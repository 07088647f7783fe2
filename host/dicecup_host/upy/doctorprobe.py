# Inside the cup, over the raw REPL: what `dicecup doctor` asks (cmd_doctor.py sends
# this file once, then calls one function per step). Each answer is one line
# "DOC {json}" (what the host reads); anything else the cup prints is shown as it is.
# It uses the cup's own firmware modules, so it checks the code the cup runs.
import json
import os
import sys
from time import sleep_ms, ticks_diff, ticks_ms

_hw = None
_det = None


def _say(**kw):
    sys.stdout.write("DOC " + json.dumps(kw) + "\n")


def ident():
    r = {"machine": os.uname().machine}
    try:
        import dicecup
    except ImportError as e:
        r["missing"] = str(e)
        _say(**r)
        return
    r["version"] = getattr(dicecup, "VERSION", None)
    try:
        from dicecup.hw import board
        b = board.load()
        r["board"] = {"name": b.name, "chip": b.chip, "sda": b.sda, "scl": b.scl,
                      "display": b.display_addr, "accel": b.accel_addr, "rate": b.rate_hz,
                      "buttons": [[x.name, x.pin, x.active] for x in b.buttons],
                      "safe": b.safe_button,
                      "battery": [b.battery_pin, b.battery_divider, b.full_v, b.empty_v]}
    except Exception as e:  # noqa: BLE001 - a broken board file is a finding
        r["board_error"] = str(e)
    _say(**r)


def bus():
    global _hw
    from dicecup.hw import hardware
    said = []
    _hw = hardware.open(out=said.append)
    who = None
    b = _hw.board
    if _hw.i2c is not None and b is not None and b.accel_addr in _hw.found:
        try:
            who = _hw.i2c.bus.readfrom_mem(b.accel_addr, 0x0F, 1)[0]
        except Exception:  # noqa: BLE001
            who = -1
    if _hw.display is not None:
        try:
            _hw.display.message("DOCTOR", ["dicecup doctor", "is running"])
        except Exception:  # noqa: BLE001
            pass
    _say(found=_hw.found, errors=[str(e) for e in _hw.errors], who=who,
         display=_hw.display is not None, accel=_hw.accel is not None,
         buttons=_hw.buttons is not None)


def held():
    bs = _hw.buttons.buttons
    n = [0] * len(bs)
    for _ in range(5):
        for i in range(len(bs)):
            if bs[i].read():
                n[i] += 1
        sleep_ms(10)
    _say(held=[i for i in range(len(bs)) if n[i] == 5])


def press(ms, skip):
    """The first button pressed (3 reads in a row, 10 ms apart) and let go, within ms."""
    bs = _hw.buttons.buttons
    run = [0] * len(bs)
    down = None
    t0 = ticks_ms()
    while ticks_diff(ticks_ms(), t0) < ms:
        for j in range(len(bs)):
            if j not in skip:
                run[j] = run[j] + 1 if bs[j].read() else 0
                if run[j] == 3 and down is None:
                    down = j
        if down is not None and run[down] == 0:
            _say(pressed=down, released=True)
            return
        sleep_ms(10)
    _say(pressed=down, released=False)


def sample():
    t = [0.0, 0.0, 0.0]
    for _ in range(10):
        s = _hw.accel.read()
        for k in range(3):
            t[k] += s[k] / 10
        sleep_ms(10)
    _say(g=t)


def motion(want, ms):
    """Feed the firmware's shake detector at the board's rate until its state is `want`."""
    global _det
    from dicecup.hw.motion import ShakeDetector
    rate = _hw.board.rate_hz
    if _det is None:
        _det = ShakeDetector(rate_hz=rate)
    period = 1000 // rate
    t0 = ticks_ms()
    due = t0
    last = None
    while ticks_diff(ticks_ms(), t0) < ms:
        x, y, z = _hw.accel.read()
        if _det.feed(x, y, z) == "roll":
            _say(roll=True)
        st = _det.state
        if st != last:
            last = st
            _say(state=st, ms=ticks_diff(ticks_ms(), t0))
        if st == want:
            _say(reached=want)
            return
        due += period
        d = ticks_diff(due, ticks_ms())
        if d > 0:
            sleep_ms(d)
    _say(reached=None, last=last)


def battery():
    from dicecup.hw.power import battery_volts
    _say(volts=battery_volts(_hw.board))


def radio(ms):
    from binascii import hexlify
    try:
        from dicecup.net.espnow import ESPNowTransport
        t = ESPNowTransport()
    except Exception as e:  # noqa: BLE001 - no espnow module, a radio fault
        _say(radio=None, error="%s: %s" % (type(e).__name__, e))
        return
    from dicecup.net import wire
    heard = {}
    tables = {}     # sender -> [master's name, rules number, members] from its beacon
    t0 = ticks_ms()
    while ticks_diff(ticks_ms(), t0) < ms:
        f = t.recv()
        if f is None:
            sleep_ms(20)
            continue
        k = hexlify(f[0]).decode()
        heard[k] = heard.get(k, 0) + 1
        try:
            fr = wire.decode(f[1])
            if fr.type == wire.BEACON:
                tables[k] = [bytes(fr.body[3]).decode(), fr.body[0], fr.body[1]]
        except Exception:  # noqa: BLE001 - not a frame of ours: still a cup heard
            pass
    _say(radio=hexlify(t.address).decode(), heard=heard, tables=tables)
