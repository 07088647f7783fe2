"""Every screen of the cup, from real game states: the scenes `dicecup screens` renders
and the golden-image tests compare.

Each sample plays a real engine game (seeded) to the moment the screen is for, takes
the seat's View from it and fills a `Scene` the way the cup's UI does; the button
model is the real one (ui/controls.py), driven by its commands. The table's screens
come from the real UI (ui/ui.py) fed the table's events and a Lobby, its menu moved by
button presses.
"""
import random

from dicecup.engine import new_game
from dicecup.engine.actions import BANK, CHALLENGE, keep, reroll, roll
from dicecup.events import Event
from dicecup.hw.buttons import PRESS
from dicecup.ui.controls import BOARD4, Controls
from dicecup.ui.keymap import COMMANDS
from dicecup.ui.screens import Scene
from dicecup.ui.ui import GAME_MENU, HINT_MENU, Ui

NAMES = ["Ana", "Bernard", "Chiara", "Dolores"]


def _bluffing(rules, seats=4, options=None, seed=3, bids=2):
    """A game at its first round, `bids` bids made; every hand rolled from `seed`."""
    rng = random.Random(seed)
    g = new_game(rules, seats, options or {}, rng=rng, opener=1)
    if rules == "bluff" and g.need() != "shake":   # (the roll-off, drawn by the opener given)
        pass
    hands = [[rng.randint(1, 6) for _ in range(g.hidden(s))] for s in range(seats)]
    g.start_round()
    for _ in range(bids):
        s = g.to_act()
        legal = [a for a in g.legal(s) if a >= 8]
        g.apply(s, legal[min(len(legal) - 1, 3)])
    return g, hands


def _played(rules, until, seed=7, seats=4, options=None):
    """A real game played by random legal moves until `until(g)` holds: (game, hands),
    from the first seed at or after `seed` whose game gets there."""
    for k in range(seed, seed + 100):
        got = _play(rules, until, k, seats, options)
        if got is not None:
            return got
    raise RuntimeError("no such moment in %s games %d-%d" % (rules, seed, seed + 99))


def _play(rules, until, seed, seats, options):
    rng = random.Random(seed)
    g = new_game(rules, seats, options or {}, rng=rng, opener=0)
    hands = [[] for _ in range(seats)]
    for _ in range(5000):
        if until(g):
            return g, hands
        need = g.need()
        if need == "shake":
            hands = [[rng.randint(1, 6) for _ in range(g.hidden(s))] for s in range(seats)]
            g.start_round()
        elif need == "reveal":
            g.settle(hands)
        elif need == "over":
            break
        else:
            s = g.to_act()
            legal = [a for a in g.legal(s, hands[s]) if a >> 16 != 3]   # (no rerolls here)
            a = legal[0] if rng.random() < 0.3 else rng.choice(legal)
            if a >> 16 == 1:   # Dix mille: a roll's faces are the dice's
                a = roll([rng.randint(1, 6) for _ in range(g.roll_size(s))])
            g.apply(s, a)
    return None


def _reveal(rules, seats, lang):
    """A round called after three bids, revealed: every hand, the count, who loses."""
    g, hands = _bluffing(rules, seats=seats, bids=3)
    s = g.to_act()
    g.apply(s, CHALLENGE)
    q, f = g.view(0).bid
    counted = sum(1 for h in hands for x in h if x in g.counts(f))
    g.settle(hands)
    sc = _scene(g, 0, hands, lang, rules)
    sc.names = (NAMES + ["Emma", "Bot 1"])[:seats]
    sc.reveal = {"quantity": q, "face": f, "count": counted, "hands": hands,
                 "lines": [("lose_1", (sc.names[s],))]}
    return sc


def _scene(g, seat, hands, lang, rules, **kw):
    sc = Scene(lang, rules)
    sc.view = g.view(seat, hands[seat])
    sc.names = list(NAMES[:g.n])
    sc.battery = kw.pop("battery", 80)
    c = Controls(BOARD4, len(GAME_MENU), None)
    c.update(sc.view)
    sc.controls = c
    sc.game_menu = GAME_MENU
    for k in kw:
        setattr(sc, k, kw[k])
    return sc


def _hinted(sc):
    """A scene at a table with hints on (its HINTS option) and the hint page up."""
    sc.hints = True
    sc.hint = True
    sc.game_menu = HINT_MENU
    sc.controls.menu_size = len(HINT_MENU)
    return sc


