"""Menteur (RULES.md `menteur`): the parrot joker, tout pile out of turn, the one-die round."""
import random
import subprocess
import sys

import pytest

from engine_helpers import CHALLENGE, EXACT, ScriptedRng, bid, bids, game, illegal, rnd, set_dice
from dicecup.engine import IllegalAction, new_game

ANA, BEN, CY, DEE = 0, 1, 2, 3
MENTEUR = CHALLENGE
TOUT_PILE = EXACT
JOKER = 1


def accepts(prev, new, special=False):
    """Whether `new` may follow `prev` in a fresh 3-seat round (normal, or the one-die
    round reached by ana dropping from 2 dice to 1)."""
    g = game("menteur", 3)
    if special:
        g = set_dice(g, [2, 5, 5])
        rnd(g, [[2, 3], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]], (ANA, bid(9, 6)), (BEN, MENTEUR))
        assert g.public()["special"] == "no-jokers"
    g.start_round()
    first = g.to_act()
    g.apply(first, bid(*prev))
    try:
        g.apply(g.to_act(), bid(*new))
    except IllegalAction as e:
        assert e.code == "bid-too-low"
        return False
    return True


# ----- the joker -----------------------------------------------------------------------

def test_joker_is_wild_in_a_normal_round():
    g = game("menteur", 2)
    ev = rnd(g, [[1, 3, 3, 5, 6], [1, 1, 2, 4, 3]], (ANA, bid(6, 3)), (BEN, MENTEUR))
    assert ("reveal", 6, 3, 6) in ev
    p = g.public()
    assert p["dice"] == [5, 4] and p["turn"] == BEN  # the challenger lost and opens


def test_joker_bid_counts_jokers_only():
    g = game("menteur", 2)
    ev = rnd(g, [[1, 3, 3, 5, 6], [1, 1, 2, 4, 3]], (ANA, bid(4, JOKER)), (BEN, MENTEUR))
    assert ("reveal", 4, 1, 3) in ev
    p = g.public()
    assert p["dice"] == [4, 5] and p["turn"] == ANA  # the bidder lost and opens


def test_opening_on_jokers_allowed():
    g = game("menteur", 2)
    g.start_round()
    assert (1, JOKER) in bids(g)
    g.apply(ANA, bid(1, JOKER))
    assert g.public()["bid"] == [1, 1]


