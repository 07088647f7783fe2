"""Power on CircuitPython: radio off, light sleep until the cup moves, battery voltage.

The same job as `dicecup.hw.power` (which hands over to these functions on
CircuitPython), with CircuitPython's modules:
* radio off: `wifi.radio.enabled = False` and `_bleio.adapter.enabled = False` --
  `alarm`'s light sleep leaves Wi-Fi and BLE running otherwise;
* sleep: the LIS3DH armed for activity on INT1 (accel.arm_wake, active high, latched),
  then `alarm.light_sleep_until_alarms` with an `alarm.pin.PinAlarm` on the INT1 pin
  (level-triggered, value=True; the Espressif port refuses edge alarms, and pulls on
  the ESP32's input-only pins, so none is asked for: the LIS3DH drives the line). In
  light sleep the Espressif port wakes on any GPIO, so this works on the ESP32-C3 too.
  A `max_ms` limit adds an `alarm.time.TimeAlarm`. Whatever the sleep returns (it has
  been seen to return None for a pin alarm on battery), INT1_SRC says whether the cup
  moved. Boards without INT1: light sleeps of `poll_ms` and a look at INT1_SRC between;
* battery: `analogio.AnalogIn` (0..65535 over `reference_voltage`) through the divider.
While USB is connected CircuitPython keeps the connection up and may not really sleep.
"""

from dicecup.hw.cp import pin



def radio_off():
    """Wi-Fi and BLE off; returns the names of what was on ("wifi", "ble")."""
    was = []
    try:
        import wifi
        if wifi.radio.enabled:
            was.append("wifi")
            wifi.radio.enabled = False
    except ImportError:
        pass
    try:
        import _bleio
        adapter = _bleio.adapter
        if adapter is not None and adapter.enabled:
            was.append("ble")
            adapter.enabled = False
    except (ImportError, AttributeError):
        pass
    return was


def wake_method(board):
    """"pinalarm" where INT1 is wired, else "poll"."""
    return "poll" if board.int1 is None else "pinalarm"


def _timer(ms):
    """A TimeAlarm `ms` from now, or None when time.monotonic()'s float can no longer
    tell (after weeks of uptime the alarm would be "in the past")."""
    import alarm
    import time
    try:
        return alarm.time.TimeAlarm(monotonic_time=time.monotonic() + ms / 1000)
    except ValueError:
        return None


def _nap(ms):
    import alarm
    t = _timer(ms)
    if t is None:
        import time
        time.sleep(ms / 1000)
    else:
        alarm.light_sleep_until_alarms(t)


def sleep_for_motion(accel, board, max_ms, poll_ms):
    """The sleep itself (power.sleep_until_motion does the rest): True if the cup moved."""
    import alarm
    limit = None if max_ms is None else _timer(max_ms)
    if board.int1 is None or (max_ms is not None and limit is None):
        # no INT1 line (or no TimeAlarm to bound the sleep): short naps
        from dicecup.hw.power import naps_until_motion
        return naps_until_motion(accel, _nap, max_ms, poll_ms)
    wake = alarm.pin.PinAlarm(pin(board.int1), value=True)
    if limit is None:
        alarm.light_sleep_until_alarms(wake)
    else:
        alarm.light_sleep_until_alarms(wake, limit)
    return bool(accel.wake_source() & 0x40)


def battery_volts(board):
    """The battery's voltage through the board's divider, or None if not wired."""
    if board.battery_pin is None:
        return None
    import analogio
    adc = analogio.AnalogIn(pin(board.battery_pin))
    try:
        total = 0
        for _ in range(8):
            total += adc.value
        ref = adc.reference_voltage
    finally:
        adc.deinit()
    return total / 8 / 65535 * ref * board.battery_divider
