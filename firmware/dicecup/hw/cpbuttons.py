"""The buttons on CircuitPython: `keypad.Keys` scans and debounces, we keep the meaning.

CircuitPython has no pin interrupts for Python code; its `keypad` module scans the
pins in the background every `scan_ms` and queues debounced transitions, each with a
`supervisor.ticks_ms` timestamp, so presses are timed right however late we look.
A change counts once the pin has read the new level for about `debounce_ms`
(keypad's `debounce_threshold` = debounce_ms / scan_ms scans).

On top of that the same state machine and the same API as `dicecup.hw.buttons`
(which this class extends): PRESS, LONG and BOTH events as (kind, mask) in the same
small ring buffer, `poll(now)`, `get()`, `next()`, `run()`, `held(i)`, `busy()`,
`describe()`, and per button `.down`, `.ever`, `.read()`.

* Buttons wired alike (same `active` level, pull or no pull) share one `Keys`; a
  board that mixes them gets one `Keys` per kind (keypad takes one level for all).
* A button held at start counts as down without an event, as on MicroPython. Each
  `Keys` is `reset()` at once, so its debounce starts from "all released" (the
  documented state; the counters are not otherwise defined at construction) and a
  key held then reports a press once debounced. The levels are read once with
  `digitalio` before keypad takes the pins: for a button pressed then, a press that
  keypad stamps within the settling time (debounce_ms + 2 scans) makes it down
  without an event, and until then `read()` answers with that first level, so safe
  mode can look at the button at once.
* Events come out of keypad with `EventQueue.get_into` into one reused `Event`: no
  allocation per event. If keypad's queue ever overflowed (it keeps the oldest), the
  events it kept are taken, then the scanner is reset and settles again as at start:
  a button down before keeps being down without a new event.
* `run()` polls every `idle_ms` when idle (no interrupt to wait on); the timestamps
  keep long presses exact.
"""
from micropython import const

from dicecup.hw.buttons import Buttons as _Base, LONG
from dicecup.hw.cp import pin, ticks_ms, ticks_add, ticks_diff

_SCAN_MS = const(5)
_KEYPAD_EVENTS = const(32)


class _Key:
    """One button. `raw` is keypad's debounced level (the first look through
    digitalio while keypad settles), `down` our state machine's."""

    def __init__(self, owner, index, held, now):
        self._owner = owner
        self.bit = 1 << index
        self.raw = held
        self.start = held  # pressed when we first looked: a press while settling is that
        self.down = False
        self.down_t = now
        self.used = True
        self.edges = 0
        self.ever = False

    def read(self):
        """Is the button pressed (debounced by keypad)?"""
        self._owner._drain()
        return self.raw


def _levels(specs):
    """Pressed or not, per button, read once before keypad claims the pins."""
    import digitalio
    out = []
    for s in specs:
        d = digitalio.DigitalInOut(pin(s.pin))
        try:
            if s.pull == "up":
                d.switch_to_input(pull=digitalio.Pull.UP)
            elif s.pull == "down":
                d.switch_to_input(pull=digitalio.Pull.DOWN)
            else:
                d.switch_to_input()
            out.append(d.value == bool(s.active))
        finally:
            d.deinit()
    return out


class Buttons(_Base):
    """`Buttons(board)`: the board's buttons through keypad. `clock` must count in
    supervisor.ticks_ms (keypad's timestamps); it is the default."""

    def __init__(self, board, clock=None, debounce_ms=20, long_ms=700, scan_ms=_SCAN_MS):
        import keypad
        self._setup(board, clock or ticks_ms, debounce_ms, long_ms)  # _flag stays None: run() polls
        self._ev = keypad.Event()
        self._scan_ms = scan_ms
        specs = board.buttons
        held = _levels(specs)
        now = self._clock()
        self._settle_t = ticks_add(now, debounce_ms + 2 * scan_ms)
        self.buttons = [_Key(self, i, held[i], now) for i in range(len(specs))]
        threshold = debounce_ms // scan_ms
        threshold = 1 if threshold < 1 else (127 if threshold > 127 else threshold)
        self._scanners = []
        taken = 0
        for i in range(len(specs)):
            if taken & (1 << i):
                continue
            s = specs[i]
            idx = []
            for j in range(i, len(specs)):
                o = specs[j]
                if o.active == s.active and (o.pull is None) == (s.pull is None):
                    idx.append(j)
                    taken |= 1 << j
            keys = keypad.Keys([pin(specs[j].pin) for j in idx],
                               value_when_pressed=bool(s.active), pull=s.pull is not None,
                               interval=scan_ms / 1000, max_events=_KEYPAD_EVENTS,
                               debounce_threshold=threshold)
            keys.reset()  # debounce from "all released" (see the module doc)
            self._scanners.append((keys, tuple(idx)))

    def deinit(self):
        """Stop keypad's scanning and free the pins."""
        for keys, _ in self._scanners:
            keys.deinit()
        self._scanners = []

    # -- keypad's events into the state machine --
    def _drain(self):
        ev = self._ev
        settle = self._settle_t
        for keys, idx in self._scanners:
            q = keys.events
            lost = q.overflowed  # what is queued is good; what came after is lost
            while q.get_into(ev):
                b = self.buttons[idx[ev.key_number]]
                t = ev.timestamp
                self._longs(t)
                b.edges += 1
                b.raw = ev.pressed
                if b.raw and not b.down:
                    if b.start and settle is not None and ticks_diff(t, settle) <= 0:
                        b.down = True  # held at start (or across a restart): no event
                        b.down_t = t
                        b.used = True
                    else:
                        self._went_down(b, t)
                elif not b.raw and b.down:
                    self._went_up(b)
            if lost:
                self._restart(keys, idx)
        if settle is not None and ticks_diff(self._clock(), settle) > 0:
            self._settle_t = None  # keypad has settled: its word from now on
            for b in self.buttons:
                b.raw = b.down
                b.start = False

    def _restart(self, keys, idx):
        """keypad lost events: start over from what is held now."""
        keys.events.clear()
        keys.reset()
        for i in idx:
            b = self.buttons[i]
            b.raw = False
            b.start = b.down  # held through the restart: no new event for it
            b.down = False
            b.used = True
        self._settle_t = ticks_add(self._clock(), self.debounce_ms + 2 * self._scan_ms)

    def _longs(self, now):
        for b in self.buttons:
            if b.down and not b.used and ticks_diff(now, b.down_t) >= self.long_ms:
                b.used = True
                self._push(LONG, b.bit)

    def poll(self, now=None):
        """Take in keypad's events; fire LONG for buttons held `long_ms` by `now`."""
        self._drain()
        if now is None:
            now = self._clock()
        self._longs(now)
