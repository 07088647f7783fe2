"""A player's thumb on a cup: the move a bot chose, turned into the button gestures a
person would make on the real UI (dicecup/ui/ui.py and its button model), one at a
time, read off what the UI shows now -- never by calling the UI's own logic.

    th = Thumb(board.button_names())
    g = th.move(ui, action, then)     # (kind, mask) to make next, (SHAKE, 0), or None
    g = th.pick(ui, "menu_create")    # lobby: a menu item by its key
    g = th.code(ui, "4711")           # the join code screen: four digits
    g = th.pick(ui, "table_start")   # the master's table: start the game

Each call looks at the screen's state (`ui.sc`: screen, menu, cursor, code; `ui.controls`:
focus, moves, move, face, quantity, dice(), picked, cursor, offered()) and answers with
the next gesture only, so a view that changed between two presses (a new bid, a stale
menu) is simply taken from where it now is. Gestures are hw/buttons.py events: kind
PRESS, LONG or BOTH and a mask of the board's buttons; the caller presses the pins
(the app debounces them) and calls again. `final` says whether the last gesture given
should send the move. SHAKE (not a button) means: shake the cup and set it down (a
round's dice, a Bluff reroll, a Dix mille roll).

Boards without `back` (the XIAO) get the gestures every board understands (long left
for back, long right for the menu): `Keymap.entries()`, a press preferred to a hold.
Runs unchanged inside MicroPython (small ints, no lists kept): a cup can be driven in
its own runtime.
"""
from micropython import const

from dicecup.engine.actions import BANK, CHALLENGE, EXACT, ROLL_ANY
from dicecup.hw.buttons import PRESS
from dicecup.ui import bids, picking
from dicecup.ui.keymap import BACK, CALL_EXACT, Keymap, NEXT, OK, PREV

SHAKE = const(4)        # a gesture kind of its own: shake the cup, then set it down

# ui/controls.py's focus and moves (the numbers its docstring names)
_AT_MOVES = const(0)
_AT_FACE = const(1)
_AT_QUANTITY = const(2)
_AT_DICE = const(3)
_AT_MENU = const(4)
_M_BID = const(1)
_M_CHALLENGE = const(2)
_M_EXACT = const(3)
_M_REROLL = const(4)
_M_KEEP = const(5)
_M_ROLL = const(6)
_M_BANK = const(7)


def move_of(action):
    """The move on the screen's move list that makes `action`."""
    if action == CHALLENGE:
        return _M_CHALLENGE
    if action == EXACT:
        return _M_EXACT
    if action == BANK:
        return _M_BANK
    if action == ROLL_ANY:
        return _M_ROLL
    k = action >> 16
    if k == 2:
        return _M_KEEP
    if k == 3:
        return _M_REROLL
    return _M_BID


def wanted(dice, code, picked):
    """The dice positions (a bit each) that hold the faces of packed multiset `code`,
    keeping those already picked where they fit (so no die is toggled for nothing)."""
    want = picking.tally_of(code)
    mask = 0
    for first in (True, False):
        for i in range(len(dice)):
            if bool(picked >> i & 1) != first or mask >> i & 1:
                continue
            s = 3 * (dice[i] - 1)
            if want >> s & 7:
                want -= 1 << s
                mask |= 1 << i
    return mask


