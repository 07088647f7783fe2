"""Perudo / Dudo (RULES.md `perudo`): wild aces, the aces switch, dudo, calza, palifico."""
import random

import pytest

from engine_helpers import CHALLENGE, EXACT, ScriptedRng, bid, bids, game, illegal, rnd, set_dice
from dicecup.engine import IllegalAction, new_game

ANA, BEN, CY, DEE = 0, 1, 2, 3
DUDO = CHALLENGE
CALZA = EXACT


def accepts(prev, new, **options):
    """Whether `new` may follow `prev` in a fresh normal round. An ace `prev` is reached
    from a first bid of twice its quantity in twos (a round may not open on aces)."""
    g = game("perudo", 3, **options)
    g.start_round()
    seat = ANA
    if prev[1] == 1:
        g.apply(seat, bid(prev[0] * 2, 2))
        seat += 1
    g.apply(seat, bid(*prev))
    try:
        g.apply(seat + 1, bid(*new))
    except IllegalAction as e:
        assert e.code == "bid-too-low"
        return False
    return True


# ----- aces --------------------------------------------------------------------------

def test_aces_are_wild_for_the_bid_face():
    g = game("perudo", 2)
    ev = rnd(g, [[1, 3, 3, 5, 6], [1, 1, 2, 4, 3]], (ANA, bid(6, 3)), (BEN, DUDO))
    assert ("reveal", 6, 3, 6) in ev
    assert g.public()["dice"] == [5, 4]


def test_ace_bid_counts_aces_only():
    g = game("perudo", 2)
    ev = rnd(g, [[1, 3, 3, 5, 6], [1, 1, 2, 4, 3]], (ANA, bid(4, 3)), (BEN, bid(4, 1)), (ANA, DUDO))
    assert ("reveal", 4, 1, 3) in ev
    assert g.public()["dice"] == [5, 4]  # three aces for a bid of four: ben loses


def test_round_may_not_open_on_aces():
    g = game("perudo", 2)
    g.start_round()
    illegal(g, ANA, bid(1, 1), "aces-opening")
    illegal(g, ANA, bid(5, 1), "aces-opening")
    assert all(f != 1 for q, f in bids(g))


@pytest.mark.parametrize("prev,new,ok", [
    ((4, 3), (4, 5), True),    # seed: same quantity, higher face
    ((4, 3), (5, 2), True),    # seed: higher quantity, any face
    ((4, 3), (4, 2), False),   # seed: same quantity, lower face
    ((4, 3), (4, 3), False),
    ((4, 3), (3, 6), False),
    ((5, 4), (3, 1), True),    # seed: to aces, ceil(5/2) = 3
    ((5, 4), (2, 1), False),   # seed
    ((4, 6), (2, 1), True),    # ceil(4/2) = 2
    ((4, 6), (1, 1), False),
    ((3, 1), (4, 1), True),    # aces to aces: higher quantity
    ((3, 1), (3, 1), False),
    ((3, 1), (7, 2), True),    # seed: from aces 2q+1 = 7, any face
    ((3, 1), (7, 6), True),
    ((3, 1), (6, 6), False),   # seed
    ((3, 1), (6, 2), False),
])
def test_raise_examples(prev, new, ok):
    assert accepts(prev, new) is ok


# ----- dudo --------------------------------------------------------------------------

HANDS3 = [[2, 2, 3, 4, 5], [1, 6, 6, 6, 6], [3, 3, 3, 4, 5]]  # sixes with aces: 5


def test_dudo_on_a_true_bid_challenger_loses_one_die_and_opens():
    g = game("perudo", 3)
    rnd(g, HANDS3, (ANA, bid(2, 6)), (BEN, DUDO))
    p = g.public()
    assert p["dice"] == [5, 4, 5]  # one die, not the difference
    assert p["turn"] == BEN


def test_dudo_on_an_exact_bid_challenger_loses():
    g = game("perudo", 3)
    rnd(g, HANDS3, (ANA, bid(5, 6)), (BEN, DUDO))
    assert g.public()["dice"] == [5, 4, 5]


def test_dudo_on_a_false_bid_bidder_loses_one_die_and_opens():
    g = game("perudo", 3)
    rnd(g, HANDS3, (ANA, bid(9, 6)), (BEN, DUDO))
    p = g.public()
    assert p["dice"] == [4, 5, 5]
    assert p["turn"] == ANA


