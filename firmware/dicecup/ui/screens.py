"""The cup's screens: one `Scene` (what the player should see now) drawn into the
OLED's 1024-byte buffer. Pure drawing: the Scene is filled by the UI from the seat's
View, the table's events and the cup's status, never from engine internals, so the
same scene draws the same bytes on the cup, in the simulator and in the golden tests.

    sc = Scene("fr", "perudo")
    sc.view = cup.view(); sc.names = [...]; sc.controls = controls
    draw(buf, sc)             # picks the screen (`pick`), then its status overlays

Layout, 128x64: a status strip on top (8 px, 5x8 font: what the table is doing, the
link and the battery, always visible), the screen's body below it. Dice are drawn
(ui/dice.py), never written: a bid reads "3 x" followed by the face's die. In play
(the bidding and my-turn screens) my own dice stand in a strip right of the standing
bid, face down (grey); a peek (a long ok) turns them up in place and they turn down
again by themselves (ui/ui.py): only their face boxes change, 64 columns of one OLED
page. Such a part of a screen (PARTS: my dice, the moves line) can be redrawn alone
(`redraw`) when nothing else changed and `in_view` says it shows uncovered. A banner
over the body says what must not be missed: the connection lost, waiting for the table
(no majority), and, for a moment, a toast (master changed, a bot took a seat...).

Hints (the table's HINTS option, off by default; `sc.hints`): the table screen's strip
says so on the right, and in a bidding game the game's menu (long right) gets "Show
the odds" first. Picked, it shows the hint page (`sc.hint`) in place of the bidding,
my-turn or waiting screen, on turn or off, until any button: a row each for the
standing bid, calling exact on it (when the game has an exact call) and the safest
raise (on my turn: the legal bid most likely true, ties to the lower), each with its
percent and word (ui/hint.py, players/odds.py). The button map stays the same in every
rule set; Dix mille has no hint (the item is not offered).
"""
from micropython import const

from dicecup.ui import dice, fb, lang, text
from dicecup.ui import font_5x8 as SMALL, font_6x10 as BIG   # (no other name for them: a globals slot each)

_TOP = const(9)          # the body starts under the status strip
_LINE = const(11)        # a 6x10 line with a pixel of air
_BAND = const(22)        # the bid band: the standing bid left, my dice right; SMALL
                         # dice here have their face boxes in rows 24-31, page 3 alone
_PITCH = const(13)       # my dice: a SMALL die and a pixel of air
# a bot's seat: a small robot head (antenna, eyes, mouth), 5 x 6
_BOT = const((0b00100, 0b11111, 0b10101, 0b11111, 0b10001, 0b11111))
# the moves line's labels, by move (controls.M_*)
_MOVE_KEYS = const(("", "btn_bid", "btn_call", "btn_exact", "btn_reroll", "btn_keep", "btn_roll", "btn_bank"))


class Scene:
    """What the screen shows; the UI sets what it knows and leaves the rest."""

    def __init__(self, lang, rules):
        self.lang = lang
        self.rules = rules
        self.screen = None     # a lobby screen by name ("menu", "code", "table"), else the game's
        self.view = None       # the seat's View (engine/view.py)
        self.names = []        # every seat's player name, in seat order
        self.controls = None   # the button model (ui/controls.py): focus, moves, bid being made
        self.peek = False      # my dice shown (a long press on ok), blanking by itself
        self.shake = None      # "round", "reroll" or "roll" while a shake is awaited
        self.rolled = False    # my roll is committed, the others still shaking
        self.reveal = None     # the last reveal: {"quantity", "face", "count", "hands", "lines"}
        self.toast = None      # (key, args): shown for a moment over the body
        self.link = True       # the radio link to the table
        self.quorum = True     # a majority of the table's cups is in reach
        self.battery = None    # percent, or None when unknown
        self.low = False       # the battery is low
        self.menu = ()         # lobby: the menu's keys, and the cursor
        self.cursor = 0
        self.code = ""         # lobby: the join code (shown, or being entered: `cursor` digit)
        self.players = ()      # lobby: the names in the table's seats, in seat order ...
        self.bots = ()         # ... and whether each is a bot
        self.bot_level = "easy"  # lobby, the master's: the level of the next bot added
        self.options = ()      # lobby: the rule set's options, ((name, value), ...)
        self.rolloff = []      # Bluff: the roll-off's public rolls, [(seat, faces), ...] in order
        self.kept = []         # Dix mille: the dice kept this turn (since the last hot dice)
        self.game_menu = ()    # in a game: the menu's keys (the button model's `menu` cursor)
        self.master = False    # this cup is the table's master (game over: the rematch is its)
        self.tables = ()       # lobby: tables heard, (tid, master, rules code 1.., members, playing)
        self.hints = False     # the table shows hints (its HINTS option)
        self.hint = False      # the hint page is up (picked from the game's menu)

    # ----- strings -------------------------------------------------------------------
    def t(self, key, *args):
        if self.rules:
            return lang.tr(self.rules, key, self.lang, *args)
        return lang.t(key, self.lang, *args)

    def name(self, seat):
        if self.view is not None and seat == self.view.seat:
            return self.t("you")
        return self.names[seat] if 0 <= seat < len(self.names) else "?"


