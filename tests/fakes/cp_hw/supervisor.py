"""Fake of CircuitPython's `supervisor.ticks_ms()`: the emulated world's milliseconds,
wrapping at 2**29 like the real one (a world's `cp.ticks_offset` moves the wrap near,
for tests). keypad's event timestamps come from here too."""
import microcontroller as _mc

try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world

_MASK = 0x1FFFFFFF


def ticks_ms():
    w = _world.current()
    return (int(w.now()) + _mc._state(w).ticks_offset) & _MASK


def ticks_at(t_ms):
    """ticks_ms() as it read at world time `t_ms` (for the other fakes)."""
    w = _world.current()
    return (int(t_ms) + _mc._state(w).ticks_offset) & _MASK