def test_eliminated_loser_next_active_player_opens():
    g = set_dice(game("perudo", 4), [5, 1, 0, 5])
    rnd(g, [[2, 2, 3, 4, 5], [6], [], [2, 3, 4, 5, 6]], (ANA, bid(1, 2)), (BEN, DUDO))
    p = g.public()
    assert p["dice"] == [5, 0, 0, 5]
    assert p["eliminated"] == [BEN, CY]
    assert p["turn"] == DEE  # after ben, skipping cy who is already out
    assert p["winner"] is None


def test_last_player_with_dice_wins():
    g = set_dice(game("perudo", 2), [1, 3])
    ev = rnd(g, [[6], [2, 3, 4]], (ANA, bid(2, 6)), (BEN, DUDO))
    assert ("win", BEN) in ev
    p = g.public()
    assert p["winner"] == BEN and p["turn"] is None and p["eliminated"] == [ANA]
    illegal(g, BEN, bid(1, 2), "game-over")


def test_turn_skips_eliminated_players():
    g = set_dice(game("perudo", 3), [5, 0, 5])
    g.start_round()
    g.apply(ANA, bid(1, 2))
    assert g.to_act() == CY
    illegal(g, BEN, DUDO, "eliminated")


def test_first_opener_drawn_at_random():
    g = new_game("perudo", 4, rng=ScriptedRng([2]))
    g.start_round()
    assert g.to_act() == CY
    assert len(set(new_game("perudo", 3, rng=random.Random(s)).turn for s in range(30))) == 3
    assert new_game("perudo", 5, rng=random.Random(9)).turn == new_game("perudo", 5, rng=random.Random(9)).turn


# ----- calza -------------------------------------------------------------------------

def test_calza_exactly_right_caller_gains_a_die_and_opens():
    g = set_dice(game("perudo", 3), [5, 3, 5])
    ev = rnd(g, [[2, 2, 3, 4, 5], [1, 6, 6], [3, 3, 3, 4, 5]], (ANA, bid(3, 6)), (BEN, CALZA))
    assert ("gain", BEN, 1) in ev
    p = g.public()
    assert p["dice"] == [5, 4, 5]
    assert p["turn"] == BEN and p["bid"] is None and p["round"] == 2


def test_calza_gain_never_above_five_dice():
    g = game("perudo", 3)
    ev = rnd(g, HANDS3, (ANA, bid(5, 6)), (BEN, CALZA))
    assert not [e for e in ev if e[0] == "gain"]
    p = g.public()
    assert p["dice"] == [5, 5, 5]
    assert p["turn"] == BEN and p["round"] == 2  # the round ended all the same


def test_calza_wrong_caller_loses_a_die_and_opens():
    g = game("perudo", 3)
    rnd(g, HANDS3, (ANA, bid(4, 6)), (BEN, CALZA))
    p = g.public()
    assert p["dice"] == [5, 4, 5]
    assert p["turn"] == BEN


def test_calza_wrong_eliminates_caller_next_active_opens():
    g = set_dice(game("perudo", 3), [5, 1, 5])
    ev = rnd(g, [[2, 2, 3, 4, 5], [6], [3, 3, 4, 5, 6]], (ANA, bid(3, 6)), (BEN, CALZA))  # 2 sixes
    assert ("out", BEN) in ev
    p = g.public()
    assert p["dice"] == [5, 0, 5] and p["turn"] == CY and p["special"] is None


def test_calza_on_own_bid_rejected():
    g = game("perudo", 3, calza_anyone=True)
    g.start_round()
    g.apply(ANA, bid(2, 3))
    illegal(g, ANA, CALZA, "own-bid")


def test_calza_without_a_bid_rejected():
    g = game("perudo", 3)
    g.start_round()
    illegal(g, ANA, CALZA, "no-bid")


def test_calza_out_of_turn_rejected_by_default():
    g = game("perudo", 3)
    g.start_round()
    g.apply(ANA, bid(2, 3))
    illegal(g, CY, CALZA, "not-your-turn")


