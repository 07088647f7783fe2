"""Whole cups on the host (CPython): the firmware's App on emulated chips (emu/), over
the simulated medium (net/sim.py), on one simulated clock (vloop.py), played by a
scripted person who only presses the emulated buttons and shakes the emulated cup.

    table = AppTable(["esp32-devkitc", "xiao-esp32c3"], seed=3)
    result = table.play("liars", limit_ms=600000)     # create, join, start, play out

Each cup: its own emulated world (LIS3DH, SSD1306, buttons on the board file's pins),
`hardware.open` exactly as on a cup, a FileStore-like flash (MemStore), a radio on the
medium, TextUi, and the App with all its tasks. The person (`Person`) reads what a
player reads -- the TextUi's rows, mode and cursor, the master's join code off its
screen -- and answers with presses (held 60 ms) and shakes (a motion trace from the
library, fed through the board's mounting, so the real ShakeToRoll and detector decide
the roll). Decisions come from dicecup.bots on the seat's View, as a player's would.
"""
import asyncio
import random

from dicecup.net.sim import Clock, Medium
from dicecup.net.store import MemStore
from dicecup.net.transport import Transport

from dicecup_host import bundle, emu, traces, vloop

SHAKE_TRACE = "shake-short-01.txt"
PRESS_MS = 60
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
        self.out = []
        clock = table.clock
        self.hw = hardware.open(self.path, clock=lambda: clock.now, out=self.out.append)
        addr = bytes((0x02, 0xD1, 0xCE, 0, 1, i + 1))
        self.radio = AppRadio(table.medium, addr)
        self.store = MemStore()
        rng = random.Random(table.seed * 7919 + i)
        self.app = make_app(self.hw, self.radio, self.store, lambda: clock.now,
                            out=self._serial, random_bytes=rng.randbytes,
                            name=table.names[i])
        self.ui = self.app.ui
        self._line = []

    def _serial(self, s):
        self._line.append(s)
        if s.endswith("\n"):
            self.serial.append("".join(self._line)[:-1])
            self._line = []

    def pin(self, name):
        return self.board.buttons[self.board.button_names().index(name)].pin

    async def press(self, name, hold_ms=PRESS_MS):
        w = self.world
        active = self.board.buttons[self.board.button_names().index(name)].active
        w.press(self.pin(name), active)
        await asyncio.sleep(hold_ms / 1000)
        w.release(self.pin(name))
        await asyncio.sleep(GAP_MS / 1000)

    async def both(self, a, b):
        w = self.world
        w.press(self.pin(a))
        await asyncio.sleep(0.03)
        w.press(self.pin(b))
        await asyncio.sleep(0.1)
        w.release(self.pin(a))
        w.release(self.pin(b))
        await asyncio.sleep(GAP_MS / 1000)

    async def shake(self):
        """Shake the cup and set it down: a library trace, through the mounting."""
        from dicecup_host.emu import rig
        tr = self.table.trace
        rig.cup_trace(self.acc, self.board, tr.samples, tr.rate_hz)
        await asyncio.sleep(tr.duration_ms() / 1000 + 0.2)

    def screen_rows(self):
        return list(self.ui.rows)


