"""Whole cups on the host (CPython): the firmware's App on emulated chips (emu/), over
the simulated medium (net/sim.py), on one simulated clock (vloop.py), played by a
scripted person who only presses the emulated buttons and shakes the emulated cup.

    table = AppTable(["esp32-devkitc", "xiao-esp32c3"], seed=3)
    result = table.play("liars", limit_ms=600000)     # create, join, start, play out

    total = run_batch(4, "perudo", {"calza_anyone": True}, games=3, seed=1)   # `--drive buttons`

Each cup: its own emulated world (LIS3DH, SSD1306, buttons on the board file's pins),
`hardware.open` exactly as on a cup, a FileStore-like flash (MemStore), a radio on the
medium, the real UI (ui/ui.py) and the App with all its tasks. The person at it
(`Person`) reads what a player reads -- the screen's menu and cursor, the master's join
code, the button model's focus and bid being composed -- and answers with gestures
(emu/thumb.py: presses held 60 ms, long presses, both at once) on the emulated pins and
shakes (a motion trace from the library, fed through the board's mounting, so the real
ShakeToRoll and detector decide the roll). Moves come from dicecup.bots on the seat's
View, as a player's would.
"""
import asyncio
import random

from dicecup.net.sim import Clock, Medium
from dicecup.net.memstore import MemStore
from dicecup.net.transport import Transport

from dicecup_host import bundle, emu, traces, vloop
from dicecup_host.emu.thumb import SHAKE, Player, choose

SHAKE_TRACE = "shake-short-01.txt"
PRESS_MS = 60
LONG_MS = 800          # held past hw/buttons.py's 700 ms: a long press
BATTERY_V = 3.9
GAP_MS = 60


class AppRadio(Transport):
    """A SimRadio as the app's transport: wait() is an asyncio wait on the virtual loop
    for a frame landing or the timeout (SimRadio's own wait runs the clock itself)."""

    def __init__(self, medium, addr):
        self.ev = None
        self.r = medium.attach(addr, on_frame=self._landed)
        self.address = self.r.address
        self.mtu = self.r.mtu
        self.max_cups = self.r.max_cups

    def _landed(self, addr):
        if self.ev is not None:
            self.ev.set()

    def send(self, dest, frame):
        return self.r.send(dest, frame)

    def recv(self):
        return self.r.recv()

    def _ready(self):
        return self.r._ready()

    async def wait(self, timeout_ms):
        if self.r._ready():
            return True
        if self.ev is None:
            self.ev = asyncio.Event()
        self.ev.clear()
        try:
            await asyncio.wait_for(self.ev.wait(), timeout_ms / 1000)
        except asyncio.TimeoutError:
            pass
        return self.r._ready()


