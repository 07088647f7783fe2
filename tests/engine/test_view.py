"""What must happen now (g.need()) and what a seat knows (g.view(seat, hand)), the
same shape for all five rule sets; also roll_size(), counts() and wild()."""
import pytest

from engine_helpers import BANK, CHALLENGE, EXACT, bid, game, keep, reroll, rnd, roll, set_dice
from dicecup.engine import BANK_OR_ROLL, BID, KEEP, OVER, REVEAL, ROLL, SHAKE, loads
from dicecup.engine.actions import ROLL_ANY, kind

ANA, BEN, CY, DEE = 0, 1, 2, 3
BLUFFING = ("bluff", "perudo", "menteur", "liars")
ALL = BLUFFING + ("dixmille",)


# ----- need() --------------------------------------------------------------------------

def test_need_words_are_plain_strings():
    assert (SHAKE, BID, REVEAL, ROLL, KEEP, BANK_OR_ROLL, OVER) == \
        ("shake", "bid", "reveal", "roll", "keep", "bank-or-roll", "over")
    import dicecup.engine as engine
    for name in ("SHAKE", "BID", "REVEAL", "ROLL", "KEEP", "BANK_OR_ROLL", "OVER"):
        assert type(getattr(engine, name)) is str


@pytest.mark.parametrize("rules,options", [
    ("bluff", {}), ("bluff", {"reroll": True}), ("bluff", {"star_track": "half"}),
    ("perudo", {}), ("perudo", {"palifico": False}), ("perudo", {"calza_anyone": True}),
    ("menteur", {}),
    ("liars", {}), ("liars", {"spot_on": True}), ("liars", {"one_life": True}),
])
def test_need_walks_a_bluffing_round(rules, options):
    g = game(rules, 3, **options)
    assert g.need() == SHAKE and g.to_act() is None
    assert [g.roll_size(s) for s in range(3)] == [5, 5, 5]
    assert g.start_round() == [("rolled", 1, ANA)]
    assert g.need() == BID and g.to_act() == ANA
    assert [g.roll_size(s) for s in range(3)] == [5, 5, 5]
    g.apply(ANA, bid(2, 3))
    assert g.need() == BID
    if options.get("reroll"):
        g.apply(ANA, reroll([3, 3]))
        assert g.need() == BID and g.to_act() == BEN
        assert g.roll_size(ANA) == 3  # the dice still under the cup
    g.apply(BEN, bid(3, 3))
    g.apply(CY, CHALLENGE)
    assert g.need() == REVEAL and g.to_act() is None
    g.settle([[3, 3, 2, 2, 2] if not options.get("reroll") else [2, 2, 2], [4, 4, 4, 4, 4], [5, 5, 5, 5, 5]])
    assert g.need() == SHAKE  # someone lost; next round
    lost = [s for s in range(3) if g.dice[s] < 5]
    assert lost and [g.roll_size(s) for s in range(3)] == g.dice


@pytest.mark.parametrize("rules,options,caller", [
    ("perudo", {}, BEN),                      # calza on turn
    ("perudo", {"calza_anyone": True}, CY),   # calza out of turn
    ("menteur", {}, CY),                      # tout pile out of turn
    ("liars", {"spot_on": True}, BEN),        # spot on, on turn
])
def test_need_reveal_after_an_exact_call(rules, options, caller):
    g = game(rules, 3, **options)
    g.start_round()
    g.apply(ANA, bid(2, 3))
    assert EXACT in g.legal(caller)
    g.apply(caller, EXACT)
    assert g.need() == REVEAL
    v = g.view(caller)
    assert (v.caller, v.call, v.need) == (caller, "exact", REVEAL)


def test_need_shake_again_after_a_replayed_round():
    g = game("perudo", 3)
    g.start_round()
    g.apply(ANA, bid(2, 3))
    g.apply(BEN, CHALLENGE)
    g.restart_round()
    assert g.need() == SHAKE and g.history() == []


