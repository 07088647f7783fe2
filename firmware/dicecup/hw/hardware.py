"""Boot bring-up: board file, I2C bus, display, accelerometer, buttons -- never a crash.

`open()` tries each part in turn and keeps going past failures: every problem becomes
a `HardwareError` in `hw.errors`, printed on the serial console and, when the display
answers, shown on it. With a broken board file the pins are unknown, so the display is
looked for where the file's i2c/display entries (if readable) or the chip's usual I2C
pins say (see board.guess_i2c).

On CircuitPython (dicecup.hw.circuitpython()) the bus is busio.I2C (dicecup.hw.cp)
and the buttons go through keypad (dicecup.hw.cpbuttons); the rest is the same code.
"""
from dicecup.hw import board as _board
from dicecup.hw import Hardware, circuitpython


def _wrap(e, what):
    from dicecup.hw.errors import HardwareError
    if isinstance(e, HardwareError):
        return e
    return HardwareError("%s: %s %s" % (what, type(e).__name__, e))


def open(path=_board.PATH, chip=None, clock=None, out=print):
    """Bring the cup's hardware up; returns a Hardware whose `errors` lists what failed."""
    from dicecup.hw import i2c as _i2c
    hw = Hardware()
    if chip is None:
        chip = _board.detect_chip()
    try:
        hw.board = _board.load(path, chip)
    except Exception as e:
        hw.errors.append(_wrap(e, "board file"))
        _show_without_board(hw, path, out)
        return hw
    b = hw.board
    try:
        hw.i2c = _i2c.open_bus(b)
        hw.found = _i2c.scan(hw.i2c)
    except Exception as e:
        hw.errors.append(_wrap(e, "I2C bus on SDA=%d SCL=%d" % (b.sda, b.scl)))
        report(hw, out)
        return hw
    try:
        from dicecup.hw.display import Display
        hw.display = Display(hw.i2c, b)
    except Exception as e:
        hw.errors.append(_wrap(e, "display"))
    try:
        from dicecup.hw.accel import Accel
        hw.accel = Accel(hw.i2c, b)
    except Exception as e:
        hw.errors.append(_wrap(e, "accelerometer"))
    try:
        if circuitpython():
            from dicecup.hw.cpbuttons import Buttons  # keypad.Keys
        else:
            from dicecup.hw.buttons import Buttons
        hw.buttons = Buttons(b, clock=clock)
    except Exception as e:
        hw.errors.append(_wrap(e, "buttons"))
    report(hw, out)
    return hw


def report(hw, out=print):
    """Each error on the serial console; the first one on the screen if there is one."""
    for e in hw.errors:
        out("dicecup: %s: %s" % (e.title, e))
    if hw.errors and hw.display is not None:
        e = hw.errors[0]
        title = e.title if len(hw.errors) == 1 else "%s +%d" % (e.title, len(hw.errors) - 1)
        try:
            hw.display.message(title, e.lines())
        except Exception:
            pass


class _Guess:
    pass


def _show_without_board(hw, path, out):
    sda, scl, addr = _board.guess_i2c(path)
    g = _Guess()
    g.sda, g.scl, g.display_addr, g.display_w, g.display_h = sda, scl, addr, 128, 64
    g.i2c_id, g.freq = 0, 400000
    try:
        from dicecup.hw import i2c as _i2c
        from dicecup.hw.display import Display
        hw.display = Display(_i2c.open_bus(g), g)
    except Exception:
        hw.display = None
    report(hw, out)