def pick(sc):
    """The screen to show for this scene, by name."""
    if sc.screen:
        return sc.screen
    v = sc.view
    if v is None:
        return "menu"
    if v.winner is not None:
        return "over"
    if sc.reveal is not None and v.need != "reveal":
        return "reveal"
    if sc.rolloff and v.rules == "bluff":
        return "rolloff"
    if sc.shake:
        return "shake"
    if sc.hint and sc.hints and v.rules != "dixmille" and v.seat not in v.eliminated:
        return "hint"
    if sc.rolled and v.need == "shake":
        return "waiting"
    if v.rules == "dixmille":
        return "scores" if sc.peek else "dixmille"   # (no hidden dice: a peek shows the sheet)
    if v.seat in v.eliminated:
        return "spectator"
    if sc.controls is not None and v.mine:
        return "entry"
    return "bidding"


def draw(buf, sc):
    """The whole screen for `sc`; returns its name (`pick`)."""
    fb.fill(buf, 0)
    name = pick(sc)
    if name == "dixmille" or name == "scores":
        from dicecup.ui import sheet
        getattr(sheet, name)(buf, sc)
    elif name == "rolloff":
        from dicecup.ui import rolloff
        rolloff.draw(buf, sc)
    elif name == "hint":
        from dicecup.ui import hint
        hint.draw(buf, sc)
    else:
        globals()["_" + name](buf, sc)
    _status(buf, sc, name)
    c = sc.controls
    items = sc.game_menu
    if not sc.screen and c is not None and c.focus == 4 and items:   # AT_MENU
        # the game's menu (a long right / long back) over the screen: its items in a
        # box, the cursor's inverted; ok picks, back closes
        h = len(items) * _LINE + 3
        fb.fill_rect(buf, 0, 58 - h, 128, h + 6, 0)   # (a clear band above: no half-lines)
        fb.rect(buf, 0, 63 - h, 128, h + 1, 1)
        for i in range(len(items)):
            label = sc.t(items[i])
            if items[i] == "menu_lang":      # "Language: English", as French spaces its colon
                label += (" : " if sc.lang == "fr" else ": ") + sc.t("lang_name")
            text.draw(buf, " " + label + " ", 2, 65 - h + i * _LINE, BIG, inverse=(i == c.menu))
    banner = (("link_lost", "reconnecting") if not sc.link
              else ("quorum_wait", "quorum_hint") if not sc.quorum else None)
    if banner is not None:   # a box over the body
        fb.fill_rect(buf, 0, 18, 128, 37, 0)
        fb.rect(buf, 0, 20, 128, 32, 1)
        text.centre(buf, sc.t(banner[0]), 24, BIG)
        text.centre(buf, sc.t(banner[1]), 38, SMALL)
    elif sc.toast is not None:   # a line at the foot
        fb.fill_rect(buf, 0, 54, 128, 10, 1)
        text.centre(buf, sc.t(sc.toast[0], *sc.toast[1]), 55, SMALL, inverse=True)
    return name


# the parts of a screen `redraw` can draw alone, a bit each
DICE = const(1)          # my dice in the bid band (a peek turns them)
MOVES = const(2)         # the moves line, page 7 alone (the cursor moves on it)
del const   # (compile-time only: with the fonts, the bot's head and the move keys
            # folded, and the banner, toast and game menu drawn in draw(), 37 globals:
            # a 304 B table, not 384)


