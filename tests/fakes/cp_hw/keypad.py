"""Fake of CircuitPython's `keypad`: `Keys`, `EventQueue`, `Event`, on the emulated
world's GPIO lines, after shared-bindings/keypad and shared-module/keypad.

* `Keys(pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64,
  debounce_threshold=1)`: claims the pins (ValueError "GPIOnn in use"; duplicates
  refused), enables a pull-up (value_when_pressed False) or pull-down (True) when
  `pull`. It scans every `interval` seconds of world time (it is one of the world's
  timed parts; when a test reads the queue it also catches up to the present, for
  worlds on real time), the first scan at construction.
* Debounce as `keypad_debounce`: one counter per key, starting at 0; a pressed scan
  counts up, a released scan down, within +-threshold; a change is reported when the
  counter reaches 0 coming from the other side (then it jumps to +-threshold). So a
  key held at construction never reports a press, only its release; `reset()` sets
  every counter to -threshold ("all released") and scans at once, so held keys report
  a press once they have been seen `threshold` times.
* `EventQueue`: `get()` -> Event or None, `get_into(event)` -> bool (no allocation;
  TypeError for anything but an Event), `clear()` (also clears `overflowed`),
  `len()`, `bool()`, `overflowed`. A full queue drops the new event and sets
  `overflowed`.
* `Event(key_number=0, pressed=True, timestamp=None)`: `key_number`, `pressed`,
  `released`, `timestamp` (supervisor.ticks_ms of the scan); equal when key and
  pressed are (timestamps ignored).
* `deinit()` stops scanning and frees the pins; using a deinit()ed Keys is a
  ValueError.
"""
import microcontroller as _mc
import supervisor as _sup

try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        if key_number < 0:
            raise ValueError("key_number must be >= 0")
        self._k = key_number
        self._p = bool(pressed)
        self._t = _sup.ticks_ms() if timestamp is None else int(timestamp)

    @property
    def key_number(self):
        return self._k

    @property
    def pressed(self):
        return self._p

    @property
    def released(self):
        return not self._p

    @property
    def timestamp(self):
        return self._t

    def __eq__(self, other):
        return isinstance(other, Event) and other._k == self._k and other._p == self._p

    def __hash__(self):
        return (self._p << 15) + self._k

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self._k, "pressed" if self._p else "released")


class EventQueue:
    """Made by a scanner; not constructed by user code."""

    def __init__(self, max_events, scanner):
        self._max = max_events
        self._buf = []
        self._over = False
        self._scanner = scanner

    def _record(self, key, pressed, timestamp):
        if len(self._buf) >= self._max:
            self._over = True
            return False
        self._buf.append((key, pressed, timestamp))
        return True

    def _catch_up(self):
        if self._scanner is not None:
            self._scanner._catch_up()

    def get(self):
        self._catch_up()
        if not self._buf:
            return None
        k, p, t = self._buf.pop(0)
        return Event(k, p, t)

    def get_into(self, event):
        if not isinstance(event, Event):
            raise TypeError("event must be of type Event")
        self._catch_up()
        if not self._buf:
            return False
        event._k, event._p, event._t = self._buf.pop(0)
        return True

    def clear(self):
        self._buf = []
        self._over = False

    def __len__(self):
        self._catch_up()
        return len(self._buf)

    def __bool__(self):
        return len(self) > 0

    @property
    def overflowed(self):
        self._catch_up()
        return self._over


class Keys:
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020,
                 max_events=64, debounce_threshold=1):
        pins = list(pins)
        nums = [_mc.num(p) for p in pins]
        for i in range(len(nums)):
            if nums[i] in nums[i + 1:]:
                raise ValueError("row_pins duplicate pins")
        if interval < 0:
            raise ValueError("interval must be >= 0")
        if max_events < 1:
            raise ValueError("max_events must be >= 1")
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        for i in range(len(pins)):
            try:
                _mc.claim(pins[i], "keypad.Keys")
            except ValueError:
                for p in pins[:i]:
                    _mc.release(p)
                raise
        self._w = _world.current()
        self._pins = pins
        self._lines = []
        for n in nums:
            ln = self._w.line(n)
            ln.mode = "in"
            ln.pull = ("down" if value_when_pressed else "up") if pull else None
            ln.update()
            self._lines.append(ln)
        self._vwp = 1 if value_when_pressed else 0
        self._interval = interval * 1000.0
        self._threshold = debounce_threshold
        self._counters = [0] * len(pins)
        self._events = EventQueue(max_events, self)
        self.scans = 0
        self._w.timed.append(self)
        self._scan_now(self._w.now())

    # -- the scanner --
    def _debounce(self, i, current):
        c = self._counters[i]
        t = self._threshold
        if current:
            if c < t:
                c += 1
                if c == 0:
                    self._counters[i] = t
                    return True
        else:
            if c > -t:
                c -= 1
                if c == 0:
                    self._counters[i] = -t
                    return True
        self._counters[i] = c
        return False

    def _scan_now(self, t):
        self._next = t + (self._interval if self._interval > 0 else 1.0)
        self.scans += 1
        stamp = _sup.ticks_at(t)
        for i in range(len(self._lines)):
            current = self._lines[i].level() == self._vwp
            if self._debounce(i, current):
                self._events._record(i, current, stamp)

    def sync(self, now):
        """Called by the world as its clock moves: scan when `interval` has passed."""
        if self._pins is None:
            return
        if now - self._next > 60000:  # a long jump: the scanner ran, we only need the end
            self._next = now - 10 * self._interval
        while self._next <= now:
            self._scan_now(self._next)

    def _catch_up(self):
        self.sync(self._w.now())

    # -- the API --
    def _check(self):
        if self._pins is None:
            raise _mc.deinited()

    @property
    def key_count(self):
        self._check()
        return len(self._pins)

    @property
    def events(self):
        self._check()
        return self._events

    def reset(self):
        self._check()
        self._counters = [-self._threshold] * len(self._pins)
        self._scan_now(self._w.now())

    def deinit(self):
        if self._pins is None:
            return
        if self in self._w.timed:
            self._w.timed.remove(self)
        for p in self._pins:
            _mc.release(p)
        self._pins = None
        self._events._scanner = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
        return False
