"""Button play: the model between a cup's buttons and its moves. Pure logic, no I/O.

The app hands it the seat's latest View after every table event (`update(view)`) and
every button event (`event(kind, mask)`, from hw/buttons.py). Each event gives back a
decision: SEND (the move is in `action`, and `then` holds a Bluff reroll made with
that bid, or None), PEEK_DICE, MENU_OPEN, MENU_PICK (item `menu`), REDRAW (only what
the screen draws changed), REFUSED (not possible now) or NOTHING. Every move sent
comes from the latest view's `legal` (the reroll sent with a bid: checked against the
seat's own hand), so a stale screen never sends what the table would refuse; after a
SEND the model waits for the next view before it sends again.

Button map, the same for every rule set. The XIAO's three buttons use a subset that
every board understands too (what a player learns on one cup works on all):

| gesture          | 4 buttons | 3 buttons | does                                              |
|------------------|-----------|-----------|---------------------------------------------------|
| press left/right | yes       | yes       | step the focused value (face, quantity) down/up; move the cursor (moves, dice, menu) |
| press ok         | yes       | yes       | choose the move, next field, send the bid, pick/unpick a die, confirm "done" |
| press back       | yes       | -         | one field back (dropping the dice picked); close the menu |
| long left        | yes       | yes       | back, as press back                               |
| long ok          | yes       | yes       | peek: my dice on the screen for a moment (Dix mille, no die hidden: the score sheet) |
| long back        | yes       | -         | open / close the menu                             |
| long right       | yes       | yes       | open / close the menu                             |
| both left+right  | yes       | yes       | exact (calza, tout pile, spot on), on turn or off, when legal now |

The hint page (the table's hints option) has no gesture of its own: it is the first
item of the game's menu (long right, ok), on every board; any button closes it
(ui/ui.py). In the lobby and at the table the same presses move a menu's cursor (left/right, round
and round) and ok picks (ui/ui.py); at game over ok is the master's rematch and back
leaves; ok also skips Bluff's roll-off screen.

Out of turn only peek, the menu and the exact call do anything (and, right after my
own Bluff bid, the reroll that bid allows). A turn: the moves (bid, challenge, exact,
reroll, keep, roll, bank: those legal now) -> ok on bid -> the face (only faces that
can be bid; the quantity jumps to the lowest legal for it) -> ok -> the quantity (legal
ones only) -> ok sends it. Bluff with the reroll option adds one field: the dice under
my cup with "done" highlighted, so ok sends the bid alone; pick dice first to set them
aside and reroll with the bid. Dix mille: keep opens the dice of the roll (only dice
that can score are offered, "done" once the pick is a legal keep), then roll or bank
(on a cup a roll is a shake: `cup.act` ignores ROLL_ANY, the screen says "shake").

The app calls `update` after every table event, a refused input included: until then
the model that sent something waits (only peek and the menu answer).

Screens draw: `focus` (AT_MOVES, AT_FACE, AT_QUANTITY, AT_DICE, AT_MENU), `moves` (a
bit per move: 1 << M_BID ...) and `move` (the highlighted one), the bid being
composed (`face`, `quantity`), the picker (`dice()`, `picked` a bit per die, `cursor`
a die or len(dice()) for "done", `offered(i)`), the menu cursor (`menu` of `menu_size`).
"""
from micropython import const

from dicecup.engine import actions
from dicecup.ui import bids, picking
from dicecup.ui import keymap

# decisions
NOTHING = const(0)
REDRAW = const(1)
SEND = const(2)
PEEK_DICE = const(3)
MENU_OPEN = const(4)
MENU_PICK = const(5)
REFUSED = const(6)

# what has the focus
AT_MOVES = const(0)
AT_FACE = const(1)
AT_QUANTITY = const(2)
AT_DICE = const(3)
AT_MENU = const(4)

# moves, in the order the cursor visits them
M_BID = const(1)
M_CHALLENGE = const(2)
M_EXACT = const(3)
M_REROLL = const(4)
M_KEEP = const(5)
M_ROLL = const(6)
M_BANK = const(7)
_MOVE_NAMES = const(("", "bid", "challenge", "exact", "reroll", "keep", "roll", "bank"))
# moves sent as they are: actions.CHALLENGE, EXACT, ROLL_ANY, BANK (literals: one
# constant tuple, not one built in RAM at import; tests/ui/test_controls.py checks them)
_SENT = const((0, 0, 1, 2, 0, 0, 0x10000, 3))
_PICK_KIND = const((0, 0, 0, 0, 3, 2, 0, 0))  # picking.py's kind per move (M_BID: 0, with the bid)

BOARD4 = ("left", "ok", "right", "back")


