"""The cup's UI: the app's seam (dicecup/app.py) filled with the real screens.

Events, views, the lobby and the cup's status come in; button presses go out as the
app's requests. In a game the button model (ui/controls.py) decides; in the lobby this
module does (a menu, a game to choose, a join code to enter, the table's menu). What
to show is kept in one Scene (ui/screens.py), redrawn only when something changed or a
timer ran out: a peek blanks after _PEEK_MS, a toast goes after TOAST_MS, a reveal stays
_REVEAL_MS, Bluff's roll-off _ROLLOFF_MS (ok goes on at once). A peek's start and end
change nothing but my dice, a cursor step on the moves nothing but the moves line:
when that is all that changed and the buffer still holds the frame drawn last, with
that part in view, draw() redraws just it (screens.redraw), so the press shows in a
fraction of a whole draw's time.

The table (mode "table", before a game): the seats in their order (the `seats` event,
then joins and leaves), the options (the `rules` event), and a menu in `sc.menu` /
`sc.cursor` as in the lobby's (left/right move the cursor round, ok picks). The
master's: table_start ("start",), table_add_bot ("bot", "Bot N", level), table_bot_level
(ok steps the level the next bot gets: easy, normal, strong, baseline), table_drop_bot
("drop_bot", member) while a bot sits, one table_opt_<name> per option of the rule set
(("rules", rules, options) with that one changed), leave_table ("leave",); a member's:
leave_table. At game over ok asks the master's rematch ("start",), back leaves.

Hints: the table's HINTS option arrives as ("hints", True) after the rule set's options
(the `rules` event, the Lobby); it is kept apart (`sc.hints`), never among `sc.options`.
The master's menu has table_hints (not in Dix mille), which sends the options with
"hints" flipped; every other option's toggle keeps it. In a bidding game with hints
on, the game's menu starts with menu_hint: picked, the hint page is up (`sc.hint`)
until the next button press, which only closes it.
"""
from micropython import const

from dicecup.engine import RULES, options_of
from dicecup.ui import controls as ctl
from dicecup.ui import lang as _lang
from dicecup.ui import keymap
from dicecup.ui import screens

_PEEK_MS = const(3000)
_TOAST_MS = const(2500)
_REVEAL_MS = const(6000)
_ROLLOFF_MS = const(6000)

_MENU = const(("menu_create", "menu_join", "menu_lang"))
GAME_MENU = ("menu_lang", "leave_table")
HINT_MENU = ("menu_hint", "menu_lang", "leave_table")   # with hints on, in a bidding game
#   (menu_hint, then GAME_MENU: written out, a constant, not a tuple built at import)

# events that are a moment's toast: (kind, key, which field names a member/seat)
_TOASTS = const((("master", "master_is", "member"), ("away", "away", "member"), ("back", "back", "member"),
                  ("joined", "joined", "name"), ("left", "left", "member"), ("withheld", "withheld", "seat")))
del const   # (compile-time only: with the timers and the lobby menu private, 11 globals: a 96 B table, not 144)


