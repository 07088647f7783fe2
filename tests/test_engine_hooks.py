"""The two engine calls the table protocol needs beyond the rules: a cheater's forfeit
and a round replayed with fresh rolls."""
import pytest

from dicecup.engine import IllegalAction, loads, new_game
from dicecup.engine.actions import CHALLENGE, bid


def test_forfeit_takes_all_dice_and_the_round_settles_without_them():
    g = new_game("perudo", 3, opener=0)
    g.start_round()
    g.apply(0, bid(3, 4))
    g.apply(1, CHALLENGE)
    ev = g.forfeit(2)
    assert ev == [("forfeit", 2, 5)] and g.dice[2] == 0
    ev = g.settle([[4, 4, 4, 1, 2], [2, 2, 3, 3, 5], []])
    assert ev[0] == ("reveal", 3, 4, 4)  # cy's dice no longer count
    assert g.dice == [5, 4, 0] and g.public()["eliminated"] == [2]


def test_forfeit_of_the_last_rival_ends_the_game():
    g = new_game("liars", 2, opener=0)
    g.start_round()
    g.apply(0, bid(1, 2))
    g.apply(1, CHALLENGE)
    assert g.forfeit(1)[-1] == ("win", 0)
    assert g.winner() == 0 and g.public()["round"] == 2


def test_restart_round_replays_with_the_same_opener_and_nothing_lost():
    g = new_game("bluff", 3, {"reroll": True}, opener=1)
    g.start_round()
    g.apply(1, bid(2, 3))
    g.apply(1, 0x30000 | 3)  # set one 3 aside and reroll the rest
    g.apply(2, bid(3, 3))
    saved = g.dumps()
    ev = g.restart_round()
    assert ev == [("replay", 1, 1)]
    assert g.phase == 0 and g.bid == 0 and g.aside == [0, 0, 0] and g.dice == [5, 5, 5]
    assert loads(g.dumps()).dumps() == g.dumps() and loads(saved).dumps() == saved
    g.start_round()
    assert g.to_act() == 1


def test_restart_and_forfeit_refuse_outside_a_round():
    g = new_game("menteur", 2, opener=0)
    with pytest.raises(IllegalAction) as e:
        g.restart_round()
    assert e.value.code == "wrong-phase"
    g.start_round()
    with pytest.raises(IllegalAction) as e:
        g.forfeit(1)
    assert e.value.code == "wrong-phase"