class AppCup:
    """One emulated cup running the App."""

    on = True      # (simrun's checks read a cup's power, id and log as a Cluster's)

    def __init__(self, table, i, board_name):
        from dicecup.appboot import make_app
        from dicecup.hw import board as fw_board
        from dicecup.hw import hardware
        from dicecup_host.emu import rig
        self.i = i
        self.table = table
        self.path = str(bundle.BOARDS / (board_name + ".json"))
        self.board = fw_board.load(self.path)
        self.world, self.acc, self.oled = rig.build(self.board)
        self.world.clock.t = table.clock.now
        self.serial = []
        self._line = []
        self.out = []
        clock = table.clock
        self.hw = hardware.open(self.path, clock=lambda: clock.now, out=self.out.append)
        addr = bytes((0x02, 0xD1, 0xCE, 0, 1, i + 1))
        self.radio = AppRadio(table.medium, addr)
        self.addr = self.radio.address
        self.store = MemStore()
        rng = random.Random(table.seed * 7919 + i)
        self.app = make_app(self.hw, self.radio, self.store, lambda: clock.now,
                            out=self._serial, random_bytes=rng.randbytes,
                            name=table.names[i])
        self.ui = self.app.ui
        self.cup = self.app.cup

    def _serial(self, s):
        self._line.append(s)
        if s.endswith("\n"):
            self.serial.append("".join(self._line)[:-1])
            self._line = []

    def names(self):
        return self.board.button_names()

    def _button(self, name):
        return self.board.buttons[self.names().index(name)]

    async def press(self, name, hold_ms=PRESS_MS):
        b = self._button(name)
        self.world.press(b.pin, b.active)
        await asyncio.sleep(hold_ms / 1000)
        self.world.release(b.pin)
        await asyncio.sleep(GAP_MS / 1000)

    async def both(self, a, b):
        w = self.world
        pa, pb = self._button(a), self._button(b)
        w.press(pa.pin, pa.active)
        await asyncio.sleep(0.03)
        w.press(pb.pin, pb.active)
        await asyncio.sleep(0.1)
        w.release(pa.pin)
        w.release(pb.pin)
        await asyncio.sleep(GAP_MS / 1000)

    async def gesture(self, kind, mask):
        """A hw/buttons.py event made on the pins: PRESS, LONG (held LONG_MS) or BOTH,
        `mask` a bit per button in board order; or emu/thumb.py's SHAKE."""
        from dicecup.hw.buttons import BOTH, LONG
        if kind == SHAKE:
            return await self.shake()
        names = [self.names()[k] for k in range(len(self.names())) if mask >> k & 1]
        if kind == BOTH:
            return await self.both(names[0], names[1])
        await self.press(names[0], LONG_MS if kind == LONG else PRESS_MS)

    async def shake(self):
        """Shake the cup and set it down: a library trace, through the mounting."""
        from dicecup_host.emu import rig
        tr = self.table.trace
        rig.cup_trace(self.acc, self.board, tr.samples, tr.rate_hz)
        await asyncio.sleep(tr.duration_ms() / 1000 + 0.2)

    def screen(self):
        """The screen the UI shows now, by name (ui/screens.py pick)."""
        from dicecup.ui.screens import pick
        return pick(self.ui.sc)

    def ui_drawn(self):
        """What ui/screens.py draws of the UI's Scene now (to hold against the OLED)."""
        from dicecup.ui import fb, screens
        buf = fb.new()
        screens.draw(buf, self.ui.sc)
        return buf


class Person:
    """A person at one cup: the lobby by menu keys and the code read off the master's
    screen, a game by emu/thumb.py's Player (a bot's moves, made by buttons), shaking
    when the screen asks. `shake_ms`: the hand shakes that long after the cup asked."""

    def __init__(self, cup, rng, shake_ms=0, level="easy"):
        self.cup = cup
        self.player = Player(cup.names(), rng, level)
        self.thumb = self.player.thumb
        self.shake_ms = shake_ms

    @property
    def presses(self):
        return self.player.presses

    @property
    def shakes(self):
        return self.player.shakes

    @property
    def sent(self):
        return self.player.sent

    async def make(self, g):
        if g[0] == SHAKE and self.shake_ms:
            await asyncio.sleep(self.shake_ms / 1000)
        self.player.did(g)
        await self.cup.gesture(*g)

    async def pick(self, key, tries=20):
        """A menu item by its key (thumb.choose): True once ok was pressed on it."""
        return await choose(self.thumb, self.cup.ui, key, self.make, tries)

    async def create(self, rules):
        """A new table: "create", then the game."""
        return await self.pick("menu_create") and await self.pick(rules)

    async def type_code(self, code):
        """"join", then the code digit by digit; True once the fourth went in."""
        ui = self.cup.ui
        if not await self.pick("menu_join"):
            return False
        for _ in range(60):
            if ui.sc.screen != "code":
                return True
            g = self.thumb.code(ui, code)
            if g is None:
                return False
            await self.make(g)
        return False

    async def start(self):
        """The master's table menu: start."""
        return await self.pick("table_start")

    async def play(self, done):
        """Until done(): the next gesture of the game, or a look again in 100 ms."""
        ui = self.cup.ui
        while not done():
            g = self.player.next(ui)
            if g is None:
                await asyncio.sleep(0.1)
                continue
            await self.make(g)


def default_options(rules):
    """The rule set's options as RULES.md names them, at their defaults."""
    from dicecup.engine import new_game
    return dict(new_game(rules, 1 if rules == "dixmille" else 2, {}, opener=0).options())


