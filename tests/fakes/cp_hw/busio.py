"""Fake of CircuitPython's `busio.I2C` (Espressif port) on the emulated I2C bus.

As documented (shared-bindings/busio/I2C) and as the port behaves:
* `I2C(scl, sda, *, frequency=100000, timeout=255)` takes `microcontroller.Pin`s
  (TypeError otherwise) and claims them (ValueError "GPIOnn in use"); the port checks
  the lines are pulled up: when the emulated chips hang on other pins
  (`world.i2c_pins`), nothing pulls these up and it raises RuntimeError
  "No pull up found on SDA or SCL; check your wiring", freeing the pins;
* every transfer and `scan()` need the lock (`try_lock()`, non-blocking, False when
  held; `unlock()`), else RuntimeError "Function requires lock";
* `writeto` / `readfrom_into` take `start=`/`end=` as keywords only; a device that does
  not answer raises OSError(ENODEV); `writeto_then_readfrom` uses a repeated START;
  `probe(address)` answers True/False;
* `deinit()` (also on leaving a `with` block) frees the pins; afterwards every method
  raises ValueError (deinitialized).
The traffic lands in the world's bus log exactly as the machine.I2C fake logs it.
"""
import sys

import microcontroller as _mc

try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world

if sys.implementation.name == "cpython":  # the drivers' annotations need it (no Blinka here)
    try:
        import circuitpython_typing  # noqa: F401
    except ImportError:
        import types
        import typing
        _ct = types.ModuleType("circuitpython_typing")
        _ct.ReadableBuffer = typing.Union[bytes, bytearray, memoryview]
        _ct.WriteableBuffer = typing.Union[bytearray, memoryview]
        sys.modules["circuitpython_typing"] = _ct


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        scl_n = _mc.num(scl)
        sda_n = _mc.num(sda)
        if scl_n == sda_n:
            raise ValueError("Invalid pins")
        w = _world.current()
        if w.chip == "esp32s3" and (scl_n in (45, 46) or sda_n in (45, 46)):
            raise ValueError("Invalid pins")
        _mc.claim(scl, "busio.I2C")
        try:
            _mc.claim(sda, "busio.I2C")
        except ValueError:
            _mc.release(scl)
            raise
        if w.i2c_pins is not None and w.i2c_pins != (scl_n, sda_n):
            _mc.release(scl)
            _mc.release(sda)
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        self._bus = w.bus
        self._scl = scl
        self._sda = sda
        self.frequency = frequency
        self.timeout = timeout
        self._locked = False

    def _check(self, lock=True):
        if self._bus is None:
            raise _mc.deinited()
        if lock and not self._locked:
            raise RuntimeError("Function requires lock")

    def try_lock(self):
        self._check(False)
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._check(False)
        self._locked = False

    def scan(self):
        self._check()
        return list(self._bus.scan())

    def probe(self, address):
        self._check()
        try:
            self._bus.write(address, b"")
            return True
        except OSError:
            return False

    def writeto(self, address, buffer, *, start=0, end=None):
        self._check()
        if end is None:
            end = len(buffer)
        self._bus.write(address, memoryview(buffer)[start:end])

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        self._check()
        if end is None:
            end = len(buffer)
        self._bus.read_into(address, memoryview(buffer)[start:end])

    def writeto_then_readfrom(self, address, buffer_out, buffer_in, *, out_start=0,
                              out_end=None, in_start=0, in_end=None):
        self._check()
        if out_end is None:
            out_end = len(buffer_out)
        if in_end is None:
            in_end = len(buffer_in)
        self._bus.write(address, memoryview(buffer_out)[out_start:out_end], False)
        self._bus.read_into(address, memoryview(buffer_in)[in_start:in_end])

    def deinit(self):
        if self._bus is None:
            return
        _mc.release(self._scl)
        _mc.release(self._sda)
        self._bus = None
        self._locked = False

    def deinited(self):
        return self._bus is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
        return False


class SPI:
    """Named only: `adafruit_lis3dh` imports it for annotations."""
