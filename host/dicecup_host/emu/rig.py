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