def _my_turn(rules, lang, commands=(), **kw):
    g, hands = _bluffing(rules, bids=2)
    while g.to_act() != 0:
        s = g.to_act()
        g.apply(s, [a for a in g.legal(s) if a >= 8][0])
    sc = _scene(g, 0, hands, lang, rules, **kw)
    for cmd in commands:
        sc.controls.command(COMMANDS.index(cmd))
    return sc


def set_aside(lang, peek):
    """Bluff with the reroll option: I bet, then set two dice aside (a 4 and a star,
    face up for all) and rerolled three (a star among them); now Bernard is on turn."""
    g, hands = _bluffing("bluff", options={"reroll": True}, bids=0)
    while g.to_act() != 0:
        s = g.to_act()
        g.apply(s, [a for a in g.legal(s) if a >= 8][0])
    g.apply(0, [a for a in g.legal(0) if a >= 8][0])
    g.apply(0, reroll([4, 6]))
    hands[0] = [6, 2, 5]
    return _scene(g, 0, hands, lang, "bluff", peek=peek)


class Lobby:
    """What the app hands the UI about the table (dicecup/app.py Lobby), made by hand."""

    def __init__(self, role, members, bots, rules, code=None, phase="lobby", me=0):
        self.role, self.members, self.bots, self.rules = role, list(members), list(bots), rules
        self.code, self.phase, self.me, self.seat = code, phase, me, -1
        self.tables, self.tid = [], 1


def _ev(kind, *values):
    return Event(kind, values, 1, 1, 0, 0, 0)


def table_ui(lang, role, rules, members, bots, options=(), order=None, left=(), presses=0):
    """The real UI at a table before its game: members joined (bots among them), the
    rule set and options set, a seat order, some left again; then `presses` of right."""
    ui = Ui(lang=lang)
    ui.tick(1000)
    for m in range(len(members)):
        ui.on_event(_ev("joined", m, members[m], bots[m], "easy" if bots[m] else None))
    ui.on_event(_ev("rules", rules, [[k, v] for k, v in options]))
    if order is not None:
        ui.on_event(_ev("seats", list(order)))
    ui.on_lobby(Lobby(role, members, bots, rules, code="4711" if role == "master" else None,
                      me=0 if role == "master" else 1))
    for m in left:
        ui.on_event(_ev("left", m))
    for _ in range(presses):
        ui.on_buttons(PRESS, 4)            # right (a 4-button board: left, ok, right, back)
    ui.tick(1000 + 10000)                  # (the toasts of joins and leaves gone)
    return ui


def rolloff_game(seats, tie, seed=1):
    """A Bluff game's start from the first seed at or after `seed` whose roll-off had a
    tie (or none): (game, [(seat, faces), ...])."""
    for k in range(seed, seed + 500):
        g = new_game("bluff", seats, {}, rng=random.Random(k))
        rolls = [(e[1], e[2]) for e in g.opening]
        if (len(rolls) > seats) == tie:
            return g, rolls
    raise RuntimeError("no such roll-off")


def dixmille_turn(lang, seat, rolled=True):
    """Dix mille, 3 players, a few turns played: Bernard opened with 1000 then busted (a
    cross), Ana opened with 500, Chiara not open yet; now Ana has kept 1 and 5 and rolled
    the three other dice (`rolled`; else her turn has not begun). Kept dice as the UI
    gathers them, from the `keep` events."""
    g = new_game("dixmille", 3, {}, rng=random.Random(5), opener=1)
    turns = ((1, [1, 1, 1, 2, 3], [1, 1, 1]), (2, [2, 3, 4, 6, 6], None), (0, [5, 5, 5, 2, 3], [5, 5, 5]),
             (1, [2, 3, 4, 6, 6], None), (2, [4, 4, 2, 3, 6], None))
    for s, faces, kept in turns:
        g.apply(s, roll(faces))
        if kept:
            g.apply(s, keep(kept))
            g.apply(s, BANK)
    kept = []
    if rolled:
        for e in g.apply(0, roll([1, 5, 3, 3, 6])) + g.apply(0, keep([1, 5])) + g.apply(0, roll([5, 2, 3])):
            if e[0] == "keep":
                kept += e[2]
    sc = _scene(g, seat, [[], [], []], lang, "dixmille")
    sc.kept = kept
    return sc


