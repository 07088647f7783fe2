"""The one loop step that drives a cup, on the device and in the simulator alike:
frames in, the clock, the player, frames out.

    due = pump(cup, radio, now_ms)          # returns when the cup next wants a step

`radio` is any Transport (net/transport.py). `player`, if given, is anything with
`step(cup, now) -> due` that plays the cup's seat through its public seams (the
simulator's Autoplayer); on a real cup the app feeds the player's buttons and shakes
in between steps instead.
"""


def pump(cup, radio, now, player=None):
    while True:
        item = radio.recv()
        if item is None:
            break
        cup.on_frame(item[0], item[1], now)
    due = cup.tick(now)
    if player is not None and not cup.dead:
        d = player.step(cup, now)
        if d is not None and d < due:
            due = d
    out = cup.out
    if out:
        cup.out = []
        for dest, frame in out:
            radio.send(dest, frame)  # False (not sent / no ACK) is the protocol's to cope with
    return due
