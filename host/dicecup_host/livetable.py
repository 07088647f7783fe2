"""A simulated table you sit at: the cups of appsim.AppTable (the real firmware app on
emulated chips, over the simulated medium) on a clock that follows the wall clock, in a
thread of its own. Your seat is a cup with no scripted person: its buttons and its shake
come from `press()` -- the terminal view's keys -- and everything you see is read off
the emulated panels and the cups' public events.

    table = LiveTable(["you", "bot", "bot"], "perudo", seed=1, speed=1.0)
    table.start()                    # the lobby is set up by the master's buttons, then play
    table.press("ok"); table.press("peek"); table.press("shake")
    table.panel(0)                   # 64 rows of 128 pixels, as your OLED lights them
    table.log                        # what happened, as lines
    table.stop()
"""
import asyncio
import math
import threading
import time

from . import appsim, oledtext, vloop

SEAT_KINDS = ("you", "bot", "easy", "normal", "strong", "baseline")   # bot = easy
# what each key-level action does on the cup: (gesture, buttons, hold ms)
GESTURES = {
    "left": ("press", "left"), "right": ("press", "right"), "ok": ("press", "ok"), "back": ("press", "back"),
    "peek": ("long", "ok"), "menu": ("long", "right"), "long_left": ("long", "left"),
    "exact": ("both", ("left", "right")), "shake": ("shake", None),
}


class SeatsError(ValueError):
    pass


def parse_seats(text, cups=None):
    """--seats you,normal,strong -> the list; one `you` at most (the terminal has one
    pair of hands), the others bot levels (`bot` is easy). SeatsError with the line to
    print."""
    from dicecup import players
    seats = [s.strip() for s in text.split(",") if s.strip()]
    bad = [s for s in seats if s not in SEAT_KINDS]
    if bad:
        raise SeatsError("--seats %s: %r is not a seat kind (you, bot, %s)" % (text, bad[0], ", ".join(players.KINDS)))
    unbuilt = [s for s in seats if s not in ("you", "bot") and s not in players.available()]
    if unbuilt:
        raise SeatsError("--seats %s: the %r bot is not built in this version (there are: %s)"
                         % (text, unbuilt[0], ", ".join(players.available())))
    if not 1 <= len(seats) <= 6:
        raise SeatsError("--seats %s: a table has 1 to 6 cups" % text)
    if seats.count("you") > 1:
        raise SeatsError("--seats %s: one seat can be yours" % text)
    if cups is not None and cups != len(seats):
        raise SeatsError("--seats names %d cups but --cups is %d" % (len(seats), cups))
    return seats


def level(kind):
    """The bot level a seat kind plays at (`you` and `bot`: easy, the level a person's
    cup falls back to when it plays itself)."""
    return "easy" if kind in ("you", "bot") else kind


class RealtimeLoop(vloop.VirtualLoop):
    """The virtual loop, paced: simulated time runs at `speed` times the wall clock,
    and input from another thread (wake()) is served at once."""

    def __init__(self, clock, on_advance, speed):
        vloop.VirtualLoop.__init__(self, clock, on_advance)
        self.speed = speed
        self.woken = threading.Event()
        self.stopping = False

    def wake(self):
        self.woken.set()

    def _select(self, timeout=None):
        sim = self.sim
        now = sim.now
        target = None if timeout is None else now + int(math.ceil(timeout * 1000 - 1e-6))
        nxt = sim.next_time()
        due = min(t for t in (target, nxt, now + 1000) if t is not None)
        t0 = time.monotonic()
        if due > now and not self.stopping:
            self.woken.wait(min((due - now) / 1000.0 / self.speed, 0.05))
        self.woken.clear()
        ran = int((time.monotonic() - t0) * 1000 * self.speed)
        sim.run_until(max(now, min(due, now + ran)))
        if self.on_advance is not None:
            self.on_advance(sim.now)
        return []


