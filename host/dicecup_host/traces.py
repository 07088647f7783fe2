"""Motion traces: read and write the text format of hardware/traces/README.md.

    # comment lines start with '#'
    rate_hz 100
    range_g 8
    expect roll
    settled_at_ms 2870
    kind shake-vigorous        (any other `key value` lines: kept in .meta, in order)
    0.004 -0.012 1.004         (then one `x y z` sample per line, in g, cup frame)

`settled_at_ms` is required when `expect` is roll and refused otherwise.
"""
from pathlib import Path

EXPECTS = ("roll", "none")
RANGES_G = (2, 4, 8, 16)
# A cup is at rest from the first sample after which every axis stays within this
# of its final resting value (README: "settled_at_ms").
SETTLE_TOL_G = 0.03


class TraceError(ValueError):
    """A trace file that does not follow the format; the message names the line."""


class Trace:
    """One trace: rate_hz, range_g, expect, settled_at_ms (or None), samples
    (list of (x, y, z) in g), meta (other header keys, in order), name."""

    def __init__(self, rate_hz, range_g, expect, samples, settled_at_ms=None, meta=None, name=""):
        self.rate_hz = rate_hz
        self.range_g = range_g
        self.expect = expect
        self.settled_at_ms = settled_at_ms
        self.samples = samples
        self.meta = dict(meta or {})
        self.name = name
        self.check()

    def check(self):
        if not (isinstance(self.rate_hz, int) and 1 <= self.rate_hz <= 5000):
            raise TraceError("%s: rate_hz must be a whole number of Hz, 1..5000" % self.name)
        if self.range_g not in RANGES_G:
            raise TraceError("%s: range_g must be one of %s" % (self.name, RANGES_G))
        if self.expect not in EXPECTS:
            raise TraceError("%s: expect must be roll or none" % self.name)
        if self.expect == "roll":
            if self.settled_at_ms is None:
                raise TraceError("%s: expect roll needs settled_at_ms" % self.name)
            if not 0 <= self.settled_at_ms <= self.duration_ms():
                raise TraceError("%s: settled_at_ms %d is outside the trace (0..%d ms)"
                                 % (self.name, self.settled_at_ms, self.duration_ms()))
        elif self.settled_at_ms is not None:
            raise TraceError("%s: settled_at_ms only goes with expect roll" % self.name)

    def time_ms(self, i):
        """Time of sample i (the first sample is at 0 ms)."""
        return i * 1000.0 / self.rate_hz

    def duration_ms(self):
        return int(len(self.samples) * 1000 / self.rate_hz)


def _number(tok, where):
    try:
        return float(tok)
    except ValueError:
        raise TraceError("%s: %r is not a number" % (where, tok)) from None


def parse(text, name="<trace>"):
    """A Trace from the text of a trace file; TraceError on anything malformed."""
    head = {}
    order = []
    samples = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = "%s:%d" % (name, no)
        if not line or line.startswith("#"):
            continue
        first = line[0]
        if first.isdigit() or first in "+-.":
            parts = line.split()
            if len(parts) != 3:
                raise TraceError("%s: a sample is three numbers `x y z`, got %r" % (where, line))
            samples.append((_number(parts[0], where), _number(parts[1], where),
                            _number(parts[2], where)))
            continue
        if samples:
            raise TraceError("%s: header line %r after the samples began" % (where, line))
        key, _, value = line.partition(" ")
        value = value.strip()
        if not value or not key.replace("_", "").isalnum() or not key.islower():
            raise TraceError("%s: expected a `key value` header line, got %r" % (where, line))
        if key in head:
            raise TraceError("%s: %s given twice" % (where, key))
        head[key] = value
        order.append(key)
    for key in ("rate_hz", "range_g", "expect"):
        if key not in head:
            raise TraceError("%s: header has no %s" % (name, key))

    def whole(key):
        try:
            return int(head[key])
        except ValueError:
            raise TraceError("%s: %s must be a whole number, got %r" % (name, key, head[key])) from None

    rate = whole("rate_hz")
    rng = whole("range_g")
    settled = whole("settled_at_ms") if "settled_at_ms" in head else None
    if not samples:
        raise TraceError("%s: no samples" % name)
    meta = [(k, head[k]) for k in order if k not in ("rate_hz", "range_g", "expect", "settled_at_ms")]
    return Trace(rate, rng, head["expect"], samples, settled, dict(meta), name)


def load(path):
    path = Path(path)
    return parse(path.read_text(encoding="ascii", errors="replace"), name=str(path))


def fmt_g(v):
    """A value in g as short text: 3 decimals at most, no trailing zeros ("1", "-0.02")."""
    s = "%.3f" % v
    s = s.rstrip("0").rstrip(".")
    if s in ("-0", ""):
        s = "0"
    return s


def fmt_mg(mg):
    """An integer milli-g as g text, exactly (no float rounding involved)."""
    sign = "-" if mg < 0 else ""
    mg = abs(int(mg))
    whole, frac = divmod(mg, 1000)
    if not frac:
        return "0" if not whole else sign + str(whole)
    return sign + ("%d.%03d" % (whole, frac)).rstrip("0")


def dumps(trace, comments=(), samples_mg=None):
    """The text of a trace file. `samples_mg` (integer milli-g) replaces the float
    samples when given, for output that is exact byte for byte."""
    out = ["# dicecup motion trace (format: hardware/traces/README.md)"]
    out += ["# " + c for c in comments]
    out.append("rate_hz %d" % trace.rate_hz)
    out.append("range_g %d" % trace.range_g)
    out.append("expect %s" % trace.expect)
    if trace.settled_at_ms is not None:
        out.append("settled_at_ms %d" % trace.settled_at_ms)
    for k, v in trace.meta.items():
        out.append("%s %s" % (k, v))
    if samples_mg is not None:
        out += ["%s %s %s" % (fmt_mg(a), fmt_mg(b), fmt_mg(c)) for a, b, c in samples_mg]
    else:
        out += ["%s %s %s" % (fmt_g(a), fmt_g(b), fmt_g(c)) for a, b, c in trace.samples]
    return "\n".join(out) + "\n"


def save(trace, path, comments=(), samples_mg=None):
    Path(path).write_text(dumps(trace, comments, samples_mg), encoding="ascii")


def find_settle(samples, rate_hz, tol_g=SETTLE_TOL_G, rest_ms=200):
    """When the cup came to rest for good, in ms: the first sample from which every
    axis stays within `tol_g` of the final resting value (the mean of the last
    `rest_ms`). None when the trace does not end at rest (the last `rest_ms` are not
    themselves within `tol_g` of their mean)."""
    n = len(samples)
    k = max(1, int(rest_ms * rate_hz / 1000))
    if n < k:
        return None
    tail = samples[n - k:]
    rest = [sum(s[a] for s in tail) / k for a in range(3)]
    for s in tail:
        if max(abs(s[a] - rest[a]) for a in range(3)) > tol_g:
            return None
    i = n - k
    while i > 0 and max(abs(samples[i - 1][a] - rest[a]) for a in range(3)) <= tol_g:
        i -= 1
    return int(round(i * 1000.0 / rate_hz))


def library_dir():
    """hardware/traces in the source tree."""
    from . import mpy
    return mpy.ROOT / "hardware" / "traces"


def library(sets=("lib", "heldout")):
    """Paths of the committed trace library, sorted, for the given sets."""
    base = library_dir()
    out = []
    for s in sets:
        out += sorted((base / s).glob("*.txt"))
    return out
