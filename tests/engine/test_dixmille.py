"""Dix mille / 10,000 (RULES.md `dixmille`): keeps, scoring, hot dice, opening at 500,
crosses, exactly 10,000 to win, overshoot."""
import pytest

from engine_helpers import BANK, CHALLENGE, ScriptedRng, bid, game, illegal, keep, loads, roll
from dicecup.engine import IllegalAction, new_game

ANA, BEN, CY = 0, 1, 2


def play(g, *steps):
    """Steps for the seat on turn: [1, 5, ...] rolls, ('keep', [...]) keeps, 'bank' banks.
    Returns all events."""
    ev = []
    for st in steps:
        seat = g.to_act()
        if st == "bank":
            ev += g.apply(seat, BANK)
        elif type(st) is tuple:
            ev += g.apply(seat, keep(st[1]))
        else:
            ev += g.apply(seat, roll(st))
    return ev


def K(*faces):
    return ("keep", list(faces))


def setup(g, scores=None, crosses=None, opened=None):
    """Between turns: the scores / crosses / opened flags earlier turns left."""
    if scores is not None:
        g.scores[:] = scores
    if crosses is not None:
        g.crosses[:] = crosses
    if opened is not None:
        g.opened = sum(1 << s for s in range(g.n) if opened[s])
    return loads(g.dumps())


def pub(g):
    return g.public()


# ----- scoring -----------------------------------------------------------------------

@pytest.mark.parametrize("rolled,kept,points", [
    ([3, 3, 3, 2, 4], [3, 3, 3], 300),        # seed: three 3s
    ([5, 5, 5, 5, 2], [5, 5, 5, 5], 750),     # seed: four 5s
    ([1, 1, 1, 1, 2], [1, 1, 1, 1], 1500),    # seed: four 1s
    ([4, 4, 4, 4, 4], [4, 4, 4, 4, 4], 800),  # seed: five 4s
    ([1, 1, 1, 1, 1], [1, 1, 1, 1, 1], 2000),  # seed: five 1s
    ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5], 1000),  # straight
    ([6, 5, 4, 3, 2], [2, 3, 4, 5, 6], 1000),  # straight
    ([1, 1, 1, 2, 4], [1, 1, 1], 1000),       # three 1s
    ([2, 2, 2, 2, 3], [2, 2, 2, 2], 300),     # four 2s: 200 x 1.5
    ([6, 6, 6, 6, 6], [6, 6, 6, 6, 6], 1200),
    ([5, 5, 5, 5, 5], [5, 5, 5, 5, 5], 1000),
    ([1, 3, 4, 6, 6], [1], 100),              # single 1
    ([5, 3, 4, 6, 6], [5], 50),               # single 5
    ([1, 5, 2, 3, 3], [1, 5], 150),
    ([1, 1, 2, 3, 4], [1, 1], 200),
    ([5, 5, 2, 3, 4], [5, 5], 100),
    ([2, 2, 2, 5, 6], [2, 2, 2, 5], 250),
    ([6, 6, 6, 1, 5], [6, 6, 6, 1, 5], 750),
    ([1, 1, 1, 5, 5], [1, 1, 1, 5, 5], 1100),
    ([1, 1, 1, 1, 5], [1, 1, 1, 1, 5], 1550),
    ([5, 5, 5, 5, 1], [5, 5, 5, 5, 1], 850),
    ([3, 3, 3, 3, 1], [3, 3, 3, 3], 450),
    ([1, 2, 3, 4, 5], [1, 5], 150),           # part of a straight, as singles
])
def test_keep_scores(rolled, kept, points):
    g = game("dixmille", 2)
    ev = play(g, rolled, K(*kept))
    assert ev[-1][0] in ("keep", "hot")
    assert ("keep", ANA, sorted(kept, reverse=True), points, points) in [
        (e[0], e[1], sorted(e[2], reverse=True), e[3], e[4]) for e in ev if e[0] == "keep"]
    assert pub(g)["turn_total"] == points


