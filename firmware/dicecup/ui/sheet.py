"""Dix mille's screens (ui/screens.py draws them by name): the turn, with the roll and
the dice kept, and the score sheet. A module of their own, imported when first drawn:
a table of another rule set never holds them in RAM."""
from micropython import const

from dicecup.ui import dice, fb, screens, text

_TOP = const(9)          # the body starts under the status strip (as in ui/screens.py)


def dixmille(buf, sc):
    """Dix mille: whose turn; the roll (solid) and the dice kept this turn (hollow), the
    turn total and the crosses of the player on turn; before a roll, every score. At
    the bottom my moves, or where the player on turn stands (score, or not open yet).
    A long ok shows the whole score sheet (`scores`)."""
    v = sc.view
    t = v.turn
    head = sc.t("your_turn") if v.mine else sc.t("rolls", sc.name(t)) if t is not None else ""
    text.centre(buf, head, _TOP + 1, screens.BIG)
    c = sc.controls
    mine = c is not None and v.mine
    roll = v.roll or ()
    if mine and c.focus == 3:       # AT_DICE: the dice of the roll to keep
        roll = c.dice()
    if roll or sc.kept:
        x = 1
        for i in range(len(roll)):
            picking = mine and c.focus == 3
            dice.draw(buf, roll[i], x, 21, dice.LARGE, outline=picking and bool(c.picked >> i & 1))
            if picking and i == c.cursor:
                fb.fill_rect(buf, x, 43, dice.LARGE, 2, 1)
            x += dice.LARGE + 3
        if sc.kept:
            x += 2 if roll else 0
            for f in sc.kept[:5 - len(roll)]:     # kept: drawn hollow, after a gap
                dice.draw(buf, f, x, 21, dice.LARGE, outline=True)
                x += dice.LARGE + 3
        text.draw(buf, sc.t("turn_total", v.turn_total or 0), 0, 46, screens.SMALL)
        if t is not None and v.opened[t]:
            _crosses(buf, 111, 47, v.crosses[t])
    else:
        _sheet(buf, sc, 21, 4, 8)
    if mine and c.focus == 3:
        text.right(buf, " " + sc.t("btn_ok") + " ", 56, screens.SMALL, inverse=(c.cursor == len(roll)))
    elif mine:
        screens._moves(buf, sc, c)
    elif t is not None:
        nm = sc.name(t)
        s = sc.t("score_of", nm, v.scores[t]) if v.opened[t] else sc.t("not_open_of", nm)
        text.centre(buf, s, 56, screens.SMALL)


_OPENING = const(500)   # Dix mille: a score opens with 500 in one turn (RULES.md)


def scores(buf, sc):
    """Dix mille's score sheet (a long ok, for a moment): every player's score, "0/500"
    while not open, and the crosses in a row (three cost 1000)."""
    n = len(sc.view.scores)
    _sheet(buf, sc, 10, 6, 9)
    if n <= 5:
        text.centre(buf, sc.t("open"), 56, screens.SMALL)


def _sheet(buf, sc, y, rows, pitch):
    """Every player's score and crosses from y: a row each when `rows` hold them (the
    player on turn inverted), else two columns of short names."""
    v = sc.view
    n = len(v.scores)
    wide = n <= rows
    for s in range(n):
        if wide:
            x = 0
            yy = y + s * pitch
            nm = sc.name(s)[:8]
            end = 100
        else:
            x = (s % 2) * 64
            yy = y + (s // 2) * pitch
            nm = sc.name(s)[:3]
            end = x + 45
        text.draw(buf, nm, x, yy, screens.SMALL, inverse=(s == v.turn))
        if v.opened[s]:
            text.right(buf, "%d" % v.scores[s], yy, screens.SMALL, end=end)
            _crosses(buf, end + 4 if wide else end + 1, yy + 1, v.crosses[s])
        else:
            text.right(buf, "0/%d" % _OPENING, yy, screens.SMALL, end=end)


def _crosses(buf, x, y, n):
    """Three small boxes, the first `n` crossed: a run of busts (three cost 1000)."""
    for i in range(3):
        bx = x + i * 6
        fb.rect(buf, bx, y, 5, 5, 1)
        if i < n:
            for k in range(1, 4):
                fb.fill_rect(buf, bx + k, y + k, 1, 1, 1)
                fb.fill_rect(buf, bx + 4 - k, y + k, 1, 1, 1)
