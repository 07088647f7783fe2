"""The app's asyncio tasks, one concern each: `getattr(app_tasks, name)(app)`, for a name
`names(app)` gives (those the cup has work for), is a coroutine that runs while
`app.running`. One that raises calls `App.restart` (an `internal` event; a new task in
its place): no wrapper coroutine per task.
Every wait goes through `app.sleep(ms)` or the transport's `wait(ms)`, and every time
through `app.clock()`, so the host runs them on a simulated clock.
"""
from micropython import const

_FRAME_MS = const(50)       # the screen looks this often without input (its timeouts)
_BATTERY_MS = const(30000)  # battery sampling (the radio task)
_ACTIVE_MG = const(80)      # a sample this far from the previous one is the cup moving

_BUSY_MS = const(5)    # buttons: poll this often while one is down or bouncing
_IDLE_BTN_MS = const(20)   # ...and this often without a ThreadSafeFlag (CPython)
PUSH_GAP_MS = const(20)    # the screen: at most one push this often (see screen())
_HEAL_MS = const(1000)     # ...and one page re-sent this often when nothing changed
_SERIAL_MS = const(250)    # serial: the host's requests looked at this often


async def radio(app):
    """Frames in, the protocol's step, frames out -- as soon as a frame lands or the
    cup's next deadline comes; idle, at most every IDLE_POLL_MS (none without a table).
    Awake it runs at least every few ms, idle every WAKE_POLL_MS or IDLE_POLL_MS, so it is
    also the app's slow clock: a nudge to the screen every _FRAME_MS (the screen has
    nothing to do while idle) and the battery every _BATTERY_MS (a step, as `App.pump`:
    one task less)."""
    try:
        t = app.t
        cup = app.cup
        b = app.hw.board if app.hw is not None else None
        if b is not None and b.battery_pin is None:
            b = None
        ticked = app.clock()
        sampled = ticked - _BATTERY_MS
        while app.running:
            now = app.clock()
            if b is not None and now - sampled >= _BATTERY_MS:
                sampled = now
                battery(app, b)
            if app.idle_due(now):
                app.go_idle()
            wait = app.radio_wait(now)
            if app.idle:
                await app.sleep(wait)      # frames wait in the radio's ring meanwhile
                if cup.table is None and cup.joining is None:
                    continue               # nothing at stake: the radio is not looked at
            else:
                await t.wait(wait)
                if now - ticked >= _FRAME_MS:
                    ticked = now
                    app.nudge()
            app.pump()
    except Exception as e:  # noqa: BLE001 - CancelledError is a BaseException
        await app.restart("radio", e)


def battery(app, b):
    """The battery's charge (the radio task, every _BATTERY_MS); the UI hears of changes.
    Never raises: a reading that fails is an `internal` event ("battery")."""
    try:
        from .hw.power import battery_percent, battery_volts
        v = battery_volts(b)
        if v is not None:
            pct = battery_percent(b, v)
            if pct != app.battery_pct:
                app.battery_pct = pct
                app.push_status()
    except Exception as e:  # noqa: BLE001 - the radio loop never dies
        app.internal("battery", e)


async def buttons(app):
    """hw/buttons.py events -> the UI's requests. Idle buttons cost nothing: the task
    waits on the pins' ThreadSafeFlag where asyncio has one."""
    b = app.hw.buttons
    try:
        flag = b.edge_flag() if hasattr(b, "edge_flag") else None
        while app.running:
            b.poll()
            ev = b.get()
            while ev is not None:
                app.on_buttons(ev[0], ev[1])
                ev = b.get()
            if b.busy():
                await app.sleep(_BUSY_MS)
            elif flag is not None:
                await flag.wait()
            else:
                await app.sleep(_IDLE_BTN_MS)
    except Exception as e:  # noqa: BLE001
        await app.restart("buttons", e)