@pytest.mark.parametrize("rolled,kept", [
    ([1, 2, 3, 4, 6], [1, 2]),          # the 2 scores nothing (shared scenario)
    ([1, 2, 3, 4, 5], [2, 3, 4, 5]),    # four of a straight are not a straight
    ([1, 2, 3, 4, 6], [1, 2, 3, 4, 6]),  # not a straight
    ([2, 3, 4, 5, 6], [2, 3, 4, 6]),
    ([2, 2, 3, 4, 5], [2, 2, 5]),
    ([3, 3, 3, 3, 2], [3, 3, 3, 3, 2]),
    ([1, 5, 6, 6, 2], [1, 5, 6]),
])
def test_every_kept_die_must_score(rolled, kept):
    g = game("dixmille", 2)
    play(g, rolled)
    illegal(g, ANA, keep(kept), "keep-not-scoring")


def test_keep_at_least_one_die():
    g = game("dixmille", 2)
    play(g, [1, 2, 3, 4, 6])
    illegal(g, ANA, keep([]), "keep-not-scoring")


def test_kept_dice_must_come_from_the_roll():
    g = game("dixmille", 2)
    play(g, [1, 2, 3, 4, 6])
    illegal(g, ANA, keep([1, 1]), "not-your-dice")
    illegal(g, ANA, keep([5]), "not-your-dice")


def test_combinations_only_within_one_roll():
    """A 1 kept from one roll and two more from the next: 100 + 200, not three 1s."""
    g = game("dixmille", 2)
    play(g, [1, 2, 3, 4, 6], K(1), [1, 1, 2, 3], K(1, 1))
    assert pub(g)["turn_total"] == 300


def test_one_keep_per_roll():
    g = game("dixmille", 2)
    play(g, [1, 5, 2, 3, 4], K(1))
    illegal(g, ANA, keep([5]), "wrong-phase")


def test_roll_the_dice_not_yet_kept():
    g = game("dixmille", 2)
    play(g, [1, 5, 2, 3, 4], K(1))
    illegal(g, ANA, roll([2, 3, 4, 6, 6]), "dice-count")
    illegal(g, ANA, roll([2, 3, 4]), "dice-count")
    play(g, [5, 2, 3, 4], K(5), [1, 2, 3], K(1))
    assert pub(g)["turn_total"] == 250
    illegal(g, ANA, roll([2, 3, 4]), "dice-count")
    play(g, [2, 3])  # a bust with the last two dice
    assert pub(g)["turn"] == BEN


def test_roll_must_be_answered_by_a_keep():
    g = game("dixmille", 2)
    play(g, [1, 5, 2, 3, 4])
    illegal(g, ANA, roll([2, 3, 4, 6]), "keep-first")
    illegal(g, ANA, BANK, "keep-first")


def test_bank_before_rolling_rejected():
    g = game("dixmille", 2)
    illegal(g, ANA, BANK, "wrong-phase")
    illegal(g, ANA, keep([1]), "wrong-phase")


# ----- bust ---------------------------------------------------------------------------

def test_roll_without_scoring_die_is_a_bust_turn_total_lost():
    g = setup(game("dixmille", 2), scores=[600, 0], opened=[True, False])
    ev = play(g, [1, 1, 1, 2, 3], K(1, 1, 1), [2, 3])
    assert ("bust", ANA, 1000) in ev
    p = pub(g)
    assert p["scores"] == [600, 0]
    assert p["turn_total"] == 0 and p["turn"] == BEN


def test_bust_ends_the_turn_at_once():
    g = game("dixmille", 2)
    play(g, [2, 3, 4, 6, 6])
    assert pub(g)["turn"] == BEN
    illegal(g, ANA, roll([1, 2, 3, 4, 5]), "not-your-turn")
    illegal(g, ANA, keep([2]), "not-your-turn")


@pytest.mark.parametrize("rolled", [[2, 3, 4, 6, 6], [2, 2, 3, 3, 4], [6, 6, 4, 4, 2]])
def test_no_single_no_set_no_straight_is_a_bust(rolled):
    g = game("dixmille", 2)
    ev = play(g, rolled)
    assert ev[1][0] == "bust"
    assert pub(g)["turn"] == BEN


# ----- hot dice ------------------------------------------------------------------------

def test_hot_dice_roll_all_five_again():
    g = game("dixmille", 2)
    ev = play(g, [1, 1, 1, 5, 5], K(1, 1, 1, 5, 5))
    assert ("hot", ANA) in ev
    illegal(g, ANA, roll([1, 2, 3, 4]), "dice-count")
    play(g, [1, 3, 4, 6, 6], K(1))
    assert pub(g)["turn_total"] == 1200


