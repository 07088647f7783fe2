"""The game told from recorded lines (JSON records), as narrate.py tells it from a
cup's events: the live display of `dicecup log` and the round-by-round telling of
`dicecup replay`. Names and rules come from a replica of the table (gamelog.py)."""
from dicecup.events import Event, names_of

from .narrate import Narrator


class _Cup:
    def __init__(self, table, mark=True):
        self.table = table
        self.mark = mark          # say which events came from a resend (or were derived)


def event_of(rec):
    """A record as the firmware's Event (its fields in KINDS order), or None."""
    try:
        names = names_of(rec.get("k"))
    except KeyError:
        return None
    return Event(rec["k"], tuple(rec.get(n) for n in names), rec.get("tb", 0), rec.get("tm", 0),
                 rec.get("v", 0), rec.get("i", rec.get("n", 0)), rec.get("t", 0))


class Teller:
    """`tell(rec)` -> the sentence for one record, or None; the table from `table()`."""

    def __init__(self, table, mark=True):
        self.table = table
        self.mark = mark          # say which events came from a resend (or were derived)

    def __call__(self, rec):
        t = self.table()
        if t is None:
            return None
        k = rec.get("k")
        if k == "gap":
            return "%7.1fs ?? versions %d to %d never reached the log (the cup was off)" % (
                rec.get("t", 0) / 1000, rec["from"], rec["to"])
        if k == "start":
            return "%7.1fs == game %d: %s, %s" % (rec.get("t", 0) / 1000, rec["game"], t.rules,
                                                ", ".join(t.name_of(s) for s in range(len(t.seats))))
        ev = event_of(rec)
        if ev is None or ev.kind in Narrator.QUIET:
            return None
        n = Narrator(_Cup(t))
        try:
            line = n.sentence(ev)
        except (IndexError, KeyError, TypeError, AttributeError):
            line = "%s %s" % (ev.kind, list(ev.values))
        if not line:
            return None
        mark = " (resent)" if self.mark and (rec.get("resent") or rec.get("derived")) else ""
        return "%7.1fs %s%s" % (ev.t / 1000, line, mark)
