"""CircuitPython's `digitalio`, as much as the Adafruit drivers need, over machine.Pin.

`adafruit_lis3dh` imports it at load time and, when given interrupt pins, sets them to
input with a pull-up; `adafruit_ssd1306` uses `switch_to_output` for a reset pin. The
cup wires neither through the drivers (INT1 is handled by dicecup.hw.power), but the
import must succeed on MicroPython, so this module lives at the top of the firmware.
"""


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
    """`DigitalInOut(pin)`: pin is a GPIO number or a machine.Pin."""

    def __init__(self, pin):
        import machine
        self._m = machine
        self._pin = machine.Pin(pin) if isinstance(pin, int) else pin
        self._dir = Direction.INPUT
        self._pull = None
        self._pin.init(machine.Pin.IN)

    @property
    def direction(self):
        return self._dir

    @direction.setter
    def direction(self, d):
        if d == Direction.OUTPUT:
            self.switch_to_output()
        else:
            self.switch_to_input()

    @property
    def pull(self):
        return self._pull

    @pull.setter
    def pull(self, p):
        P = self._m.Pin
        self._pull = p
        self._pin.init(P.IN, P.PULL_UP if p == Pull.UP else (P.PULL_DOWN if p == Pull.DOWN else None))

    @property
    def value(self):
        return bool(self._pin.value())

    @value.setter
    def value(self, v):
        self._pin.value(1 if v else 0)

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        P = self._m.Pin
        self._dir = Direction.OUTPUT
        self._pin.init(P.OPEN_DRAIN if drive_mode == DriveMode.OPEN_DRAIN else P.OUT,
                       value=1 if value else 0)

    def switch_to_input(self, pull=None):
        self._dir = Direction.INPUT
        self.pull = pull

    def deinit(self):
        pass
