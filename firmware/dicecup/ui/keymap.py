"""Which gesture means what: hw/buttons.py events (kind, mask) -> a command for
`Controls.command`. One table for every board: a XIAO has no back button, so the
first seven gestures use only left, ok and right, and a board with a back button
understands them too (what a player learns on one cup works on all).
"""
from micropython import const

_PRESS = const(1)      # hw/buttons.py's event kinds (PRESS, LONG, BOTH): literals, so the
_LONG = const(2)       # table below is one constant (flash when frozen), not tuples in RAM
_BOTH = const(3)

PREV = const(1)        # step the focused value down, the cursor left
NEXT = const(2)        # step it up, the cursor right
OK = const(3)          # choose, next field, pick a die, confirm
BACK = const(4)        # one field back, close the menu
PEEK = const(5)        # show my dice for a moment
MENU = const(6)        # open / close the menu
CALL_EXACT = const(7)  # exact (calza, tout pile, spot on): in turn or out of turn

COMMANDS = ("", "prev", "next", "ok", "back", "peek", "menu", "exact")

# (kind, buttons joined by "+", command): every board's gestures, then a back button's
_TABLE = const((
    (_PRESS, "left", PREV),
    (_PRESS, "right", NEXT),
    (_PRESS, "ok", OK),
    (_LONG, "left", BACK),
    (_LONG, "ok", PEEK),
    (_LONG, "right", MENU),
    (_BOTH, "left+right", CALL_EXACT),
    (_PRESS, "back", BACK),
    (_LONG, "back", MENU),
))


class Keymap:
    """`Keymap(board.button_names())`; `command(kind, mask)` -> a command, 0 for none.
    Entries naming a button the board lacks are left out. It keeps only the names: a
    gesture is looked up in the constant table (a few per second at most), not in a
    dict and a list built per cup (~0.5 KB of RAM)."""

    def __init__(self, names):
        self.names = list(names)

    def entries(self):
        """[(kind, mask, command)] of this board's gestures, in table order."""
        out = []
        names = self.names
        for kind, buttons, cmd in _TABLE:
            mask = 0
            for name in buttons.split("+"):
                if name not in names:
                    mask = -1
                    break
                mask |= 1 << names.index(name)
            if mask > 0:
                out.append((kind, mask, cmd))
        return out

    def command(self, kind, mask):
        for k, m, cmd in self.entries():
            if k == kind and m == mask:
                return cmd
        return 0

    def gesture(self, cmd):
        """The first (kind, mask) giving `cmd` on this board (for help screens, tests)."""
        for kind, mask, c in self.entries():
            if c == cmd:
                return kind, mask
        return None