def in_view(sc, name):
    """The parts (DICE, MOVES bits) screen `name`, drawn for `sc`, shows uncovered: no
    banner, toast or menu over the screen, my dice not in the picker."""
    if not sc.link or not sc.quorum or sc.toast is not None:
        return 0
    c = sc.controls
    if c is None:
        return DICE if name == "bidding" else 0
    if c.focus == 4 and sc.game_menu:   # AT_MENU
        return 0
    if name == "bidding":
        return DICE
    if name == "entry":
        return DICE | MOVES if c.focus == 0 else DICE if c.focus != 3 else 0   # AT_MOVES, AT_DICE
    if name == "dixmille" and sc.view.mine and c.focus == 0:
        return MOVES
    return 0


def redraw(buf, sc, parts):
    """Draw only `parts` of the screen (bits `in_view` gave for it): what a whole draw()
    of `sc` gives there, the rest of buf left as it is."""
    if parts & DICE:   # my dice under the cup turned up (sc.peek) or down: their face boxes only
        _cup_dice(buf, sc, dice.turn)
    if parts & MOVES:
        fb.fill_rect(buf, 0, 56, 128, 8, 0)
        _moves(buf, sc, sc.controls)


def _cup_dice(buf, sc, paint):
    """Paint each die under my cup (face down, or up while I peek) with `paint`
    (dice.draw, or dice.turn for their face boxes alone); returns the x after them."""
    v = sc.view
    hand = v.hand
    n = len(hand) if hand else v.hidden         # the dice under my cup
    aside = v.aside[v.seat] if v.aside else ()
    x = 128 - (n + len(aside)) * _PITCH + 1    # flush right
    up = sc.peek and hand
    for i in range(n):
        paint(buf, _face(sc, hand[i]) if up else dice.HIDDEN, x, _BAND, dice.SMALL, False)
        x += _PITCH
    return x


def _my_dice(buf, sc):
    """My dice, flush right in the bid band: those under my cup face down (grey), or
    face up while I peek; then my set-aside dice (Bluff's reroll), public: hollow, up."""
    v = sc.view
    x = _cup_dice(buf, sc, dice.draw)
    if v.aside:
        for f in v.aside[v.seat]:
            dice.draw(buf, _face(sc, f), x, _BAND, dice.SMALL, True)
            x += _PITCH


def _standing(buf, sc, none_key):
    """The bid band's left: the standing bid and, under it, who made it; with no bid
    yet, `none_key` across the line below."""
    v = sc.view
    if v.bid is not None:
        _bid(buf, sc, v.bid[0], v.bid[1], _BAND, None, 64)
        text.centre(buf, sc.t("bid_by", sc.name(v.bidder)), _BAND + 13, SMALL, w=64)
    else:
        text.centre(buf, sc.t(none_key), _BAND + 12, BIG)


