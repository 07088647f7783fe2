"""The serial event log: one JSON line per public and local event, on the cup's USB port.

    cup.listen(SerialLog(sys.stdout.write, cup))

This is what `dicecup log` records and what the re-checker replays. Each line starts
with the event's kind and where it stands: table id (`tb`), term (`tm`), version (`v`)
and index among that op's events (`i`) for a public event; the cup's boot (`boot`) and
a counter (`n`) for a local one; then the cup's clock (`t`, ms) and member id (`cup`),
then the event's own fields by name. Bytes are written as hex. Private events (the
cup's own dice and commitments) are never written.

The line is written in pieces straight to the port (jsonw.write): nothing the size of
a line is allocated, and nothing at all is built for a cup with no log attached.

Nothing lost when the cable was out: a line the port could not carry is gone, so the
host asks again. `hello()` (at boot) says which boot this is; a host that (re)opens the
port writes `#dicecup since V` (a Python comment, harmless should the REPL get it), and
`heard(line)` answers with the hello again (so a host plugged in after the boot line
still tells the next reboot), then the ops after version V the cup still holds (its sync
history, what it has shown), one `resend` line each, or -- when V is older than that --
one `resend` line carrying the table's snapshot. The host re-derives every public event
from those ops with the same engine, so none is lost, and drops what it already has.
"""
from binascii import hexlify

from . import jsonw
from . import events


def _value(v, out):
    if type(v) is bytes or type(v) is bytearray:
        out('"')
        mv = memoryview(v)
        for i in range(0, len(v), 32):   # in pieces: a reveal's 128 bytes are 256 of hex
            out(hexlify(mv[i:i + 32]).decode())
        out('"')
    elif type(v) in (list, tuple):
        out("[")
        for i in range(len(v)):
            if i:
                out(",")
            _value(v[i], out)
        out("]")
    else:
        jsonw.write(v, out)


class SerialLog:
    """A listener writing each event as one line through `write` (a str -> None function).
    `cup` gives the member id, the boot counter and, for ops, the state fingerprint."""

    def __init__(self, write, cup):
        self.write = write
        self.cup = cup
        self.lines = 0

    def __call__(self, ev):
        if ev.scope == events.PRIVATE:
            return
        try:
            w = self.write
            cup = self.cup
            me = cup.me if cup.me is not None else -1
            if ev.scope == events.LOCAL:
                w('{"k":"%s","tb":%d,"tm":%d,"v":%d,"boot":%d,"n":%d,"t":%d,"cup":%d' % (
                    ev.kind, ev.table, ev.term, ev.version, cup.boot, ev.index, ev.t, me))
            else:
                w('{"k":"%s","tb":%d,"tm":%d,"v":%d,"i":%d,"t":%d,"cup":%d' % (
                    ev.kind, ev.table, ev.term, ev.version, ev.index, ev.t, me))
            names = ev.names()
            values = ev.values
            for i in range(len(names)):
                w(',"%s":' % names[i])
                v = values[i]
                if v is None and names[i] == "state" and cup.table is not None:
                    v = cup.table.digest_of()
                _value(v, w)
            w("}\n")
        except Exception:
            # out of memory (or a port error) halfway through: end the broken line, so
            # the next line -- whoever writes it -- starts on a line of its own
            self.write("\n")
            raise
        self.lines += 1


    def hello(self):
        """The first line of a boot: which boot, which cup, where its table stands."""
        cup = self.cup
        t = cup.table
        self.write('{"k":"hello","tb":%d,"tm":%d,"v":%d,"boot":%d,"n":0,"t":%d,"cup":%d}\n' % (
            cup.keys.tid or 0, t.term if t else 0, t.version if t else 0, cup.boot, cup.now,
            cup.me if cup.me is not None else -1))

    def heard(self, line):
        """A line from the host: `#dicecup since V` answers with the hello, then
        resends what came after version V. True if it was such a request."""
        if not line.startswith("#dicecup since "):
            return False
        try:
            since = int(line[15:].strip())
        except ValueError:
            return False
        self.hello()   # a host plugged in after the boot line learns which boot this is
        self.resend(since)
        return True

    def resend(self, since):
        """The ops after version `since` that were shown, from the cup's history; the
        table's snapshot first when the history does not reach back that far."""
        cup = self.cup
        t = cup.table
        if t is None:
            return
        w = self.write
        sync = cup.sync
        tb = cup.keys.tid or 0
        me = cup.me if cup.me is not None else -1
        if t.version > since and (not sync.history or sync.first > since + 1):
            if sync.shown != t.version:
                return   # ops not yet shown: asked again, the snapshot will be of what was
            w('{"k":"resend","tb":%d,"tm":%d,"v":%d,"t":%d,"cup":%d,"snap":"' % (tb, t.term, t.version, cup.now, me))
            w(hexlify(t.snapshot()).decode())
            w('","state":"%s"}\n' % hexlify(t.digest_of()).decode())
            return
        for v, term, _, op in sync.ops(since + 1):
            if v <= sync.shown:
                w('{"k":"resend","tb":%d,"tm":%d,"v":%d,"t":%d,"cup":%d,"hex":"' % (tb, term, v, cup.now, me))
                w(hexlify(op).decode())
                w('"}\n')
