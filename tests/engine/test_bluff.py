"""Ravensburger "Bluff" (RULES.md `bluff`): stars wild, the board track, difference
losses, the winner opens, the roll-off, and the reroll extension."""
import random

import pytest

from engine_helpers import (CHALLENGE, EXACT, BANK, ScriptedRng, bid, bids, game, illegal,
                            loads, reroll, rnd, roll, set_dice)
from dicecup.engine import IllegalAction, new_game

STAR = 6
ANA, BEN, CY = 0, 1, 2


def accepts(prev, new, **options):
    """Whether `new` may follow `prev` (both (q, f)) in a fresh 2-seat game."""
    g = game("bluff", 2, **options)
    g.start_round()
    g.apply(ANA, bid(*prev))
    try:
        g.apply(BEN, bid(*new))
    except IllegalAction as e:
        assert e.code == "bid-too-low"
        return False
    return True


def track_spaces(limit):
    """The board's track as RULES.md writes it: 1, *1, 2, 3, *2, 4, 5, *3, ...
    ('n', q) number spaces and ('s', s) star spaces, quantities up to `limit`."""
    out = [("n", 1)]
    s = 1
    while 2 * s <= limit or s <= limit:
        out.append(("s", s))
        out.append(("n", 2 * s))
        out.append(("n", 2 * s + 1))
        s += 1
    return [(k, q) for k, q in out if q <= limit]


def track_bids(limit):
    out = []
    for k, q in track_spaces(limit):
        if k == "s":
            out.append((q, STAR))
        else:
            out.extend((q, f) for f in range(1, 6))
    return out


# ----- counting ----------------------------------------------------------------------

def test_number_bet_counts_face_plus_stars():
    g = game("bluff", 2)
    # threes: ana 2 + stars 1 + ben stars 1 = 4 -> the bet of 4 is exact
    ev = rnd(g, [[3, 3, 6, 1, 2], [6, 4, 4, 5, 5]], (ANA, bid(4, 3)), (BEN, CHALLENGE))
    assert ("reveal", 4, 3, 4) in ev
    assert g.public()["dice"] == [5, 4]


def test_star_bet_counts_stars_only():
    g = game("bluff", 2)
    # three stars; the ones and twos do not count for a star bet
    ev = rnd(g, [[6, 6, 1, 1, 2], [6, 1, 2, 2, 2]], (ANA, bid(4, STAR)), (BEN, CHALLENGE))
    assert ("reveal", 4, STAR, 3) in ev
    assert g.public()["dice"] == [4, 5]


# ----- the board track -----------------------------------------------------------------

def test_board_track_order_as_written():
    spaces = track_spaces(30)
    assert spaces[:8] == [("n", 1), ("s", 1), ("n", 2), ("n", 3), ("s", 2), ("n", 4), ("n", 5), ("s", 3)]
    i = spaces.index(("n", 19))
    assert spaces[i:i + 3] == [("n", 19), ("s", 10), ("n", 20)]


def test_board_track_every_step_up_is_a_raise_and_never_down():
    order = track_bids(24)
    for lo, hi in zip(order, order[1:]):
        assert accepts(lo, hi), (lo, hi)
        assert not accepts(hi, lo), (hi, lo)


def test_board_track_is_the_order_of_legal_bids():
    g = game("bluff", 6)  # 30 dice on the table
    g.start_round()
    listed = bids(g)
    assert listed == track_bids(30)
    assert listed[-16:] == [(30, 5)] + [(s, STAR) for s in range(16, 31)]


@pytest.mark.parametrize("track", ["board", "half"])
@pytest.mark.parametrize("prev,new,ok", [
    ((5, 5), (6, 2), True),      # seed: 5x5 -> 6x2
    ((2, STAR), (5, 4), True),   # seed: 2 stars -> 5x4
    ((3, STAR), (4, STAR), True),  # seed: 3 stars -> 4 stars
    ((8, 4), (5, STAR), True),   # seed: 8x4 -> 5 stars
    ((5, 3), (5, 4), True),      # seed: same quantity, higher face
    ((5, 4), (5, 3), False),     # seed: same quantity, lower face
])
def test_seed_examples(track, prev, new, ok):
    assert accepts(prev, new, star_track=track) is ok


@pytest.mark.parametrize("prev,new,ok", [
    ((3, 5), (2, STAR), True),   # 2s-1 = 3 >= 3
    ((4, 1), (2, STAR), False),  # 3 < 4
    ((2, STAR), (3, 5), False),  # numbers need q >= 4
    ((2, STAR), (4, 1), True),
    ((1, 5), (1, STAR), True),
    ((2, 1), (1, STAR), False),
    ((4, STAR), (3, STAR), False),
    ((3, STAR), (3, STAR), False),
    ((4, 2), (4, 2), False),
    ((4, 2), (3, 5), False),
])
def test_star_switch_thresholds_board(prev, new, ok):
    assert accepts(prev, new) is ok


