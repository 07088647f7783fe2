"""A fake `machine` module backed by the emulated world (see world.py).

Inside the unix MicroPython, whose own `machine` has no I2C, Pin, ADC or lightsleep,
tests put this folder first on MICROPYPATH and `import machine` finds this file. On
CPython tests install it with `sys.modules["machine"] = dicecup_host.emu.machine`.

It follows the ESP32 port's behaviour where the firmware can tell the difference:
* `I2C` methods take their optional arguments positionally only (`stop`), exactly like
  MicroPython's C implementation (a keyword raises TypeError), and a device that does
  not answer raises OSError(ENODEV);
* the chips answer only on the SCL/SDA pins the world wires them to (`world.i2c_pins`);
* `Pin.irq(trigger=Pin.WAKE_HIGH/WAKE_LOW, wake=SLEEP)` arms the EXT0 wake source and
  refuses pins that are not RTC GPIOs on chips that have EXT0 (ESP32, ESP32-S3);
* `lightsleep(ms)` lets emulated time pass until `ms` or a wake source is at its level,
  and records whether the radio was still on (`world.sleeps`).
"""
try:
    from dicecup_host.emu import world as _world
    from dicecup_host.emu import bus as _bus
except ImportError:
    import world as _world
    import bus as _bus

SLEEP = 2
DEEPSLEEP = 4
PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5
EXT0_WAKE = 2
EXT1_WAKE = 3
TIMER_WAKE = 4
PIN_WAKE = 2

_RTC = {
    "esp32": (0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39),
    "esp32s3": tuple(range(22)),
}

_wake = {"reason": 0}


def _w():
    return _world.current()


class Pin:
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_RISING = _world.IRQ_RISING
    IRQ_FALLING = _world.IRQ_FALLING
    WAKE_LOW = _world.WAKE_LOW
    WAKE_HIGH = _world.WAKE_HIGH

    def __init__(self, id, mode=-1, pull=-1, value=None, **kw):
        if not isinstance(id, int) or id < 0 or id > 48:
            raise ValueError("invalid pin")
        self.id = id
        self._line = _w().line(id)
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, **kw):
        ln = self._line
        if mode == Pin.IN:
            ln.mode = "in"
        elif mode == Pin.OUT:
            ln.mode = "out"
        elif mode == Pin.OPEN_DRAIN:
            ln.mode = "od"
        if pull == Pin.PULL_UP:
            ln.pull = "up"
        elif pull == Pin.PULL_DOWN:
            ln.pull = "down"
        elif pull is None:
            ln.pull = None
        if value is not None:
            ln.out = 1 if value else 0
        ln.update()

    def value(self, *v):
        if v:
            self._line.out = 1 if v[0] else 0
            self._line.update()
            return None
        _w().poke()
        return self._line.level()

    def __call__(self, *v):
        return self.value(*v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=3, wake=None, hard=False):
        ln = self._line
        if trigger in (Pin.WAKE_LOW, Pin.WAKE_HIGH) and wake is not None:
            rtc = _RTC.get(_w().chip)
            if rtc is not None and self.id not in rtc:
                raise ValueError("invalid pin for wake")
            ln.wake = (1 if trigger == Pin.WAKE_HIGH else 0, "ext0")
            return None
        ln.handler = handler
        ln.trigger = trigger if handler is not None else 0
        ln.owner = self
        return None

    def __repr__(self):
        return "Pin(%d)" % self.id


