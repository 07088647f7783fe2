"""CPython stand-in for MicroPython's built-in `micropython` module.

Firmware modules (and the Adafruit drivers) write `from micropython import const`;
on the cup that is the real built-in, on the host this file. Nothing else of the
real module is needed by code that runs on both.
"""


def const(value):
    """On MicroPython `const` folds the value at compile time; here it is identity."""
    return value