class Ui:
    def __init__(self, names=ctl.BOARD4, lang="en"):
        self.keys = keymap.Keymap(names)
        self.controls = ctl.Controls(names, len(GAME_MENU), self.keys)
        self.sc = screens.Scene(lang, None)
        self.sc.menu = _MENU
        self.sc.screen = "menu"
        self.sc.controls = self.controls
        self.sc.game_menu = GAME_MENU
        self.lobby = None
        self.order = []        # member ids in seat order (the `seats` event)
        self.dirty = True
        self.parts = 0         # what changed is only these parts (screens.DICE, MOVES)
        self._parts = 0        # ... as the last tick saw it: the next draw's
        self._buf = None       # the last whole draw: into which buffer, which screen,
        self._name = None      # ... and the parts it shows uncovered (no tuple made
        self._view = 0         # per frame)
        self.now = 0
        self.peek_until = 0
        self.toast_until = 0
        self.reveal_until = 0
        self.rolloff_until = 0
        self.gone = []         # members who left the table before the game: no seat
        self.options = None    # (rules, [(name, value), ...]): the `rules` event's
        self.mode = "menu"     # lobby: menu, game (choosing one), code, tables, table; or play
        self.joining = ""      # the code typed, while the table to join is chosen
        self.sc.bot_level = "easy"   # the master's: the level the next bot added plays at

    # ----- in ------------------------------------------------------------------------
    def on_setting(self, name, value):
        if name == "lang" and value in _lang.LANGS:
            self.sc.lang = value
            self.dirty = True

    def status(self, link, quorum, battery_pct, low_battery):
        """The cup's status; None leaves that part as it is."""
        sc = self.sc
        if link is not None:
            sc.link = link
        if quorum is not None:
            sc.quorum = quorum
        if battery_pct is not None:
            sc.battery = battery_pct
        if low_battery is not None:
            if low_battery and not sc.low:
                self._toast("battery_low", ())
            sc.low = low_battery
        self.dirty = True

    def on_lobby(self, lobby):
        self.lobby = lobby
        sc = self.sc
        sc.rules = lobby.rules
        sc.master = lobby.role == "master"
        opts = getattr(lobby, "options", None)     # (a Lobby that carries them)
        if opts is not None:
            self._set_options(lobby.rules, opts)
        sc.code = lobby.code or (sc.code if self.mode == "code" else "")
        if lobby.role not in ("master", "member"):
            self.order = []
            self.gone = []
            if self.mode in ("table", "play"):     # left the table (or was never at one)
                self._to_menu()
        if lobby.phase == "playing" and lobby.seat >= 0:
            self.mode = "play"
            sc.screen = None
        elif lobby.role in ("master", "member") and lobby.phase != "playing":
            if self.mode != "play" or lobby.phase == "lobby":
                self.mode = "table"
                sc.screen = "table"
        if self.mode == "tables":              # tables come and go while I choose
            sc.tables = tuple(lobby.tables)
            if sc.cursor >= len(sc.tables):
                sc.cursor = 0
        self._names()
        self._table_menu()
        self.dirty = True

    def on_view(self, view):
        sc = self.sc
        sc.view = view
        if view is not None:
            self.controls.update(view)
            if view.need != "shake":
                sc.rolled = False
            # a shake asked for stays on screen only while the game still waits for it:
            # the round's dice, my roll on my turn (banked or bust, it is gone), a reroll
            # until it is committed
            w = sc.shake
            if w == "round" and view.need != "shake" or w == "roll" and not (
                    view.mine and view.need in ("roll", "bank-or-roll")):
                sc.shake = None
        self.dirty = True

    def on_event(self, ev):
        k = ev.kind
        sc = self.sc
        if k == "seats":
            self.order = list(ev["order"])
            self._names()
            self._table_menu()
        elif k == "rules":
            sc.rules = ev["rules"]
            self._set_options(sc.rules, ev["options"])
            self._table_menu()
        elif k == "joined" and self._in_lobby():
            if ev["member"] in self.gone:
                self.gone.remove(ev["member"])
            if self.order and ev["member"] not in self.order:
                self.order.append(ev["member"])      # the table seats a joiner last
            if self.lobby is not None and ev["member"] != self.lobby.me:
                self._toast("joined", (ev["name"],))
            self._names()
            self._table_menu()
        elif k == "left" and self._in_lobby():       # before a game a leaver's seat goes
            m = ev["member"]
            if m not in self.gone:
                self.gone.append(m)
            self._toast("left", (self._member(m),))
            self._names()
            self._table_menu()
        elif k == "start":
            sc.hint = False
            sc.rolloff = []
            sc.kept = []
            sc.reveal = None
        elif k == "rolloff":
            sc.rolloff.append((ev["seat"], list(ev["faces"])))
            self.rolloff_until = self.now + _ROLLOFF_MS
        elif k == "keep":
            sc.kept.extend(ev["faces"])
        elif k in ("hot", "turn", "bank", "bust", "overshoot"):
            sc.kept = []
        elif k == "shake":
            sc.shake = ev["what"]
            sc.reveal = None
        elif k == "committed":
            sc.shake = None
            sc.rolled = ev["what"] == "round"
        elif k == "reveal":
            sc.hint = False
            sc.reveal = {"quantity": ev["quantity"], "face": ev["face"], "count": ev["count"],
                         "hands": ev["hands"], "lines": []}
            self.reveal_until = self.now + _REVEAL_MS
        elif k in ("lose", "gain", "out", "forfeit", "withheld") and sc.reveal is not None:
            key = {"lose": "lose_1", "gain": "gain_1", "out": "out", "forfeit": "cheated",
                   "withheld": "withheld"}[k]
            sc.reveal["lines"].append((key, (sc.name(ev["seat"]),)))
        elif k == "rejected":
            code = ev["code"]
            self._toast("err:" + code if _lang.error(code, "en", None) != _lang.t("err", "en") else "err", ())
            if sc.view is not None:
                self.controls.update(sc.view)
        elif k == "autoplay":    # a cup's own bot plays its seat (on), or its player again
            m = ev["member"]
            if self.lobby is not None and m == self.lobby.me:
                self._toast("bot_for_you" if ev["on"] else "you_again", ())
            else:
                self._toast("bot_for" if ev["on"] else "plays_again", (self._member(m),))
        else:
            for kind, key, field in _TOASTS:
                if kind == k:
                    v = ev[field]
                    self._toast(key, (v if field == "name" else self._member(v) if field == "member"
                                      else sc.name(v),))
                    break
            else:
                return
        self.dirty = True

    def on_buttons(self, kind, mask):
        if self.mode == "play":
            return self._play(kind, mask)
        cmd = self.keys.command(kind, mask)
        return self._lobby(cmd) if cmd else None

    # ----- out -------------------------------------------------------------------------
    def tick(self, now_ms):
        self.now = now_ms
        sc = self.sc
        if sc.peek and now_ms >= self.peek_until:
            sc.peek = False
            self.parts |= screens.DICE
        if sc.toast is not None and now_ms >= self.toast_until:
            sc.toast = None
            self.dirty = True
        if sc.reveal is not None and self.reveal_until and now_ms >= self.reveal_until and not sc.shake:
            sc.reveal = None
            self.dirty = True
        if sc.rolloff and now_ms >= self.rolloff_until:
            sc.rolloff = []
            self.dirty = True
        d = self.dirty
        p = self.parts
        self.dirty = False
        self.parts = 0
        self._parts = 0 if d else p
        return d or p != 0

    def draw(self, buf):
        """The screen into buf: only the parts that changed, when nothing else did since
        the last whole frame, drawn into this same buffer, and they are in view there
        (a draw the app asks for without a tick saying so is whole); else the whole
        screen. Returns its name."""
        sc = self.sc
        parts = self._parts
        self._parts = 0
        if parts and not self.dirty and not self.parts and buf is self._buf and parts & self._view == parts:
            screens.redraw(buf, sc, parts)
            return self._name
        name = screens.draw(buf, sc)
        self._buf = buf
        self._name = name
        self._view = screens.in_view(sc, name)
        return name

    # ----- the game --------------------------------------------------------------------
    def _play(self, kind, mask):
        sc = self.sc
        v = sc.view
        cmd = self.keys.command(kind, mask)
        if sc.hint and cmd:                        # any button closes the hint page
            sc.hint = False
            self.dirty = True
            return None
        if sc.rolloff and cmd == keymap.OK:               # ok: on from the roll-off at once
            sc.rolloff = []
            self.dirty = True
            return None
        if v is not None and v.winner is not None and self.controls.focus != ctl.AT_MENU:
            self.dirty = True
            if cmd == keymap.OK and self.lobby is not None and self.lobby.role == "master":
                return [("start",)]                # the rematch
            if cmd == keymap.BACK:
                return [("leave",)]
        c = self.controls
        focus = c.focus
        move = c.move
        d = c.event(kind, mask)
        if d == ctl.NOTHING:
            return None
        if d == ctl.PEEK_DICE:
            if not sc.peek:
                sc.peek = True
                self.parts |= screens.DICE
            self.peek_until = self.now + _PEEK_MS
            return [("peek", True)]
        if d == ctl.REDRAW and focus == ctl.AT_MOVES and c.focus == ctl.AT_MOVES:
            if c.move != move:
                self.parts |= screens.MOVES     # the cursor stepped along the moves
            return None
        self.dirty = True
        if d == ctl.SEND:
            if c.then is not None:
                return [("act", c.action, c.then)]
            return [("act", c.action)]
        if d == ctl.MENU_PICK:
            item = sc.game_menu[c.menu]
            c.close_menu()
            if item == "menu_hint":
                sc.hint = True
                return None
            if item == "leave_table":
                return [("leave",)]
            return [("lang", self._next_lang())]
        return None

    # ----- the lobby -------------------------------------------------------------------
    def _lobby(self, cmd):
        sc = self.sc
        self.dirty = True
        if self.mode == "menu":
            if cmd in (keymap.PREV, keymap.NEXT):
                sc.cursor = (sc.cursor + (1 if cmd == keymap.NEXT else -1)) % len(sc.menu)
            elif cmd == keymap.OK:
                item = sc.menu[sc.cursor]
                if item == "menu_lang":
                    return [("lang", self._next_lang())]
                if item == "menu_join":
                    self.mode = sc.screen = "code"
                    sc.code = ""
                    sc.cursor = 0
                else:
                    self.mode = "game"
                    sc.screen = "menu"
                    sc.menu = RULES
                    sc.cursor = 0
            return None
        if self.mode == "game":      # choosing the game to create a table for
            if cmd in (keymap.PREV, keymap.NEXT):
                sc.cursor = (sc.cursor + (1 if cmd == keymap.NEXT else -1)) % len(RULES)
            elif cmd == keymap.BACK:
                self._to_menu()
            elif cmd == keymap.OK:
                rules = RULES[sc.cursor]
                self._to_menu()
                return [("create", rules, {})]
            return None
        if self.mode == "code":
            return self._code(cmd)
        if self.mode == "tables":
            return self._tables(cmd)
        if self.mode == "table":
            return self._table(cmd)
        return None

    # ----- the table's menu ------------------------------------------------------------
    def _table(self, cmd):
        sc = self.sc
        n = len(sc.menu)
        if not n:
            return None
        if cmd in (keymap.PREV, keymap.NEXT):
            sc.cursor = (sc.cursor + (1 if cmd == keymap.NEXT else -1)) % n
            return None
        if cmd != keymap.OK:
            return None
        item = sc.menu[sc.cursor]
        if item == "leave_table":
            return [("leave",)]
        if item == "table_start":
            return [("start",)]
        if item == "table_add_bot":
            names = [self._member(m) for m in self._seated()]
            k = 1                           # the first "bot k" not taken
            while _lang.t("bot_name", "en", k) in names:
                k += 1
            return [("bot", _lang.t("bot_name", "en", k), sc.bot_level)]
        if item == "table_bot_level":       # ok steps through the levels this cup has
            from dicecup import players
            kinds = players.available()
            sc.bot_level = kinds[(kinds.index(sc.bot_level) + 1) % len(kinds)] if sc.bot_level in kinds else kinds[0]
            self.dirty = True
            return None
        if item == "table_hints" and sc.rules in RULES:
            opts = dict(self._options())
            opts["hints"] = not sc.hints
            return [("rules", sc.rules, opts)]
        if item == "table_drop_bot":
            bot = self._last_bot()
            return [("drop_bot", bot)] if bot is not None else None
        if item.startswith("table_opt_") and sc.rules in RULES:
            name = item[10:]
            opts = {}
            for o, value in self._options():
                if o == name:
                    for choice in self._choices(name):
                        if choice != value:
                            value = choice
                            break
                opts[o] = value
            if sc.hints:
                opts["hints"] = True                # (kept)
            return [("rules", sc.rules, opts)]
        return None

    def _table_menu(self):
        """The table's menu for my role, the cursor kept on the same item."""
        sc = self.sc
        lb = self.lobby
        sc.options = tuple(self._options())
        if self.mode != "table" or lb is None:
            return
        if lb.role != "master":
            items = ["leave_table"]
        else:
            items = ["table_start"]
            if len(self._seated()) < 6:
                items.append("table_add_bot")
                items.append("table_bot_level")
            if self._last_bot() is not None:
                items.append("table_drop_bot")
            for name, _ in sc.options:
                items.append("table_opt_" + name)
            if sc.rules != "dixmille":
                items.append("table_hints")
            items.append("leave_table")
        was = sc.menu[sc.cursor] if sc.screen == "table" and 0 <= sc.cursor < len(sc.menu) else None
        sc.menu = tuple(items)
        sc.cursor = items.index(was) if was in items else 0
        sc.screen = "table"

    def _set_options(self, rules, opts):
        """The table's options, ("hints", on) taken out of them into sc.hints; the
        game's menu follows (the hint item in a bidding game with hints on)."""
        sc = self.sc
        hints = False
        kept = []
        for o in opts:
            if o[0] == "hints":
                hints = o[1] is True
            else:
                kept.append((o[0], o[1]))
        self.options = (rules, kept)
        sc.hints = hints
        menu = HINT_MENU if hints and rules != "dixmille" else GAME_MENU
        if sc.game_menu is not menu:
            sc.game_menu = menu
            self.controls.menu_size = len(menu)
        if not hints:
            sc.hint = False

    def _options(self):
        """The rule set's options and their values: the table's, else the defaults."""
        rules = self.sc.rules
        if rules not in RULES:
            return []
        if self.options is not None and self.options[0] == rules:
            return self.options[1]
        return [(o[0], o[1][0]) for o in options_of(rules)]

    def _choices(self, name):
        for o in options_of(self.sc.rules):
            if o[0] == name:
                return o[1]
        return ()

    def _last_bot(self):
        lb = self.lobby
        seated = self._seated()
        for i in range(len(seated) - 1, -1, -1):
            m = seated[i]
            if m < len(lb.bots) and lb.bots[m]:
                return m
        return None

    def _code(self, cmd):
        sc = self.sc
        digits = list(sc.code) + ["0"] * (4 - len(sc.code))
        i = sc.cursor
        if cmd in (keymap.PREV, keymap.NEXT):
            digits[i] = str((int(digits[i]) + (1 if cmd == keymap.NEXT else 9)) % 10)
            sc.code = "".join(digits[:max(i + 1, len(sc.code))])
        elif cmd == keymap.OK:
            sc.code = "".join(digits[:max(i + 1, len(sc.code))])
            if i == 3:
                code = "".join(digits)
                if self.lobby is not None and len(self.lobby.tables) > 1:
                    self.joining = code        # several tables heard: which one?
                    self.mode = sc.screen = "tables"
                    sc.tables = tuple(self.lobby.tables)
                    sc.cursor = 0
                    return None
                self._to_menu()
                return [("join", code)]
            sc.cursor = i + 1
        elif cmd == keymap.BACK:
            if i == 0:
                self._to_menu()
            else:
                sc.cursor = i - 1
        return None

    def _tables(self, cmd):
        """The tables heard, after the code: left/right choose, ok joins, back returns
        to the code's last digit."""
        sc = self.sc
        n = len(sc.tables)
        if cmd in (keymap.PREV, keymap.NEXT) and n:
            sc.cursor = (sc.cursor + (1 if cmd == keymap.NEXT else -1)) % n
        elif cmd == keymap.OK and n:
            tid = sc.tables[sc.cursor][0]
            self._to_menu()
            return [("join", self.joining, tid)]
        elif cmd == keymap.BACK:
            self.mode = sc.screen = "code"
            sc.code = self.joining
            sc.cursor = 3
        return None

    def _to_menu(self):
        sc = self.sc
        self.mode = "menu"
        sc.screen = "menu"
        sc.menu = _MENU
        sc.cursor = 0

    # ----- helpers ---------------------------------------------------------------------
    def _next_lang(self):
        langs = _lang.LANGS
        return langs[(langs.index(self.sc.lang) + 1) % len(langs)]

    def _toast(self, key, args):
        self.sc.toast = (key, args)
        self.toast_until = self.now + _TOAST_MS
        self.dirty = True

    def _member(self, mid):
        lb = self.lobby
        if lb is not None and 0 <= mid < len(lb.members):
            return lb.members[mid]
        return "?"

    def _in_lobby(self):
        lb = self.lobby
        return lb is None or lb.phase != "playing" and lb.phase != "done"

    def _seated(self):
        """Member ids in seat order: the `seats` event's order, joiners after it, leavers
        (before the game) out; the join order until a `seats` event."""
        lb = self.lobby
        if lb is None:
            return []
        n = len(lb.members)
        order = self.order or range(n)
        return [m for m in order if m < n and m not in self.gone]

    def _names(self):
        lb = self.lobby
        if lb is None:
            return
        seated = self._seated()
        sc = self.sc
        sc.names = [lb.members[m] for m in seated]
        sc.players = tuple(sc.names)
        sc.bots = tuple(m < len(lb.bots) and bool(lb.bots[m]) for m in seated)
