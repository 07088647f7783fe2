"""Stream accelerometer samples on the serial console, for `dicecup shake-record`.

The host starts it over the REPL (`import dicecup.hw.record as r; r.main(10)`) or the
maker starts it from the cup; it writes text lines on stdout:

    # dicecup-record start
    rate_hz 100
    range_g 8
    0.004 -0.012 1.004          one `x y z` sample a line, in g, in the cup's frame
    ...
    # dicecup-record stop samples=1000 late=0

and stops after `seconds`, on Ctrl-C (KeyboardInterrupt: the host sends it when the
maker stops), or when `stop()` returns true. `late` counts samples taken behind
schedule (the loop could not keep the rate; the recording is then not trustworthy).

`record(accel, ...)` takes the accelerometer as a parameter: anything with
`read() -> (x, y, z)` in g in the cup's frame (`dicecup.hw.accel.Accel`), or with
`acceleration -> (x, y, z)` in m/s^2 (an Adafruit LIS3DH driver; its axes are then
taken as the cup's, and its `range` register value, if any, gives range_g).
"""
import sys

START = "# dicecup-record start"
STOP = "# dicecup-record stop"
STANDARD_GRAVITY = 9.806      # what adafruit_lis3dh multiplies g by
_ADAFRUIT_RANGE = {0: 2, 1: 4, 2: 8, 3: 16}

try:
    from time import ticks_us, ticks_diff, ticks_add, sleep_us
except ImportError:           # CPython and CircuitPython: the same names
    import time as _time
    _ns = getattr(_time, "perf_counter_ns", None) or _time.monotonic_ns  # CircuitPython: this

    def ticks_us():
        return _ns() // 1000

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

    def sleep_us(us):
        _time.sleep(us / 1000000)


def _fmt(v):
    """g with 3 decimals, short: 1.0 -> "1", -0.0204 -> "-0.02"."""
    s = "%.3f" % v
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    if s == "-0" or s == "":
        s = "0"
    return s


def _sampler(accel):
    """A function returning one (x, y, z) in g from whatever `accel` offers."""
    if hasattr(accel, "read"):
        return accel.read
    k = 1.0 / STANDARD_GRAVITY

    def read():
        x, y, z = accel.acceleration
        return x * k, y * k, z * k
    return read


def _range_of(accel):
    r = getattr(accel, "range_g", None)
    if r:
        return r
    r = getattr(accel, "range", None)
    if isinstance(r, int) and r in _ADAFRUIT_RANGE:
        return _ADAFRUIT_RANGE[r]
    return 0


def record(accel, seconds=None, rate_hz=None, range_g=None, out=None, stop=None):
    """Sample `accel` at `rate_hz` and write the lines above to `out` (stdout).
    Returns the number of samples written."""
    out = out or sys.stdout
    rate = rate_hz or getattr(accel, "rate_hz", None) or 100
    rng = range_g or _range_of(accel)
    read = _sampler(accel)
    period = 1000000 // rate
    limit = int(seconds * rate) if seconds else -1
    out.write(START + "\n")
    out.write("rate_hz %d\n" % rate)
    out.write("range_g %d\n" % rng)
    n = 0
    late = 0
    due = ticks_us()
    try:
        while n != limit:
            now = ticks_us()
            wait = ticks_diff(due, now)
            if wait > 0:
                sleep_us(wait)
            elif wait < -period:      # more than a sample behind: count it, start afresh
                late += 1
                due = now
            x, y, z = read()
            out.write("%s %s %s\n" % (_fmt(x), _fmt(y), _fmt(z)))
            n += 1
            due = ticks_add(due, period)
            if stop is not None and stop():
                break
    except KeyboardInterrupt:
        pass
    out.write("%s samples=%d late=%d\n" % (STOP, n, late))
    try:
        out.flush()
    except AttributeError:
        pass
    return n


def main(seconds=None, board=None):
    """Record from this cup's own accelerometer (brought up by dicecup.hw.hardware)."""
    from dicecup.hw import hardware
    hw = hardware.open() if board is None else hardware.open(board)
    if hw.accel is None:
        print("# dicecup-record error: no accelerometer (%s)" % "; ".join(str(e) for e in hw.errors))
        return 0
    return record(hw.accel, seconds)
