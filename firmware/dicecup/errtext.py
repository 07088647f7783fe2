"""A caught error as one line for the serial log: "Type: message @ file:line", the line
where it was raised (the innermost frame), so an `internal` event on a cup says where
to look without a traceback dump (MicroPython and CPython alike)."""
import sys


def where(e):
    """"file:line" of the innermost frame of `e`'s traceback, "" when unknown, "(no room
    to say where)" when the heap could not hold the traceback's text."""
    try:
        if hasattr(sys, "print_exception"):          # MicroPython
            import io
            buf = io.StringIO()
            sys.print_exception(e, buf)
            text = buf.getvalue()
        else:
            import traceback
            text = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    except Exception:  # noqa: BLE001 - a full heap: the type and message still go out
        return "(no room to say where)"
    at = ""
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith('File "'):
            q = line.find('"', 6)
            n = line.find("line ", q)
            if q > 0 and n > 0:
                num = line[n + 5:].split(",")[0]
                at = line[6:q] + ":" + num
    if not at and isinstance(e, MemoryError):
        return "(no room to say where)"   # the traceback itself found no room
    return at


def describe(e):
    """"Type: message @ file:line" (no "@ ..." when the place is unknown)."""
    at = where(e)
    s = "%s: %s" % (type(e).__name__, e)
    return s + " @ " + at if at else s