def test_opening_on_jokers_listed_even_after_a_perudo_game():
    """A perudo table (no opening on aces) played earlier in the same process must not
    change what a menteur opener is offered. A fresh interpreter, so that no menteur
    table has been seen before."""
    code = (
        "from dicecup.engine import new_game\n"
        "p = new_game('perudo', 3, {}, opener=0); p.start_round(); p.legal(0)\n"
        "g = new_game('menteur', 3, {}, opener=0); g.start_round()\n"
        "print(len(g.legal(0)), (1 << 3 | 1) in g.legal(0))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["90", "True"]  # 15 quantities x 6 faces, jokers included


@pytest.mark.parametrize("prev,new,ok", [
    ((3, 4), (4, 3), True),    # seed: higher quantity, lower value
    ((3, 4), (3, 5), True),    # seed: same quantity, higher value
    ((3, 4), (3, 3), False),   # seed
    ((3, 4), (2, JOKER), True),  # seed: to jokers, ceil(3/2) = 2
    ((3, 4), (1, JOKER), False),
    ((4, 6), (2, JOKER), True),
    ((3, JOKER), (4, JOKER), True),  # jokers to jokers: higher quantity
    ((3, JOKER), (3, JOKER), False),
    ((3, JOKER), (7, 6), True),  # seed: from jokers 2q+1
    ((3, JOKER), (7, 2), True),
    ((3, JOKER), (6, 6), False),  # seed
    ((2, JOKER), (5, 2), True),
    ((2, JOKER), (4, 6), False),
])
def test_raise_examples(prev, new, ok):
    assert accepts(prev, new) is ok


# ----- menteur (the challenge) -----------------------------------------------------------

HANDS3 = [[2, 2, 3, 4, 5], [1, 6, 6, 6, 6], [3, 3, 3, 4, 5]]  # sixes with the joker: 5


def test_challenge_true_bid_challenger_loses_and_opens():
    g = game("menteur", 3)
    rnd(g, HANDS3, (ANA, bid(5, 6)), (BEN, MENTEUR))
    p = g.public()
    assert p["dice"] == [5, 4, 5] and p["turn"] == BEN


def test_challenge_false_bid_bidder_loses_and_opens():
    g = game("menteur", 3)
    rnd(g, HANDS3, (ANA, bid(6, 6)), (BEN, MENTEUR))
    p = g.public()
    assert p["dice"] == [4, 5, 5] and p["turn"] == ANA


def test_eliminated_loser_next_active_opens():
    g = set_dice(game("menteur", 4), [5, 5, 1, 5])
    rnd(g, [[2, 2, 2, 2, 2], [3, 3, 3, 3, 3], [4], [5, 5, 5, 5, 5]],
        (ANA, bid(1, 2)), (BEN, bid(2, 3)), (CY, bid(9, 4)), (DEE, MENTEUR))
    p = g.public()
    assert p["dice"] == [5, 5, 0, 5] and p["eliminated"] == [CY]
    assert p["turn"] == DEE


def test_first_opener_drawn_at_random():
    g = new_game("menteur", 3, rng=ScriptedRng([1]))
    assert g.start_round() and g.to_act() == BEN
    assert len(set(new_game("menteur", 4, rng=random.Random(s)).turn for s in range(40))) == 4


def test_menteur_has_no_options():
    with pytest.raises(ValueError):
        new_game("menteur", 3, {"palifico": True}, opener=0)


# ----- tout pile -------------------------------------------------------------------------

def test_tout_pile_out_of_turn_by_any_player_but_the_bidder():
    g = game("menteur", 4)
    g.start_round()
    g.apply(ANA, bid(2, 3))
    assert g.to_act() == BEN
    assert EXACT in g.legal(CY) and EXACT in g.legal(DEE) and EXACT in g.legal(BEN)
    assert EXACT not in g.legal(ANA)
    illegal(g, ANA, TOUT_PILE, "own-bid")
    g.apply(DEE, TOUT_PILE)  # out of turn
    assert g.public()["phase"] == "reveal"


def test_tout_pile_by_the_previous_bidder_after_a_raise():
    g = game("menteur", 3)
    g.start_round()
    g.apply(ANA, bid(2, 3))
    g.apply(BEN, bid(3, 3))
    g.apply(ANA, TOUT_PILE)  # ana is no longer the current bidder
    ev = g.settle(HANDS3)    # threes with the joker: 1 + 1 + 3 = 5
    assert ("reveal", 3, 3, 5) in ev
    assert g.public()["dice"] == [4, 5, 5] and g.public()["turn"] == ANA


def test_tout_pile_out_of_turn_first_call_wins():
    g = game("menteur", 3)
    g.start_round()
    g.apply(ANA, bid(5, 6))
    g.apply(CY, TOUT_PILE)
    illegal(g, BEN, TOUT_PILE, "wrong-phase")  # the later call is rejected
    illegal(g, BEN, MENTEUR, "wrong-phase")
    ev = g.settle(HANDS3)
    assert ("reveal", 5, 6, 5) in ev
    assert g.public()["dice"] == [5, 5, 5]  # cy was right, already at 5


def test_tout_pile_right_caller_gains_and_bidder_opens():
    g = set_dice(game("menteur", 3), [5, 5, 3])
    ev = rnd(g, [[2, 2, 3, 4, 5], [1, 6, 6, 6, 6], [3, 3, 4]], (ANA, bid(5, 6)), (CY, TOUT_PILE))
    assert ("gain", CY, 1) in ev
    p = g.public()
    assert p["dice"] == [5, 5, 4]
    assert p["turn"] == ANA  # the bidder whose bid was exact
    assert p["round"] == 2 and p["bid"] is None


def test_tout_pile_wrong_caller_loses_and_opens():
    g = game("menteur", 3)
    rnd(g, HANDS3, (ANA, bid(4, 6)), (CY, TOUT_PILE))
    p = g.public()
    assert p["dice"] == [5, 5, 4] and p["turn"] == CY


def test_tout_pile_wrong_eliminates_caller_next_active_opens():
    g = set_dice(game("menteur", 3), [5, 5, 1])
    rnd(g, [[2, 2, 3, 4, 5], [1, 6, 6, 6, 6], [3]], (ANA, bid(4, 6)), (CY, TOUT_PILE))
    p = g.public()
    assert p["dice"] == [5, 5, 0] and p["turn"] == ANA


def test_tout_pile_needs_a_standing_bid():
    g = game("menteur", 3)
    g.start_round()
    illegal(g, BEN, TOUT_PILE, "no-bid")


def test_tout_pile_not_by_an_eliminated_player():
    g = set_dice(game("menteur", 3), [5, 5, 0])
    g.start_round()
    g.apply(ANA, bid(2, 3))
    illegal(g, CY, TOUT_PILE, "eliminated")


def test_tout_pile_before_the_roll_rejected():
    g = game("menteur", 3)
    illegal(g, BEN, TOUT_PILE, "wrong-phase")


# ----- the one-die round -------------------------------------------------------------------

def drop_ana(g, hands=None):
    """ana (2 dice) bids a false 9 sixes, ben calls menteur: ana drops to one die."""
    hands = hands or [[2, 3], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]]
    return rnd(g, hands, (ANA, bid(9, 6)), (BEN, MENTEUR))