def test_hot_dice_after_keeping_over_several_rolls():
    g = game("dixmille", 2)
    play(g, [1, 5, 2, 3, 4], K(1, 5), [2, 2, 2], K(2, 2, 2))
    assert pub(g)["turn_total"] == 350
    play(g, [5, 3, 3, 4, 6], K(5))  # five fresh dice
    illegal(g, ANA, BANK, "not-open")  # 400 does not open
    g = game("dixmille", 2)
    play(g, [1, 5, 2, 3, 4], K(1, 5), [2, 2, 2], K(2, 2, 2), [1, 3, 3, 4, 6], K(1))
    play(g, [5, 6, 6, 4], K(5), "bank")
    assert pub(g)["scores"] == [500, 0] and pub(g)["opened"] == [True, False]


# ----- opening --------------------------------------------------------------------------

def test_unopened_player_may_not_bank_under_500():
    g = game("dixmille", 2)
    play(g, [1, 1, 2, 3, 4], K(1, 1), [5, 5, 2], K(5, 5))
    assert pub(g)["turn_total"] == 300
    illegal(g, ANA, BANK, "not-open")
    assert BANK not in g.legal(ANA)


def test_opening_at_500_then_any_bank():
    g = game("dixmille", 1)
    play(g, [5, 5, 5, 2, 3], K(5, 5, 5))
    assert BANK in g.legal(ANA)
    play(g, "bank")
    assert pub(g)["scores"] == [500] and pub(g)["opened"] == [True]
    play(g, [5, 2, 3, 4, 6], K(5), "bank")
    assert pub(g)["scores"] == [550]


def test_opening_bank_of_450_refused_more_later_ok():
    g = game("dixmille", 2)
    play(g, [4, 4, 4, 2, 3], K(4, 4, 4), [5, 2], K(5))
    illegal(g, ANA, BANK, "not-open")
    play(g, [1], K(1))  # hot dice
    play(g, [5, 5, 2, 3, 4], K(5, 5), [1, 4, 6], K(1), "bank")
    assert pub(g)["scores"] == [750, 0]


# ----- crosses -------------------------------------------------------------------------

def test_bust_gives_an_opened_player_a_cross():
    g = setup(game("dixmille", 2), scores=[500, 0], opened=[True, False])
    ev = play(g, [2, 3, 4, 6, 6])
    assert ("cross", ANA, 1) in ev
    assert pub(g)["crosses"] == [1, 0]


def test_unopened_player_gets_no_cross():
    g = game("dixmille", 2)
    play(g, [2, 3, 4, 6, 6])
    assert pub(g)["crosses"] == [0, 0]


def test_scoring_turn_clears_the_crosses():
    g = setup(game("dixmille", 1), scores=[500], crosses=[2], opened=[True])
    play(g, [5, 2, 3, 4, 6], K(5), "bank")
    p = pub(g)
    assert p["scores"] == [550] and p["crosses"] == [0]


def test_three_crosses_cost_1000_and_clear():
    g = setup(game("dixmille", 1), scores=[700], opened=[True])
    play(g, [2, 3, 4, 6, 6])
    play(g, [1, 2, 3, 4, 6], K(1), [2, 2, 3, 4])  # points then bust: still a cross
    assert pub(g)["crosses"] == [2] and pub(g)["scores"] == [700]
    ev = play(g, [2, 3, 4, 6, 6])
    assert ("penalty", ANA, 1000, -300) in ev
    p = pub(g)
    assert p["scores"] == [-300]  # the score may go negative
    assert p["crosses"] == [0]
    play(g, [2, 3, 4, 6, 6])
    assert pub(g)["crosses"] == [1]


def test_crosses_run_per_player():
    g = setup(game("dixmille", 2), scores=[500, 500], crosses=[2, 0], opened=[True, True])
    play(g, [5, 2, 3, 4, 6], K(5), "bank")        # ana scores: her run is cleared
    play(g, [2, 3, 4, 6, 6])                      # ben busts
    assert pub(g)["crosses"] == [0, 1]


# ----- the finish ----------------------------------------------------------------------

