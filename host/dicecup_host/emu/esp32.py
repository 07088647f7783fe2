"""A fake `esp32` module: the sleep wake sources, backed by the emulated world.

`wake_on_ext0(pin, level)` and `wake_on_ext1(pins, level)` behave as on the ESP32 port
(RTC GPIOs only; EXT0 and EXT1 absent on the ESP32-C3); `wake_on_gpio(pins, level)` is
the light-sleep GPIO wake some newer ports offer. `world.chip` picks the behaviour.
"""
try:
    from dicecup_host.emu import world as _world
    from dicecup_host.emu import machine as _machine
except ImportError:
    import world as _world
    import machine as _machine

WAKEUP_ALL_LOW = False
WAKEUP_ANY_HIGH = True


def _check(pin):
    w = _world.current()
    if w.chip == "esp32c3":
        raise ValueError("no EXT0/EXT1 wake on esp32c3")
    rtc = _machine._RTC.get(w.chip, ())
    if pin.id not in rtc:
        raise ValueError("invalid pin")
    return w


def wake_on_ext0(pin=None, level=False):
    w = _world.current()
    for num in w.lines:
        if w.lines[num].wake and w.lines[num].wake[1] == "ext0":
            w.lines[num].wake = None
    if pin is None:
        return
    _check(pin)
    w.line(pin.id).wake = (1 if level else 0, "ext0")


def _arm(pins, level, kind, check):
    w = _world.current()
    if pins is None:  # None keeps what was set
        return
    for num in w.lines:
        if w.lines[num].wake and w.lines[num].wake[1] == kind:
            w.lines[num].wake = None
    for p in pins:
        if check:
            _check(p)
        w.line(p.id).wake = (1 if level else 0, kind)


def wake_on_ext1(pins=None, level=False):
    _arm(pins, level, "ext1", True)


def wake_on_gpio(pins=None, level=False):
    _arm(pins, level, "gpio", False)