@pytest.mark.parametrize("prev,new,ok", [
    ((19, 5), (10, STAR), True),
    ((20, 1), (10, STAR), False),
    ((10, STAR), (20, 1), True),
    ((20, 5), (21, 1), True),    # space 1 also means 21
    ((21, 5), (11, STAR), True),  # star space 1 also means 11 stars
    ((22, 1), (11, STAR), False),
    ((11, STAR), (22, 1), True),
    ((11, STAR), (21, 5), False),
    ((23, 5), (12, STAR), True),
    ((12, STAR), (24, 1), True),
])
def test_quantities_past_20_go_on_round_the_track(prev, new, ok):
    assert accepts(prev, new) is ok


@pytest.mark.parametrize("prev,new,ok", [
    ((4, 5), (2, STAR), True),   # half: 2 stars above quantity <= 4
    ((5, 1), (2, STAR), False),  # ... below quantity >= 5
    ((2, STAR), (4, 5), False),
    ((2, STAR), (5, 1), True),
    ((1, 5), (1, STAR), True),
    ((2, 5), (1, STAR), True),
    ((3, 1), (1, STAR), False),
    ((22, 5), (11, STAR), True),
    ((23, 1), (11, STAR), False),
])
def test_half_track_thresholds(prev, new, ok):
    assert accepts(prev, new, star_track="half") is ok


def test_option_star_track_changes_the_game():
    """Same steps: 4x5 then 2 stars. Board: 2 stars sit below 4 (rejected); half: above."""
    assert accepts((4, 5), (2, STAR), star_track="board") is False
    assert accepts((4, 5), (2, STAR), star_track="half") is True
    assert accepts((4, 5), (2, STAR)) is False  # board is the default


# ----- the challenge: losses are the difference ------------------------------------------

HANDS3 = [[6, 4, 4, 1, 2], [4, 6, 6, 3, 3], [5, 5, 5, 1, 2]]  # fours with stars: 6


def test_bet_below_actual_challenger_loses_the_difference():
    g = game("bluff", 3)
    ev = rnd(g, HANDS3, (ANA, bid(4, 4)), (BEN, CHALLENGE))
    assert ("reveal", 4, 4, 6) in ev
    p = g.public()
    assert p["dice"] == [5, 3, 5]
    assert p["turn"] == ANA  # the bettor won: the bettor opens


def test_bet_exact_every_player_but_the_bettor_loses_one():
    g = game("bluff", 3)
    rnd(g, HANDS3, (ANA, bid(6, 4)), (BEN, CHALLENGE))
    p = g.public()
    assert p["dice"] == [5, 4, 4]
    assert p["turn"] == ANA


def test_bet_above_actual_bettor_loses_the_difference():
    g = game("bluff", 3)
    rnd(g, HANDS3, (ANA, bid(9, 4)), (BEN, CHALLENGE))
    p = g.public()
    assert p["dice"] == [2, 5, 5]
    assert p["turn"] == BEN  # the challenger won: the challenger opens


def test_challenger_further_round_the_table_opens_when_the_bet_fails():
    g = game("bluff", 3)
    rnd(g, HANDS3, (ANA, bid(4, 4)), (BEN, bid(8, 4)), (CY, CHALLENGE))
    p = g.public()
    assert p["dice"] == [5, 3, 5]  # ben bet 8, 6 were there
    assert p["turn"] == CY


def test_loss_capped_at_the_dice_held_then_eliminated():
    g = set_dice(game("bluff", 3), [2, 5, 5])
    ev = rnd(g, [[4, 4], [4, 6, 6, 3, 3], [5, 5, 5, 1, 2]], (ANA, bid(9, 4)), (BEN, CHALLENGE))
    assert ("lose", ANA, 2) in ev and ("out", ANA) in ev
    p = g.public()
    assert p["dice"] == [0, 5, 5]
    assert p["eliminated"] == [ANA]
    assert p["winner"] is None
    assert p["turn"] == BEN


def test_challenger_loss_capped_at_one_die():
    g = set_dice(game("bluff", 2), [5, 1])
    rnd(g, [[6, 6, 6, 2, 2], [3]], (ANA, bid(1, 2)), (BEN, CHALLENGE))  # 5 twos, bet 1
    p = g.public()
    assert p["dice"] == [5, 0]
    assert p["winner"] == ANA


