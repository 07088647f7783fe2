"""The cup in play: hardware, buttons, motion, the table protocol, the engine and the
screen, as a few asyncio tasks around one `Cup` (net/cup.py).

    app = App(hw, cup, ui, transport, clock, sleep, store, out, inp)   # clock() -> ms, never wrapping
    app.start()          # the tasks, in a running asyncio loop (appboot.boot on a cup)
    ...
    app.stop()

`firmware/main.py` calls `appboot.boot()`: safe mode first (hw/safemode.py: the safe
button held at power-on runs the self-test, the game never starts and the REPL stays
free), then this app. Time comes only from `clock` and `sleep(ms)` (an awaitable,
default asyncio.sleep_ms), so the host runs the same app on a simulated clock.

Tasks (app_tasks.py), each restarted when it raises (an `internal` event, so the serial
log shows it); the radio's steps themselves never raise (`App.pump`, the battery):
    radio    waits on the transport until the cup's next due time or a frame, then
             net/pump.py's step; slower when idle (below); also the battery every
             app_tasks._BATTERY_MS -> ui.status, and the screen's nudge every _FRAME_MS
    buttons  hw/buttons.py events -> ui.on_buttons -> requests, executed here
    motion   the accelerometer at the board's rate -> ShakeToRoll -> cup.shake (a
             pick-up, a walk, a bump never rolls: hw/motion.py's contract)
    screen   ui.tick -> ui.draw(buf) -> one push of the changed pages per frame: at
             once when the UI is handed input (App.nudge), else every app_tasks._FRAME_MS
    serial   the host's lines on the serial port (seriallog.py), when there is one

THE UI SEAM. The app talks to the screens through one object, `ui`, with these methods
(appboot.make_app gives the real one, ui/ui.py's Ui; a test may pass its own):

    ui.on_event(ev)      every event the cup emits (dicecup/events.py Event), private
                         ones (my dice, my commitment) included; also the app's own
                         `rejected` events for refused requests (below)
    ui.on_view(view)     the seat's View (engine/view.py) after anything changed, or
                         None while this cup has no seat at a game
    ui.on_lobby(lobby)   a Lobby (below) whenever the table's make-up changed: role,
                         tables heard, join code, members, rules, phase
    ui.on_buttons(kind, mask) -> list of requests (or None)
                         one hw/buttons.py event: kind PRESS / LONG / BOTH (1, 2, 3),
                         mask a bit per button in the board file's order (the UI got
                         the names when it was made: Ui(board.button_names()))
    ui.status(link=, quorum=, battery_pct=, low_battery=)
                         whenever one changes: link (bool, the radio hears the table;
                         True with no table), quorum (bool, the table can decide),
                         battery_pct (0..100, None if not wired), low_battery (bool)
    ui.on_setting(name, value)   a setting kept in flash: at boot and when changed
                         (today: "lang")
    ui.tick(now_ms) -> bool      True when the screen must be redrawn (the UI keeps its
                         own dirtiness, animations and timeouts); asked after every
                         call above and at least every _FRAME_MS (app_tasks)
    ui.draw(buf)         draw the whole screen into buf: the display's 1024-byte
                         MONO_VLSB framebuffer (byte (y // 8) * 128 + x, bit y % 8);
                         the app pushes the pages that changed

Requests (tuples in the list on_buttons returns):
    ("act", action)  or ("act", action, then)   my move (engine action int; `then` a
                     Bluff reroll sent with the bid) -> cup.act
    ("peek", on)     the player looks at their dice (the player is at the cup: no bot
                     takes over); the UI draws the dice itself
    ("create", rules, options)   become master of a new table (options: a dict of
                     RULES.md names, or engine option bits); the app draws the table id
                     and the 4-digit join code, which the next Lobby carries
    ("join", code) or ("join", code, tid)   join a table heard (the only/first one, or
                     table id tid) with its code
    ("start",)       master: start the game (again, after one ended)
    ("rules", rules, options)    master, in the lobby: change rule set / options ("hints":
                     True in the dict sets the table's HINTS bit, never an engine option)
    ("bot", name[, level])  master, in the lobby: a bot (easy, or a players.KINDS level) takes a seat
    ("drop_bot", mid)   master, in the lobby: the bot member `mid` leaves its seat
    ("leave",)       leave the table (in a game a bot plays the seat)
    ("lang", code)   keep the language in flash (ui.on_setting tells the UI)
    ("sleep",)       go idle now (screen off)
A request that cannot be done now gives a local `rejected` event with action -1 and
the code "<request>:<why>" (why: no-table, not-master, not-seated, game-on, refused,
unknown), on serial and to ui.on_event.

IDLE. With no game on (no table, or its game not started or over) and nobody acting --
no button, no motion, no table event -- for IDLE_MS (2 minutes: long enough to read a
result and talk, short enough to save the OLED), the cup goes idle: display off, the
accelerometer in its low-rate activity-wake mode (hw/accel.py arm_wake, looked at every
WAKE_POLL_MS), and the radio polled at most every IDLE_POLL_MS (500 ms: well inside the
protocol's 3 s and 4 s failure timeouts) while the cup belongs to a table, not at all
while it belongs to none. Motion, a button (that press only wakes) or a table event
wakes it. A game in play never idles: the table needs every cup's acks.
"""
from micropython import const

