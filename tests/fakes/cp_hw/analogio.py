"""Fake of CircuitPython's `analogio.AnalogIn` (Espressif port), reading the volts the
emulated world puts on a pin (`world.set_volts`).

As the port does: only pins with an ADC channel (ValueError "Invalid pin"), the pin
claimed until `deinit()`, 11 dB attenuation (the reading tops out near 3.1 V), the
calibrated millivolts scaled as `mV * 65535 // 3300` into `value`, and
`reference_voltage` 3.3.
"""
import microcontroller as _mc

try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world


class AnalogIn:
    def __init__(self, pin):
        n = _mc.num(pin)
        if n not in _mc.ADC.get(_mc.chip(), ()):
            raise ValueError("Invalid pin")
        _mc.claim(pin, "analogio.AnalogIn")
        self._pin = pin
        self._num = n
        self.reads = 0

    def _check(self):
        if self._pin is None:
            raise _mc.deinited()

    @property
    def value(self):
        self._check()
        self.reads += 1
        v = _world.current().analog.get(self._num, 0.0)
        v = 0.0 if v < 0 else (3.1 if v > 3.1 else v)
        return int(v * 1000 + 0.5) * 65535 // 3300

    @property
    def reference_voltage(self):
        self._check()
        return 3.3

    def deinit(self):
        if self._pin is None:
            return
        _mc.release(self._pin)
        self._pin = None

    def deinited(self):
        return self._pin is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
        return False