def test_exact_bet_can_eliminate_everyone_else_and_win():
    g = set_dice(game("bluff", 3), [3, 1, 1])
    rnd(g, [[2, 2, 1], [3], [6]], (ANA, bid(3, 2)), (BEN, CHALLENGE))
    p = g.public()
    assert p["dice"] == [3, 0, 0]
    assert p["eliminated"] == [BEN, CY]
    assert p["winner"] == ANA
    assert p["turn"] is None
    assert p["round"] == 2


def test_game_over_rejects_every_action():
    g = set_dice(game("bluff", 2), [5, 1])
    rnd(g, [[2, 2, 2, 1, 1], [4]], (ANA, bid(3, 2)), (BEN, CHALLENGE))
    assert g.public()["winner"] == ANA
    illegal(g, ANA, bid(1, 1), "game-over")
    illegal(g, BEN, CHALLENGE, "game-over")
    assert g.to_act() is None


def test_turn_skips_eliminated_players():
    g = set_dice(game("bluff", 3), [5, 0, 5])
    g.start_round()
    g.apply(ANA, bid(2, 2))
    assert g.to_act() == CY
    assert g.legal(BEN) == []
    illegal(g, BEN, CHALLENGE, "eliminated")


def test_three_player_round_passes_clockwise():
    g = game("bluff", 3, opener=BEN)
    g.start_round()
    assert g.to_act() == BEN
    g.apply(BEN, bid(1, 1))
    assert g.to_act() == CY
    g.apply(CY, bid(1, 2))
    assert g.to_act() == ANA


# ----- who opens the first round: the roll-off -------------------------------------------

def faces_to_rng(*rolls):
    return ScriptedRng([f - 1 for r in rolls for f in r])


def test_rolloff_highest_pip_total_opens():
    rng = faces_to_rng([2, 2, 2, 2, 2], [5, 5, 5, 5, 4], [1, 1, 1, 1, 1])
    g = new_game("bluff", 3, rng=rng)
    assert g.start_round() and g.to_act() == BEN
    assert not rng.values


def test_rolloff_star_counts_six():
    # ana 5 stars = 30 beats ben 5 fives = 25 (a star counting 0 would make ben open)
    g = new_game("bluff", 2, rng=faces_to_rng([6, 6, 6, 6, 6], [5, 5, 5, 5, 5]))
    g.start_round()
    assert g.to_act() == ANA


def test_rolloff_ties_roll_again_among_themselves():
    rng = faces_to_rng([4, 4, 4, 4, 4], [6, 6, 6, 1, 1], [1, 1, 1, 1, 1],  # 20, 20, 5
                       [2, 2, 2, 2, 2], [3, 3, 3, 3, 3])                    # 10, 15
    g = new_game("bluff", 3, rng=rng)
    g.start_round()
    assert g.to_act() == BEN
    assert [e[1] for e in g.opening] == [ANA, BEN, CY, ANA, BEN]  # cy does not roll again
    assert g.opening[3][2] == [2, 2, 2, 2, 2]  # the roll-off dice are public
    assert not rng.values


def test_rolloff_is_replayable_from_the_seed():
    a = new_game("bluff", 4, rng=random.Random(1234))
    b = new_game("bluff", 4, rng=random.Random(1234))
    assert a.turn == b.turn and a.opening == b.opening
    openers = set(new_game("bluff", 4, rng=random.Random(s)).turn for s in range(40))
    assert openers == {0, 1, 2, 3}


# ----- the reroll extension -----------------------------------------------------------

def test_reroll_off_by_default():
    g = game("bluff", 2)
    g.start_round()
    g.apply(ANA, bid(3, 4))
    illegal(g, ANA, reroll([4]), "reroll-not-allowed")
    assert g.option("reroll") is False


def test_reroll_after_the_opening_bet_sets_dice_aside_face_up():
    g = game("bluff", 2, reroll=True)
    g.start_round()
    g.apply(ANA, bid(3, 4))
    ev = g.apply(ANA, reroll([4, 4]))
    assert ev == [("reroll", ANA, [4, 4], 3)]  # faces shown to all, 3 dice rerolled
    assert g.hidden(ANA) == 3
    assert g.to_act() == BEN  # the turn already passed and stays passed


def test_set_aside_dice_count_at_settlement():
    g = game("bluff", 2, reroll=True)
    g.start_round()
    g.apply(ANA, bid(3, 4))
    g.apply(ANA, reroll([4, 4]))
    g.apply(BEN, CHALLENGE)
    illegal_settle(g, [[1, 2, 3, 5, 5], [4, 5, 5, 2, 1]], "dice-count")  # only 3 under ana's cup
    ev = g.settle([[1, 2, 3], [4, 5, 5, 2, 1]])
    assert ("reveal", 3, 4, 3) in ev  # two set aside + ben's one
    assert g.public()["dice"] == [5, 4]  # exact: ben loses one


