"""CPython stand-in for CircuitPython's `busio.I2C`, on the emulated I2C bus.

`busio.I2C(scl, sda)` talks to the current emulated world's bus
(`dicecup_host.emu.world.current().bus`, or the `bus=` given), the same bus the fake
`machine.I2C` uses, so the Adafruit drivers run on CPython exactly as CircuitPython
would call them and their traffic lands in the same log.

It also fills a gap of the no-deps install: `adafruit_bus_device` evaluates its
`WriteableBuffer`/`ReadableBuffer` annotations at import on CPython and takes them from
`circuitpython_typing` (a Blinka dependency), right after importing busio. When that
package is absent, a small module with those two names stands in for it.
"""
import sys

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
    def __init__(self, scl=None, sda=None, *, frequency=100000, timeout=255, bus=None):
        if bus is None:
            from dicecup_host.emu import world
            bus = world.current().bus
        self._bus = bus
        self._locked = False
        self.frequency = frequency

    def try_lock(self):
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def scan(self):
        return self._bus.scan()

    def writeto(self, address, buffer, *, start=0, end=None):
        end = len(buffer) if end is None else end
        self._bus.write(address, bytes(buffer[start:end]))

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        end = len(buffer) if end is None else end
        tmp = bytearray(end - start)
        self._bus.read_into(address, tmp)
        buffer[start:end] = tmp

    def writeto_then_readfrom(self, address, buffer_out, buffer_in, *, out_start=0,
                              out_end=None, in_start=0, in_end=None):
        out_end = len(buffer_out) if out_end is None else out_end
        in_end = len(buffer_in) if in_end is None else in_end
        self._bus.write(address, bytes(buffer_out[out_start:out_end]), False)
        tmp = bytearray(in_end - in_start)
        self._bus.read_into(address, tmp)
        buffer_in[in_start:in_end] = tmp

    def deinit(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class SPI:
    """Named only: `adafruit_lis3dh` imports it for annotations."""