class Thumb:
    def __init__(self, names):
        self.gest = {}          # command -> (kind, mask) on this board
        for kind, mask, cmd in Keymap(names).entries():
            g = self.gest.get(cmd)
            if g is None or (kind == PRESS and g[0] != PRESS):
                self.gest[cmd] = (kind, mask)
        self.final = False      # the last gesture given should send the move

    def press(self, cmd):
        """The gesture for a keymap command (PREV, NEXT, OK, BACK, PEEK, MENU, CALL_EXACT)."""
        self.final = False
        return self.gest[cmd]

    def _step(self, fwd, total):
        """NEXT or PREV, whichever reaches a target `fwd` steps ahead out of `total`
        (wrapping) sooner."""
        return self.press(NEXT if fwd <= total - fwd else PREV)

    # ----- the lobby ---------------------------------------------------------------
    def pick(self, ui, key):
        """Toward the menu item `key` (a rule set's name in the game chooser), then ok;
        None when no menu on screen has it."""
        sc = ui.sc
        menu = sc.menu
        if ui.mode == "play" or sc.screen == "code" or key not in menu:
            return None
        i = menu.index(key)
        n = len(menu)
        if sc.cursor == i:
            return self.press(OK)
        return self._step((i - sc.cursor) % n, n)

    def code(self, ui, digits):
        """The code entry screen: each digit stepped to, then ok (the fourth joins)."""
        sc = ui.sc
        if sc.screen != "code":
            return None
        i = sc.cursor
        have = int(sc.code[i]) if i < len(sc.code) else 0
        d = (int(digits[i]) - have) % 10
        if not d:
            return self.press(OK)
        return self._step(d, 10)

    # ----- a game ------------------------------------------------------------------
    def shake_due(self, ui):
        """Whether the screen asks for a shake the game still waits for: the round's
        dice (while I hold dice), a reroll I chose (until it is committed)."""
        sc = ui.sc
        w = sc.shake
        v = ui.controls.view
        if w == "reroll":
            return True
        if w == "round":
            return v is None or v.need == "shake" and bool(v.dice and v.dice[v.seat])
        return False

    def move(self, ui, action, then=None):
        """The next gesture toward sending `action` (and `then`, a Bluff reroll with the
        bid): (kind, mask), (SHAKE, 0) for a Dix mille roll, None when there is nothing
        to press (the move went out and the next view is awaited, or it is not offered)."""
        c = ui.controls
        v = c.view
        self.final = False
        if v is None or c.sent:
            return None
        f = c.focus
        if f == _AT_MENU:
            return self.press(BACK)
        m = move_of(action)
        if m == _M_ROLL:
            return (SHAKE, 0) if v.mine else None
        if m == _M_EXACT and not v.mine:
            if action not in v.legal:
                return None
            g = self.press(CALL_EXACT)
            self.final = True
            return g
        if not c.moves >> m & 1:
            return None
        if f == _AT_MOVES:
            if c.move != m:
                return self._to_move(c, m)
            g = self.press(OK)
            self.final = m in (_M_CHALLENGE, _M_EXACT, _M_BANK)
            return g
        if f == _AT_DICE and c.picking != _M_BID:   # the keep / reroll picker
            if c.picking != m:
                return self.press(BACK)
            return self._pick_dice(c, action & 0x7FFF)
        if m != _M_BID:
            return self.press(BACK)
        face = action & 7
        q = action >> 3
        if c.face != face:
            if f != _AT_FACE:
                return self.press(BACK)
            return self._to_face(c, face)
        if f == _AT_FACE:
            return self.press(OK)
        if c.quantity != q:
            if f != _AT_QUANTITY:
                return self.press(BACK)
            return self.press(NEXT if c.quantity < q else PREV)
        if f == _AT_QUANTITY:
            g = self.press(OK)
            self.final = not bids.reroll_with_bid(v)
            return g
        return self._pick_dice(c, then & 0x7FFF if then is not None else 0)

    def _to_move(self, c, m):
        fwd = 0
        total = 0
        k = c.move
        for _ in range(7):
            k = k % 7 + 1
            if c.moves >> k & 1:
                total += 1
                if k == m and not fwd:
                    fwd = total
        return self._step(fwd, total)

    def _to_face(self, c, face):
        legal = c.view.legal
        fwd = 0
        total = 0
        k = c.face
        for _ in range(6):
            k = bids.next_face(legal, k, 1)
            if not k:
                break
            total += 1
            if k == face and not fwd:
                fwd = total
            if k == c.face:
                break
        if not fwd:
            return None
        return self._step(fwd, total)

    def _pick_dice(self, c, code):
        """The picker: unpick what does not belong, pick what does, then "done"."""
        dice = c.dice()
        n = len(dice)
        want = wanted(dice, code, c.picked)
        diff = c.picked ^ want
        if not diff:
            target = n
        else:
            extra = c.picked & ~want
            bits = extra if extra else diff
            target = 0
            while not bits >> target & 1:
                target += 1
        if c.cursor == target:
            g = self.press(OK)
            self.final = target == n
            return g
        # the cursor visits only offered places: count them going up
        fwd = 0
        total = 0
        k = c.cursor
        for _ in range(n + 1):
            k = (k + 1) % (n + 1)
            if k == c.cursor or c.offered(k):
                total += 1
                if k == target and not fwd:
                    fwd = total
        if not fwd:
            return None
        return self._step(fwd, total)


