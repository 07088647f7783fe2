"""Power-on: safe mode first, then the app. `firmware/main.py` calls `boot()`.

    boot()    # hw/safemode.py; the radio; the Cup over flash; App(...).start()

Safe mode wins: with the safe button held at power-on (or no usable board file)
`safemode.main` runs the self-test (or prints what to fix) and returns None, and
nothing here starts -- no radio, no game, the REPL stays free for mpremote.

The radio: ESP-NOW where the firmware has it (net/espnow.py), else BLE (net/ble.py),
else no radio at all (net/noradio.py's `NoRadio`: the cup still plays alone against its
own bots), so a radio fault never keeps the cup from booting; what failed is printed on
serial.

`RUN_MS` / `SELFTEST_MS` (None: for ever) and `STORE_ROOT` let a host test run main.py
itself for a while on an emulated cup. What only boot() uses (the radio's opening, the
clock, the serial lines) is in poweron.py, so a host that makes the app with make_app
alone does not load it.
"""
RUN_MS = None
SELFTEST_MS = None
STORE_ROOT = "/dicecup"   # the cup's flash folder (net/store.py FileStore)


def make_app(hw, transport, store, clock, ui=None, sleep=None, out=None, random_bytes=None,
             name=None, inp=None):
    """The Cup (strict=False: a bug is logged and survived) and the App around it,
    with the real UI (ui/ui.py) for the board's buttons unless `ui` is given.

    The bluffing games' engine base is imported first, at boot: as its class is made
    its table grows in steps to 0.6 KB, blocks a heap fragmented by a lobby and its
    joins no longer had when a game started (a rule set itself loads then, small)."""
    from .engine import bidding  # noqa: F401 - loaded while the heap is whole (below)
    from .app import App
    from .net.cup import Cup
    if hw is not None and not hw.errors:
        from .hw.trim import trim
        trim()
    if random_bytes is None:
        import os
        random_bytes = os.urandom
    if name is None:
        raw = store.get("name")
        name = raw.decode() if raw else "cup%02x%02x" % (transport.address[4], transport.address[5])
    cup = Cup(transport.address, store, random_bytes, name, max_cups=transport.max_cups, strict=False)
    if ui is None:
        from .ui.ui import Ui
        from .ui.controls import BOARD4
        names = hw.board.button_names() if hw is not None and hw.board is not None else BOARD4
        ui = Ui(names)    # (the App hands it the language kept in flash: on_setting)
    return App(hw, cup, ui, transport, clock, sleep=sleep, store=store, out=out, inp=inp)


def boot():
    """Safe mode, then the game. Returns the App after it stopped (None in safe mode)."""
    import sys
    from .hw import safemode
    hw = safemode.main(None, SELFTEST_MS, print)
    if hw is None:
        return None   # safe mode (or no board file): the game does not start
    import asyncio
    from .net.store import FileStore
    from .poweron import make_clock, open_radio, serial_lines
    transport = open_radio(print)
    store = FileStore(STORE_ROOT)
    app = make_app(hw, transport, store, make_clock(), out=sys.stdout.write,
                   inp=serial_lines(sys.stdin))
    del make_clock, open_radio, serial_lines
    game = None
    if store.get("play"):    # a cup set to play by itself (demo.py)
        from . import demo
        try:
            game = demo.parse(store.get("play"))
        except ValueError as e:
            print("dicecup: %s" % e)

    async def main():
        if game is not None:
            asyncio.create_task(demo.play(app, game[0], game[1], print))
        app.start()          # the app's tasks, until stop() (or RUN_MS of the app's clock)
        t0 = app.clock()
        while app.running and (RUN_MS is None or app.clock() - t0 < RUN_MS):
            await app.sleep(100 if RUN_MS is None else min(100, RUN_MS))
        app.stop()
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        # The interrupted task is still asyncio's current one (cancelling it raises
        # "can't cancel self"): the game's tasks are dropped with the loop instead,
        # so a later asyncio.run at the REPL (dicecup doctor) does not resume them.
        app.running = False
        app.tasks = []
        asyncio.new_event_loop()
        print("dicecup: stopped (Ctrl-C): the REPL is yours")
    return app