def moves_of(view):
    """The moves this seat may choose from its screen now, a bit per move. Off turn
    the exact call is left out: it has a gesture of its own, so a stray ok never calls."""
    m = 0
    mine = view.mine
    legal = view.legal
    for i in range(len(legal)):   # by index: iterating a Legal would allocate
        a = legal[i]
        if a >= 0x10000:
            k = a >> 16
            if k == 3:
                m |= 1 << M_REROLL
            elif mine:
                m |= 1 << (M_ROLL if k == 1 else M_KEEP)
        elif not mine:
            continue
        elif a >= 8:
            m |= 1 << M_BID
        elif a == actions.CHALLENGE:
            m |= 1 << M_CHALLENGE
        elif a == actions.EXACT:
            m |= 1 << M_EXACT
        elif a == actions.BANK:
            m |= 1 << M_BANK
    return m


class Controls:
    """`Controls(board.button_names(), menu_size, None)`; then `update(view)` and
    `event(kind, mask)`, or `command(cmd)` with the keymap's commands (a test, another
    input). `keys`: a Keymap to share (it holds no state; the Ui's, so a cup keeps
    one), or None for one of its own."""

    def __init__(self, names, menu_size, keys):
        self.keys = keys or keymap.Keymap(names)
        self.menu_size = menu_size
        self.view = None
        self.focus = AT_MOVES
        self.under = AT_MOVES   # the focus under the menu (screens may draw it dimmed)
        self.moves = 0
        self.move = 0
        self.face = 0
        self.quantity = 0
        self.picking = 0        # what the picker is for: M_KEEP, M_REROLL, M_BID (with the bid)
        self.picked = 0
        self.cursor = 0
        self.menu = 0
        self.action = None      # the last move sent ...
        self.then = None        # ... and the reroll sent with it
        self.sent = False       # a move went out: wait for the next view
        self._key = None

    # ----- the seams ------------------------------------------------------------------
    def event(self, kind, mask):
        cmd = self.keys.command(kind, mask)
        return self.command(cmd) if cmd else NOTHING

    def update(self, view):
        """The seat's latest view. A new situation (another turn, bid, roll) starts
        afresh on the first move and the lowest raise; the same one keeps what is being
        composed wherever it is still legal."""
        key = (view.need, view.turn, view.round, len(view.bids), view.bidder,
               view.turn_total, view.left, view.mine)
        self.view = view
        self.sent = False
        self.moves = moves_of(view)
        if key != self._key:
            self._key = key
            self.move = self._next_move(0, 1)
            self.picked = 0
            self._lowest_raise()
            self._set_focus(AT_MOVES)
        else:
            self._revalidate()

    def command(self, cmd):
        if cmd == keymap.PEEK:
            return PEEK_DICE
        if cmd == keymap.CALL_EXACT:
            return self._send(actions.EXACT, None)
        if cmd == keymap.MENU:
            if self.focus == AT_MENU:
                return self.close_menu()
            self.open_menu(self.menu_size)
            return MENU_OPEN
        f = self.focus
        if f == AT_MENU:
            return self._in_menu(cmd)
        if self.view is None or self.sent:
            return NOTHING
        step = 1 if cmd == keymap.NEXT else -1 if cmd == keymap.PREV else 0
        if f == AT_MOVES:
            return self._in_moves(cmd, step)
        if f == AT_DICE:
            return self._in_picker(cmd, step)
        legal = self.view.legal
        if f == AT_FACE:
            if step:
                face = bids.next_face(legal, self.face, step)
                if not face:
                    return NOTHING
                self.face = face
                self.quantity = bids.lowest_on(legal, face)
                return REDRAW
            if cmd == keymap.OK:
                return self._focus(AT_QUANTITY)
            return self._focus(AT_MOVES) if cmd == keymap.BACK else NOTHING
        # AT_QUANTITY
        if step:
            q = bids.next_quantity(legal, self.quantity, self.face, step)
            if not q:
                return NOTHING
            self.quantity = q
            return REDRAW
        if cmd == keymap.OK:
            if bids.reroll_with_bid(self.view):
                return self._open_picker(M_BID)
            return self._send(self.quantity << 3 | self.face, None)
        return self._focus(AT_FACE) if cmd == keymap.BACK else NOTHING

    def dice(self):
        """The dice the picker shows: the roll to keep from (Dix mille), else my hand."""
        v = self.view
        if v is None:
            return ()
        return v.roll if self.picking == M_KEEP else v.hand or ()

    def offered(self, i):
        """Whether picker position i does something now (see picking.offered)."""
        return picking.offered(self.view.legal, _PICK_KIND[self.picking], self.dice(), self.picked, i)

    # ----- the menu (its items are the app's) -------------------------------------------
    def open_menu(self, size):
        """Show a menu of `size` items (the app's: leave table, language...), cursor on
        the first; the menu gesture does this with `menu_size`, the app for a submenu."""
        if self.focus != AT_MENU:
            self.under = self.focus
        self.focus = AT_MENU
        self.menu_size = size
        self.menu = 0

    def close_menu(self):
        if self.focus != AT_MENU:
            return NOTHING
        self.focus = self.under
        if self.view is not None:
            self._revalidate()
        return REDRAW

    def _in_menu(self, cmd):
        n = self.menu_size
        if cmd == keymap.BACK:
            return self.close_menu()
        if cmd == keymap.OK:
            if not n:
                return REFUSED
            self.close_menu()
            return MENU_PICK
        if n > 1 and (cmd == keymap.PREV or cmd == keymap.NEXT):
            self.menu = (self.menu + (1 if cmd == keymap.NEXT else n - 1)) % n
            return REDRAW
        return NOTHING

    # ----- moves --------------------------------------------------------------------------
    def _in_moves(self, cmd, step):
        m = self.move
        if step:
            nxt = self._next_move(m, step)
            if nxt == m:
                return NOTHING
            self.move = nxt
            return REDRAW
        if cmd != keymap.OK or not m:
            return NOTHING
        if m == M_BID:
            return self._focus(AT_FACE)
        if m == M_KEEP or m == M_REROLL:
            return self._open_picker(m)
        return self._send(_SENT[m], None)

    def _next_move(self, m, d):
        """The next move offered after `m` going `d` (wrapping), `m` if none other;
        from 0 going up: the first (0 when none)."""
        for _ in range(7):
            m = (m + d - 1) % 7 + 1
            if self.moves >> m & 1:
                return m
        return 0

    def _lowest_raise(self):
        a = bids.lowest_raise(self.view.legal)
        self.face = a & 7
        self.quantity = a >> 3

    # ----- the dice picker ----------------------------------------------------------------
    def _open_picker(self, what):
        self.picking = what
        self.picked = 0
        self.focus = AT_DICE
        n = len(self.dice())
        self.cursor = n  # with a bid: on "done", so ok sends the bid alone
        if what != M_BID:
            self.cursor = 0
            if not self.offered(0):
                self._step_cursor(1)
        return REDRAW

    def _step_cursor(self, d):
        c = picking.step(self.view.legal, _PICK_KIND[self.picking], self.dice(), self.picked, self.cursor, d)
        if c == self.cursor:
            return NOTHING
        self.cursor = c
        return REDRAW

    def _in_picker(self, cmd, step):
        if step:
            return self._step_cursor(step)
        if cmd == keymap.BACK:
            self.picked = 0
            return self._focus(AT_QUANTITY if self.picking == M_BID else AT_MOVES)
        if cmd != keymap.OK:
            return NOTHING
        c = self.cursor
        dice = self.dice()
        if not self.offered(c):
            return REFUSED
        if c < len(dice):
            self.picked ^= 1 << c
            return REDRAW
        kind = _PICK_KIND[self.picking]
        pick = picking.action(kind, dice, self.picked) if self.picked else None
        if kind:
            return self._send(pick, None)
        return self._send(self.quantity << 3 | self.face, pick)

    # ----- keeping it legal ---------------------------------------------------------------
    def _send(self, action, then):
        v = self.view
        if v is None or self.sent or action not in v.legal:
            return REFUSED
        if then is not None and not self._then_ok(action, then):
            return REFUSED
        self.action = action
        self.then = then
        self.sent = True
        self.picked = 0
        self._set_focus(AT_MOVES)
        return SEND

    def _then_ok(self, action, then):
        """A reroll sent with a bid: 1 to n-1 of the n dice under my cup."""
        v = self.view
        if not 8 <= action < 0x10000 or then >> 16 != 3 or not bids.reroll_with_bid(v):
            return False
        t = picking.tally_of(then & 0x7FFF)
        hand = v.hand
        return 1 <= picking.size(t) < len(hand) and picking.within(t, picking.tally(hand, (1 << len(hand)) - 1))

    def _revalidate(self):
        """Keep the focus and what is composed where the latest view still allows it."""
        if not self.moves >> self.move & 1:
            self.move = self._next_move(0, 1)
        legal = self.view.legal
        f = self.under if self.focus == AT_MENU else self.focus
        if f == AT_FACE or f == AT_QUANTITY or (f == AT_DICE and self.picking == M_BID):
            if not self.moves >> M_BID & 1:
                f = AT_MOVES
            elif not self.quantity or not self.quantity << 3 | self.face in legal:
                q = bids.lowest_on(legal, self.face) if self.face else 0
                if q:
                    self.quantity = q
                else:
                    self._lowest_raise()
            if f == AT_DICE and not bids.reroll_with_bid(self.view):
                f = AT_QUANTITY
        elif f == AT_DICE and not self.moves >> self.picking & 1:
            f = AT_MOVES
        if f == AT_DICE:
            dice = self.dice()
            n = len(dice)
            kind = _PICK_KIND[self.picking]
            if self.picked >> n or not picking.may_hold(legal, kind, dice, self.picked):
                self.picked = 0
            if self.cursor > n or not self.offered(self.cursor):
                self.cursor = n
                if not self.offered(n):
                    self._step_cursor(1)
        self._set_focus(f)

    def _set_focus(self, f):
        if self.focus == AT_MENU:
            self.under = f
        else:
            self.focus = f

    def _focus(self, f):
        self.focus = f
        return REDRAW
