"""MicroPython's asyncio on the emulated world's clock (runs inside MicroPython only).

    import vtime
    vtime.install(world)       # asyncio.sleep_ms and every timer now follow world.now()

asyncio (extmod/asyncio/core.py) reads the time through its module global `ticks` and
waits in `_io_queue.wait_io_event(dt)`. `install` points the first at the world's
manual clock and makes the second let `dt` ms of emulated time pass (the chips sample,
the scripted outside acts) before it polls without blocking -- so ThreadSafeFlags and
streams still work, and a minute of play takes as long as the code takes to run.
The emulated clock starts at the real ticks_ms (see install); tests take their times
relative to `world.now()` at install. Emulated time only moves while every task waits: code that loops without awaiting
sees the clock stand still (as a real cup would see time pass, so do not rely on it).
"""
try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world

_state = {"world": None, "orig": None}
LEAD_MS = 600000   # ten minutes: far more than real time can gain on a test's emulated run


def io_ready(q):
    """Whether anything registered with asyncio's IO queue `q` may be ready. The real
    poll sleeps 1 ms whenever an object without a file descriptor (a ThreadSafeFlag: the
    buttons' edge flag) is registered, even for a 0 ms timeout; a flag says itself
    whether it is set, so it is asked first."""
    for sm in q.map.values():
        try:
            if sm[2].ioctl(3, 5):     # MP_STREAM_POLL, POLLIN | POLLOUT
                return True
        except AttributeError:
            return True               # a real stream: let the real poll look
    return False


def install(w=None):
    from asyncio import core
    import time
    w = w or _world.current()
    _state["world"] = w
    # The C task queue stamps a task pushed without a time (create_task, an event set)
    # with the real ticks_ms: start the emulated clock LEAD_MS ahead of it, so such a
    # task is always due at once -- also on a loaded machine, where the code may run
    # slower than emulated time passes (starting level with real time, a task made then
    # waited for real time to catch up: a flaky test under CI load).
    w.clock.t = time.ticks_add(time.ticks_ms(), LEAD_MS)
    w.sync()
    core.ticks = w.now
    q = core._io_queue
    orig = type(q).wait_io_event

    def wait_io_event(dt):
        if dt < 0:
            dt = 10   # only streams could wake us: look again in a moment
        if dt > 0:
            w.advance(dt)
        if q.map and io_ready(q):
            orig(q, 0)

    q.wait_io_event = wait_io_event
    return w
