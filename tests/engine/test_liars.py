"""Classic Liar's Dice (RULES.md `liars`): no wilds, the winner opens, one_life, spot_on."""
import random

import pytest

from engine_helpers import CHALLENGE, EXACT, ScriptedRng, bid, bids, game, illegal, rnd, set_dice
from dicecup.engine import IllegalAction, new_game

ANA, BEN, CY = 0, 1, 2
LIAR = CHALLENGE
SPOT_ON = EXACT


def accepts(prev, new):
    g = game("liars", 2)
    g.start_round()
    g.apply(ANA, bid(*prev))
    try:
        g.apply(BEN, bid(*new))
    except IllegalAction as e:
        assert e.code == "bid-too-low"
        return False
    return True


HANDS = [[1, 3, 3, 5, 6], [1, 1, 2, 4, 3]]  # threes: 3 (ones are not wild)


def test_no_wilds_ones_count_only_as_ones():
    g = game("liars", 2)
    ev = rnd(g, HANDS, (ANA, bid(4, 3)), (BEN, LIAR))
    assert ("reveal", 4, 3, 3) in ev
    p = g.public()
    assert p["dice"] == [4, 5]
    assert p["turn"] == BEN  # the challenger won and opens


def test_ones_are_an_ordinary_face():
    g = game("liars", 2)
    g.start_round()
    g.apply(ANA, bid(2, 1))  # opening on ones is fine
    g.apply(BEN, bid(3, 1))
    g.apply(ANA, LIAR)
    ev = g.settle(HANDS)
    assert ("reveal", 3, 1, 3) in ev
    p = g.public()
    assert p["dice"] == [4, 5] and p["turn"] == BEN  # the bid stood: the bidder opens


@pytest.mark.parametrize("prev,new,ok", [
    ((3, 5), (4, 1), True),    # higher quantity, any face
    ((3, 6), (4, 2), True),
    ((3, 4), (3, 5), True),    # same quantity, higher face
    ((3, 4), (3, 3), False),
    ((3, 4), (3, 4), False),
    ((3, 4), (2, 6), False),
    ((2, 1), (2, 2), True),
    ((2, 6), (2, 1), False),
    ((4, 6), (2, 1), False),   # no aces switch in liars
])
def test_raise_higher_quantity_or_same_quantity_higher_face(prev, new, ok):
    assert accepts(prev, new) is ok


def test_challenge_true_bid_challenger_loses_bidder_opens():
    g = game("liars", 3)
    rnd(g, [[3, 3, 1, 2, 2], [3, 4, 4, 5, 6], [6, 6, 6, 6, 1]], (ANA, bid(3, 3)), (BEN, LIAR))
    p = g.public()
    assert p["dice"] == [5, 4, 5] and p["turn"] == ANA


def test_challenge_false_bid_bidder_loses_challenger_opens():
    g = game("liars", 3)
    rnd(g, [[3, 3, 1, 2, 2], [3, 4, 4, 5, 6], [6, 6, 6, 6, 1]],
        (ANA, bid(3, 3)), (BEN, bid(3, 4)), (CY, LIAR))
    p = g.public()
    assert p["dice"] == [5, 4, 5] and p["turn"] == CY


def test_elimination_and_the_winner():
    g = set_dice(game("liars", 3), [5, 1, 0])
    g.start_round()
    g.apply(ANA, bid(1, 2))
    assert g.to_act() == BEN
    g.apply(BEN, LIAR)
    ev = g.settle([[2, 2, 3, 4, 5], [6], []])
    assert ("out", BEN) in ev and ("win", ANA) in ev
    p = g.public()
    assert p["winner"] == ANA and p["turn"] is None and p["eliminated"] == [BEN, CY]
    illegal(g, ANA, bid(1, 3), "game-over")


def test_first_opener_drawn_at_random():
    g = new_game("liars", 2, rng=ScriptedRng([1]))
    g.start_round()
    assert g.to_act() == BEN
    assert len(set(new_game("liars", 2, rng=random.Random(s)).turn for s in range(20))) == 2


# ----- one_life ----------------------------------------------------------------------

def test_one_life_off_by_default_loser_loses_one_die():
    g = game("liars", 2)
    assert g.option("one_life") is False
    rnd(g, HANDS, (ANA, bid(4, 3)), (BEN, LIAR))
    assert g.public()["dice"] == [4, 5]


def test_option_one_life_changes_the_game():
    g = game("liars", 2, one_life=True)
    ev = rnd(g, HANDS, (ANA, bid(4, 3)), (BEN, LIAR))
    assert ("out", ANA) in ev
    p = g.public()
    assert p["dice"] == [0, 5] and p["winner"] == BEN


