"""The cup's UI: the app's seam (dicecup/app.py) filled with the real screens.

Events, views, the lobby and the cup's status come in; button presses go out as the
app's requests. In a game the button model (ui/controls.py) decides; in the lobby this
module does (a menu, a game to choose, a join code to enter). What to show is kept in
one Scene (ui/screens.py), redrawn only when something changed or a timer ran out:
a peek blanks after PEEK_MS, a toast goes after TOAST_MS, a reveal stays REVEAL_MS.
"""
from micropython import const

from dicecup.engine import RULES
from dicecup.ui import controls as ctl
from dicecup.ui import lang as _lang
from dicecup.ui.keymap import BACK, Keymap, NEXT, OK, PREV
from dicecup.ui.screens import Scene, draw

PEEK_MS = const(3000)
TOAST_MS = const(2500)
REVEAL_MS = const(6000)

MENU = ("menu_create", "menu_join", "menu_lang")
GAME_MENU = ("menu_lang", "leave_table")

# events that are a moment's toast: kind -> (key, which field names a member/seat)
_TOASTS = {"master": ("master_is", "member"), "away": ("away", "member"), "back": ("back", "member"),
           "joined": ("joined", "name"), "left": ("left", "member"), "withheld": ("withheld", "seat")}


class Ui:
    def __init__(self, names=ctl.BOARD4, lang="en"):
        self.keys = Keymap(names)
        self.controls = ctl.Controls(names, len(GAME_MENU))
        self.sc = Scene(lang)
        self.sc.menu = MENU
        self.sc.screen = "menu"
        self.sc.controls = self.controls
        self.lobby = None
        self.order = []        # member ids in seat order (the `seats` event)
        self.dirty = True
        self.now = 0
        self.peek_until = 0
        self.toast_until = 0
        self.reveal_until = 0
        self.mode = "menu"     # lobby: menu, game (choosing one), code, table; or play

    # ----- in ------------------------------------------------------------------------
    def on_setting(self, name, value):
        if name == "lang" and value in _lang.LANGS:
            self.sc.lang = value
            self.dirty = True

    def status(self, link=None, quorum=None, battery_pct=None, low_battery=None):
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
        sc.code = lobby.code or (sc.code if self.mode == "code" else "")
        sc.players = tuple(lobby.members)
        if lobby.phase == "playing" and lobby.seat >= 0:
            self.mode = "play"
            sc.screen = None
        elif lobby.role in ("master", "member") and lobby.phase != "playing":
            if self.mode != "play" or lobby.phase == "lobby":
                self.mode = "table"
                sc.screen = "table"
        self._names()
        self.dirty = True

    def on_view(self, view):
        sc = self.sc
        sc.view = view
        if view is not None:
            self.controls.update(view)
            if view.need != "shake":
                sc.rolled = False
        self.dirty = True

    def on_event(self, ev):
        k = ev.kind
        sc = self.sc
        if k == "seats":
            self.order = list(ev["order"])
            self._names()
        elif k == "shake":
            sc.shake = ev["what"]
            sc.reveal = None
        elif k == "committed":
            sc.shake = None
            sc.rolled = ev["what"] == "round"
        elif k == "reveal":
            sc.reveal = {"quantity": ev["quantity"], "face": ev["face"], "count": ev["count"],
                         "hands": ev["hands"], "lines": []}
            self.reveal_until = self.now + REVEAL_MS
        elif k in ("lose", "gain", "out", "forfeit", "withheld") and sc.reveal is not None:
            key = {"lose": "lose_1", "gain": "gain_1", "out": "out", "forfeit": "cheated",
                   "withheld": "withheld"}[k]
            sc.reveal["lines"].append((key, (sc.name(ev["seat"]),)))
        elif k == "rejected":
            code = ev["code"]
            self._toast("err:" + code if _lang.error(code, "en") != _lang.t("err", "en") else "err", ())
            if sc.view is not None:
                self.controls.update(sc.view)
        elif k == "autoplay":
            self._toast("bot_for_you" if ev["on"] else "you_again", ())
        elif k in _TOASTS:
            key, field = _TOASTS[k]
            v = ev[field]
            self._toast(key, (v if field == "name" else self._member(v) if field == "member" else sc.name(v),))
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
            self.dirty = True
        if sc.toast is not None and now_ms >= self.toast_until:
            sc.toast = None
            self.dirty = True
        if sc.reveal is not None and self.reveal_until and now_ms >= self.reveal_until and not sc.shake:
            sc.reveal = None
            self.dirty = True
        d = self.dirty
        self.dirty = False
        return d

    def draw(self, buf):
        return draw(buf, self.sc)

    # ----- the game --------------------------------------------------------------------
    def _play(self, kind, mask):
        c = self.controls
        d = c.event(kind, mask)
        if d == ctl.NOTHING:
            return None
        self.dirty = True
        if d == ctl.SEND:
            if c.then is not None:
                return [("act", c.action, c.then)]
            return [("act", c.action)]
        if d == ctl.PEEK_DICE:
            self.sc.peek = True
            self.peek_until = self.now + PEEK_MS
            return [("peek", True)]
        if d == ctl.MENU_PICK:
            item = GAME_MENU[c.menu]
            c.close_menu()
            if item == "leave_table":
                return [("leave",)]
            return [("lang", self._next_lang())]
        return None

    # ----- the lobby -------------------------------------------------------------------
    def _lobby(self, cmd):
        sc = self.sc
        self.dirty = True
        if self.mode == "menu":
            if cmd in (PREV, NEXT):
                sc.cursor = (sc.cursor + (1 if cmd == NEXT else -1)) % len(sc.menu)
            elif cmd == OK:
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
            if cmd in (PREV, NEXT):
                sc.cursor = (sc.cursor + (1 if cmd == NEXT else -1)) % len(RULES)
            elif cmd == BACK:
                self._to_menu()
            elif cmd == OK:
                rules = RULES[sc.cursor]
                self._to_menu()
                return [("create", rules, {})]
            return None
        if self.mode == "code":
            return self._code(cmd)
        if self.mode == "table":
            if cmd == OK and self.lobby is not None and self.lobby.role == "master":
                return [("start",)]
            if cmd == BACK:
                return [("leave",)]
        return None

    def _code(self, cmd):
        sc = self.sc
        digits = list(sc.code) + ["0"] * (4 - len(sc.code))
        i = sc.cursor
        if cmd in (PREV, NEXT):
            digits[i] = str((int(digits[i]) + (1 if cmd == NEXT else 9)) % 10)
            sc.code = "".join(digits[:max(i + 1, len(sc.code))])
        elif cmd == OK:
            sc.code = "".join(digits[:max(i + 1, len(sc.code))])
            if i == 3:
                code = "".join(digits)
                self._to_menu()
                return [("join", code)]
            sc.cursor = i + 1
        elif cmd == BACK:
            if i == 0:
                self._to_menu()
            else:
                sc.cursor = i - 1
        return None

    def _to_menu(self):
        sc = self.sc
        self.mode = "menu"
        sc.screen = "menu"
        sc.menu = MENU
        sc.cursor = 0

    # ----- helpers ---------------------------------------------------------------------
    def _next_lang(self):
        langs = _lang.LANGS
        return langs[(langs.index(self.sc.lang) + 1) % len(langs)]

    def _toast(self, key, args):
        self.sc.toast = (key, args)
        self.toast_until = self.now + TOAST_MS
        self.dirty = True

    def _member(self, mid):
        lb = self.lobby
        if lb is not None and 0 <= mid < len(lb.members):
            return lb.members[mid]
        return "?"

    def _names(self):
        lb = self.lobby
        if lb is None:
            return
        order = self.order or list(range(len(lb.members)))
        self.sc.names = [lb.members[m] if m < len(lb.members) else "?" for m in order]
