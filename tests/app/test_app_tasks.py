"""The app's tasks on one simulated clock: a task that raises is logged and started
again, the radio step never dies, a broken UI cannot stop the cup; the idle policy
(display off, radio slowed, woken by motion or a button, never during a game);
requests the cup cannot carry out are refused with a code."""
import asyncio

import pytest

from dicecup import app as appmod
from dicecup.hw.buttons import PRESS

from apphelpers import events, kinds


def internal(cup):
    return [e for e in events(cup) if e["k"] == "internal"]


async def ms(n):
    await asyncio.sleep(n / 1000)


@pytest.mark.parametrize("error", [OSError(5, "EIO"), MemoryError("memory allocation failed")],
                         ids=["OSError", "MemoryError"])
def test_a_task_that_raises_is_logged_and_restarted(app_table, error):
    t = app_table(["esp32-devkitc"])
    c = t.cups[0]
    real = c.hw.accel.read
    calls = {"n": 0}

    def flaky():
        calls["n"] += 1
        if calls["n"] == 50:
            raise error               # the bus glitched, or the heap ran short, once
        return real()
    c.hw.accel.read = flaky

    async def script(t):
        await ms(3000)
    t.run(script)
    assert c.app.restarts == {"motion": 1}
    errs = internal(c)
    assert len(errs) == 1 and errs[0]["where"] == "task motion"
    assert errs[0]["error"].startswith(type(error).__name__ + ": ")
    assert errs[0]["error"].endswith("test_app_tasks.py:%d" % (flaky.__code__.co_firstlineno + 3))  # where it was raised
    assert calls["n"] > 250          # sampling went on after the restart (100 Hz)


def test_the_radio_step_never_dies(app_table):
    t = app_table(["xiao-esp32c3"])
    c = t.cups[0]
    real = c.radio.recv
    calls = {"n": 0}

    def broken():
        calls["n"] += 1
        if calls["n"] % 20 == 0:
            raise RuntimeError("driver fault")
        return real()
    c.radio.recv = broken

    async def script(t):
        await ms(2000)
        before = c.app.steps
        await ms(1000)
        return c.app.steps - before
    steps = t.run(script)
    assert steps > 50                # still stepping every few ms
    errs = internal(c)
    assert errs and all(e["where"] == "radio" and "driver fault" in e["error"] for e in errs)
    assert c.app.restarts == {}      # caught in the step: the task never stopped


def test_a_ui_that_raises_is_logged_and_the_cup_goes_on(app_table):
    t = app_table(["esp32-devkitc"])
    c = t.cups[0]
    seen = []
    real = c.ui.on_event

    def on_event(ev):
        seen.append(ev.kind)
        if ev.kind == "joined":
            raise ValueError("screen bug")
        real(ev)
    c.ui.on_event = on_event

    async def script(t):
        await ms(500)
        await t.people[0].create("perudo")   # the create emits "joined": the UI raises
        await ms(1000)
    t.run(script)
    errs = internal(c)
    assert [e["where"] for e in errs] == ["ui.on_event"]
    assert "internal" not in seen     # the UI is not handed its own failure (no loop)
    assert c.app.cup.is_master() and c.screen() == "table"


def test_idle_turns_the_display_off_and_a_shake_or_a_button_wakes_it(app_table):
    t = app_table(["esp32-devkitc"])
    c = t.cups[0]
    got = []
    real = c.ui.on_buttons

    def on_buttons(kind, mask):
        got.append((kind, mask))
        return real(kind, mask)
    c.ui.on_buttons = on_buttons
    out = {}

    async def script(t):
        await ms(appmod.IDLE_MS - 1000)
        out["before"] = (c.app.idle, c.oled.on)
        await ms(2000)
        out["idle"] = (c.app.idle, c.oled.on, c.acc.regs[0x30], c.acc.odr())
        await c.shake()                       # motion wakes it
        out["shaken"] = (c.app.idle, c.oled.on, c.acc.odr())
        await ms(appmod.IDLE_MS + 1000)
        out["idle2"] = (c.app.idle, c.oled.on)
        cursor = c.ui.sc.cursor
        await c.press("right")                # a button wakes it; that press only wakes
        await ms(200)
        out["pressed"] = (c.app.idle, c.oled.on, c.ui.sc.cursor == cursor, len(got))
        await c.press("right")
        await ms(200)
        out["again"] = (c.ui.sc.cursor == cursor, len(got))
    t.run(script)
    assert out["before"] == (False, True)
    assert out["idle"] == (True, False, 0x2A, 25)   # screen off, LIS3DH armed for activity at 25 Hz
    assert out["shaken"] == (False, True, 100)      # back on, sampling at the board's rate
    assert out["idle2"] == (True, False)
    assert out["pressed"] == (False, True, True, 0)
    assert out["again"] == (False, 1)
    assert c.app.idles == 2 and internal(c) == []


