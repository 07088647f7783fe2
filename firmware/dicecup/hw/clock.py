"""Millisecond ticks and sleeps on MicroPython, with the same names under CPython.

MicroPython's `time.ticks_ms()` wraps around; always compare with `ticks_diff`.
"""
try:
    from time import ticks_ms, ticks_diff, ticks_add, sleep_ms
except ImportError:  # CPython
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

    def sleep_ms(ms):
        _time.sleep(ms / 1000)


def asleep_ms(ms):
    """An awaitable sleep of `ms` milliseconds (asyncio.sleep_ms where it exists)."""
    import asyncio
    if hasattr(asyncio, "sleep_ms"):
        return asyncio.sleep_ms(ms)
    return asyncio.sleep(ms / 1000)
