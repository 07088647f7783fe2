"""CircuitPython's `time`, for the unix MicroPython playing CircuitPython (cpruntime):
`monotonic()`, `monotonic_ns()`, `sleep()`, `time()`, `localtime()`, and none of
MicroPython's `ticks_ms` / `ticks_diff` / `sleep_ms`, which CircuitPython lacks -- so
firmware that leans on them fails here as it would on a CircuitPython board.

Import it before it replaces `time` in sys.modules: it keeps the real module."""
import time as _t


def monotonic():
    return _t.ticks_ms() / 1000


def monotonic_ns():
    return _t.ticks_us() * 1000


def sleep(seconds):
    _t.sleep(seconds)


def time():
    return _t.time()


def localtime(*secs):
    return _t.localtime(*secs)
