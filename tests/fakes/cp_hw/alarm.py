"""Fake of CircuitPython's `alarm` for light sleep on the emulated world:
`alarm.pin.PinAlarm`, `alarm.time.TimeAlarm`, `light_sleep_until_alarms`, `wake_alarm`.

As shared-bindings/alarm documents and the Espressif port behaves:
* `PinAlarm(pin, value, edge=False, pull=False)`: the pin must be free (ValueError
  "GPIOnn in use"); the port wakes on levels only (edge=True: ValueError "Cannot wake
  on pin edge. Only level.") and cannot pull an input-only pin (ValueError).
* `TimeAlarm(monotonic_time=)` (or `epoch_time=`, exactly one): a time already past is
  a ValueError. The fake maps it onto world time when it is made:
  world.now() + (monotonic_time - time.monotonic()) seconds.
* `light_sleep_until_alarms(*alarms)`: with no alarms it returns None at once;
  anything but an alarm is a TypeError. Pin alarms set their pins to inputs (with the
  pull when asked). World time then passes in 5 ms steps (the LIS3DH keeps sampling
  and may raise INT1) until a pin reads its `value` or a time alarm is due; that alarm
  is returned and kept in `alarm.wake_alarm`. Light sleep leaves the radio as it is:
  each sleep is noted in `world.sleeps` as (ms of the time alarm or None, ms slept,
  "pin" or "time", whether Wi-Fi or BLE was still on).
"""
import time as _time

import microcontroller as _mc

try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world

wake_alarm = None
_DAY_MS = 24 * 3600 * 1000


class PinAlarm:
    def __init__(self, pin, value=None, edge=False, pull=False):
        n = _mc.num(pin)
        if value is None:
            raise TypeError("value required")
        if _mc.in_use(pin):
            raise ValueError("%s in use" % _mc.name(pin))
        if edge:
            raise ValueError("Cannot wake on pin edge. Only level.")
        if pull and n in _mc.INPUT_ONLY.get(_mc.chip(), ()):
            raise ValueError("Cannot pull on input-only pin.")
        self.pin = pin
        self.value = bool(value)
        self.edge = False
        self.pull = bool(pull)


class TimeAlarm:
    def __init__(self, *, monotonic_time=None, epoch_time=None):
        if (monotonic_time is None) == (epoch_time is None):
            raise ValueError("Give monotonic_time or epoch_time, not both")
        if monotonic_time is None:
            monotonic_time = _time.monotonic() + (epoch_time - _time.time())
        left = monotonic_time - _time.monotonic()
        if left <= 0:
            raise ValueError("Time is in the past.")
        w = _world.current()
        self.monotonic_time = monotonic_time
        self._ms = int(left * 1000 + 0.5)
        self._due = w.now() + self._ms


class _Namespace:
    pass


pin = _Namespace()
pin.PinAlarm = PinAlarm
time = _Namespace()
time.TimeAlarm = TimeAlarm


def _due(w, alarms):
    for a in alarms:
        if isinstance(a, PinAlarm) and w.line(_mc.num(a.pin)).level() == (1 if a.value else 0):
            return a
    for a in alarms:
        if isinstance(a, TimeAlarm) and w.now() >= a._due:
            return a
    return None


def light_sleep_until_alarms(*alarms):
    global wake_alarm
    if not alarms:
        return None
    for a in alarms:
        if not isinstance(a, (PinAlarm, TimeAlarm)):
            raise TypeError("Expected a kind of Alarm")
    w = _world.current()
    radio_on = False
    for k in w.radio:
        if w.radio[k]:
            radio_on = True
    limit = None
    for a in alarms:
        if isinstance(a, PinAlarm):
            ln = w.line(_mc.num(a.pin))
            ln.mode = "in"
            ln.pull = ("down" if a.value else "up") if a.pull else None
            ln.update()
        elif limit is None or a._ms < limit:
            limit = a._ms
    t0 = w.now()
    hit = _due(w, alarms)
    while hit is None and w.now() - t0 < _DAY_MS:
        w.advance(5)
        hit = _due(w, alarms)
    kind = "pin" if isinstance(hit, PinAlarm) else ("time" if hit is not None else None)
    w.sleeps.append((limit, w.now() - t0, kind, radio_on))
    wake_alarm = hit
    return hit