def test_need_over_when_one_seat_holds_dice():
    g = game("liars", 2, one_life=True)
    rnd(g, [[1, 1, 1, 1, 1], [2, 2, 2, 2, 2]], (ANA, bid(6, 1)), (BEN, CHALLENGE))
    assert g.need() == OVER and g.winner() == BEN
    assert [g.roll_size(s) for s in range(2)] == [0, 5]  # an eliminated seat rolls nothing
    g = game("perudo", 2)
    g.start_round()
    g.apply(ANA, bid(2, 3))
    g.apply(BEN, CHALLENGE)
    g.forfeit(BEN)
    assert g.need() == OVER and g.history() == []


def test_need_in_a_palifico_and_a_one_die_round():
    for rules, special in (("perudo", "palifico"), ("menteur", "no-jokers")):
        g = set_dice(game(rules, 3), [2, 5, 5])
        rnd(g, [[2, 3], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]], (ANA, bid(9, 6)), (BEN, CHALLENGE))
        assert g.public()["special"] == special and g.need() == SHAKE
        assert g.roll_size(ANA) == 1
        g.start_round()
        assert g.need() == BID and g.view(ANA).special == special


def test_need_walks_a_dixmille_turn():
    g = game("dixmille", 2)
    assert g.need() == ROLL and g.roll_size(ANA) == 5 and g.roll_size(BEN) == 0
    g.apply(ANA, roll([1, 5, 2, 3, 4]))   # a straight, not kept as one
    assert g.need() == KEEP and g.roll_size(ANA) == 5
    g.apply(ANA, keep([1]))
    assert g.need() == BANK_OR_ROLL and g.roll_size(ANA) == 4
    assert g.legal(ANA) == [ROLL_ANY]      # unopened under 500: may only roll
    g.apply(ANA, roll([1, 1, 1, 6]))
    g.apply(ANA, keep([1, 1, 1]))
    assert g.need() == BANK_OR_ROLL and g.legal(ANA) == [ROLL_ANY, BANK]
    g.apply(ANA, BANK)
    assert g.need() == ROLL and g.to_act() == BEN and g.roll_size(BEN) == 5
    g.apply(BEN, roll([2, 3, 4, 6, 6]))   # a bust
    assert g.need() == ROLL and g.to_act() == ANA
    g = set_dix(game("dixmille", 2), [9900, 0])
    g.apply(ANA, roll([1, 2, 3, 4, 6]))
    g.apply(ANA, keep([1]))
    assert g.need() == OVER and g.winner() == ANA and g.to_act() is None
    assert g.roll_size(ANA) == g.roll_size(BEN) == 0


def set_dix(g, scores):
    g.scores[:] = scores
    g.opened = (1 << g.n) - 1
    return loads(g.dumps())


# ----- counts, hidden, wild --------------------------------------------------------------

def test_counts_and_wild_per_rule_set():
    cases = {
        "bluff": (6, {3: (3, 6), 6: (6,), 1: (1, 6)}),
        "perudo": (1, {4: (4, 1), 1: (1,)}),
        "menteur": (1, {4: (4, 1), 1: (1,)}),
        "liars": (None, {4: (4,), 1: (1,)}),
        "dixmille": (None, {4: (), 1: ()}),
    }
    for rules, (wild, want) in cases.items():
        g = game(rules, 2)
        assert g.wild() == wild
        for f, faces in want.items():
            assert g.counts(f) == faces
            if rules != "dixmille":
                assert g.counted(f) == faces  # the older name still works
    assert game("dixmille", 2).hidden(ANA) == 0


def test_no_wilds_in_palifico_and_one_die_rounds():
    for rules in ("perudo", "menteur"):
        g = set_dice(game(rules, 3), [2, 5, 5])
        rnd(g, [[2, 3], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]], (ANA, bid(9, 6)), (BEN, CHALLENGE))
        assert g.wild() is None and g.counts(4) == (4,) and g.counts(1) == (1,)
        v = g.view(CY)
        assert v.wild is None and v.counts(4) == (4,)


# ----- view() ----------------------------------------------------------------------------