def test_idle_slows_the_radio_with_a_table_and_stops_it_without(app_table):
    t = app_table(["esp32-devkitc"])
    c = t.cups[0]
    out = {}

    async def script(t):
        await ms(1000)
        s = c.app.steps
        await ms(1000)
        out["awake alone"] = c.app.steps - s
        await ms(appmod.IDLE_MS)
        s = c.app.steps
        await ms(10000)
        out["idle alone"] = c.app.steps - s
        await c.press("ok")                   # wake ...
        await t.people[0].create("perudo")    # ... and be the master of a table
        s = c.app.steps
        await ms(1000)
        out["awake master"] = c.app.steps - s
        await ms(appmod.IDLE_MS)
        assert c.app.idle
        s = c.app.steps
        await ms(10000)
        out["idle master"] = c.app.steps - s
    t.run(script)
    assert out["awake alone"] >= 50 and out["awake master"] >= 50
    assert out["idle alone"] == 0
    assert 10 <= out["idle master"] <= 10000 // appmod.IDLE_POLL_MS + 1


def test_never_idle_while_a_game_is_on(app_table):
    """Nobody touches the cups for longer than IDLE_MS in the middle of a game: the
    cups' own bots take the seats (after a minute), the screens stay on."""
    t = app_table(["esp32-devkitc", "xiao-esp32c3"], seed=2)
    out = {}

    async def script(t):
        await t.lobby("liars")
        await t._until(lambda: all(c.ui.mode == "play" for c in t.cups), 5000)
        end = t.clock.now + appmod.IDLE_MS + 60000
        while t.clock.now < end and not t.finished():
            assert not any(c.app.idle for c in t.cups)
            await ms(1000)
        out["auto"] = [kinds(c).count("autoplay") for c in t.cups]
    t.run(script)
    assert all(c.app.idles == 0 and c.oled.on for c in t.cups)
    assert all(n >= 1 for n in out["auto"])


def test_requests_refused_with_a_code(app_table):
    t = app_table(["esp32-devkitc"])
    c = t.cups[0]

    async def script(t):
        await ms(300)
        for r in (("start",), ("join", "1234"), ("act", 8 + 3), ("bot", "x"), ("fly",), ("leave",)):
            c.app.request(r)
        c.app.request(("lang", "fr"))
        await ms(300)
    t.run(script)
    codes = [e["code"] for e in events(c) if e["k"] == "rejected"]
    assert codes == ["start:not-master", "join:no-table", "act:not-seated", "bot:not-master",
                     "fly:unknown", "leave:no-table"]
    assert all(e["action"] == -1 for e in events(c) if e["k"] == "rejected")
    assert c.store.get("lang") == b"fr" and c.ui.sc.lang == "fr"


@pytest.mark.parametrize("board", ["esp32-devkitc", "xiao-esp32c3"])
def test_the_cup_starts_the_real_ui_for_its_buttons_in_the_language_kept_in_flash(app_table, board):
    from dicecup.appboot import make_app
    from dicecup.hw.buttons import LONG
    from dicecup.ui import fb
    t = app_table([board])
    c = t.cups[0]
    c.store.put("lang", b"de")
    app = make_app(c.hw, c.radio, c.store, lambda: 0)
    ui = app.ui
    assert ui.sc.lang == "de" and ui.draw(fb.new()) == "menu"
    assert ui.keys.names == list(c.board.button_names())
    ui.on_buttons(PRESS, 1 << c.board.button_names().index("ok"))      # "create": the games
    assert ui.mode == "game"
    names = c.board.button_names()           # back: its own button, or (the XIAO) long left
    back = (PRESS, 1 << names.index("back")) if "back" in names else (LONG, 1 << names.index("left"))
    assert ui.on_buttons(*back) is None and ui.mode == "menu"


def test_status_reaches_the_ui(app_table):
    t = app_table(["esp32-devkitc"])
    c = t.cups[0]
    seen = []
    real = c.ui.status

    def status(**kw):
        seen.append(kw)
        real(**kw)
    c.ui.status = status

    async def script(t):
        await ms(500)
    t.run(script)
    assert seen[0] == {"link": True, "quorum": True, "battery_pct": None, "low_battery": False}
    assert seen[-1]["battery_pct"] == 66 and seen[-1]["low_battery"] is False   # 3.9 V
    assert PRESS == 1


def test_the_masters_table_menu_adds_and_drops_a_bot_and_sets_an_option_by_buttons(app_table):
    t = app_table(["esp32-devkitc"])
    c = t.cups[0]
    p = t.people[0]
    seen = {}

    async def script(t):
        await ms(300)
        assert await p.create("bluff")
        await ms(300)
        assert await p.pick("table_add_bot")
        await ms(300)
        seen["with bot"] = (list(c.ui.sc.players), c.ui.sc.menu)
        assert await p.pick("table_drop_bot")
        await ms(300)
        seen["dropped"] = (list(c.ui.sc.players), c.ui.sc.menu)
        assert await p.pick("table_opt_reroll")
        await ms(300)
    t.run(script)
    players, menu = seen["with bot"]
    assert len(players) == 2 and "table_drop_bot" in menu
    players, menu = seen["dropped"]
    assert len(players) == 1 and "table_drop_bot" not in menu
    assert not [e for e in events(c) if e["k"] == "rejected"]
    assert c.app.cup.table.options() == [(n, v) for n, v in c.ui.lobby.options]
    assert dict(c.ui.lobby.options)["reroll"] is True
