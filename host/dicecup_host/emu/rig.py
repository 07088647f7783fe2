"""An emulated cup wired as a board file says: chips on the board's I2C pins, the
LIS3DH's INT1 on its line, the battery divider on its ADC pin.

    import rig
    w, acc, oled = rig.build(board)        # board: dicecup.hw.board.Board
Runs on CPython and inside MicroPython (this folder on MICROPYPATH).
"""
try:
    from dicecup_host.emu import world as _world
    from dicecup_host.emu import lis3dh as _lis3dh
    from dicecup_host.emu import ssd1306 as _ssd1306
except ImportError:
    import world as _world
    import lis3dh as _lis3dh
    import ssd1306 as _ssd1306


def build(board, real_time=False, accel=True, display=True, battery_v=3.9, log=False):
    """A fresh world wired like `board`; returns (world, lis3dh or None, ssd1306 or None).
    The bus keeps no traffic log unless `log` (long runs would fill a capped heap)."""
    w = _world.reset(real_time)
    w.bus.logging = log
    w.chip = board.chip
    w.i2c_pins = (board.scl, board.sda)
    acc = _lis3dh.Lis3dh(w, board.accel_addr, board.int1) if accel else None
    if acc is not None:
        feel_cup(acc, board, 0.0, 0.0, 1.0)  # standing on the table
    oled = _ssd1306.Ssd1306(w, board.display_addr) if display else None
    if board.battery_pin is not None:
        w.set_volts(board.battery_pin, battery_v / board.battery_divider)
    return w, acc, oled


def feel_cup(acc, board, x, y, z):
    """Make the chip feel a cup-frame acceleration, through the board's mounting."""
    sx, sy, sz = _lis3dh.to_sensor((x, y, z), board.mount)
    acc.set_static(sx, sy, sz)


def cup_trace(acc, board, samples, rate_hz):
    """Feed a cup-frame trace (list of (x, y, z) g) through the board's mounting."""
    out = []
    for s in samples:
        out.append(_lis3dh.to_sensor(s, board.mount))
    acc.set_trace(out, rate_hz)


SHAKE_MS = 1200


def shake_at(t0):
    """A hand shaking the cup at 5 Hz for SHAKE_MS from world time `t0`, then the cup
    set down upright: cup-frame g as a function of time (the detector rolls on it)."""
    import math

    def felt(t):
        dt = t - t0
        if dt < 0 or dt >= SHAKE_MS:
            return (0.0, 0.0, 1.0)
        a = 2 * math.pi * 5 * dt / 1000.0
        return (0.9 * math.sin(a), 0.3 * math.sin(a + 1.0), 1.0 + 0.7 * math.cos(a))
    return felt


def move(acc, board, fn):
    """Make the chip feel the cup-frame motion `fn(t_ms)` through the board's mounting."""
    mount = board.mount
    acc.set_function(lambda t: _lis3dh.to_sensor(fn(t), mount))
