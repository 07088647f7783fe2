"""The emulated cup's surroundings: a clock, the GPIO lines and the I2C bus.

One `World` is current at a time (`reset()` makes a fresh one, `current()` returns it).
The fake `machine` module, the `busio` stub and the emulated chips all reach the same
world, so a test sets it up once and every layer sees the same wires.

Runs on CPython (as `dicecup_host.emu.world`) and inside the unix MicroPython (as
`world`, with this folder on MICROPYPATH): plain Python, no f-strings, no typing.

Time is in integer milliseconds. A manual clock (the default) only moves when the test
or the fake `machine.lightsleep` calls `advance(ms)`; that makes every run repeat
exactly. A real clock follows the host's monotonic time, for asyncio tests.
"""
import time

try:
    from dicecup_host.emu import bus as _bus
except ImportError:
    import bus as _bus

IRQ_RISING = 1
IRQ_FALLING = 2
WAKE_LOW = 4
WAKE_HIGH = 5


def _real_ms():
    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return int(time.monotonic() * 1000)


class Clock:
    """Milliseconds since the world began; manual unless `real` is true."""

    def __init__(self, real=False):
        self.real = real
        self.t = 0
        self._t0 = _real_ms()

    def now(self):
        if self.real:
            d = _real_ms() - self._t0
            return d if d >= 0 else 0
        return self.t


class Line:
    """One GPIO line: what the firmware configured and what the outside drives."""

    def __init__(self, num):
        self.num = num
        self.mode = None  # "in", "out", "od" once the firmware configures it
        self.pull = None  # "up", "down" or None
        self.out = 0  # level the firmware drives when mode is "out"
        self.drive = None  # level an outside part drives (button, INT1), None = open
        self.handler = None
        self.trigger = 0
        self.owner = None  # the Pin object that set the handler
        self.wake = None  # (level, "ext0"/"ext1"/"gpio"/"irq") when armed for sleep wake
        self.last = self.level()
        self.edges = 0

    def level(self):
        if self.mode == "out":
            return self.out
        if self.drive is not None:
            if self.mode == "od" and self.out == 0:
                return 0
            return self.drive
        if self.mode == "od" and self.out == 0:
            return 0
        if self.pull == "up":
            return 1
        return 0

    def update(self):
        """Call after anything changed: fires the IRQ handler on a matching edge."""
        now = self.level()
        if now == self.last:
            return
        self.last = now
        self.edges += 1
        if self.handler is None:
            return
        if (now and self.trigger & IRQ_RISING) or (not now and self.trigger & IRQ_FALLING):
            self.handler(self.owner)


class World:
    """Everything the emulated cup is wired to."""

    def __init__(self, real_time=False):
        self.clock = Clock(real_time)
        self.bus = _bus.Bus(self.clock)
        self.lines = {}
        self.analog = {}  # gpio -> volts seen by the ADC
        self.timed = []  # parts with sync(now): advanced with the clock
        self.sleeps = []  # (ms asked, ms slept, reason) per lightsleep
        self.radio = {}  # interface -> active, as the fake network module saw it
        self.i2c_pins = None  # (scl, sda) the chips hang on; None = any pins
        self.chip = "esp32"  # what the fake machine/esp32 modules behave like
        self.hook = None  # called whenever the firmware touches a pin, the bus or the ADC

    def line(self, num):
        ln = self.lines.get(num)
        if ln is None:
            ln = Line(num)
            self.lines[num] = ln
        return ln

    def now(self):
        return self.clock.now()

    def poke(self):
        """The firmware looked at the outside world: the virtual board's control channel
        (a button pressed from outside, a shake) gets its chance to act (upy/vbagent.py)."""
        if self.hook is not None:
            self.hook()

    def sync(self):
        """Bring every timed part up to the clock (their pins may change)."""
        t = self.clock.now()
        for part in self.timed:
            part.sync(t)

    def advance(self, ms):
        """Let `ms` milliseconds pass, one millisecond-step at a time for the parts."""
        if self.clock.real:
            if hasattr(time, "sleep_ms"):
                time.sleep_ms(ms)
            else:
                time.sleep(ms / 1000)
            self.sync()
            return
        end = self.clock.t + ms
        while self.clock.t < end:
            step = end - self.clock.t
            if step > 5:
                step = 5
            self.clock.t += step
            self.sync()

    # -- what a test does to the outside world --
    def set_level(self, num, level):
        """An outside part drives the line (None lets go of it)."""
        ln = self.line(num)
        ln.drive = level
        ln.update()

    def press(self, num, active=0):
        """A button wired from the line to GND (active 0) or to 3V3 (active 1) closes."""
        self.set_level(num, active)

    def release(self, num):
        self.set_level(num, None)

    def bounce(self, num, active=0, edges=5, gap_ms=1, end_pressed=True):
        """Contact bounce: `edges` quick toggles, `gap_ms` apart, ending pressed or not."""
        state = not end_pressed
        for _ in range(edges):
            state = not state
            if state:
                self.press(num, active)
            else:
                self.release(num)
            self.advance(gap_ms)
        if state != end_pressed:
            if end_pressed:
                self.press(num, active)
            else:
                self.release(num)

    def set_volts(self, num, volts):
        self.analog[num] = volts


_current = [None]


def reset(real_time=False):
    """Start a fresh world and make it current."""
    _current[0] = World(real_time)
    return _current[0]


def current():
    if _current[0] is None:
        reset()
    return _current[0]
