"""The cup's hardware errors: each says what is wrong in words a maker can act on.

`HardwareError.lines()` splits the message into lines of at most 16 characters, what
the 128x64 OLED shows with the built-in 8x8 font, so the same text goes to the serial
console and the screen.
"""


class HardwareError(Exception):
    """Something about the cup's hardware; `str(err)` is the whole explanation."""

    title = "HARDWARE"

    def lines(self, width=16):
        return wrap(str(self), width)


class BoardError(HardwareError):
    """The board file is missing, not JSON, or describes wiring that cannot work.

    `key` is the offending key as a path (`buttons[2].pin`), or None for the file itself;
    `board` is the board's name (or the file name when the name is unknown)."""

    title = "BOARD FILE"

    def __init__(self, board, key, problem, path=None):
        self.board = board
        self.key = key
        self.problem = problem
        self.path = path
        where = "board %s" % board
        if path:
            where += " (%s)" % path
        if key:
            msg = "%s: %s: %s" % (where, key, problem)
        else:
            msg = "%s: %s" % (where, problem)
        super().__init__(msg)


class DeviceMissing(HardwareError):
    """A chip did not answer on the I2C bus at boot (or answered as something else)."""

    title = "NOT FOUND"

    def __init__(self, part, addr, sda, scl, detail=None):
        self.part = part
        self.addr = addr
        msg = "%s not found at 0x%02X on I2C SDA=%s SCL=%s" % (part, addr, sda, scl)
        if detail:
            msg += " (%s)" % detail
        super().__init__(msg)


def wrap(text, width=16):
    """Greedy word wrap; words longer than a line are cut. Returns a list of lines."""
    out = []
    line = ""
    for word in text.split():
        while len(word) > width:
            if line:
                out.append(line)
                line = ""
            out.append(word[:width])
            word = word[width:]
        if not word:
            continue
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line = line + " " + word
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out