def check_view(g, v, seat, hand):
    """Every field of the view against the game (and no reference back to it)."""
    assert (v.rules, v.seat, v.seats, v.need) == (g.name, seat, g.n, g.need())
    assert v.turn == g.to_act() and v.mine == (g.to_act() == seat)
    assert v.options == g.options() and list(v.faces) == [1, 2, 3, 4, 5, 6]
    assert v.winner == g.winner()
    assert v.legal == g.legal(seat, hand)
    for f in range(1, 7):
        assert v.counts(f) == g.counts(f)
    for x in vars(v).values():
        assert x is not g and getattr(x, "__self__", None) is not g
    if g.name == "dixmille":
        p = g.public()
        assert (v.scores, v.crosses, v.opened, v.turn_total, v.roll, v.left) == \
            (p["scores"], p["crosses"], p["opened"], p["turn_total"], p["roll"], p["left"])
        assert list(v.eliminated) == [] and not any(v.aside) and v.bids == []
        assert (v.round, v.dice, v.hand, v.bid, v.bidder, v.special, v.caller, v.call, v.wild, v.total) == \
            (None, None, None, None, -1, None, None, None, None, None)
        assert v.hidden == 0
        return
    p = g.public()
    assert v.dice == p["dice"] and v.dice is not g.dice
    assert list(v.eliminated) == p["eliminated"] and v.round == p["round"]
    assert v.hidden == g.hidden(seat)
    assert v.hand == (None if hand is None else list(hand))
    assert [list(v.aside[s]) for s in range(g.n)] == p["aside"]
    assert v.bid == (tuple(p["bid"]) if p["bid"] else None)
    assert v.bidder == g.bidder and v.bids == g.history()
    assert v.special == p["special"]
    if g.need() == REVEAL:
        assert v.caller == g.caller and v.call == ("challenge" if g.call == CHALLENGE else "exact")
    else:
        assert v.caller is None and v.call is None
    assert v.wild == g.wild() and v.total == sum(g.dice)
    assert v.scores is None and v.turn_total is None and list(v.roll) == [] and v.left is None


@pytest.mark.parametrize("rules", BLUFFING)
def test_view_of_a_fresh_round(rules):
    g = game(rules, 3)
    v = g.view(BEN)
    check_view(g, v, BEN, None)
    assert (v.need, v.turn, v.mine, v.legal, v.bid, v.bidder, v.bids) == (SHAKE, None, False, [], None, -1, [])
    g.start_round()
    g.apply(ANA, bid(2, 3))
    v = g.view(BEN, [1, 2, 3, 4, 5])
    check_view(g, v, BEN, [1, 2, 3, 4, 5])
    assert v.mine and v.turn == BEN and v.bid == (2, 3) and v.bidder == ANA and v.bids == [(ANA, 2, 3)]
    assert v.hand == [1, 2, 3, 4, 5] and v.hidden == 5 and v.total == 15
    assert CHALLENGE in v.legal and v.round == 1 and v.dice == [5, 5, 5]


def test_view_wild_per_rule_set_in_a_normal_round():
    assert [game(r, 2).view(ANA).wild for r in BLUFFING] == [6, 1, 1, None]


def test_view_of_a_palifico_round():
    g = set_dice(game("perudo", 3), [2, 5, 5])
    rnd(g, [[2, 3], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]], (ANA, bid(9, 6)), (BEN, CHALLENGE))
    g.start_round()
    g.apply(ANA, bid(1, 1))  # a palifico opener may open on aces
    v = g.view(BEN, [1, 1, 4, 5, 6])
    check_view(g, v, BEN, [1, 1, 4, 5, 6])
    assert v.special == "palifico" and v.wild is None and v.counts(1) == (1,) and v.counts(3) == (3,)
    assert v.dice == [1, 5, 5] and v.total == 11 and v.round == 2
    assert all(a & 7 == 1 for a in v.legal if 8 <= a < 0x10000)  # the face stays


def test_view_of_a_one_die_round_in_menteur():
    g = set_dice(game("menteur", 3), [2, 5, 5])
    rnd(g, [[2, 3], [2, 3, 4, 5, 6], [2, 3, 4, 5, 6]], (ANA, bid(9, 6)), (BEN, CHALLENGE))
    g.start_round()
    v = g.view(ANA, [4])
    check_view(g, v, ANA, [4])
    assert v.special == "no-jokers" and v.wild is None and v.counts(4) == (4,)
    assert v.mine and v.hidden == 1 and v.hand == [4]