def test_option_reroll_changes_the_game():
    """Same table and bets. Off: the reroll is refused and ana's original five dice are
    revealed (one 4: ana loses 2). On: two 4s set aside, the reroll brings a third."""
    def play(on):
        g = game("bluff", 2, reroll=on)
        g.start_round()
        g.apply(ANA, bid(4, 4))
        try:
            g.apply(ANA, reroll([4]))
            ana = [4, 1, 2, 3]
        except IllegalAction as e:
            assert e.code == "reroll-not-allowed"
            ana = [4, 1, 1, 2, 3]
        g.apply(BEN, CHALLENGE)
        g.settle([ana, [4, 1, 2, 3, 5]])
        return g.public()["dice"]
    assert play(False) == [3, 5]   # 2 fours, bet 4
    assert play(True) == [4, 5]    # 3 fours, bet 4


def test_set_aside_dice_return_to_the_cup_next_round():
    g = game("bluff", 2, reroll=True)
    g.start_round()
    g.apply(ANA, bid(1, 4))
    g.apply(ANA, reroll([4, 4]))
    g.apply(BEN, CHALLENGE)
    g.settle([[1, 2, 3], [1, 1, 2, 2, 3]])  # two 4s for a bet of one: ben loses 1
    assert g.public()["dice"] == [5, 4] and g.to_act() is None
    assert g.hidden(ANA) == 5
    g.start_round()
    g.apply(ANA, bid(1, 1))
    g.apply(BEN, CHALLENGE)
    illegal_settle(g, [[1, 2, 3], [1, 1, 2, 2]], "dice-count")
    ev = g.settle([[1, 2, 3, 4, 5], [1, 2, 2, 3]])
    assert ("reveal", 1, 1, 2) in ev


def test_reroll_must_keep_one_die_under_the_cup():
    g = game("bluff", 2, reroll=True)
    g.start_round()
    g.apply(ANA, bid(3, 4))
    illegal(g, ANA, reroll([4, 4, 4, 4, 4]), "reroll-count")
    illegal(g, ANA, reroll([]), "reroll-count")
    g.apply(ANA, reroll([4, 4, 4, 4]))
    assert g.hidden(ANA) == 1


def test_reroll_needs_two_dice_under_the_cup():
    g = set_dice(game("bluff", 2, reroll=True), [1, 5])
    g.start_round()
    g.apply(ANA, bid(1, 4))
    illegal(g, ANA, reroll([4]), "reroll-count")


def test_reroll_once_per_bet():
    g = game("bluff", 2, reroll=True)
    g.start_round()
    g.apply(ANA, bid(3, 4))
    g.apply(ANA, reroll([4]))
    illegal(g, ANA, reroll([4]), "reroll-not-allowed")


def test_reroll_after_each_own_bet_dice_accumulate():
    g = game("bluff", 2, reroll=True)
    g.start_round()
    g.apply(ANA, bid(3, 4))
    g.apply(ANA, reroll([4]))
    g.apply(BEN, bid(4, 4))
    g.apply(ANA, bid(5, 4))
    g.apply(ANA, reroll([4, 6]))
    assert g.hidden(ANA) == 2
    g.apply(BEN, CHALLENGE)
    ev = g.settle([[1, 2], [1, 2, 3, 5, 5]])
    assert ("reveal", 5, 4, 3) in ev  # 4, 4, star set aside


def test_reroll_only_until_the_next_player_acts():
    g = game("bluff", 2, reroll=True)
    g.start_round()
    g.apply(ANA, bid(3, 4))
    g.apply(BEN, bid(4, 4))
    illegal(g, ANA, reroll([4]), "reroll-not-allowed")  # ben acted: too late for ana
    g.apply(BEN, reroll([4]))  # ben may, right after his own bet


def test_reroll_not_after_the_challenge():
    g = game("bluff", 2, reroll=True)
    g.start_round()
    g.apply(ANA, bid(3, 4))
    g.apply(BEN, CHALLENGE)
    illegal(g, ANA, reroll([4]), "reroll-not-allowed")


def test_reroll_only_by_the_bettor():
    g = game("bluff", 3, reroll=True)
    g.start_round()
    g.apply(ANA, bid(3, 4))
    illegal(g, BEN, reroll([4]), "reroll-not-allowed")
    illegal(g, CY, reroll([4]), "reroll-not-allowed")


