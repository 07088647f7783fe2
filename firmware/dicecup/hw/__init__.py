"""The cup's hardware layer: board file, I2C adapter, display, accelerometer, buttons,
power and the self-test. `hardware.open()` brings it all up at boot.

Two runtimes: MicroPython (machine.I2C through our adapter, Pin interrupts,
machine.lightsleep) and CircuitPython (its own busio, keypad, analogio and alarm, in
the cp*.py modules, which MicroPython never imports). `circuitpython()` is the one
place the layer asks which it runs on."""

PLATFORM = None  # None: ask sys.implementation; tests set "circuitpython" to take that path


def circuitpython():
    """True on CircuitPython (or when a test set PLATFORM = "circuitpython")."""
    if PLATFORM is not None:
        return PLATFORM == "circuitpython"
    import sys
    return sys.implementation.name == "circuitpython"


class Hardware:
    """What `hardware.open()` brought up (here, not in hw/hardware.py: once the app is
    made, hw/trim.py unloads that module while the cup keeps this object)."""

    def __init__(self):
        self.board = None
        self.i2c = None
        self.display = None
        self.accel = None
        self.buttons = None
        self.errors = []
        self.found = []  # addresses that answered the I2C scan

    def ok(self):
        return not self.errors