NOJOKER_HANDS = [[3], [1, 1, 3, 4, 5], [2, 2, 2, 2, 6]]  # threes: 2 plain, 4 with jokers


def test_one_die_round_after_a_drop_to_one_die():
    g = set_dice(game("menteur", 3), [2, 5, 5])
    ev = drop_ana(g)
    assert ("round", 2, ANA, "no-jokers") in ev
    p = g.public()
    assert p["special"] == "no-jokers" and p["turn"] == ANA


def test_one_die_round_jokers_not_wild():
    g = set_dice(game("menteur", 3), [2, 5, 5])
    drop_ana(g)
    ev = rnd(g, NOJOKER_HANDS, (ANA, bid(3, 3)), (BEN, MENTEUR))
    assert ("reveal", 3, 3, 2) in ev
    assert g.public()["dice"] == [0, 5, 5]


def test_same_bid_counts_jokers_in_a_normal_round():
    g = set_dice(game("menteur", 3), [1, 5, 5])  # no drop happened: a normal round
    ev = rnd(g, NOJOKER_HANDS, (ANA, bid(3, 3)), (BEN, MENTEUR))
    assert ("reveal", 3, 3, 4) in ev
    assert g.public()["dice"] == [1, 4, 5]


@pytest.mark.parametrize("prev,new,ok", [
    ((3, JOKER), (3, 2), True),    # jokers rank below 2
    ((3, 2), (3, JOKER), False),
    ((4, 3), (2, JOKER), False),   # no halving
    ((4, 3), (4, JOKER), False),
    ((4, 3), (5, JOKER), True),
    ((2, JOKER), (3, 5), True),    # no doubling
    ((2, JOKER), (3, JOKER), True),
    ((2, 3), (2, 4), True),        # the value may still change
    ((2, 4), (2, 3), False),
])
def test_one_die_round_jokers_bid_like_a_value_below_two(prev, new, ok):
    assert accepts(prev, new, special=True) is ok


def test_one_die_round_joker_bid_counts_jokers():
    g = set_dice(game("menteur", 3), [2, 5, 5])
    drop_ana(g)
    ev = rnd(g, NOJOKER_HANDS, (ANA, bid(2, JOKER)), (BEN, MENTEUR))
    assert ("reveal", 2, 1, 2) in ev
    assert g.public()["dice"] == [1, 4, 5]