class AppTable:
    """Cups on one medium and one clock; `play()` runs a whole game by buttons."""

    NAMES = ("ana", "ben", "cy", "dee", "eli", "fay")

    def __init__(self, boards, seed=1, loss=0.0, latency_ms=5, dup=0.0, reorder=0.0, shake_ms=0,
                 levels=None):
        """`levels`: the bot level (dicecup.players kinds) whose moves each cup's person
        makes; all easy by default."""
        emu.install()
        self.seed = seed
        self.clock = Clock()
        self.medium = Medium(self.clock, rng=seed, loss=loss, dup=dup, reorder=reorder, latency_ms=latency_ms)
        self.names = self.NAMES
        self.trace = traces.load(traces.library_dir() / "lib" / SHAKE_TRACE)
        self.cups = [AppCup(self, i, b) for i, b in enumerate(boards)]
        levels = levels or ["easy"] * len(self.cups)
        self.people = [Person(c, random.Random(seed * 31 + c.i), shake_ms, levels[c.i]) for c in self.cups]
        self.requested = []      # lobby steps the master's screen had no item for, asked directly
        # The fake ADC reads the world made last (machine.ADC is made per reading):
        # give it every cup's battery pin.
        from dicecup_host.emu import world
        cur = world.current()
        for c in self.cups:
            if c.board.battery_pin is not None:
                cur.set_volts(c.board.battery_pin, BATTERY_V / c.board.battery_divider)

    def advance(self, now):
        for c in self.cups:
            c.world.clock.t = now

    def finished(self):
        from dicecup.net import table as tbl
        for c in self.cups:
            t = c.app.cup.table
            if t is None or t.phase != tbl.DONE or c.app.cup.sync.shown != t.version:
                return False
        return True

    async def _until(self, cond, ms, step=0.05):
        end = self.clock.now + ms
        while self.clock.now < end:
            if cond():
                return True
            await asyncio.sleep(step)
        return cond()

    async def lobby(self, rules, options=None, bots=0):
        """Cup 0 creates a table, the others join it with the code read off cup 0's
        screen, cup 0 sets the options, seats `bots` bots and starts: all by buttons
        where the master's table screen has the item (table_opt_<name>, table_add_bot);
        what it lacks is asked of the app directly and noted in `requested`."""
        host = self.cups[0]
        people = self.people
        if not await people[0].create(rules):
            raise RuntimeError("no %r on the first cup's menu: %r" % (rules, host.ui.sc.menu))
        if not await self._until(lambda: host.ui.mode == "table" and host.ui.sc.code, 3000):
            raise RuntimeError("the table was not created: %s" % host.screen())
        code = host.ui.sc.code                      # read off the master's screen
        for k in range(1, len(self.cups)):
            c = self.cups[k]
            if not await self._until(lambda: c.ui.lobby is not None and c.ui.lobby.tables, 5000):
                raise RuntimeError("cup %d hears no table" % k)
            if not await people[k].type_code(code):
                raise RuntimeError("cup %d could not type the code" % k)
            if not await self._until(lambda: c.ui.mode == "table", 10000):
                raise RuntimeError("cup %d did not join: %s" % (k, c.screen()))
        n = len(self.cups)
        if not await self._until(lambda: len(host.ui.sc.players) == n, 5000):
            raise RuntimeError("the master does not see every player: %r" % (host.ui.sc.players,))
        await self._options(rules, options or {})
        for b in range(bots):
            if not await people[0].pick("table_add_bot"):
                raise RuntimeError("the master's table menu has no bot to add: %r" % (host.ui.sc.menu,))
            await self._until(lambda: len(host.ui.sc.players) == n + b + 1, 3000)
        if not await people[0].start():
            raise RuntimeError("the master's screen has no start: %s" % host.screen())

    async def _options(self, rules, options):
        """Options that differ from the defaults, set on the master's table menu: its
        item for each is picked until the table shows the value wanted (an item steps
        through the option's choices); an option the menu cannot reach is set with one
        ("rules", ...) request, noted in `requested`."""
        defaults = default_options(rules)
        change = [(k, v) for k, v in sorted(options.items()) if defaults.get(k) != v]
        host = self.cups[0]
        missed = False
        for name, value in change:
            for _ in range(8):
                was = self._option(name)
                if was == value or not await self.people[0].pick("table_opt_" + name):
                    break
                await self._until(lambda: self._option(name) != was, 1000)   # the table took it
            missed = missed or self._option(name) != value
        if missed:
            self.requested.append("options")
            host.app.request(("rules", rules, options))
        await asyncio.sleep(0.3)

    def _option(self, name):
        """The value of option `name` the master's lobby shows now (None: not known)."""
        lb = self.cups[0].ui.lobby
        return dict(lb.options).get(name) if lb is not None and lb.options else None

    async def _main(self, rules, limit_ms, after, options, bots):
        for c in self.cups:
            c.app.start()
        await self.lobby(rules, options, bots)
        players = [asyncio.ensure_future(p.play(self.finished)) for p in self.people]
        ok = await self._until(self.finished, limit_ms, step=0.2)
        await asyncio.sleep(0.3)      # the last screens drawn
        for p in players:
            p.cancel()
        if after is not None:
            await after(self)
        for c in self.cups:
            c.app.stop()
        await asyncio.sleep(0.01)
        return ok

    def play(self, rules="liars", limit_ms=900000, after=None, options=None, bots=0):
        """Create (cup 0, by buttons), join (the others, typing the code read off cup 0's
        screen), options and bots, start, play until every cup shows the game over.
        True if it finished."""
        return vloop.run(self.clock, self._main(rules, limit_ms, after, options, bots), self.advance)

    def run(self, script):
        """Start every cup's app, run `await script(table)` on the simulated clock, stop
        the apps; returns what the script returned."""
        async def main():
            for c in self.cups:
                c.app.start()
            try:
                return await script(self)
            finally:
                for c in self.cups:
                    c.app.stop()
                await asyncio.sleep(0.01)
        return vloop.run(self.clock, main(), self.advance)

    def close(self):
        emu.uninstall()


