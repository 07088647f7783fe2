"""Actions are small ints, so legal lists, wire frames and states stay compact.

    CHALLENGE, EXACT, BANK      fixed codes below 8
    bid(q, f)                   q << 3 | f   (q >= 1, f 1..6)
    roll(faces), keep(faces),   kind << 16 | packed faces; a packed multiset holds up
    reroll(faces)               to five faces 1..6, sorted, three bits each

`ROLL_ANY` (roll with no faces) is what `legal` lists when a roll is due: the faces
come from the dice source (commit-reveal on the cups, a seeded generator on the host).
"""
from micropython import const

CHALLENGE = const(1)
EXACT = const(2)
BANK = const(3)
_ROLL = const(0x10000)
_KEEP = const(0x20000)
_REROLL = const(0x30000)
ROLL_ANY = _ROLL
MAX_QUANTITY = const(30)  # six seats of five dice: no table ever holds more


def bid(quantity, face):
    """A bid action; IllegalAction for a quantity or face no table can bid."""
    if not 1 <= quantity <= MAX_QUANTITY or not 1 <= face <= 6:
        from .errors import IllegalAction
        code = "bad-face" if 1 <= quantity <= MAX_QUANTITY else "bad-quantity"
        raise IllegalAction(code, "no bid %dx%d" % (quantity, face))
    return quantity << 3 | face


def pack(faces):
    """Sorted multiset of up to five faces -> 15-bit int (0 for no faces)."""
    code = 0
    for f in sorted(faces, reverse=True):
        code = code << 3 | f
    return code


def unpack(code):
    out = []
    while code:
        out.append(code & 7)
        code >>= 3
    return out


def roll(faces):
    return _ROLL | pack(faces)


def keep(faces):
    return _KEEP | pack(faces)


def reroll(faces):
    return _REROLL | pack(faces)


def kind(action):
    """'bid', 'challenge', 'exact', 'bank', 'roll', 'keep', 'reroll' or None."""
    if action >= 0x10000:
        k = action >> 16
        return ("roll", "keep", "reroll")[k - 1] if k <= 3 else None
    if action >= 8:
        return "bid"
    return (None, "challenge", "exact", "bank", None, None, None, None)[action] if action >= 0 else None


def faces_of(action):
    return unpack(action & 0x7FFF)


def describe(action):
    """Human text as a table player would say it: '4x3', 'challenge', 'keep 1 5'..."""
    k = kind(action)
    if k == "bid":
        return "%dx%d" % (action >> 3, action & 7)
    if k in ("roll", "keep", "reroll"):
        return k + "".join(" %d" % f for f in faces_of(action))
    return k or "?%d" % action