class LiveTable:
    def __init__(self, seats, rules, seed=1, speed=1.0, loss=0.0, options=None, bots=0, lang=None):
        self.seats = list(seats)
        self.rules = rules
        self.options = options
        self.bots = bots
        self.speed = speed
        self.lang = lang
        self.you = self.seats.index("you") if "you" in self.seats else None
        boards = [appsim.BOARDS[0] if k == self.you else appsim.BOARDS[k % len(appsim.BOARDS)]
                  for k in range(len(self.seats))]
        self.table = appsim.AppTable(boards, seed=seed, loss=loss, dup=loss / 5 if loss else 0.0,
                                     reorder=loss / 3 if loss else 0.0, shake_ms=600,
                                     levels=[level(k) for k in self.seats])
        self.cups = self.table.cups
        self.log = []            # lines: what happened at the table
        self.state = "setting up the table"
        self.error = None
        self.over = False
        self._inbox = []
        self._lock = threading.Lock()
        self._loop = None
        self._thread = None

    # ----- what the view reads ---------------------------------------------------------
    def panel(self, i):
        """Cup i's panel as 64 rows of 128 pixels: what its OLED lights now. Another
        player's cup while it shows their own dice is covered (as on a real table)."""
        c = self.cups[i]
        if i != self.you and self.you is not None and getattr(c.ui.sc, "peek", False):
            return oledtext.covered("peeking")
        return oledtext.pixels(c.oled)

    def name(self, i):
        return self.table.names[i]

    def now_s(self):
        return self.table.clock.now / 1000.0

    # ----- your hands -------------------------------------------------------------------
    def press(self, action):
        """A key's action (GESTURES) for your cup, from any thread."""
        if self.you is None or action not in GESTURES:
            return False
        with self._lock:
            self._inbox.append(action)
        if self._loop is not None:
            self._loop.wake()
        return True

    async def _hands(self):
        cup = self.cups[self.you]
        while True:
            with self._lock:
                todo, self._inbox[:] = list(self._inbox), []
            for action in todo:
                kind, what = GESTURES[action]
                if kind == "press":
                    if what in cup.names():
                        await cup.press(what)
                elif kind == "long":
                    await cup.press(what, appsim.LONG_MS)
                elif kind == "both":
                    await cup.both(*what)
                else:
                    await cup.shake()
            await asyncio.sleep(0.02)

    # ----- the table --------------------------------------------------------------------
    def say(self, line):
        self.log.append("%7.1fs %s" % (self.now_s(), line))

    def _note(self, i):
        from .narrate import Narrator

        def say(line):
            self.log.append(line)
            del self.log[:-500]
        return Narrator(self.cups[i].cup, say)

    async def _main(self):
        t = self.table
        for c in self.cups:
            c.app.start()
            if self.lang:
                c.app.request(("lang", self.lang))     # kept in the cup's flash, as its menu does
        people = [None if k == self.you else p for k, p in enumerate(t.people)]
        try:
            await self._lobby(people)
        except RuntimeError as e:
            self.error = "the table could not be set up: %s" % e
            return
        self.cups[0].cup.listen(self._note(0))
        self.state = "playing"
        tasks = [asyncio.ensure_future(p.play(t.finished)) for p in people if p is not None]
        if self.you is not None:
            tasks.append(asyncio.ensure_future(self._hands()))
        while not t.finished() and not self._loop.stopping:
            await asyncio.sleep(0.2)
        if t.finished():
            self.state = "game over"
            self.over = True
            self.say("the game is over")
            if self.you is not None:        # you may still look at your cup
                while not self._loop.stopping:
                    await asyncio.sleep(0.2)
        for task in tasks:
            task.cancel()
        for c in self.cups:
            c.app.stop()
        await asyncio.sleep(0.01)

    async def _lobby(self, people):
        """The master creates the table and the others join, by their buttons; when the
        master is your cup, its person makes the lobby steps for you, then hands over."""
        self.say("%s creates a %s table; the others join with its code" % (self.name(0), self.rules))
        await self.table.lobby(self.rules, self.options, self.bots)
        self.say("the game starts: %s" % ", ".join(
            ("you (%s)" % self.name(k) if k == self.you else self.name(k)) for k in range(len(self.cups))))

    def start(self):
        def run():
            self._loop = RealtimeLoop(self.table.clock, self.table.advance, self.speed)
            try:
                self._loop.run_until_complete(self._main())
            except Exception as e:      # shown in the view, never a traceback over it
                self.error = "%s: %s" % (type(e).__name__, e)
            finally:
                self._loop.close()
        self._thread = threading.Thread(target=run, name="table", daemon=True)
        self._thread.start()

    def stop(self):
        if self._loop is not None:
            self._loop.stopping = True
            self._loop.wake()
        if self._thread is not None:
            self._thread.join(5)
        self.table.close()