def test_one_die_round_lasts_one_round():
    g = set_dice(game("menteur", 3), [2, 5, 5])
    drop_ana(g)
    rnd(g, NOJOKER_HANDS, (ANA, bid(2, 3)), (BEN, MENTEUR))  # true: ben 4 dice
    assert g.public()["special"] is None
    ev = rnd(g, [[1], [1, 3, 3, 4], [2, 2, 2, 2, 6]], (BEN, bid(4, 3)), (CY, MENTEUR))
    assert ("reveal", 4, 3, 4) in ev  # jokers wild again
    assert g.public()["dice"] == [1, 4, 4]


def test_one_die_round_every_time_someone_drops_to_one():
    g = set_dice(game("menteur", 3), [2, 2, 5])
    drop_ana(g, [[2, 3], [2, 3], [2, 3, 4, 5, 6]])
    assert g.public()["special"] == "no-jokers"
    # in it, ben calls menteur on a true bid and drops to one die: another one-die round
    rnd(g, [[3], [4, 4], [3, 3, 4, 5, 6]], (ANA, bid(2, 3)), (BEN, MENTEUR))
    p = g.public()
    assert p["dice"] == [1, 1, 5] and p["special"] == "no-jokers" and p["turn"] == BEN


def test_one_die_round_again_for_the_same_player():
    g = set_dice(game("menteur", 3), [2, 5, 5])
    drop_ana(g)
    # ana's tout pile is right: back to 2 dice
    rnd(g, [[3], [3, 2, 2, 2, 2], [3, 4, 4, 4, 4]], (ANA, bid(2, 3)), (BEN, bid(3, 3)), (ANA, TOUT_PILE))
    assert g.public()["dice"] == [2, 5, 5] and g.public()["special"] is None
    assert g.public()["turn"] == BEN  # the exact bidder opens
    rnd(g, [[2, 3], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]],
        (BEN, bid(1, 2)), (CY, bid(2, 2)), (ANA, bid(9, 6)), (BEN, MENTEUR))
    assert g.public()["dice"] == [1, 5, 5]
    assert g.public()["special"] == "no-jokers"  # again: no once-per-player limit


def test_one_die_round_also_with_two_players():
    g = set_dice(game("menteur", 2), [2, 5])
    rnd(g, [[2, 3], [2, 3, 4, 5, 6]], (ANA, bid(9, 6)), (BEN, MENTEUR))
    assert g.public()["special"] == "no-jokers"


def test_one_die_round_after_a_wrong_tout_pile():
    g = set_dice(game("menteur", 3), [5, 5, 2])
    rnd(g, [[2, 2, 3, 4, 5], [1, 6, 6, 6, 6], [3, 4]], (ANA, bid(4, 6)), (CY, TOUT_PILE))
    p = g.public()
    assert p["dice"] == [5, 5, 1] and p["special"] == "no-jokers" and p["turn"] == CY


def test_no_one_die_round_when_a_die_is_lost_from_three():
    g = set_dice(game("menteur", 3), [3, 5, 5])
    drop_ana(g, [[2, 3, 4], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]])
    assert g.public()["dice"] == [2, 5, 5] and g.public()["special"] is None


def test_no_one_die_round_after_the_game_ends():
    g = set_dice(game("menteur", 2), [1, 2])
    rnd(g, [[2], [2, 3]], (ANA, bid(9, 6)), (BEN, bid(10, 6)), (ANA, MENTEUR))
    p = g.public()
    assert p["dice"] == [1, 1] and p["special"] == "no-jokers" and p["turn"] == BEN
    rnd(g, [[2], [3]], (BEN, bid(2, 2)), (ANA, MENTEUR))
    p = g.public()
    assert p["winner"] == ANA and p["special"] is None and p["turn"] is None


def test_menteur_illegal_actions_keep_state():
    g = game("menteur", 3)
    illegal(g, ANA, bid(2, 3), "wrong-phase")
    g.start_round()
    illegal(g, CY, bid(2, 3), "not-your-turn")
    illegal(g, ANA, MENTEUR, "no-bid")
    g.apply(ANA, bid(3, 4))
    illegal(g, BEN, bid(3, 3), "bid-too-low")
    illegal(g, CY, MENTEUR, "not-your-turn")