def test_reroll_before_any_bet_not_allowed():
    g = game("bluff", 2, reroll=True)
    g.start_round()
    illegal(g, ANA, reroll([4]), "reroll-not-allowed")


def test_legal_lists_rerolls_for_the_bettors_own_hand():
    g = game("bluff", 2, reroll=True)
    g.start_round()
    g.apply(ANA, bid(3, 4))
    acts = g.legal(ANA, hand=[4, 4, 1, 2, 3])
    assert reroll([4, 4]) in acts and reroll([4]) in acts
    assert reroll([4, 4, 1, 2, 3]) not in acts  # one die stays under the cup
    assert reroll([5]) not in acts
    assert not [a for a in g.legal(BEN, hand=[1, 2, 3, 4, 5]) if a >> 16 == 3]


# ----- state after a reroll survives dumps/loads -------------------------------------------

def test_dumps_loads_keeps_set_aside_dice():
    g = game("bluff", 2, reroll=True)
    g.start_round()
    g.apply(ANA, bid(3, 4))
    g.apply(ANA, reroll([4, 6]))
    h = loads(g.dumps())
    assert h.dumps() == g.dumps()
    assert h.hidden(ANA) == 3
    illegal(h, ANA, reroll([4]), "reroll-not-allowed")


# ----- illegal actions ----------------------------------------------------------------

def illegal_settle(g, hands, code):
    before = g.dumps()
    with pytest.raises(IllegalAction) as ei:
        g.settle(hands)
    assert ei.value.code == code
    assert g.dumps() == before


def test_bid_before_the_roll_is_wrong_phase():
    g = game("bluff", 2)
    illegal(g, ANA, bid(1, 1), "wrong-phase")


def test_challenge_without_a_bid():
    g = game("bluff", 2)
    g.start_round()
    illegal(g, ANA, CHALLENGE, "no-bid")


def test_only_the_player_on_turn_bids_or_challenges():
    g = game("bluff", 3)
    g.start_round()
    illegal(g, BEN, bid(1, 1), "not-your-turn")
    g.apply(ANA, bid(1, 1))
    illegal(g, CY, CHALLENGE, "not-your-turn")
    illegal(g, ANA, bid(2, 1), "not-your-turn")  # the bettor may not raise herself


def test_bad_quantity_and_face():
    g = game("bluff", 2)
    g.start_round()
    # raw action ints, as a corrupt frame could carry them: apply refuses them
    illegal(g, ANA, 31 << 3 | 3, "bad-quantity")
    illegal(g, ANA, 100 << 3 | 3, "bad-quantity")
    illegal(g, ANA, 2 << 3 | 0, "bad-face")
    illegal(g, ANA, 2 << 3 | 7, "bad-face")
    # and bid() refuses to build them at all (bid(0, f) would collide with the fixed codes)
    for q, f, code in ((0, 3, "bad-quantity"), (31, 3, "bad-quantity"), (2, 0, "bad-face"), (2, 7, "bad-face")):
        with pytest.raises(IllegalAction) as err:
            bid(q, f)
        assert err.value.code == code


def test_no_exact_call_in_bluff():
    g = game("bluff", 2)
    g.start_round()
    g.apply(ANA, bid(2, 2))
    illegal(g, BEN, EXACT, "exact-not-allowed")


def test_no_pass_and_no_foreign_actions():
    g = game("bluff", 2)
    g.start_round()
    g.apply(ANA, bid(2, 2))
    assert set(g.legal(BEN)) - {CHALLENGE} and all(a == CHALLENGE or 8 <= a < 0x10000 for a in g.legal(BEN))
    for a in (0, BANK, 5, roll([1, 2, 3, 4, 5]), "bid"):
        illegal(g, BEN, a, "unknown-action")


def test_roll_twice_and_settle_without_call_are_wrong_phase():
    g = game("bluff", 2)
    g.start_round()
    before = g.dumps()
    with pytest.raises(IllegalAction) as ei:
        g.start_round()
    assert ei.value.code == "wrong-phase" and g.dumps() == before
    illegal_settle(g, [[1, 2, 3, 4, 5]] * 2, "wrong-phase")


def test_reveal_with_bad_face_rejected():
    g = game("bluff", 2)
    g.start_round()
    g.apply(ANA, bid(2, 2))
    g.apply(BEN, CHALLENGE)
    illegal_settle(g, [[1, 2, 3, 4, 7], [1, 2, 3, 4, 5]], "bad-face")
    illegal_settle(g, [[1, 2, 3, 4, 5]], "dice-count")