from .engine import RULES
from .events import LOCAL
from .net import table

IDLE_MS = 120000             # no game and nobody acting this long: idle
IDLE_POLL_MS = const(500)    # idle: the radio is polled at most this often
WAKE_POLL_MS = const(200)    # idle: how often the accelerometer's wake latch is read
_RADIO_MS = const(10)        # the longest the radio waits while awake (as net/link.py)
_LOBBY_MS = const(500)       # tables heard are looked at this often
_RESTART_MS = const(200)     # a task that raised starts again after this
_LOW_PCT = const(10)         # the battery is low below this (ui.status low_battery)


class Lobby:
    """What the lobby screens show, made afresh whenever it changed (rare).

    role     "alone" (no table), "joining", "member" or "master"
    tables   tables heard: [(tid, master name, rules code 1.., members, playing)]
    tid      this cup's table id (None alone); code: the join code (master only)
    members  names in member order; bots, gone: a bool per member (a bot; left); me: my member id
    rules    the rule set's name; phase: "lobby", "playing", "done" (None alone)
    options  the table's options: [(RULES.md name, value), ...] ([] alone), then
             ("hints", True) when the table shows hints (net/table.py HINTS)
    seat     my seat in the game (-1: none)
    """

    def __init__(self, cup):
        from .net import table as tbl
        t = cup.table
        if cup.is_master():
            self.role = "master"
        elif t is not None:
            self.role = "member"
        elif cup.joining is not None:
            self.role = "joining"
        else:
            self.role = "alone"
        self.tables = cup.tables()
        self.tid = cup.keys.tid if t is not None or self.role == "joining" else None
        self.code = cup.keys.code if self.role == "master" else None
        self.members = [m.name for m in t.members] if t is not None else []
        self.bots = [bool(m.flags & tbl.BOT) for m in t.members] if t is not None else []
        self.gone = [bool(m.flags & tbl.LEFT) for m in t.members] if t is not None else []
        self.me = cup.me
        self.rules = t.rules if t is not None else None
        self.options = t.table_options() if t is not None and t.rules is not None else []
        self.phase = ("lobby", "playing", "done")[t.phase] if t is not None else None
        self.seat = cup.seat()

    def key(self):
        """What, if it changes, makes a new Lobby worth sending."""
        tids = [x[0] for x in self.tables]
        return (self.role, self.tid, len(self.members), self.rules, self.phase, self.seat,
                tuple(tids), tuple(self.bots), tuple(self.gone), tuple(self.options))


def options_bits(rules, options):
    """Engine option bits from a dict of RULES.md names (ints pass through)."""
    if options is None:
        return 0
    if isinstance(options, int):
        return options
    from .engine import option_bits     # (no rule set loaded: the table is still a lobby)
    hints = table.HINTS if options.get("hints") else 0    # the table's, not the engine's
    options = dict([(k, v) for k, v in options.items() if k != "hints"])
    return option_bits(rules, options) | hints