async def motion(app):
    """The accelerometer at the board's rate into the shake detector; a roll the cup
    waits for becomes cup.shake. Idle: the chip's own activity latch, read every
    WAKE_POLL_MS, wakes the cup."""
    hw = app.hw
    acc = hw.accel
    try:
        from .hw.motion import ShakeDetector
        from .shaking import ShakeToRoll
        rate = hw.board.rate_hz
        period = 1000 // rate
        roller = ShakeToRoll(app.cup, ShakeDetector(rate_hz=rate))
        px = py = pz = None
        nxt = app.clock()
        while app.running:
            if app.idle:
                await _watch(app, acc, roller.detector)
                px = None
                nxt = app.clock()
                continue
            x, y, z = acc.read()
            x = round(x * 1000)
            y = round(y * 1000)
            z = round(z * 1000)
            if px is not None and (abs(x - px) > _ACTIVE_MG or abs(y - py) > _ACTIVE_MG
                                   or abs(z - pz) > _ACTIVE_MG):
                app.activity()
            px = x
            py = y
            pz = z
            if roller.feed_mg(x, y, z):
                app.rolls += 1
                app.changed = True
                app.due = app.clock()   # the roll goes on air now (a step at once)
            nxt += period
            wait = nxt - app.clock()
            if wait < 0:       # late: the chip keeps only its latest sample, no catching up
                nxt -= wait
                wait = 0
            await app.sleep(wait)
    except Exception as e:  # noqa: BLE001
        await app.restart("motion", e)


async def _watch(app, acc, detector):
    from .app import WAKE_POLL_MS
    acc.arm_wake()
    try:
        while app.idle and app.running:
            await app.sleep(WAKE_POLL_MS)
            if acc.wake_source() & 0x40:
                app.activity()     # wakes the app
    finally:
        acc.disarm_wake()
        detector.reset()           # its filters saw nothing meanwhile


async def screen(app):
    """Draw when the UI says something changed, as soon as the app hands the UI input
    (a button, an event, a view: App.nudge sets `app.screen_due`) and at least every
    _FRAME_MS for the UI's own timeouts (the radio task's nudge); each frame pushes only
    the changed pages (hw/display.py push). Nothing while idle (display off).

    A press after a quiet moment shows at once. Pushes are at least PUSH_GAP_MS apart,
    so a burst of changes (a peer's events a few ms apart; a commit's event, view and
    lobby come in one radio step and make one frame anyway) costs one push per 20 ms,
    and the radio gets the loop for at least 20 ms between two I2C writes (a press's
    changed pages are 1-5 ms of wire, a whole new screen up to 23.5 ms). No hand
    presses twice within 20 ms (the buttons' debounce is as long). In quiet times one
    page is re-sent every _HEAL_MS (the whole screen in 8 s), so a page a hash
    collision left stale heals."""
    d = app.hw.display
    import asyncio
    due = asyncio.Event()
    app.screen_due = due
    buf = d.buffer()
    last = app.clock() - PUSH_GAP_MS
    healed = last
    try:
        while app.running:
            due.clear()
            if not app.idle:
                now = app.clock()
                if app._ui("tick", now) or app.redraw:
                    wait = last + PUSH_GAP_MS - now
                    if wait > 0:
                        await app.sleep(wait)
                    if not app.idle:
                        app.redraw = False
                        app._ui("draw", buf)
                        d.push()
                        app.frames += 1
                        last = app.clock()
                elif now - healed >= _HEAL_MS:
                    healed = now
                    d.heal()
            await due.wait()
    except Exception as e:  # noqa: BLE001 - (a new task sets its own screen_due)
        await app.restart("screen", e)


async def serial(app):
    """Lines the host writes to the cup's serial port (`dicecup log` asking for what it
    missed, seriallog.py), looked at every _SERIAL_MS."""
    try:
        while app.running:
            line = app.inp()
            while line is not None:
                app.log.heard(line)
                line = app.inp()
            await app.sleep(_SERIAL_MS)
    except Exception as e:  # noqa: BLE001
        await app.restart("serial", e)


def names(app):
    """The tasks this cup has work for: the radio always, the others with their part (no
    task waits for hardware the board lacks, nor for a serial line)."""
    hw = app.hw
    has = (True, hw is not None and hw.buttons is not None, hw is not None and hw.accel is not None,
           hw is not None and hw.display is not None, app.inp is not None and app.log is not None)
    every = ("radio", "buttons", "motion", "screen", "serial")
    return [every[i] for i in range(5) if has[i]]