class Person:
    """A scripted player at one cup: reads the TextUi, presses buttons, shakes."""

    def __init__(self, cup, rng, role=None):
        self.cup = cup
        self.rng = rng
        self.role = role          # "master" / "joiner" / None (just play)
        self.presses = 0
        self.shakes = 0
        self.acted = 0

    async def choose(self, label_start):
        """Move the cursor to the first item whose label starts so, and press ok."""
        ui = self.cup.ui
        for _ in range(3):
            idx = [k for k in range(len(ui.items)) if ui.items[k][0].startswith(label_start)]
            if not idx:
                return False
            await self.goto(idx[0])
            if ui.items and ui.cursor < len(ui.items) and ui.items[ui.cursor][0].startswith(label_start):
                await self.press("ok")
                return True
        return False

    async def goto(self, k):
        ui = self.cup.ui
        n = len(ui.items)
        if not n:
            return
        right = (k - ui.cursor) % n
        left = (ui.cursor - k) % n
        name, times = ("right", right) if right <= left else ("left", left)
        for _ in range(times):
            await self.press(name)

    async def press(self, name):
        self.presses += 1
        await self.cup.press(name)

    async def type_code(self, code):
        for d in code:
            for _ in range(int(d)):
                await self.press("right")
            await self.press("ok")

    async def play(self, done):
        """Until done(): shake when asked, act on my turn. Dix mille's bank-or-roll is
        decided first (a shake there rolls on; banking is a move)."""
        from dicecup import bots
        from dicecup.engine.actions import kind
        ui = self.cup.ui
        while not done():
            await asyncio.sleep(0.1)
            if ui.mode not in ("game",):
                continue
            v = ui.view
            want = None
            if v is not None and v.mine and v.need == "bank-or-roll":
                want = bots.act(v, self.rng)
                if want is not None and kind(want) == "roll":
                    want = None
                    self.shakes += 1
                    await self.cup.shake()
                    continue
            elif ui.shaking():
                self.shakes += 1
                await self.cup.shake()
                continue
            if not ui.items or v is None or not v.mine:
                continue
            if want is None:
                want = bots.act(v, self.rng)
            idx = [k for k in range(len(ui.items)) if ui.items[k][1] == ("act", want)]
            k = idx[0] if idx else 0
            await self.goto(k)
            if ui.items and ui.cursor == k:
                self.acted += 1
                await self.press("ok")
                await asyncio.sleep(0.3)


class AppTable:
    """Cups on one medium and one clock; `play()` runs a whole game by buttons."""

    NAMES = ("ana", "ben", "cy", "dee", "eli", "fay")

    def __init__(self, boards, seed=1, loss=0.0, latency_ms=5):
        emu.install()
        self.seed = seed
        self.clock = Clock()
        self.medium = Medium(self.clock, rng=seed, loss=loss, latency_ms=latency_ms)
        self.names = self.NAMES
        self.trace = traces.load(traces.library_dir() / "lib" / SHAKE_TRACE)
        self.cups = [AppCup(self, i, b) for i, b in enumerate(boards)]
        self.people = [Person(c, random.Random(seed * 31 + c.i)) for c in self.cups]
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

    async def lobby(self, rules):
        """Cup 0 creates a table, the others join it, cup 0 starts: all by buttons."""
        host = self.cups[0]
        people = self.people
        if not await people[0].choose("new " + rules):
            raise RuntimeError("no 'new %s' on the first cup's screen: %r" % (rules, host.ui.rows))
        if not await self._until(lambda: host.ui.mode == "master" and host.ui.rows[1].startswith("code"), 3000):
            raise RuntimeError("the table was not created: %r" % host.ui.rows)
        code = host.ui.rows[1].split()[1]          # read off the master's screen
        for k in range(1, len(self.cups)):
            c = self.cups[k]
            if not await self._until(lambda: any(x[0] == "join ana" for x in c.ui.items), 5000):
                raise RuntimeError("cup %d hears no table: %r" % (k, c.ui.rows))
            await people[k].choose("join ana")
            await people[k].type_code(code)
            if not await self._until(lambda: c.ui.mode == "lobby", 10000):
                raise RuntimeError("cup %d did not join: %r" % (k, c.ui.rows))
        n = len(self.cups)
        if not await self._until(lambda: host.ui.rows[2] == "players %d" % n, 5000):
            raise RuntimeError("the master does not see every player: %r" % host.ui.rows)
        await people[0].choose("start")

    async def _main(self, rules, limit_ms, after):
        for c in self.cups:
            c.app.start()
        await self.lobby(rules)
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

    def play(self, rules="liars", limit_ms=900000, after=None):
        """Create (cup 0, by buttons), join (the others, typing the code read off cup 0's
        screen), start, play until every cup shows the game over. True if it finished."""
        return vloop.run(self.clock, self._main(rules, limit_ms, after), self.advance)

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