class App:
    """The cup in play; see the module docstring. `sleep(ms)`: the one awaitable sleep."""

    def __init__(self, hw, cup, ui, transport, clock, sleep, store, out, inp):
        self.hw = hw
        self.cup = cup
        self.ui = ui
        self.t = transport
        self.clock = clock
        if sleep is None:
            from .hw.clock import asleep_ms as sleep
        self.sleep = sleep
        self.store = store
        self.inp = inp                 # serial read: () -> a line the host wrote, or None
        self.log = None                # the serial log (seriallog.py), when `out` is given
        self.running = False
        self.tasks = []
        self.restarts = {}             # task name -> times it was restarted
        self.due = 0                   # when the cup next wants a radio step
        self.changed = True            # an event since the last view/lobby push
        self.redraw = True             # the screen must be drawn whatever the UI says
        self.screen_due = None         # the screen task's asyncio.Event (nudge sets it)
        self.idle = False
        self.active_at = clock()       # the last activity (button, motion, table event)
        self.link = True
        self.quorum = True
        self.battery_pct = None        # the battery's charge (app_tasks.battery); None: not wired
        self.rolls = 0                 # shakes that rolled
        self.frames = 0                # screens pushed
        self.steps = 0                 # protocol steps (radio)
        self.idles = 0                 # times the cup went idle
        self._lobby = None             # the Lobby the UI was last handed
        self._in_ui = False
        self._master = None
        self._lobby_at = 0
        if out is not None:
            from .seriallog import SerialLog
            self.log = SerialLog(out, cup)
            cup.listen(self.log)
            self.log.hello()
        cup.listen(self._on_event, private=True)
        if store is not None:
            lang = store.get("lang")
            if lang:
                self._ui("on_setting", "lang", lang.decode())

    # ----- events in, pushed to the UI ----------------------------------------------------
    def _on_event(self, ev):
        k = ev.kind
        if k == "link":
            self.link = bool(ev.values[0])
            self.push_status()
        elif k == "quorum":
            self.quorum = bool(ev.values[0])
            self.push_status()
        if ev.scope != LOCAL or k in ("shake", "remind", "rejected"):
            self.activity()
        self.changed = True
        self._ui("on_event", ev)

    def _ui(self, name, *args, **kw):
        """Call the UI. A UI that raises is logged (an `internal` event the UI itself
        is not handed, so a broken UI cannot loop) and the app goes on."""
        if self._in_ui:
            return None
        self._in_ui = True
        if name != "tick" and name != "draw":
            self.nudge()
        try:
            return getattr(self.ui, name)(*args, **kw)
        except Exception as e:  # noqa: BLE001 - the screens must not stop the cup
            self.internal("ui." + name, e)
            return None
        finally:
            self._in_ui = False

    def nudge(self):
        """The UI hears something: the screen task looks now, not at its next frame."""
        if self.screen_due is not None:
            self.screen_due.set()

    def push(self, now):
        """After events: the view and, when it changed, the lobby. The lobby is also
        looked at every _LOBBY_MS (tables heard come and go without events)."""
        if not self.changed:
            if now - self._lobby_at < _LOBBY_MS:
                return
            self._lobby_at = now
            self.push_lobby(False)
            return
        self.changed = False
        self._ui("on_view", self.cup.view())
        self.push_lobby(False)

    def push_lobby(self, force):
        lobby = Lobby(self.cup)
        if force or self._lobby is None or lobby.key() != self._lobby.key():
            self._lobby = lobby      # (the UI keeps it too: one object, not a key beside it)
            self._ui("on_lobby", lobby)

    def push_status(self):
        pct = self.battery_pct
        self._ui("status", link=self.link, quorum=self.quorum, battery_pct=pct,
                 low_battery=pct is not None and pct < _LOW_PCT)

    # ----- errors -------------------------------------------------------------------------
    def internal(self, where, e):
        """A bug caught on the cup: an `internal` event (serial shows it), and on."""
        if isinstance(e, MemoryError):
            import gc
            gc.collect()
        try:
            self.cup.count("internal")
            from .errtext import describe
            self.cup.emit_local("internal", (where, describe(e)))
        except Exception:  # noqa: BLE001 - not even the log: still go on
            pass

    # ----- the radio step -----------------------------------------------------------------
    def pump(self):
        """One protocol step (frames in, tick, frames out), then the UI hears of what
        changed. Never raises."""
        from .net.pump import pump
        now = self.clock()
        self.steps += 1
        try:
            self.due = pump(self.cup, self.t, now)
            master = self.cup.is_master()
            if master != self._master and hasattr(self.t, "set_hub"):
                self.t.set_hub(master)   # BLE: the master is the hub of the star
            self._master = master
        except Exception as e:  # noqa: BLE001 - the radio loop never dies
            self.due = now + _RADIO_MS
            self.internal("radio", e)
        try:
            self.push(now)
        except Exception as e:  # noqa: BLE001
            self.internal("push", e)

    # ----- requests from the UI -----------------------------------------------------------
    def on_buttons(self, kind, mask):
        if self.idle:
            self.activity()
            return   # the press that wakes the screen only wakes it
        self.activity()
        reqs = self._ui("on_buttons", kind, mask)
        if reqs:
            for r in reqs:
                self.request(r)

    def request(self, req):
        """Carry out one request (see the module docstring); never raises."""
        from .engine import IllegalAction
        what = req[0] if req else "?"
        self.cup.now = self.clock()
        try:
            why = self._request(what, req)
        except IllegalAction as e:
            why = e.code
        except ValueError:
            why = "refused"
        except Exception as e:  # noqa: BLE001
            self.internal("request " + str(what), e)
            why = None
        if why:
            self.cup.emit_local("rejected", (-1, "%s:%s" % (what, why)))
        self.changed = True
        self.due = self.clock()       # what it queued goes on air now (a step at once)

    def _request(self, what, req):
        cup = self.cup
        t = cup.table
        playing = self.game_on()
        if what == "act":
            if cup.seat() < 0 or t.game is None:
                return "not-seated"
            cup.act(req[1], req[2] if len(req) > 2 else None)
        elif what == "peek":
            cup.touch()
        elif what == "create":
            if playing:
                return "game-on"
            rules = req[1]
            if rules not in RULES:
                return "refused"
            rb = cup.random_bytes
            tid = 0
            while tid == 0:
                b = rb(2)
                tid = b[0] << 8 | b[1]
            b = rb(2)
            code = "%04d" % ((b[0] << 8 | b[1]) % 10000)
            cup.create(tid, code, rules, options_bits(rules, req[2] if len(req) > 2 else None))
        elif what == "join":
            if playing:
                return "game-on"
            heard = cup.tables()
            tid = req[2] if len(req) > 2 else (heard[0][0] if heard else None)
            if tid is None or tid not in cup.heard:
                return "no-table"
            cup.join(tid, req[1])
        elif what in ("start", "rules", "bot", "drop_bot"):
            if not cup.is_master():
                return "not-master"
            if playing:
                return "game-on"
            if what == "start":
                cup.start()
            elif what == "rules":
                cup.set_rules(req[1], options_bits(req[1], req[2] if len(req) > 2 else None))
            elif what == "drop_bot":
                cup.drop_bot(req[1])
            else:
                cup.add_bot(req[1] if len(req) > 1 else "bot%d" % len(t.members),
                            req[2] if len(req) > 2 else "easy")
        elif what == "leave":
            if t is None:
                return "no-table"
            cup.leave()
        elif what == "lang":
            if self.store is not None:
                self.store.put("lang", req[1].encode())
            self._ui("on_setting", "lang", req[1])
        elif what == "sleep":
            self.go_idle()
        else:
            return "unknown"
        return None

    # ----- idle ---------------------------------------------------------------------------
    def game_on(self):
        t = self.cup.table
        return t is not None and t.game is not None and t.phase == table.PLAYING

    def activity(self):
        self.active_at = self.clock()
        if self.idle:
            self.wake()

    def idle_due(self, now):
        """True when the cup should go idle now."""
        if self.idle or self.game_on():
            return False
        return now - self.active_at >= IDLE_MS

    def go_idle(self):
        if self.idle or self.game_on():
            return
        self.idle = True
        self.idles += 1
        d = self.hw.display if self.hw is not None else None
        if d is not None:
            try:
                d.power(False)
            except Exception as e:  # noqa: BLE001
                self.internal("display off", e)

    def wake(self):
        if not self.idle:
            return
        self.idle = False
        self.active_at = self.clock()
        d = self.hw.display if self.hw is not None else None
        if d is not None:
            try:
                d.power(True)
            except Exception as e:  # noqa: BLE001
                self.internal("display on", e)
        self.redraw = True
        self.nudge()
        self.due = self.clock()       # a step at once

    def radio_wait(self, now):
        """How long the radio task may wait now (ms)."""
        if self.idle:
            if self.cup.table is None and self.cup.joining is None:
                return WAKE_POLL_MS   # no table: no step is needed; look again later
            wait = self.due - now
            return IDLE_POLL_MS if wait < IDLE_POLL_MS else wait
        wait = self.due - now
        if wait > _RADIO_MS:
            return _RADIO_MS
        return 1 if wait < 1 else wait

    # ----- running ------------------------------------------------------------------------
    async def restart(self, name, e):
        """Task `name` raised `e` (app_tasks catches it): an `internal` event, and after
        _RESTART_MS a new task in its place; the one calling this ends."""
        self.restarts[name] = self.restarts.get(name, 0) + 1
        self.internal("task " + name, e)
        await self.sleep(_RESTART_MS)
        import asyncio
        from . import app_tasks
        self.tasks.remove(asyncio.current_task())   # (this one ends: `tasks` lets it go)
        if self.running:
            self.tasks.append(asyncio.create_task(getattr(app_tasks, name)(self)))

    def start(self):
        """Create the tasks (those app_tasks.names says this cup has work for: stop() cancels
        them); returns them."""
        import asyncio
        from . import app_tasks
        self.running = True
        self.push_status()
        self.push_lobby(True)
        self.changed = True
        for name in app_tasks.names(self):
            self.tasks.append(asyncio.create_task(getattr(app_tasks, name)(self)))
        return self.tasks

    def stop(self):
        self.running = False
        for t in self.tasks:
            t.cancel()
        self.tasks = []