def test_option_calza_anyone_changes_the_game():
    """cy calls calza out of turn on ana's exact 5 sixes. Off: refused, ben's dudo
    costs ben a die. On: the round ends on cy's calza, nobody loses (cy at 5)."""
    def play(anyone):
        g = set_dice(game("perudo", 3, calza_anyone=anyone), [5, 5, 4])
        g.start_round()
        g.apply(ANA, bid(5, 6))
        try:
            g.apply(CY, CALZA)
        except IllegalAction as e:
            assert e.code == "not-your-turn"
            g.apply(BEN, DUDO)
        g.settle([[2, 2, 3, 4, 5], [1, 6, 6, 6, 6], [3, 3, 4, 5]])
        return g.public()
    off, on = play(False), play(True)
    assert off["dice"] == [5, 4, 4] and off["turn"] == BEN
    assert on["dice"] == [5, 5, 5] and on["turn"] == CY


def test_calza_anyone_not_by_an_eliminated_player():
    g = set_dice(game("perudo", 3, calza_anyone=True), [5, 5, 0])
    g.start_round()
    g.apply(ANA, bid(2, 3))
    illegal(g, CY, CALZA, "eliminated")


# ----- palifico ----------------------------------------------------------------------

def reduce_ana(g, hands=None):
    """A round in which ana (holding 2 dice) bids a false 9 sixes and loses one."""
    hands = hands or [[2, 3], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]]
    return rnd(g, hands, (ANA, bid(9, 6)), (BEN, DUDO))


def test_reduced_to_one_die_next_round_is_palifico_opened_by_them():
    g = set_dice(game("perudo", 3), [2, 5, 5])
    ev = reduce_ana(g)
    assert ("round", 2, ANA, "palifico") in ev
    p = g.public()
    assert p["dice"] == [1, 5, 5]
    assert p["special"] == "palifico" and p["turn"] == ANA


PALI_HANDS = [[3], [1, 1, 3, 4, 5], [2, 2, 2, 2, 6]]  # threes: 2 plain, 4 with wild aces


def test_palifico_aces_not_wild():
    g = set_dice(game("perudo", 3), [2, 5, 5])
    reduce_ana(g)
    ev = rnd(g, PALI_HANDS, (ANA, bid(3, 3)), (BEN, DUDO))
    assert ("reveal", 3, 3, 2) in ev
    assert g.public()["dice"] == [0, 5, 5]


def test_option_palifico_off_changes_the_game():
    """The same two rounds with palifico off: aces stay wild, 4 threes, ben loses."""
    def play(pal):
        g = set_dice(game("perudo", 3, palifico=pal), [2, 5, 5])
        reduce_ana(g)
        special = g.public()["special"]
        rnd(g, PALI_HANDS, (ANA, bid(3, 3)), (BEN, DUDO))
        return special, g.public()["dice"]
    assert play(True) == ("palifico", [0, 5, 5])
    assert play(False) == (None, [1, 4, 5])


def test_palifico_face_cannot_change():
    g = set_dice(game("perudo", 3), [2, 5, 5])
    reduce_ana(g)
    g.start_round()
    g.apply(ANA, bid(1, 3))
    illegal(g, BEN, bid(2, 4), "palifico-face")
    illegal(g, BEN, bid(5, 6), "palifico-face")
    illegal(g, BEN, bid(1, 5), "palifico-face")  # only the quantity may rise
    illegal(g, BEN, bid(1, 1), "bid-too-low")
    assert bids(g) == [(q, 3) for q in range(2, 12)]
    g.apply(BEN, bid(2, 3))
    illegal(g, CY, bid(2, 3), "bid-too-low")


def test_palifico_opener_may_open_on_aces():
    g = set_dice(game("perudo", 3), [2, 5, 5])
    reduce_ana(g)
    g.start_round()
    assert (1, 1) in bids(g)
    g.apply(ANA, bid(1, 1))
    illegal(g, BEN, bid(2, 2), "palifico-face")  # no doubling away from aces
    g.apply(BEN, bid(2, 1))
    g.apply(CY, DUDO)
    ev = g.settle([[1], [1, 3, 3, 3, 3], [2, 2, 2, 2, 2]])
    assert ("reveal", 2, 1, 2) in ev
    assert g.public()["dice"] == [1, 5, 4]


def test_calza_allowed_in_palifico_counts_without_wild_aces():
    g = set_dice(game("perudo", 3), [2, 5, 5])
    reduce_ana(g)
    # plain threes: 2 (ana, ben); with wild aces it would be 4
    ev = rnd(g, PALI_HANDS, (ANA, bid(2, 3)), (BEN, CALZA))
    assert ("reveal", 2, 3, 2) in ev
    p = g.public()
    assert p["dice"] == [1, 5, 5] and p["turn"] == BEN  # ben was right (at 5: no gain)


