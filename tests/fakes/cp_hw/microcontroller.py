"""Fake of CircuitPython's `microcontroller` (Espressif port), on the emulated world.

* `microcontroller.pin.GPIOnn` for the GPIOs the current world's chip has
  (`world.chip`: esp32, esp32s3, esp32c3; the SPI flash pins left out, as the port's
  pins.c does); a pin the chip lacks is an AttributeError, as there.
* `Pin` objects: one per GPIO and world, so `is` and `==` behave; repr as
  CircuitPython prints them.
* The claim book the other fakes share: a pin taken by busio, digitalio, keypad or
  analogio is "in use" (ValueError "GPIOnn in use") until that object is deinit()ed.

Per-world state (`_state()`) hangs on the world object, so `world.reset()` starts
clean. Runs on CPython (tests/fakes/cp_hw on sys.path) and inside the unix
MicroPython (compiled, see cphost.build_mpy).
"""
try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world

_GPIOS = {
    "esp32": (0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 25, 26, 27,
              32, 33, 34, 35, 36, 37, 38, 39),
    "esp32s3": tuple(range(0, 22)) + tuple(range(33, 49)),
    "esp32c3": tuple(range(0, 11)) + tuple(range(18, 22)),
}
INPUT_ONLY = {"esp32": (34, 35, 36, 37, 38, 39)}
ADC = {
    "esp32": (0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39),
    "esp32s3": tuple(range(1, 21)),
    "esp32c3": (0, 1, 2, 3, 4, 5),
}


class _State:
    def __init__(self):
        self.pins = {}  # number -> Pin
        self.claims = {}  # number -> what holds it
        self.ticks_offset = 0  # added to world time by supervisor.ticks_ms (wrap tests)


def _state(w=None):
    w = w or _world.current()
    st = getattr(w, "cp", None)
    if st is None:
        st = _State()
        w.cp = st
    return st


class Pin:
    """A GPIO of the chip. Only `microcontroller.pin` makes them."""

    def __init__(self, num):
        self._num = num

    def __repr__(self):
        return "microcontroller.pin.GPIO%d" % self._num

    def __hash__(self):
        return self._num


def _pin(num, w=None):
    w = w or _world.current()
    if num not in _GPIOS.get(w.chip, ()):
        return None
    st = _state(w)
    p = st.pins.get(num)
    if p is None:
        p = Pin(num)
        st.pins[num] = p
    return p


class _PinModule:
    """`microcontroller.pin`: attributes GPIO0.. for the current world's chip."""

    def __getattr__(self, name):
        if name.startswith("GPIO") and name[4:].isdigit():
            p = _pin(int(name[4:]))
            if p is not None:
                return p
        raise AttributeError("'module' object has no attribute '%s'" % name)


pin = _PinModule()


def num(p):
    """The GPIO number of a Pin (TypeError for anything else, as the bindings)."""
    if not isinstance(p, Pin):
        raise TypeError("Pin required, got %s" % type(p).__name__)
    return p._num


def name(p):
    return "GPIO%d" % num(p)


def claim(p, what):
    st = _state()
    n = num(p)
    if n in st.claims:
        raise ValueError("%s in use" % name(p))
    st.claims[n] = what


def release(p):
    _state().claims.pop(num(p), None)


def in_use(p):
    return num(p) in _state().claims


def chip():
    return _world.current().chip


def deinited():
    return ValueError("Object has been deinitialized and can no longer be used. "
                      "Create a new object.")