BOARDS = ("esp32-devkitc", "xiao-esp32c3", "esp32-s3-devkitc-1")   # cups take them in turn
GAME_LIMIT_MS = 3 * 3600 * 1000


def run_batch(cups, rules, options, games, seed, loss=0.0, bots=0, game_index=None, report=None,
              shake_ms=0, trace=None, limit_ms=GAME_LIMIT_MS):
    """`dicecup sim --headless --drive buttons`: G seeded games of AppTables (game i
    seed S+i), every seat a cup played by buttons and shakes (cups take the boards of
    BOARDS in turn: a 4-button board and the 3-button XIAO from two cups on). Each game
    is checked as simrun checks a Cluster's (replicas agree, every log re-checks, one
    history, no hidden die on air before its reveal; no reference run: a person's
    timing, not the seed alone, decides a game). The summary has simrun.SUMMARY's keys
    plus presses, shakes, the moves sent by buttons (`sent`) and `requested` (lobby
    steps the master's screen had no item for)."""
    from . import batchrun, checker, simrun, tally
    total = tally.empty(dict((k, 0) for k in simrun.SUMMARY), cups + bots)
    total.update({"presses": 0, "shakes": 0, "requested": 0, "sent": {}})
    dup = loss / 5 if loss else 0.0
    reorder = loss / 3 if loss else 0.0
    indices = [game_index] if game_index is not None else range(games)
    batch = batchrun.Batch(indices)
    with batch:
        for i in batch:
            s = seed + i
            t = AppTable([BOARDS[k % len(BOARDS)] for k in range(cups)], seed=s, loss=loss, dup=dup,
                         reorder=reorder, shake_ms=shake_ms)
            try:
                try:
                    finished = t.play(rules, limit_ms=limit_ms, options=options, bots=bots)
                    why = []
                except RuntimeError as e:      # the lobby failed: a game not finished
                    finished, why = False, [str(e)]
                ok, reasons = simrun.check_game(t, final=finished)
                counts = simrun.game_counts(t)
                leaks = checker.hidden_leaks(t.medium.trace, dict((c.i, c.serial) for c in t.cups))
                presses = sum(p.presses for p in t.people)
                shakes = sum(p.shakes for p in t.people)
                with batch.counting():
                    simrun._add(total, counts, finished, ok, len(simrun._public(t, ("master",))), leaks)
                    tally.add(total, tally.game_facts(c.serial for c in t.cups))
                    total["presses"] += presses
                    total["shakes"] += shakes
                    total["requested"] += len(t.requested)
                    for p in t.people:
                        for k, n in p.sent.items():
                            total["sent"][k] = total["sent"].get(k, 0) + n
                if report is not None:
                    status = "ok" if ok and finished and not leaks else "FAIL"
                    report("game %d (seed %d): %s, %d presses, %d shakes, %d frames, %d dropped, %d retransmits%s" % (
                        i, s, status, presses, shakes, counts["frames"], counts["dropped"], counts["retransmits"],
                        "".join("; " + r for r in why + reasons + leaks[:3])))
                if trace and game_index is not None:
                    t.medium.save_trace(trace)
            finally:
                t.close()
    total["interrupted"] = batch.interrupted
    return tally.done(total)
