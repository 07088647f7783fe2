"""A cup that plays by itself: master of a table of bots, one game, its event log on
serial as always. For a shop window, a first power-on, and the virtual board
(`dicecup vboard --play`, `make flash PLAY=... BOTS=...`).

It is set in flash: the store key `play` holds b"RULES BOTS" (e.g. b"perudo 3"),
which `dicecup flash --play RULES --bots N` writes. appboot.boot runs `play(app, ...)`
beside the app's tasks when the key is there. The cup's own seat is played by the
bot of autoplay.py through the cup's public seams, as a player would; rolls are the
cup's shakes. Nothing else changes: the buttons still work, the screen shows the game.
"""


def parse(raw):
    """b"perudo 3" -> ("perudo", 3); ValueError (a line to print) when it is not that."""
    from .engine import RULES
    parts = raw.decode().split()
    if len(parts) != 2 or parts[0] not in RULES or not parts[1].isdigit():
        raise ValueError("play: %r is not RULES BOTS (rules: %s)" % (raw, ", ".join(RULES)))
    return parts[0], int(parts[1])


async def play(app, rules, bots, out=print):
    """Create the table, seat the bots, start, play my seat until the game is over."""
    from .autoplay import Autoplayer
    from .net import table as tbl
    cup = app.cup
    sleep = app.sleep
    await sleep(200)             # the app's tasks are up
    app.request(("create", rules))
    while cup.table is None:
        await sleep(100)
    for k in range(bots):
        app.request(("bot", "bot%d" % (k + 1)))
    while len(cup.table.members) < 1 + bots:
        await sleep(100)
    app.request(("start",))
    out("dicecup: playing %s with %d bots" % (rules, bots))
    me = Autoplayer(cup.rng)
    while app.running:
        t = cup.table
        if t is not None and t.phase == tbl.DONE:
            out("dicecup: the game is over")
            return
        due = me.step(cup, app.clock())
        if due is not None and due <= app.clock():
            app.changed = True
            app.flush()
        await sleep(50)
