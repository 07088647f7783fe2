"""Canonical JSON out: keys in the order given, compact separators, ASCII only.

MicroPython's `json.dumps` keeps no key order and writes non-ASCII raw, so the cups
and the host write JSON through this instead and print byte-identical text.
Objects are given as `Obj(pairs)`; lists, str, int, bool and None as themselves.
"""


class Obj:
    """A JSON object with its keys in a fixed order."""

    def __init__(self, pairs):
        self.pairs = pairs


_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _string(s, out):
    out.append('"')
    for ch in s:
        c = ord(ch)
        if 0x20 <= c < 0x7F and ch != '"' and ch != "\\":
            out.append(ch)
        elif ch in _SHORT:
            out.append(_SHORT[ch])
        elif c < 0x10000:
            out.append("\\u%04x" % c)
        else:  # outside the BMP: a surrogate pair, as CPython's json writes it
            c -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 | c >> 10, 0xDC00 | (c & 0x3FF)))
    out.append('"')


def _value(v, out):
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif type(v) is int:
        out.append(str(v))
    elif type(v) is str:
        _string(v, out)
    elif type(v) is Obj:
        out.append("{")
        first = True
        for k, x in v.pairs:
            if not first:
                out.append(",")
            first = False
            _string(k, out)
            out.append(":")
            _value(x, out)
        out.append("}")
    elif type(v) in (list, tuple):
        out.append("[")
        for i in range(len(v)):
            if i:
                out.append(",")
            _value(v[i], out)
        out.append("]")
    else:
        raise TypeError("cannot write %s as JSON" % type(v).__name__)


def dumps(v):
    out = []
    _value(v, out)
    return "".join(out)