class I2C:
    """machine.I2C(id, *, scl, sda, freq=400000, timeout=50000)."""

    def __init__(self, id=0, scl=None, sda=None, freq=400000, timeout=50000):
        w = _w()
        self.scl = scl.id if isinstance(scl, Pin) else scl
        self.sda = sda.id if isinstance(sda, Pin) else sda
        self.freq = freq
        if w.i2c_pins is None or w.i2c_pins == (self.scl, self.sda):
            self._bus = w.bus
        else:  # the firmware opened the bus on pins no chip hangs on
            self._bus = _bus.Bus(w.clock)

    def scan(self):
        _w().poke()
        return self._bus.scan()

    def writeto(self, addr, buf, *stop):
        return self._bus.write(addr, buf, stop[0] if stop else True)

    def writevto(self, addr, vector, *stop):
        data = bytearray()
        for b in vector:
            data.extend(b)
        return self._bus.write(addr, data, stop[0] if stop else True)

    def readfrom_into(self, addr, buf, *stop):
        _w().poke()
        self._bus.read_into(addr, buf, stop[0] if stop else True)

    def readfrom(self, addr, nbytes, *stop):
        buf = bytearray(nbytes)
        self._bus.read_into(addr, buf, stop[0] if stop else True)
        return bytes(buf)

    def readfrom_mem_into(self, addr, memaddr, buf, *addrsize):
        _w().poke()
        self._bus.write(addr, bytes([memaddr]), False)
        self._bus.read_into(addr, buf)

    def readfrom_mem(self, addr, memaddr, nbytes, *addrsize):
        buf = bytearray(nbytes)
        self.readfrom_mem_into(addr, memaddr, buf)
        return bytes(buf)

    def writeto_mem(self, addr, memaddr, buf, *addrsize):
        data = bytearray([memaddr])
        data.extend(buf)
        self._bus.write(addr, data)


SoftI2C = I2C


class ADC:
    ATTN_0DB = 0
    ATTN_2_5DB = 1
    ATTN_6DB = 2
    ATTN_11DB = 3

    def __init__(self, pin, atten=None):
        self.id = pin.id if isinstance(pin, Pin) else pin

    def atten(self, a):
        pass

    def width(self, w):
        pass

    def read_uv(self):
        _w().poke()
        v = _w().analog.get(self.id, 0.0)
        if v > 3.1:
            v = 3.1
        return int(v * 1000000)

    def read_u16(self):
        return int(self.read_uv() * 65535 // 3100000)


def lightsleep(ms=None):
    """Let emulated time pass until `ms` is up or a wake source is at its level."""
    w = _w()
    radio_on = False
    for k in w.radio:
        if w.radio[k]:
            radio_on = True
    limit = ms if ms is not None else 24 * 3600 * 1000
    slept = 0
    reason = TIMER_WAKE
    while slept < limit:
        hit = _wake_source(w)
        if hit:
            reason = hit
            break
        step = 5 if limit - slept > 5 else limit - slept
        w.advance(step)
        slept += step
    else:
        hit = _wake_source(w)
        if hit:
            reason = hit
    _wake["reason"] = reason
    w.sleeps.append((ms, slept, reason, radio_on))


def _wake_source(w):
    ext1 = []
    for num in w.lines:
        ln = w.lines[num]
        if ln.wake is None:
            continue
        level, kind = ln.wake
        if kind == "ext1":
            ext1.append(ln)
        elif ln.level() == level:
            return EXT0_WAKE if kind == "ext0" else PIN_WAKE
    if ext1:
        level = ext1[0].wake[0]
        if level:  # ANY_HIGH
            for ln in ext1:
                if ln.level():
                    return EXT1_WAKE
        else:  # ALL_LOW
            for ln in ext1:
                if ln.level():
                    return 0
            return EXT1_WAKE
    return 0


def deepsleep(ms=None):
    _w().sleeps.append((ms, 0, "deep", False))
    raise SystemExit("deepsleep")


def wake_reason():
    return _wake["reason"]


def reset_cause():
    return PWRON_RESET


def reset():
    raise SystemExit("machine.reset")


def soft_reset():
    raise SystemExit("machine.soft_reset")


def idle():
    pass


def freq(*a):
    return 160000000


def unique_id():
    return b"\x24\x0a\xc4\x00\x00\x01"


def disable_irq():
    return 0


def enable_irq(state=0):
    pass