# ----- pieces -------------------------------------------------------------------------
def _status(buf, sc, name):
    """The top strip: where the game stands on the left, the link and battery right."""
    v = sc.view
    s = ""
    if name == "rolloff":
        from dicecup.ui import rolloff
        opener = rolloff.rolloff_result(v.seats, sc.rolloff)[1]
        if opener is None:
            s = sc.t("rolloff")
        else:
            s = sc.t("you_open") if opener == v.seat else sc.t("opens", sc.name(opener))
    elif name == "table":
        s = lang.game_word(sc.rules, "game", sc.lang) if sc.rules in lang.RULES else ""
        if sc.hints:
            text.right(buf, sc.t("hints_tag"), 0, SMALL, end=127 - 17)
    elif name == "scores":
        s = sc.t("scores")
    elif v is not None and v.rules == "dixmille" and v.scores:
        s = sc.t("score", v.scores[v.seat]) if v.opened[v.seat] else sc.t("not_open")
    elif v is not None and v.round is not None and name != "menu":
        s = sc.t("round_n", v.round)
    x = 127 - 14
    text.draw(buf, s[:(x - 9) // SMALL.WIDTH], 0, 0, SMALL)   # (room for the link mark)
    pct = sc.battery
    if pct is not None:      # the battery: a 12x6 box and its tip, filled by tenths
        fb.rect(buf, x, 1, 12, 6, 1)
        fb.fill_rect(buf, x + 12, 3, 2, 2, 1)
        fb.fill_rect(buf, x + 1, 2, 0 if sc.low and pct < 10 else max(1, min(10, (pct + 5) // 10)), 4, 1)
    if not sc.link:
        text.draw(buf, "x", x - 7, 0, SMALL)
    fb.fill_rect(buf, 0, 8, 128, 1, 1 if name not in ("menu", "code", "tables") else 0)


def _face(sc, f):
    return dice.shown(sc.rules or (sc.view.rules if sc.view else ""), f)


def _bid(buf, sc, q, f, y, x, w):
    """ "q x" and the face's die, centred in the first w columns (or from x); returns
    x after."""
    s = "%d \xd7" % q
    bw = text.width(s, BIG) + 2 + dice.SMALL
    x0 = (w - bw) // 2 if x is None else x
    w = bw
    text.draw(buf, s, x0, y + 1, BIG)
    dice.draw(buf, _face(sc, f), x0 + w - dice.SMALL, y, dice.SMALL, False)
    return x0 + w


def _counts(buf, sc, y):
    """Every player's dice count, a short name each, in seat order."""
    v = sc.view
    n = len(v.dice)
    w = 128 // n
    for s in range(n):
        nm = sc.name(s)[: max(1, w // 5 - 2)]
        label = "%s%d" % (nm, v.dice[s]) if v.dice[s] else nm + "-"
        text.draw(buf, label, s * w, y, SMALL, inverse=(s == v.turn))


# ----- the lobby ------------------------------------------------------------------------
def _menu(buf, sc):
    text.centre(buf, "Dice cups", 0, BIG)
    fb.fill_rect(buf, 0, 11, 128, 1, 1)
    first = max(0, min(sc.cursor - 2, len(sc.menu) - 3))   # three items show; the cursor's among them
    for i in range(first, min(len(sc.menu), first + 3)):
        item = sc.menu[i]
        label = lang.game_word(item, "game", sc.lang) if item in lang.RULES else sc.t(item)
        text.draw(buf, " " + label, 0, 14 + (i - first) * _LINE, BIG, inverse=(i == sc.cursor))
    text.draw(buf, sc.t("lang_name"), 0, 56, SMALL)


def _tables(buf, sc):
    """Which table to join, when more than one is heard: the master's name and the game."""
    text.centre(buf, sc.t("tables"), 0, BIG)
    fb.fill_rect(buf, 0, 11, 128, 1, 1)
    tables = sc.tables
    if not tables:
        text.centre(buf, sc.t("tables_none"), 28, BIG)
        return
    first = max(0, min(sc.cursor - 2, len(tables) - 3))
    for i in range(first, min(len(tables), first + 3)):
        text.draw(buf, " " + sc.t("table_of", tables[i][1]), 0, 14 + (i - first) * _LINE, BIG,
                  inverse=(i == sc.cursor))
    code = tables[sc.cursor][2]
    if 1 <= code <= len(lang.RULES):
        text.centre(buf, lang.game_word(lang.RULES[code - 1], "game", sc.lang), 56, SMALL)


def _code(buf, sc):
    text.centre(buf, sc.t("enter_code"), 12, BIG)
    x0 = (128 - 4 * 20) // 2
    for i in range(4):
        d = sc.code[i] if i < len(sc.code) else "-"
        text.draw(buf, " %s " % d, x0 + i * 20 + 1, 30, BIG, inverse=(i == sc.cursor))
    text.centre(buf, sc.t("code_hint"), 52, SMALL)


def _table(buf, sc):
    """Before a game: the join code (master; a member waits for the start), the seats
    in their order with the bots marked, the options, and the menu (`sc.menu`, the
    cursor's item inverted): a member's is leaving; the master's two items at a time."""
    text.centre(buf, sc.t("code", sc.code) if sc.code else sc.t("wait_start"), _TOP + 1, BIG)
    for i in range(min(6, len(sc.players))):     # three columns, two rows
        x = (i % 3) * 43
        y = 21 + (i // 3) * 8
        if i < len(sc.bots) and sc.bots[i]:
            fb.bitmap(buf, x, y + 1, 5, _BOT, 1)
        text.draw(buf, sc.players[i][:7], x + 6, y, SMALL)
    menu = sc.menu
    if len(menu) <= 1:                            # a member: the options are read here
        y = 38
        for name, value in sc.options[:2]:
            text.draw(buf, option_label(sc, name, value), 0, y, SMALL)
            y += 8
        if menu:
            text.draw(buf, " " + sc.t(menu[0]) + " ", 0, 54, BIG, inverse=True)
        return
    first = max(0, min(sc.cursor - 1, len(menu) - 2))
    for i in range(first, first + 2):
        text.draw(buf, " " + menu_label(sc, menu[i]) + " ", 0, 42 + (i - first) * 11, BIG,
                  inverse=(i == sc.cursor))


def option_label(sc, name, value):
    """ "Reroll: On" -- an option of the table's rule set with its value."""
    if value is True or value is False:
        v = sc.t("opt_on" if value else "opt_off")
    else:
        v = sc.t("opt:%s:%s" % (name, value))
    return sc.t("table_opt_" + name, v)


def menu_label(sc, item):
    """A table menu item's text: an option's toggle shows the option's value now."""
    if item == "table_bot_level":
        return sc.t("table_bot_level", sc.t("level_" + sc.bot_level))
    if item == "table_hints":
        return sc.t("table_opt_hints", sc.t("opt_on" if sc.hints else "opt_off"))
    if item.startswith("table_opt_"):
        name = item[10:]
        for o, value in sc.options:
            if o == name:
                return option_label(sc, name, value)
    return sc.t(item)



# ----- the round ------------------------------------------------------------------------
def _shake(buf, sc):
    v = sc.view
    key = {"reroll": "shake_reroll", "roll": "shake_roll"}.get(sc.shake, "shake")
    text.centre(buf, sc.t(key), _TOP + 1, BIG)
    n = v.hidden if v is not None and v.hidden else 5
    if sc.shake == "roll" and v is not None and v.left:
        n = v.left
    size = dice.LARGE if n <= 5 else dice.SMALL
    gap = 2
    x = (128 - n * (size + gap) + gap) // 2
    dice.row(buf, [dice.HIDDEN] * n, x, 22, size, gap, 0)
    text.centre(buf, sc.t("shake_hint"), 47, SMALL)
    text.centre(buf, sc.t("peek"), 56, SMALL)


def _waiting(buf, sc):
    text.centre(buf, sc.t("rolled"), _TOP + 1, BIG)
    text.centre(buf, sc.t("wait_others"), 30, BIG)


def _bidding(buf, sc):
    """Another's turn: whose, the standing bid and who made it, my dice (a peek turns
    them up), the round's special rules, the set-aside dice (Bluff) of the bidder (or
    the player on turn) when not mine, every player's dice count."""
    v = sc.view
    head = sc.t("your_turn") if v.mine else sc.t("turn_of", sc.name(v.turn)) if v.turn is not None else ""
    text.centre(buf, head, _TOP + 1, BIG)
    _standing(buf, sc, "bid_none")
    _my_dice(buf, sc)
    if v.special:
        text.centre(buf, sc.t("special_hint"), 45, SMALL, inverse=True)
    shown = v.bidder if v.bidder >= 0 else v.turn
    if v.aside and shown is not None and shown != v.seat and v.aside[shown]:   # public
        dice.row(buf, [_face(sc, f) for f in v.aside[shown]], 0, 43, dice.SMALL, 1, 0xFF)
    _counts(buf, sc, 56)


def _entry(buf, sc):
    """My turn: the moves to choose from, then the bid's face and quantity."""
    c = sc.controls
    v = sc.view
    text.centre(buf, sc.t("your_turn"), _TOP + 1, BIG)
    if c.focus == 3:            # AT_DICE: the dice to pick, face up (no strip)
        if v.bid is not None:
            _bid(buf, sc, v.bid[0], v.bid[1], 21, None, 128)
        faces = [_face(sc, f) for f in c.dice()]
        x = 2
        for i in range(len(faces)):
            dice.draw(buf, faces[i], x, 36, dice.SMALL, outline=bool(c.picked >> i & 1))
            if i == c.cursor:
                fb.fill_rect(buf, x, 50, dice.SMALL, 2, 1)
            x += dice.SMALL + 3
        text.draw(buf, sc.t("btn_ok"), x + 4, 38, SMALL, inverse=(c.cursor == len(faces)))
        text.centre(buf, sc.t("aside_hint"), 56, SMALL)
        return
    _my_dice(buf, sc)
    if c.focus in (1, 2):       # AT_FACE, AT_QUANTITY: the standing bid, the one made
        if v.bid is not None:
            _bid(buf, sc, v.bid[0], v.bid[1], _BAND, None, 64)
        s = "%d \xd7" % c.quantity
        w = text.width(s, BIG)
        x0 = (128 - w - 4 - dice.LARGE) // 2
        text.draw(buf, "<", x0 - 10, 44, BIG)
        text.draw(buf, s, x0, 44, BIG, inverse=(c.focus == 2))
        dice.draw(buf, _face(sc, c.face), x0 + w + 4, 37, dice.LARGE, outline=(c.focus == 1))
        text.draw(buf, ">", x0 + w + 8 + dice.LARGE, 44, BIG)
        return
    _standing(buf, sc, "you_open")
    _counts(buf, sc, 46)
    _moves(buf, sc, c)




def _reveal(buf, sc):
    r = sc.reveal
    v = sc.view
    hands = r.get("hands") or []
    face = r.get("face")
    if face is not None:
        text.centre(buf, sc.t("counted", r.get("count", 0), str(face)), _TOP + 1, BIG)
    else:
        text.centre(buf, sc.t("reveal"), _TOP + 1, BIG)
    rows = [s for s in range(len(hands)) if hands[s]]
    # up to 3 hands: dice faces; 4: a column of digit rows; 5-6: two columns of three
    # (a 3-letter name, the faces as digits): every hand stays on the screen
    size = dice.SMALL if len(rows) <= 3 else 8
    split = len(rows) > 4
    for k in range(len(rows)):
        s = rows[k]
        x0 = 64 * (k // 3) if split else 0
        y = 20 + ((k % 3) * 9 if split else k * (size + 1 if size != 8 else 8))
        text.draw(buf, sc.name(s)[:3 if split else 6], x0, y + (0 if split else 2), SMALL)
        x = x0 + (19 if split else 34)
        counted = 0
        for i in range(len(hands[s])):
            f = hands[s][i]
            if v is not None and face is not None and f in v.counts(face):
                counted |= 1 << i
        if size == 8:   # a crowded table: faces as digits, the counted ones inverted
            for i in range(len(hands[s])):
                text.draw(buf, str(hands[s][i]), x + i * (6 if split else 7), y, SMALL,
                          inverse=bool(counted >> i & 1))
        else:
            dice.row(buf, [_face(sc, f) for f in hands[s]], x, y, size, 1, ~counted & 0xFF)
    lines = r.get("lines") or ()
    if lines:
        key, args = lines[0]
        text.centre(buf, sc.t(key, *args), 56, SMALL, inverse=True)


def _moves(buf, sc, c):
    x = 0
    for m in range(1, 8):
        if c.moves >> m & 1:
            s = sc.t(_MOVE_KEYS[m])
            w = text.width(s, SMALL) + 4
            if x + w > 128:
                break
            text.draw(buf, " " + s + " ", x, 56, SMALL, inverse=(m == c.move))
            x += w + 2


def _spectator(buf, sc):
    v = sc.view
    text.centre(buf, sc.t("spectator"), _TOP + 1, BIG)
    text.centre(buf, sc.t("spectator_hint"), 22, SMALL)
    if v.bid is not None:
        _bid(buf, sc, v.bid[0], v.bid[1], 32, None, 128)
    _counts(buf, sc, 56)


def _over(buf, sc):
    v = sc.view
    w = v.winner
    if w == v.seat:
        text.centre(buf, sc.t("you_win"), 14, BIG)
    else:
        text.centre(buf, sc.t("game_over"), 14, BIG)
        text.centre(buf, sc.t("wins", sc.name(w)), 28, BIG)
    if sc.master:
        text.centre(buf, sc.t("rematch"), 42, BIG)
        text.right(buf, sc.t("btn_rematch"), 56, SMALL, inverse=True)
    else:
        text.centre(buf, sc.t("wait_start"), 42, BIG)
    text.draw(buf, sc.t("btn_leave"), 0, 56, SMALL)


# the screens, each drawn by the function "_" + its name (draw looks it up in this
# module's globals: no dict of them built in RAM); those of one rule set or option have
# a module of their own, imported when first drawn (a Liar's dice table never loads
# them): dixmille and scores (ui/sheet.py), rolloff (ui/rolloff.py), hint (ui/hint.py)
SCREENS = ("menu", "code", "tables", "table", "shake", "waiting", "bidding", "entry", "reveal", "dixmille",
           "scores", "rolloff", "spectator", "over", "hint")