def test_view_of_bluff_set_aside_dice_and_rerolls():
    g = game("bluff", 3, reroll=True)
    g.start_round()
    g.apply(ANA, bid(2, 4))
    hand = [4, 4, 6, 1, 2]
    v = g.view(ANA, hand)
    check_view(g, v, ANA, hand)
    rr = [a for a in v.legal if kind(a) == "reroll"]
    assert rr and reroll([4, 4, 6]) in rr and not v.mine
    v0 = g.view(ANA)   # no hand: the engine cannot list rerolls
    assert v0.hand is None and not any(kind(a) == "reroll" for a in v0.legal)
    assert not any(kind(a) == "reroll" for a in g.view(BEN, [1, 2, 3, 4, 5]).legal)  # not the bettor
    g.apply(ANA, reroll([4, 4]))
    v = g.view(BEN, [1, 2, 3, 4, 5])
    check_view(g, v, BEN, [1, 2, 3, 4, 5])
    assert v.aside == [[4, 4], [], []] and v.dice == [5, 5, 5] and v.total == 15
    assert g.view(ANA, [1, 2, 3]).hidden == 3
    assert not any(kind(a) == "reroll" for a in g.view(ANA, [1, 2, 3]).legal)  # once per bet
    assert v.counts(4) == (4, 6) and v.counts(6) == (6,) and v.wild == 6


def test_view_rerolls_listed_only_when_the_option_is_on():
    g = game("bluff", 2)
    g.start_round()
    g.apply(ANA, bid(2, 4))
    assert not any(kind(a) == "reroll" for a in g.view(ANA, [4, 4, 6, 1, 2]).legal)


def test_view_at_the_reveal_and_game_over():
    g = game("liars", 2, spot_on=True)
    g.start_round()
    g.apply(ANA, bid(3, 2))
    g.apply(BEN, CHALLENGE)
    v = g.view(ANA, [2, 2, 2, 3, 3])
    check_view(g, v, ANA, [2, 2, 2, 3, 3])
    assert (v.need, v.turn, v.mine, v.caller, v.call, v.legal) == (REVEAL, None, False, BEN, "challenge", [])
    g.settle([[2, 2, 2, 3, 3], [4, 4, 4, 4, 4]])
    v = g.view(ANA)
    assert v.caller is None and v.call is None and v.bid is None and v.bids == []
    g = game("liars", 2, one_life=True)
    rnd(g, [[1, 1, 1, 1, 1], [2, 2, 2, 2, 2]], (ANA, bid(6, 1)), (BEN, CHALLENGE))
    for s in (ANA, BEN):
        v = g.view(s)
        check_view(g, v, s, None)
        assert (v.need, v.winner, v.eliminated, v.turn, v.mine, v.legal) == (OVER, BEN, [ANA], None, False, [])


def test_view_of_dixmille_keep_and_bank():
    g = game("dixmille", 3)
    g.apply(ANA, roll([1, 1, 1, 5, 2]))
    v = g.view(ANA)
    check_view(g, v, ANA, None)
    assert (v.need, v.mine, v.roll, v.left, v.turn_total) == (KEEP, True, [1, 1, 1, 2, 5], 5, 0)
    assert keep([1, 1, 1, 5]) in v.legal and v.bids == [] and v.counts(1) == ()
    g.apply(ANA, keep([1, 1, 1, 5]))
    v = g.view(ANA)
    check_view(g, v, ANA, None)
    assert (v.need, v.roll, v.left, v.turn_total, v.legal) == (BANK_OR_ROLL, [], 1, 1050, [ROLL_ANY, BANK])
    w = g.view(BEN)
    assert (w.mine, w.turn, w.legal) == (False, ANA, [])
    g.apply(ANA, BANK)
    v = g.view(BEN)
    check_view(g, v, BEN, None)
    assert (v.scores, v.opened, v.crosses, v.need) == ([1050, 0, 0], [True, False, False], [0, 0, 0], ROLL)


def test_view_is_a_copy():
    g = game("perudo", 2)
    g.start_round()
    v = g.view(ANA, [1, 2, 3, 4, 5])
    v.dice[0] = 0
    v.hand.append(6)
    g.apply(ANA, bid(2, 3))
    assert g.dice == [5, 5] and v.bid is None and v.bids == [] and g.view(ANA).bids == [(ANA, 2, 3)]
