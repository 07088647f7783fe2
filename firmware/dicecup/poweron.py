"""What only power-on uses (appboot.boot): the radio's opening, the app's clock and the
host's lines on the serial port. A host that makes the app with appboot.make_app alone
never loads this module.
"""


def open_radio(out):
    """The first radio that comes up: ESP-NOW, BLE, else a NoRadio."""
    try:
        from .net.espnow import ESPNowTransport
        return ESPNowTransport()
    except Exception as e:  # noqa: BLE001 - no espnow module, radio fault
        out("dicecup: ESP-NOW unavailable (%s: %s)" % (type(e).__name__, e))
    try:
        from .net.ble import BLETransport
        return BLETransport()
    except Exception as e:  # noqa: BLE001
        out("dicecup: BLE unavailable (%s: %s)" % (type(e).__name__, e))
    out("dicecup: no radio: this cup plays alone")
    from .net.noradio import NoRadio   # (here: a cup with a radio never holds it)
    return NoRadio()


def make_clock():
    """Milliseconds since boot from ticks_ms, never wrapping in a day's play (2**29 ms
    is six days): what the protocol's deadlines need."""
    from .hw.clock import ticks_diff, ticks_ms
    t0 = ticks_ms()

    def clock():
        return ticks_diff(ticks_ms(), t0)
    return clock


class SerialLines:
    """What the host writes to the cup's serial port, one line at a time, never waiting
    (select.poll with a 0 timeout): `dicecup log` asking for what it missed. A line
    longer than LINE is cut (requests are short)."""

    LINE = 64

    def __init__(self, stream):
        import select
        self.stream = stream
        self.poll = select.poll()
        self.poll.register(stream, select.POLLIN)
        self.part = ""

    def __call__(self):
        while self.poll.poll(0):
            c = self.stream.read(1)
            if not c:
                return None
            if c == "\n":
                line = self.part
                self.part = ""
                return line
            if c != "\r" and len(self.part) < self.LINE:
                self.part += c
        return None


def serial_lines(stream):
    """A SerialLines on `stream`, or None where it cannot be polled."""
    try:
        return SerialLines(stream)
    except Exception:  # noqa: BLE001 - no select, or a stream that cannot be polled
        return None
