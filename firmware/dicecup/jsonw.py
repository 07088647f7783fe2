"""Canonical JSON out: keys in the order given, compact separators, ASCII only.

MicroPython's `json.dumps` keeps no key order and writes non-ASCII raw, so the cups
and the host write JSON through this instead and print byte-identical text.
Objects are given as `Obj(pairs)`; lists, str, int, bool and None as themselves.

`write(value, out)` hands the text to `out` (a function taking a str, such as a serial
port's `write`) piece by piece: a long line never exists as one string, nor as a list
of pieces, so writing a log line leaves no large block behind on a cup's small heap.
Plain ASCII runs of a string go out as one slice, not character by character.
"""


from micropython import const

class Obj:
    """A JSON object with its keys in a fixed order."""

    def __init__(self, pairs):
        self.pairs = pairs


_SHORT = const('"\\\n\r\t\b\f')       # the characters with a short escape: \" \\ \n \r \t \b \f
_SHORT_AS = const('"\\nrtbf')
del const   # (compile-time only: one globals slot fewer, a 48 B table, not 64)


def string(s, out):
    """Write one JSON string."""
    out('"')
    start = 0
    n = len(s)
    i = 0
    while i < n:
        ch = s[i]
        c = ord(ch)
        if 0x20 <= c < 0x7F and c != 0x22 and c != 0x5C:   # plain: as it is
            i += 1
            continue
        if i > start:
            out(s[start:i])
        k = _SHORT.find(ch)
        if k >= 0:
            out("\\" + _SHORT_AS[k])
        elif c < 0x10000:
            out("\\u%04x" % c)
        else:  # outside the BMP: a surrogate pair, as CPython's json writes it
            c -= 0x10000
            out("\\u%04x\\u%04x" % (0xD800 | c >> 10, 0xDC00 | (c & 0x3FF)))
        i += 1
        start = i
    if n > start:
        out(s[start:] if start else s)
    out('"')


def write(v, out):
    """Write any value: None, bool, int, str, list/tuple, Obj."""
    if v is None:
        out("null")
    elif v is True:
        out("true")
    elif v is False:
        out("false")
    elif type(v) is int:
        out(str(v))
    elif type(v) is str:
        string(v, out)
    elif type(v) is Obj:
        out("{")
        first = True
        for k, x in v.pairs:
            if not first:
                out(",")
            first = False
            string(k, out)
            out(":")
            write(x, out)
        out("}")
    elif type(v) in (list, tuple):
        out("[")
        for i in range(len(v)):
            if i:
                out(",")
            write(v[i], out)
        out("]")
    else:
        raise TypeError("cannot write %s as JSON" % type(v).__name__)


def dumps(v):
    """The whole text as one str (for short outputs on the host, such as a scenario's)."""
    out = []
    write(v, out.append)
    return "".join(out)
