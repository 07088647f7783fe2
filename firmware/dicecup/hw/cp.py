"""CircuitPython's side of the hardware layer: pins, the I2C bus and the tick clock.

Imported only where `dicecup.hw.circuitpython()` is true (see `i2c.open_bus`,
`clock`, `power`, `hardware`): a MicroPython cup never loads it.

* Pins: the board file gives GPIO numbers; CircuitPython names every pin of an
  Espressif chip `microcontroller.pin.GPIOnn`, so no `board` module is needed.
* I2C: CircuitPython's own `busio.I2C(scl, sda, frequency=)`, which is what the
  Adafruit drivers were written for -- no adapter. It refuses pins without a pull-up
  (RuntimeError "No pull up found on SDA or SCL"), pins already in use (ValueError)
  and any transfer or scan while the bus is not locked (RuntimeError).
* Time: CircuitPython's `time` has no `ticks_ms`; `supervisor.ticks_ms()` counts
  milliseconds in a small int that wraps at 2**29 (the keypad's event timestamps
  use it too), so differences go through `ticks_diff` here. `time.monotonic()` is a
  float that loses millisecond precision after about an hour of uptime.
"""
from micropython import const
from supervisor import ticks_ms  # noqa: F401  (the clock: ms, wraps at 2**29)

from dicecup.hw.errors import HardwareError

_PERIOD = const(0x20000000)  # 2**29
_MASK = const(0x1FFFFFFF)
_HALF = const(0x10000000)


def ticks_diff(a, b):
    """a - b in ms for two ticks_ms values less than 2**28 ms apart (wrap-safe)."""
    d = (a - b) & _MASK
    return d - _PERIOD if d >= _HALF else d


def ticks_add(a, b):
    return (a + b) & _MASK


def sleep_ms(ms):
    import time
    time.sleep(ms / 1000)


def pin(num):
    """`microcontroller.pin.GPIO<num>`; HardwareError if the chip has no such pin."""
    import microcontroller
    p = getattr(microcontroller.pin, "GPIO%d" % num, None)
    if p is None:
        raise HardwareError("GPIO %d: no such pin on this chip (microcontroller.pin)" % num)
    return p


def open_bus(board):
    """The board's I2C bus as CircuitPython's busio.I2C."""
    import busio
    return busio.I2C(pin(board.scl), pin(board.sda), frequency=board.freq)
