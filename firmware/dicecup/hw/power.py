"""Power: radio off, light sleep until the cup moves, battery voltage.

A cup lying still between games sleeps: Wi-Fi/ESP-NOW and BLE off first (MicroPython's
ESP32 notes: turn Wi-Fi off before light or deep sleep), display off, the LIS3DH armed
for activity on INT1 at a low data rate (see accel.arm_wake), then `machine.lightsleep`.
How the cup wakes depends on the board:
* "ext0": INT1 wired to an RTC GPIO of an ESP32/ESP32-S3 -- the EXT0 wake source
  watches the line; the chip sleeps until the LIS3DH raises it;
* "poll": no INT1 line, or a chip without EXT0 (ESP32-C3) -- short light sleeps of
  `poll_ms`, and after each a look at INT1_SRC over I2C (the interrupt is latched in
  the LIS3DH, so no motion is missed; the CPU wakes 4 times a second for ~1 ms).
On CircuitPython every function here hands over to `dicecup.hw.cppower` (wifi/_bleio
off, alarm.pin.PinAlarm on INT1 with alarm.light_sleep_until_alarms, analogio).
"""
from micropython import const

from dicecup.hw import circuitpython

_POLL_MS = const(250)


def radio_off():
    """Turn Wi-Fi (station and access point) and BLE off. Returns the names of what
    was on. Safe where there is no radio (the host)."""
    if circuitpython():
        from dicecup.hw import cppower
        return cppower.radio_off()
    was = []
    try:
        import network
        for name, iface in (("sta", network.STA_IF), ("ap", network.AP_IF)):
            w = network.WLAN(iface)
            if w.active():
                was.append(name)
                w.active(False)
    except ImportError:
        pass
    try:
        import bluetooth
        ble = bluetooth.BLE()
        if ble.active():
            was.append("ble")
            ble.active(False)
    except (ImportError, OSError, AttributeError):
        pass
    return was


def wake_method(board):
    """"ext0" or "poll" for this board (see the module doc); "pinalarm" or "poll" on
    CircuitPython (dicecup.hw.cppower)."""
    if circuitpython():
        from dicecup.hw import cppower
        return cppower.wake_method(board)
    if board.int1 is None or board.chip == "esp32c3" or board.int1 not in board.rtc_pins:
        return "poll"
    return "ext0"


def _arm_ext0(pin_num):
    import machine
    pin = machine.Pin(pin_num, machine.Pin.IN)
    try:
        import esp32
        esp32.wake_on_ext0(pin, esp32.WAKEUP_ANY_HIGH)
        return True
    except (ImportError, ValueError, AttributeError):
        pass
    try:  # ports that take the wake source through Pin.irq (EXT0 underneath)
        pin.irq(trigger=machine.Pin.WAKE_HIGH, wake=machine.SLEEP)
        return True
    except (ValueError, TypeError, AttributeError):
        return False


def sleep_until_motion(accel, board, display=None, max_ms=None, threshold_g=0.15,
                       poll_ms=_POLL_MS):
    """Light-sleep until the cup moves or `max_ms` passes (None: no limit).
    Returns "motion" or "timeout". The frame (radio and screen off, the LIS3DH armed,
    everything back on) is the same everywhere; how to sleep is the platform's."""
    radio_off()
    if display is not None:
        display.power(False)
    accel.arm_wake(threshold_g)
    if circuitpython():
        from dicecup.hw import cppower
        moved = cppower.sleep_for_motion(accel, board, max_ms, poll_ms)
    else:
        moved = _sleep_for_motion(accel, board, max_ms, poll_ms)
    accel.disarm_wake()
    if display is not None:
        display.power(True)
    return "motion" if moved else "timeout"


def naps_until_motion(accel, nap, max_ms, poll_ms):
    """No INT1 line to wake on: short naps, a look at INT1_SRC between. True if moved."""
    slept = 0
    while max_ms is None or slept < max_ms:
        nap(poll_ms)
        slept += poll_ms
        if accel.wake_source() & 0x40:
            return True
    return False


def _sleep_for_motion(accel, board, max_ms, poll_ms):
    import machine
    method = wake_method(board)
    if method == "ext0" and not _arm_ext0(board.int1):
        method = "poll"
    if method != "ext0":
        return naps_until_motion(accel, machine.lightsleep, max_ms, poll_ms)
    if max_ms is None:
        machine.lightsleep()
    else:
        machine.lightsleep(max_ms)
    moved = bool(accel.wake_source() & 0x40)
    try:                                   # EXT0 disarmed
        import esp32
        esp32.wake_on_ext0(None)
    except (ImportError, ValueError, AttributeError, TypeError):
        pass
    return moved


def battery_volts(board):
    """The battery's voltage through the board's divider, or None if not wired."""
    if board.battery_pin is None:
        return None
    if circuitpython():
        from dicecup.hw import cppower
        return cppower.battery_volts(board)
    import machine
    adc = machine.ADC(machine.Pin(board.battery_pin))
    try:
        adc.atten(machine.ADC.ATTN_11DB)
    except AttributeError:
        pass
    total = 0
    for _ in range(8):
        total += adc.read_uv()
    return total / 8 / 1000000 * board.battery_divider


def battery_percent(board, volts):
    """A rough state of charge (linear between empty_v and full_v), 0..100."""
    p = int((volts - board.empty_v) * 100 / (board.full_v - board.empty_v))
    return 0 if p < 0 else (100 if p > 100 else p)