# what a Player counts, by what it sent (exact_out: an exact call out of turn; with_bid:
# a Bluff reroll sent with its bid)
SENT = ("bid", "with_bid", "challenge", "exact", "exact_out", "reroll", "keep", "bank")


async def choose(th, ui, key, make, tries=30):
    """Pick the menu item `key` gesture by gesture: `make(g)` (awaited) makes each one;
    True once ok was pressed on the item, False when no menu on screen has it. The one
    loop every scripted player uses (appsim, appmp, cupproc)."""
    for _ in range(tries):
        menu = ui.sc.menu
        on = 0 <= ui.sc.cursor < len(menu) and menu[ui.sc.cursor] == key
        g = th.pick(ui, key)
        if g is None:
            return False
        await make(g)
        if on:
            return True
    return False


class Player:
    """A bot at a cup, playing only through its thumb: `next(ui)` is the next gesture
    of a game (SHAKE included), None while there is nothing to do. The move is chosen
    by the seat's level (`dicecup.players.get(level)`: easy is dicecup.bots) from the
    seat's View once per situation (a new turn, bid, roll), with its Bluff reroll, and
    then made press by press. `sent` counts the moves whose
    last gesture was given; `presses`, `shakes` what the hand did (the caller counts
    them with `did`)."""

    def __init__(self, names, rng, level="easy"):
        from dicecup import players
        self.thumb = Thumb(names)
        self.rng = rng
        self.bot = players.get(level)
        self.want = None
        self.then = None
        self.mine = False
        self._key = None
        self.sent = {}
        for k in SENT:
            self.sent[k] = 0
        self.presses = 0
        self.shakes = 0

    def next(self, ui):
        bots = self.bot
        th = self.thumb
        th.final = False
        if ui.mode != "play":
            return None
        if th.shake_due(ui):
            return (SHAKE, 0)
        v = ui.controls.view
        if v is None or v.winner is not None:
            return None
        key = (v.need, v.turn, v.round, len(v.bids), v.bidder, v.turn_total, v.left, v.mine, len(v.legal))
        if key != self._key:
            self._key = key
            self.want = bots.act(v, self.rng)
            self.then = None
            self.mine = v.mine
            if self.want is not None and 8 <= self.want < 0x10000 and bids.reroll_with_bid(v):
                self.then = bots.reroll(v, self.want, self.rng)
        if self.want is None:
            return None
        if self.want == ROLL_ANY:
            return (SHAKE, 0) if v.mine and ui.sc.shake == "roll" else None
        return th.move(ui, self.want, self.then)

    def did(self, g):
        """The caller made gesture `g` (what `next` gave): count it, and the move it sent."""
        if g[0] == SHAKE:
            self.shakes += 1
            return
        self.presses += 1
        if not self.thumb.final:
            return
        a = self.want
        self.want = None        # made: nothing more until the next situation
        if 8 <= a < 0x10000:
            self.sent["bid"] += 1
            if self.then is not None:
                self.sent["with_bid"] += 1
        elif a == CHALLENGE:
            self.sent["challenge"] += 1
        elif a == EXACT:
            self.sent["exact" if self.mine else "exact_out"] += 1
        elif a == BANK:
            self.sent["bank"] += 1
        elif a >> 16 == 2:
            self.sent["keep"] += 1
        elif a >> 16 == 3:
            self.sent["reroll"] += 1
