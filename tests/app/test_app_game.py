"""Whole games of apps (dicecup/app.py) on emulated cups over the simulated medium, in
CPython on one simulated clock, played only by presses on the emulated buttons and
shakes of the emulated accelerometer (a library motion trace through the board's
mounting: the real ShakeToRoll and shake detector decide every roll).

Several apps at once run in CPython: inside MicroPython one app and a bot play
(test_app_heap.py), which is what the heap figures need."""
import pytest

from dicecup.net import table as tbl

from apphelpers import BOARDS, PRIVATE, events, kinds


def check_game(t):
    """What every finished game must show."""
    states = [c.app.cup.table.snapshot() for c in t.cups]
    assert all(s == states[0] for s in states), "the cups disagree on the final state"
    for c in t.cups:
        k = kinds(c)
        assert c.app.cup.table.phase == tbl.DONE
        assert "win" in k
        assert "internal" not in k, [e for e in events(c) if e["k"] == "internal"]
        assert "autoplay" not in k          # the person played every move
        assert not set(PRIVATE) & set(k)    # private events never reach serial
        assert c.app.restarts == {}
        assert c.app.idles == 0             # never idle while the game was on
        assert c.oled.on
        assert c.app.rolls == t.people[c.i].shakes, "a shake that did not roll, or a roll without one"
        assert c.app.rolls >= 1
        assert c.screen() == "over" and c.ui.sc.view.winner == t.cups[0].app.cup.table.game.winner()
        assert c.oled.ram == c.ui_drawn()   # the OLED shows the game-over screen as drawn


def test_three_cups_play_perudo_by_buttons_and_shakes(app_table):
    t = app_table(list(BOARDS), seed=3)
    assert t.play("perudo", limit_ms=900000)
    check_game(t)
    opens = kinds(t.cups[0]).count("open")
    assert opens >= 5
    # each cup shook once for every round it held dice in
    for c in t.cups:
        assert c.app.rolls <= opens


def test_two_cups_play_liars_dice(app_table):
    t = app_table(["esp32-devkitc", "xiao-esp32c3"], seed=5)
    assert t.play("liars", limit_ms=900000)
    check_game(t)


@pytest.mark.heavy
@pytest.mark.parametrize("rules", ["bluff", "menteur", "liars", "dixmille", "perudo"])
def test_every_rule_set_by_buttons(app_table, rules):
    # Dix mille on two cups: its games are the longest (every roll public, ~33 turns a seat)
    t = app_table(list(BOARDS)[:2] if rules == "dixmille" else list(BOARDS), seed=11)
    assert t.play(rules, limit_ms=1800000)
    check_game(t)
