"""CPython stand-in for CircuitPython's `digitalio` (no Blinka here).

`adafruit_lis3dh` imports it at load time; the cup passes no pins through the drivers,
so constants and a pin object that keeps its value are enough on the host.

It also covers one more gap of the no-deps install: on CPython `adafruit_lis3dh`
evaluates `Literal[...]` annotations at import and takes `Literal` from
`typing_extensions`, which only comes as a dependency of Blinka. When that package is
absent, the standard `typing` module (which has `Literal`) stands in for it.
"""
import sys

try:
    import typing_extensions  # noqa: F401
except ImportError:
    import typing
    sys.modules["typing_extensions"] = typing


class Direction:
    INPUT = 0
    OUTPUT = 1


class Pull:
    UP = 1
    DOWN = 2


class DriveMode:
    PUSH_PULL = 0
    OPEN_DRAIN = 1


class DigitalInOut:
    def __init__(self, pin=None):
        self.pin = pin
        self.direction = Direction.INPUT
        self.pull = None
        self.value = False
        self.drive_mode = DriveMode.PUSH_PULL

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self.direction = Direction.OUTPUT
        self.value = value
        self.drive_mode = drive_mode

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    def deinit(self):
        pass