def samples(lang):
    """[(name, Scene)] for every screen, in `lang`."""
    out = []
    sc = Scene(lang, None)
    sc.screen = "menu"
    sc.menu = ("menu_create", "menu_join", "menu_lang")
    out.append(("lobby-menu", sc))
    sc = Scene(lang, None)
    sc.screen = "code"
    sc.code = "47"
    sc.cursor = 2
    out.append(("lobby-code", sc))
    sc = Scene(lang, None)                 # the code typed with three tables heard
    sc.screen = "tables"
    sc.tables = ((0x1234, "Ana", 2, 3, False), (0x4321, "Bernard", 5, 2, False), (0x5555, "Dolores", 3, 4, True))
    sc.cursor = 1
    out.append(("lobby-tables", sc))
    ui = table_ui(lang, "master", "perudo", ["Ana", "Bernard", "Chiara", "Bot 1"],
                  [False, False, False, True], (("palifico", True), ("calza_anyone", False)))
    out.append(("lobby-table", ui.sc))
    ui = table_ui(lang, "master", "bluff", ["Ana", "Bernard", "Chiara", "Bot 1", "Bot 2", "Dolores"],
                  [False, False, False, True, True, False], (("star_track", "half"), ("reroll", True)),
                  order=[0, 5, 1, 3, 2, 4], presses=3)
    out.append(("lobby-table-option", ui.sc))
    ui = table_ui(lang, "member", "liars", ["Ana", "Bernard", "Chiara", "Bot 1"],
                  [False, False, False, True], (("one_life", False), ("spot_on", True)), left=(2,))
    out.append(("lobby-table-member", ui.sc))

    g = new_game("perudo", 4, {}, rng=random.Random(1), opener=1)
    hands = [[1, 2, 3, 4, 5]] * 4
    out.append(("shake", _scene(g, 0, hands, lang, "perudo", shake="round")))
    out.append(("rolled", _scene(g, 0, hands, lang, "perudo", rolled=True, screen="waiting")))

    g, hands = _bluffing("perudo")
    out.append(("bidding", _scene(g, 0, hands, lang, "perudo")))
    out.append(("peek", _scene(g, 0, hands, lang, "perudo", peek=True)))
    g2, hands2 = _bluffing("liars", seed=4)
    out.append(("peek-liars", _scene(g2, 0, hands2, lang, "liars", peek=True)))
    out.append(("toast-master", _scene(g, 0, hands, lang, "perudo", toast=("master_is", ("Chiara",)))))
    out.append(("toast-bot", _scene(g, 0, hands, lang, "perudo", toast=("bot_for", ("Dolores",)))))
    out.append(("link-lost", _scene(g, 0, hands, lang, "perudo", link=False)))
    out.append(("quorum", _scene(g, 0, hands, lang, "perudo", quorum=False)))
    out.append(("battery-low", _scene(g, 0, hands, lang, "perudo", battery=6, low=True,
                                      toast=("battery_low", ()))))
    out.append(("toast-bot-mine", _scene(g, 0, hands, lang, "perudo", toast=("bot_for_you", ()))))
    out.append(("toast-back-mine", _scene(g, 0, hands, lang, "perudo", toast=("you_again", ()))))

    g, rolls = rolloff_game(4, tie=False)
    out.append(("rolloff", _scene(g, 0, [[]] * 4, lang, "bluff", rolloff=rolls)))
    g, rolls = rolloff_game(3, tie=True)
    out.append(("rolloff-tie", _scene(g, 0, [[]] * 3, lang, "bluff", rolloff=rolls)))
    g, rolls = rolloff_game(6, tie=True)
    sc = _scene(g, 0, [[]] * 6, lang, "bluff", rolloff=rolls)
    sc.names = NAMES + ["Emma", "Bot 1"]
    out.append(("rolloff-six", sc))

    out.append(("my-turn", _my_turn("perudo", lang)))
    out.append(("game-menu", _my_turn("perudo", lang, ("menu", "next"))))
    out.append(("bid-entry", _my_turn("perudo", lang, ("ok",))))
    out.append(("bid-quantity", _my_turn("perudo", lang, ("ok", "next", "ok"))))
    out.append(("peek-bid", _my_turn("perudo", lang, ("ok", "next", "ok"), peek=True)))
    out.append(("menteur-turn", _my_turn("menteur", lang)))
    sc = _my_turn("menteur", lang, peek=True)
    sc.view.hand = [1, 4, 1, 6, 2]            # two parrots (jokers) among them
    out.append(("peek-menteur", sc))
    out.append(("bluff-turn", _my_turn("bluff", lang, options=None)))
    out.append(("bluff-aside", set_aside(lang, False)))
    out.append(("peek-bluff", set_aside(lang, True)))

    out.append(("reveal", _reveal("perudo", 4, lang)))
    out.append(("reveal-six", _reveal("liars", 6, lang)))

    g = new_game("dixmille", 3, {}, rng=random.Random(5), opener=0)
    g.apply(0, roll([1, 5, 3, 3, 6]))
    out.append(("dixmille-roll", _scene(g, 0, [[], [], []], lang, "dixmille")))
    out.append(("dixmille-kept", dixmille_turn(lang, 0)))
    out.append(("dixmille-watch", dixmille_turn(lang, 1)))
    out.append(("dixmille-next", dixmille_turn(lang, 1, rolled=False)))
    sc = dixmille_turn(lang, 2)
    sc.peek = True                         # a long ok: the score sheet
    out.append(("dixmille-scores", sc))

    g, hands = _played("liars", lambda g: g.need() == "bid" and not g.dice[0] and g.view(0).bid)
    out.append(("spectator", _scene(g, 0, hands, lang, "liars")))
    g, hands = _played("perudo", lambda g: g.winner() == 0)
    out.append(("over-won", _scene(g, 0, hands, lang, "perudo", master=True)))
    g, hands = _played("perudo", lambda g: g.winner() not in (None, 0))
    out.append(("over-lost", _scene(g, 0, hands, lang, "perudo")))
    g, hands = _played("perudo", lambda g: g.need() == "bid" and g.view(0).special and g.to_act() != 0)
    out.append(("palifico", _scene(g, 0, hands, lang, "perudo")))
    g, hands = _played("dixmille", lambda g: g.need() == "keep" and g.to_act() == 0 and len(g.view(0).roll) >= 4)
    out.append(("dixmille-keep", _scene(g, 0, hands, lang, "dixmille")))
    out[-1][1].controls.command(COMMANDS.index("ok"))

    # hints on (the table's HINTS option): the table's tag and toggle, the game's menu
    # with "Show the odds", and the hint page on turn and off, with and without exact
    ui = table_ui(lang, "master", "liars", ["Ana", "Bernard", "Chiara", "Bot 1"],
                  [False, False, False, True], (("one_life", False), ("spot_on", True), ("hints", True)),
                  presses=6)
    out.append(("lobby-table-hints", ui.sc))
    sc = _hinted(_my_turn("perudo", lang))
    sc.hint = False
    sc.controls.command(COMMANDS.index("menu"))
    out.append(("game-menu-hints", sc))
    g, hands = _bluffing("perudo")
    out.append(("hint-bidding", _hinted(_scene(g, 0, hands, lang, "perudo"))))
    out.append(("hint-turn", _hinted(_my_turn("perudo", lang))))
    out.append(("hint-liars", _hinted(_my_turn("liars", lang))))
    out.append(("hint-bluff", _hinted(set_aside(lang, False))))
    return out


