"""Millisecond ticks and sleeps on MicroPython, with the same names on CircuitPython
(supervisor.ticks_ms, see dicecup.hw.cp) and under CPython.

`ticks_ms()` wraps around (MicroPython: at 2**30, CircuitPython: at 2**29); always
compare with `ticks_diff`.
"""
try:
    from time import ticks_ms, ticks_diff, ticks_add, sleep_ms
except ImportError:
    from dicecup.hw import circuitpython as _circuitpython

    if _circuitpython():
        from dicecup.hw.cp import ticks_ms, ticks_diff, ticks_add, sleep_ms
    else:  # CPython
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
