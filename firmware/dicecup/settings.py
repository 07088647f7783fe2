"""Waits on a person, in one table: how long a cup waits for its player.

A real hand takes seconds to shake a cup and more to think, so these are human-scale
and separate from the radio's timings (net/timing.py), which are about frames and stay
short. A cup first reminds its player (an event the screens show), and only after a
long wait plays the seat with its own bot -- on the player's own cup, so the dice stay
private; the player takes the seat back with their next decision. The master's bot
takes a seat only when its cup falls silent on the radio (net/timing.py AWAY_MS).

Override per cup: `Cup(..., waits={"bot_ms": 30000})` (unknown names are a ValueError).
"""

WAITS = {
    # remind a player who has not shaken this long after the cup asked for a shake
    "remind_shake_ms": 15000,
    # remind a player on turn who has not acted this long
    "remind_act_ms": 20000,
    # then, this long after the wait began, the cup's own bot shakes or acts for them
    "bot_ms": 60000,
    # the master gives up on a cup that answers the radio but never commits its dice
    # (a broken cup, not a slow hand): it is marked away and the round opens again
    "commit_ms": 90000,
    # a cup holding dice that has not revealed them this long after a certified call
    # (out of range, switched off) loses the round (a majority of the cups attests it)
    "reveal_ms": 20000,
}


def merged(defaults, overrides, what):
    """A copy of a settings table with `overrides` applied; ValueError names an
    unknown setting (`what`: the table's name, for the message). With none, the table
    itself: every cup reads it, none writes it (no copy kept per cup in RAM)."""
    if not overrides:
        return defaults
    s = dict(defaults)
    for k in overrides:
        if k not in s:
            raise ValueError("unknown %s: %s" % (what, k))
        s[k] = overrides[k]
    return s


def waits(overrides):
    """The waits table with `overrides` applied (ValueError for an unknown name)."""
    return merged(WAITS, overrides, "wait")