def render(outdir, langs, scale=4):
    """Write `<screen>-<lang>.png` for every sample; returns the paths."""
    from pathlib import Path

    from dicecup.ui import fb
    from dicecup.ui.screens import draw

    from . import png
    paths = []
    for code in langs:
        for name, sc in samples(code):
            buf = fb.new()
            draw(buf, sc)
            p = Path(outdir) / ("%s-%s.png" % (name, code))
            png.render(buf, str(p), scale=scale)
            paths.append(p)
    return paths


STRIP = (("shake", "en"), ("peek", "fr"), ("bid-quantity", "de"), ("reveal", "es"),
         ("dixmille-kept", "it"), ("lobby-table-option", "en"))
GAP = 4


def strip(path, picks=STRIP, scale=2):
    """One PNG of several real screens side by side (the README's strip)."""
    from dicecup.ui import fb
    from dicecup.ui.screens import draw

    from . import png
    width = len(picks) * (128 + GAP) - GAP
    wide = bytearray(width * 8)
    for k, (name, code) in enumerate(picks):
        buf = fb.new()
        draw(buf, dict(samples(code))[name])
        x0 = k * (128 + GAP)
        for page in range(8):
            wide[page * width + x0:page * width + x0 + 128] = buf[page * 128:page * 128 + 128]
    return png.render(wide, str(path), scale=scale, width=width, height=64)

