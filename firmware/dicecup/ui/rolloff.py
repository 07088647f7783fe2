"""Bluff's roll-off screen (ui/screens.py draws it by name "rolloff"): who opens,
every player's public roll and its total. A module of its own, imported when first
drawn: a table of another rule set never holds it in RAM."""
from micropython import const

from dicecup.ui import dice, screens, text

_TOP = const(9)          # the body starts under the status strip (as in ui/screens.py)


def draw(buf, sc):
    """Bluff's roll-off: who opens (in the top strip), every player's five public dice
    and their total (a star counts 6), the opener's name inverted. The highest total
    opens; a tie rolls again among the tied: their last roll is shown after the totals
    before it, and the dice of those out of the tie are drawn hollow."""
    v = sc.view
    n = v.seats
    rolls, opener = rolloff_result(n, sc.rolloff)
    most = 0
    for r in rolls:
        most = max(most, len(r))
    for s in range(n):
        r = rolls[s]
        if not r:
            continue
        faces = r[-1]
        totals = ",".join(["%d" % _sum(f) for f in r[-2:]])
        if n <= 4:      # a row each: name, the dice, the total(s)
            y = _TOP + 1 + s * 13
            text.draw(buf, sc.name(s)[:6], 0, y + 2, screens.SMALL, inverse=(s == opener))
            dice.row(buf, [screens._face(sc, f) for f in faces], 32, y, dice.SMALL, 1,
                     0 if len(r) == most else 0xFF)
            if len(r) > 1:
                text.draw(buf, totals, 98, y + 2, screens.SMALL)
            else:
                text.draw(buf, totals, 100, y + 1, screens.BIG)
        else:           # a crowded table: the faces as digits, as the reveal's
            y = _TOP + 1 + s * 9
            text.draw(buf, sc.name(s)[:6], 0, y, screens.SMALL, inverse=(s == opener))
            for i in range(len(faces)):
                text.draw(buf, "%d" % faces[i], 34 + i * 7, y, screens.SMALL)
            text.draw(buf, totals, 74, y, screens.SMALL)
    if n <= 3:
        text.centre(buf, sc.t("rolloff_tie" if most > 1 else "rolloff_hint"), 56, screens.SMALL)


def _sum(faces):
    t = 0
    for f in faces:
        t += f
    return t


def rolloff_result(n, rolls):
    """From the roll-off's rolls in order ((seat, faces), the engine's draw: all n
    seats, then the tied ones again, and again): each seat's rolls, [[faces, ...], ...],
    and the opener (None until the draw is decided)."""
    mine = [[] for _ in range(n)]
    rolling = n
    i = 0
    while rolling and i + rolling <= len(rolls):
        best = -1
        top = 0
        who = -1
        for k in range(i, i + rolling):
            seat, faces = rolls[k]
            if 0 <= seat < n:
                mine[seat].append(faces)
            t = _sum(faces)
            if t > best:
                best, top, who = t, 1, seat
            elif t == best:
                top += 1
        i += rolling
        if top == 1:
            return mine, who
        rolling = top
    for k in range(i, len(rolls)):                # a draw still going on
        seat = rolls[k][0]
        if 0 <= seat < n:
            mine[seat].append(rolls[k][1])
    return mine, None
