"""Fake of CircuitPython's `digitalio` on the emulated world's GPIO lines.

`DigitalInOut(pin)` takes a `microcontroller.Pin` and claims it until `deinit()`;
it starts as an input without pull. As documented: `value` can only be set on an
output (AttributeError otherwise), `pull` only on an input; `switch_to_input(pull=)`
and `switch_to_output(value=, drive_mode=)`. Reading `value` reads the line as the
world sees it (a pressed button, a pull-up, the LIS3DH's INT1).

Under CPython, `adafruit_lis3dh` imports `Literal` from `typing_extensions` (a Blinka
dependency, absent here): the standard `typing` stands in for it.
"""
import sys

import microcontroller as _mc

try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world

if sys.implementation.name == "cpython":
    try:
        import typing_extensions  # noqa: F401
    except ImportError:
        import typing
        sys.modules["typing_extensions"] = typing


class Direction:
    INPUT = "Direction.INPUT"
    OUTPUT = "Direction.OUTPUT"


class Pull:
    UP = "Pull.UP"
    DOWN = "Pull.DOWN"


class DriveMode:
    PUSH_PULL = "DriveMode.PUSH_PULL"
    OPEN_DRAIN = "DriveMode.OPEN_DRAIN"


class DigitalInOut:
    def __init__(self, pin):
        _mc.claim(pin, "digitalio.DigitalInOut")
        self._pin = pin
        self._line = _world.current().line(_mc.num(pin))
        self._dir = Direction.INPUT
        self._pull = None
        self._drive = DriveMode.PUSH_PULL
        self._line.mode = "in"
        self._line.pull = None
        self._line.update()

    def _check(self):
        if self._pin is None:
            raise _mc.deinited()

    @property
    def direction(self):
        self._check()
        return self._dir

    @direction.setter
    def direction(self, d):
        if d == Direction.OUTPUT:
            self.switch_to_output()
        else:
            self.switch_to_input()

    @property
    def value(self):
        self._check()
        return bool(self._line.level())

    @value.setter
    def value(self, v):
        self._check()
        if self._dir != Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self._line.out = 1 if v else 0
        self._line.update()

    @property
    def pull(self):
        self._check()
        if self._dir == Direction.OUTPUT:
            raise AttributeError("Pull not used when direction is output.")
        return self._pull

    @pull.setter
    def pull(self, p):
        self._check()
        if self._dir == Direction.OUTPUT:
            raise AttributeError("Pull not used when direction is output.")
        if p not in (None, Pull.UP, Pull.DOWN):
            raise ValueError("Invalid pull")
        self._pull = p
        self._line.pull = "up" if p == Pull.UP else ("down" if p == Pull.DOWN else None)
        self._line.update()

    @property
    def drive_mode(self):
        self._check()
        return self._drive

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self._check()
        self._dir = Direction.OUTPUT
        self._drive = drive_mode
        self._pull = None
        self._line.pull = None
        self._line.mode = "od" if drive_mode == DriveMode.OPEN_DRAIN else "out"
        self._line.out = 1 if value else 0
        self._line.update()

    def switch_to_input(self, pull=None):
        self._check()
        self._dir = Direction.INPUT
        self._line.mode = "in"
        self.pull = pull

    def deinit(self):
        if self._pin is None:
            return
        _mc.release(self._pin)
        self._line.mode = None
        self._line.pull = None
        self._line.update()
        self._pin = None

    def deinited(self):
        return self._pin is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
        return False