def test_exactly_10000_wins_without_banking():
    g = game("dixmille", 1)
    for _ in range(4):
        play(g, [1, 1, 1, 1, 1], K(1, 1, 1, 1, 1))  # 2000 each, hot dice
    assert pub(g)["winner"] is None and pub(g)["turn_total"] == 8000
    ev = play(g, [1, 1, 1, 1, 1], K(1, 1, 1, 1, 1))
    assert ("win", ANA) in ev
    p = pub(g)
    assert p["winner"] == ANA and p["scores"] == [10000]
    assert p["opened"] == [True]  # a score of 10,000 is an open score
    assert p["turn"] is None and p["turn_total"] == 0
    illegal(g, ANA, BANK, "game-over")
    illegal(g, ANA, roll([1, 2, 3, 4, 5]), "game-over")
    assert g.to_act() is None and g.legal(ANA) == []


def test_win_clears_the_crosses():
    g = setup(game("dixmille", 2), scores=[9000, 0], crosses=[2, 0], opened=[True, False])
    play(g, [1, 1, 1, 2, 3], K(1, 1, 1))
    p = pub(g)
    assert p["winner"] == ANA and p["scores"] == [10000, 0] and p["crosses"] == [0, 0]


def test_overshoot_ends_the_turn_with_nothing():
    g = setup(game("dixmille", 2), scores=[9900, 0], crosses=[2, 0], opened=[True, False])
    ev = play(g, [1, 1, 1, 2, 3], K(1, 1, 1))
    assert ev[-2][0] == "overshoot"
    p = pub(g)
    assert p["scores"] == [9900, 0]
    assert p["crosses"] == [2, 0]  # no cross added, none cleared
    assert p["turn"] == BEN and p["turn_total"] == 0 and p["winner"] is None


def test_keeping_less_to_land_exactly_on_10000():
    g = setup(game("dixmille", 2), scores=[9900, 0], opened=[True, False])
    play(g, [1, 1, 1, 2, 3], K(1))
    assert pub(g)["winner"] == ANA and pub(g)["scores"][ANA] == 10000


def test_option_overshoot_penalty_changes_the_game():
    def final(pen):
        g = setup(game("dixmille", 2, overshoot_penalty=pen), scores=[9900, 0], crosses=[1, 0],
                  opened=[True, False])
        ev = play(g, [5, 2, 3, 4, 6], K(5), [1, 1, 1, 2], K(1, 1, 1))
        return pub(g), ev
    off, _ = final(False)
    on, ev = final(True)
    assert off["scores"] == [9900, 0]
    assert on["scores"] == [7900, 0]
    assert ("penalty", ANA, 2000, 7900) in ev
    assert off["crosses"] == on["crosses"] == [1, 0]
    assert off["turn"] == on["turn"] == BEN
    assert game("dixmille", 1).option("overshoot_penalty") is False


# ----- turns ---------------------------------------------------------------------------

def test_turns_go_by_seat_and_wrap():
    g = game("dixmille", 3, opener=BEN)
    play(g, [2, 3, 4, 6, 6])
    assert g.to_act() == CY
    play(g, [2, 3, 4, 6, 6])
    assert g.to_act() == ANA
    illegal(g, BEN, roll([1, 2, 3, 4, 5]), "not-your-turn")
    play(g, [2, 3, 4, 6, 6])
    assert g.to_act() == BEN


def test_one_player_game():
    g = game("dixmille", 1)
    play(g, [2, 3, 4, 6, 6])
    assert g.to_act() == ANA


def test_opener_drawn_by_rng():
    g = new_game("dixmille", 3, rng=ScriptedRng([2]))
    assert g.to_act() == CY


def test_bad_faces_and_foreign_actions_rejected():
    g = game("dixmille", 2)
    illegal(g, ANA, roll([1, 2, 3, 4, 7]), "bad-face")
    illegal(g, ANA, roll([0, 2, 3, 4, 5]), "bad-face")
    illegal(g, ANA, bid(2, 3), "unknown-action")
    illegal(g, ANA, CHALLENGE, "unknown-action")


def test_bad_options_rejected():
    with pytest.raises(ValueError):
        new_game("dixmille", 2, {"overshoot_penalty": 1}, opener=0)
    with pytest.raises(ValueError):
        new_game("dixmille", 2, {"reroll": True}, opener=0)
    with pytest.raises(ValueError):
        new_game("dixmille", 7, {}, opener=0)


def test_state_roundtrip_mid_turn():
    g = game("dixmille", 2)
    play(g, [1, 5, 2, 3, 4], K(1))
    h = loads(g.dumps())
    assert h.public() == g.public()
    illegal(h, ANA, roll([1, 2, 3, 4, 5]), "dice-count")
