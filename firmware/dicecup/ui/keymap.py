"""Which gesture means what: hw/buttons.py events (kind, mask) -> a command for
`Controls.command`. One table for every board: a XIAO has no back button, so the
gestures in `EVERY_BOARD` use only left, ok and right, and a board with a back button
understands them too (what a player learns on one cup works on all).
"""
from micropython import const

from dicecup.hw.buttons import BOTH, LONG, PRESS

PREV = const(1)        # step the focused value down, the cursor left
NEXT = const(2)        # step it up, the cursor right
OK = const(3)          # choose, next field, pick a die, confirm
BACK = const(4)        # one field back, close the menu
PEEK = const(5)        # show my dice for a moment
MENU = const(6)        # open / close the menu
CALL_EXACT = const(7)  # exact (calza, tout pile, spot on): in turn or out of turn

COMMANDS = ("", "prev", "next", "ok", "back", "peek", "menu", "exact")

# (kind, buttons joined by "+", command)
EVERY_BOARD = (
    (PRESS, "left", PREV),
    (PRESS, "right", NEXT),
    (PRESS, "ok", OK),
    (LONG, "left", BACK),
    (LONG, "ok", PEEK),
    (LONG, "right", MENU),
    (BOTH, "left+right", CALL_EXACT),
)
WITH_BACK = (
    (PRESS, "back", BACK),
    (LONG, "back", MENU),
)


class Keymap:
    """`Keymap(board.button_names())`; `command(kind, mask)` -> a command, 0 for none.
    Entries naming a button the board lacks are left out."""

    def __init__(self, names):
        self.names = list(names)
        self.entries = []   # (kind, mask, command), in table order
        self.table = {}
        for entries in (EVERY_BOARD, WITH_BACK):
            for kind, buttons, cmd in entries:
                mask = 0
                for name in buttons.split("+"):
                    if name not in self.names:
                        mask = -1
                        break
                    mask |= 1 << self.names.index(name)
                if mask > 0:
                    self.entries.append((kind, mask, cmd))
                    self.table[kind << 8 | mask] = cmd

    def command(self, kind, mask):
        return self.table.get(kind << 8 | mask, 0)

    def gesture(self, cmd):
        """The first (kind, mask) giving `cmd` on this board (for help screens, tests)."""
        for kind, mask, c in self.entries:
            if c == cmd:
                return kind, mask
        return None