def test_palifico_lasts_one_round():
    g = set_dice(game("perudo", 3), [2, 5, 5])
    reduce_ana(g)
    rnd(g, PALI_HANDS, (ANA, bid(1, 3)), (BEN, DUDO))  # ben loses: 4 dice
    p = g.public()
    assert p["special"] is None and p["dice"] == [1, 4, 5]
    g.start_round()
    illegal(g, BEN, bid(1, 1), "aces-opening")


def test_palifico_once_per_player():
    g = set_dice(game("perudo", 3), [2, 5, 5])
    reduce_ana(g)                                     # ana 1 die: her palifico
    assert g.public()["special"] == "palifico"
    # in it, ana calls a correct calza and is back to 2 dice
    rnd(g, [[3], [3, 2, 2, 2, 2], [3, 4, 4, 4, 4]],
        (ANA, bid(1, 3)), (BEN, bid(2, 3)), (CY, bid(3, 3)), (ANA, CALZA))
    assert g.public()["dice"] == [2, 5, 5] and g.public()["special"] is None
    reduce_ana(g)                                     # down to one die again
    p = g.public()
    assert p["dice"] == [1, 5, 5]
    assert p["special"] is None                       # no second palifico for ana
    g.start_round()
    illegal(g, ANA, bid(1, 1), "aces-opening")


def test_each_player_has_their_own_palifico():
    g = set_dice(game("perudo", 3), [2, 2, 5])
    reduce_ana(g, [[2, 3], [2, 3], [2, 3, 4, 5, 6]])  # ana's palifico
    rnd(g, [[3], [4, 4], [3, 3, 3, 3, 3]], (ANA, bid(1, 3)), (BEN, DUDO))  # ben drops to 1
    p = g.public()
    assert p["dice"] == [1, 1, 5]
    assert p["special"] == "palifico" and p["turn"] == BEN


def test_no_palifico_when_only_two_players_remain():
    g = set_dice(game("perudo", 2), [2, 5])
    rnd(g, [[2, 3], [2, 3, 4, 5, 6]], (ANA, bid(9, 6)), (BEN, DUDO))
    p = g.public()
    assert p["dice"] == [1, 5] and p["special"] is None
    g.start_round()
    illegal(g, ANA, bid(1, 1), "aces-opening")


def test_no_palifico_when_two_remain_after_eliminations():
    g = set_dice(game("perudo", 3), [2, 0, 5])
    rnd(g, [[2, 3], [], [2, 3, 4, 5, 6]], (ANA, bid(9, 6)), (CY, DUDO))
    p = g.public()
    assert p["dice"] == [1, 0, 5] and p["special"] is None


def test_palifico_triggered_by_a_wrong_calza():
    g = set_dice(game("perudo", 3), [5, 2, 5])
    rnd(g, [[2, 2, 3, 4, 5], [3, 4], [3, 3, 4, 5, 6]], (ANA, bid(2, 3)), (BEN, CALZA))  # 4 threes
    p = g.public()
    assert p["dice"] == [5, 1, 5]
    assert p["special"] == "palifico" and p["turn"] == BEN


def test_palifico_public_state_and_roundtrip():
    from dicecup.engine import loads
    g = set_dice(game("perudo", 3), [2, 5, 5])
    reduce_ana(g)
    h = loads(g.dumps())
    assert h.public() == g.public()
    h.start_round()
    h.apply(ANA, bid(1, 1))  # allowed: still the palifico round after a reload


# ----- other illegal actions -------------------------------------------------------

def test_perudo_illegal_actions_keep_state():
    g = game("perudo", 3)
    illegal(g, ANA, bid(2, 3), "wrong-phase")
    g.start_round()
    illegal(g, BEN, bid(2, 3), "not-your-turn")
    illegal(g, ANA, DUDO, "no-bid")
    illegal(g, ANA, 2 << 3 | 7, "bad-face")
    g.apply(ANA, bid(2, 3))
    illegal(g, BEN, bid(2, 2), "bid-too-low")
    illegal(g, CY, DUDO, "not-your-turn")
    illegal(g, ANA, DUDO, "not-your-turn")