def test_one_life_challenger_out_at_once_bidder_opens():
    g = game("liars", 3, one_life=True)
    rnd(g, [[3, 3, 1, 2, 2], [3, 4, 4, 5, 6], [6, 6, 6, 6, 1]], (ANA, bid(3, 3)), (BEN, LIAR))
    p = g.public()
    assert p["dice"] == [5, 0, 5] and p["eliminated"] == [BEN]
    assert p["winner"] is None and p["turn"] == ANA
    g.start_round()
    g.apply(ANA, bid(1, 2))
    assert g.to_act() == CY


def test_one_life_wrong_spot_on_eliminates():
    g = game("liars", 3, one_life=True, spot_on=True)
    rnd(g, [[3, 3, 1, 2, 2], [3, 4, 4, 5, 6], [6, 6, 6, 6, 1]], (ANA, bid(2, 3)), (BEN, SPOT_ON))
    p = g.public()
    assert p["dice"] == [5, 0, 5] and p["turn"] == ANA


# ----- spot_on -----------------------------------------------------------------------

def test_spot_on_off_by_default():
    g = game("liars", 2)
    g.start_round()
    g.apply(ANA, bid(3, 3))
    illegal(g, BEN, SPOT_ON, "exact-not-allowed")
    assert EXACT not in g.legal(BEN)


def test_option_spot_on_changes_the_game():
    """ben thinks 3 threes is exactly right. Off: he must call liar and loses a die.
    On: spot on, he is right and, holding 5, keeps 5; ana keeps hers too."""
    def play(on):
        g = game("liars", 2, spot_on=on)
        g.start_round()
        g.apply(ANA, bid(3, 3))
        try:
            g.apply(BEN, SPOT_ON)
        except IllegalAction as e:
            assert e.code == "exact-not-allowed"
            g.apply(BEN, LIAR)
        g.settle(HANDS)
        return g.public()["dice"], g.public()["turn"]
    assert play(False) == ([5, 4], ANA)
    assert play(True) == ([5, 5], BEN)


def test_spot_on_right_caller_regains_a_lost_die_and_opens():
    g = set_dice(game("liars", 3, spot_on=True), [5, 3, 5])
    ev = rnd(g, [[3, 3, 1, 2, 2], [3, 4, 4], [6, 6, 6, 6, 1]], (ANA, bid(3, 3)), (BEN, SPOT_ON))
    assert ("gain", BEN, 1) in ev
    p = g.public()
    assert p["dice"] == [5, 4, 5] and p["turn"] == BEN


def test_spot_on_right_never_above_five():
    g = game("liars", 2, spot_on=True)
    rnd(g, HANDS, (ANA, bid(3, 3)), (BEN, SPOT_ON))
    assert g.public()["dice"] == [5, 5]


def test_spot_on_wrong_caller_loses_bidder_opens():
    g = game("liars", 3, spot_on=True)
    rnd(g, [[3, 3, 1, 2, 2], [3, 4, 4, 5, 6], [6, 6, 6, 6, 1]],
        (ANA, bid(1, 2)), (BEN, bid(2, 3)), (CY, SPOT_ON))
    p = g.public()
    assert p["dice"] == [5, 5, 4] and p["turn"] == BEN


def test_spot_on_only_on_turn():
    g = game("liars", 3, spot_on=True)
    g.start_round()
    g.apply(ANA, bid(2, 3))
    illegal(g, CY, SPOT_ON, "not-your-turn")
    illegal(g, ANA, SPOT_ON, "own-bid")
    assert EXACT in g.legal(BEN) and EXACT not in g.legal(CY)


def test_spot_on_needs_a_bid():
    g = game("liars", 2, spot_on=True)
    g.start_round()
    illegal(g, ANA, SPOT_ON, "no-bid")


def test_liars_illegal_actions_keep_state():
    g = game("liars", 2)
    illegal(g, ANA, bid(1, 1), "wrong-phase")
    g.start_round()
    illegal(g, BEN, bid(1, 1), "not-your-turn")
    illegal(g, ANA, LIAR, "no-bid")
    g.apply(ANA, bid(3, 4))
    illegal(g, BEN, bid(3, 3), "bid-too-low")
    illegal(g, ANA, LIAR, "not-your-turn")
    assert bids(g)[0] == (3, 5)


def test_bad_options_rejected():
    with pytest.raises(ValueError):
        new_game("liars", 2, {"one_life": 1}, opener=0)  # not a bool
    with pytest.raises(ValueError):
        new_game("liars", 2, {"palifico": True}, opener=0)
    with pytest.raises(ValueError):
        new_game("liars", 7, {}, opener=0)
    with pytest.raises(ValueError):
        new_game("liars", 1, {}, opener=0)
