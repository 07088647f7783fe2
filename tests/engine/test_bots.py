"""The bots read only views (g.view(seat, hand)): whole games of every rule set
finish, the same seeds give the same game, decisions are the rule they always were,
and the same choices come out inside MicroPython."""
import ast
import random
from pathlib import Path

import pytest

import botplay
from engine_helpers import BANK, CHALLENGE, EXACT, bid, game, keep, reroll, roll, set_dice
from dicecup import bots
from dicecup.engine import OVER
from dicecup.engine.actions import ROLL_ANY, kind
from test_view import check_view

ANA, BEN, CY, DEE = 0, 1, 2, 3
BLUFFING = ("bluff", "perudo", "menteur", "liars")
ALL = BLUFFING + ("dixmille",)


BOT_OPTIONS = {
    "bluff": [{}, {"reroll": True}, {"star_track": "half", "reroll": True}],
    "perudo": [{}, {"palifico": False}, {"calza_anyone": True}],
    "menteur": [{}],
    "liars": [{}, {"spot_on": True}, {"one_life": True, "spot_on": True}],
    "dixmille": [{}, {"overshoot_penalty": True}],
}


@pytest.mark.parametrize("rules", ALL)
def test_bots_finish_many_games_from_views_only(rules):
    checked = [0]

    def on_view(g, v, hand):
        if checked[0] < 300:  # the first views checked field by field
            check_view(g, v, v.seat, hand)
            checked[0] += 1

    ends = set()
    for i in range(40):
        opts = BOT_OPTIONS[rules][i % len(BOT_OPTIONS[rules])]
        seats = 1 + i % 6 if rules == "dixmille" else 2 + i % 5
        g, choices = botplay.play(rules, seats, opts, random.Random(i), random.Random(1000 + i), on_view)
        assert g.winner() is not None and g.need() == OVER and choices
        ends.add(g.winner())
    assert len(ends) > 1


def test_bluff_bots_set_dice_aside():
    rerolls = 0
    for i in range(10):
        g, choices = botplay.play("bluff", 4, {"reroll": True}, random.Random(i), random.Random(i))
        rerolls += sum(1 for a in choices if kind(a) == "reroll")
    assert rerolls > 10


@pytest.mark.parametrize("rules", ALL)
def test_same_seed_same_bot_game(rules):
    opts = BOT_OPTIONS[rules][-1]
    a = botplay.play(rules, 4, opts, random.Random(5), random.Random(6))
    b = botplay.play(rules, 4, opts, random.Random(5), random.Random(6))
    assert a[1] == b[1] and a[0].dumps() == b[0].dumps()
    c = botplay.play(rules, 4, opts, random.Random(8), random.Random(6))
    assert c[1] != a[1]


def float_rule(v, rng, boldness=0.6):
    """The bluffing rule as first written, in floats: the integer version must agree."""
    def expected(f):
        faces = v.counts(f)
        hand = v.hand or []
        known = sum(1 for d in hand if d in faces) + sum(1 for a in v.aside for d in a if d in faces)
        seen = len(hand) + sum(len(a) for a in v.aside)
        return known + (v.total - seen) * len(faces) / 6
    acts = v.legal
    if not acts:
        return None
    if v.bid:
        q, f = v.bid
        e = expected(f)
        if EXACT in acts and abs(e - q) < 0.3 and rng.randrange(4) == 0:
            return EXACT
        if not v.mine:
            return None
        if e < q - boldness:
            return CHALLENGE
    elif not v.mine:
        return None
    good = [a for a in acts if 8 <= a < 0x10000 and expected(a & 7) >= (a >> 3) - boldness + 0.2][:4]
    if good:
        return good[rng.randrange(len(good))]
    return CHALLENGE if CHALLENGE in acts else acts[0]


@pytest.mark.parametrize("rules", BLUFFING)
def test_bot_decisions_match_the_float_rule(rules):
    n = [0]

    def on_view(g, v, hand):
        seed = n[0]
        n[0] += 1
        r1, r2 = random.Random(seed), random.Random(seed)
        assert bots.act(v, r1) == float_rule(v, r2)
        assert r1.getstate() == r2.getstate()  # the same draws consumed

    for i in range(12):
        opts = BOT_OPTIONS[rules][i % len(BOT_OPTIONS[rules])]
        botplay.play(rules, 2 + i % 5, opts, random.Random(i), random.Random(i), on_view)
    assert n[0] > 500


class Fixed:
    """An rng whose randrange always gives `v` (capped below n)."""

    def __init__(self, v):
        self.v = v

    def randrange(self, n):
        return min(self.v, n - 1)


def test_bot_challenges_an_unlikely_bid():
    g = game("perudo", 2, opener=ANA)
    g.start_round()
    g.apply(ANA, bid(9, 6))
    v = g.view(BEN, [2, 2, 3, 3, 4])  # no six, no ace: 5 unseen x 2/6 expected
    assert bots.act(v, Fixed(0)) == CHALLENGE


def test_bot_calls_exact_out_of_turn_when_the_count_is_expected():
    """Menteur, ana off turn: she sees a 4 and a joker; 3 unseen dice x 2/6 = 1 more:
    3 fours expected, and ben bid 3 fours."""
    g = set_dice(game("menteur", 3, opener=BEN), [5, 2, 1])
    g.start_round()
    g.apply(BEN, bid(3, 4))
    v = g.view(ANA, [4, 1, 2, 3, 5])
    assert not v.mine and EXACT in v.legal
    assert bots.act(v, Fixed(0)) == EXACT
    assert bots.act(v, Fixed(1)) is None  # 3 in 4 times: nothing to do off turn
    assert bots.act(g.view(BEN, [4, 4]), Fixed(0)) is None  # its own bid
    w = g.view(CY, [6])
    assert w.mine and bots.act(w, Fixed(1)) in w.legal


def test_bot_reroll_only_in_bluff_with_the_option_and_a_hand():
    Zero = Fixed(0)
    hand = [4, 4, 6, 1, 2]
    g = game("bluff", 2, reroll=True)
    g.start_round()
    v = g.view(ANA, hand)
    assert bots.reroll(v, bid(2, 4), Zero) == reroll([4, 4, 6])
    assert bots.reroll(v, bid(2, 6), Zero) == reroll([6])          # stars only
    assert bots.reroll(g.view(ANA), bid(2, 4), Zero) is None      # no hand
    assert bots.reroll(g.view(ANA, [4, 4]), bid(2, 4), Zero) == reroll([4])  # one stays
    assert bots.reroll(g.view(ANA, [1, 2, 3, 5, 5]), bid(2, 4), Zero) is None  # nothing counts
    assert bots.reroll(v, bid(2, 4), Fixed(1)) is None  # half the time none
    for rules, opts in (("bluff", {}), ("perudo", {}), ("liars", {}), ("menteur", {})):
        g = game(rules, 2, **opts)
        g.start_round()
        assert bots.reroll(g.view(ANA, hand), bid(2, 4), Zero) is None


def test_dixmille_bot_keeps_best_banks_by_risk_and_rolls_any():
    g = game("dixmille", 2)
    r = random.Random(0)
    assert bots.act(g.view(ANA), r) == ROLL_ANY
    assert bots.act(g.view(BEN), r) is None  # not its turn
    g.apply(ANA, roll([1, 1, 1, 5, 2]))
    # 1000 + 60 x 2 dice left beats 1050 + 60 x 1
    assert bots.act(g.view(ANA), r) == keep([1, 1, 1])
    g.apply(ANA, keep([1, 1, 1]))
    assert bots.act(g.view(ANA), r) == BANK  # 1000 banked at once
    g = game("dixmille", 2)
    g.apply(ANA, roll([5, 2, 3, 3, 6]))
    g.apply(ANA, keep([5]))
    assert bots.act(g.view(ANA), r) == ROLL_ANY  # unopened under 500: roll


def test_bots_read_no_engine_private():
    """bots.py reads views: no game object, no attribute with a leading underscore on
    anything but its own helpers."""
    src = Path(bots.__file__).read_text()
    tree = ast.parse(src)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            assert not node.attr.startswith("_"), node.attr
        if isinstance(node, ast.Name):
            assert node.id not in ("game", "g"), node.id
    for word in ("counted", "total()", "_matches", "_may_reroll", ".aside[", ".phase"):
        assert word not in src


# ----- inside MicroPython ------------------------------------------------------------------

UPY_GAMES = [("bluff", 4, {"reroll": True}, 1), ("perudo", 3, {"calza_anyone": True}, 2), ("menteur", 5, {}, 3),
             ("liars", 2, {"spot_on": True}, 4), ("dixmille", 3, {}, 5)]


def test_bots_make_the_same_choices_inside_micropython(upy):
    here = Path(__file__).resolve().parent
    code = "import botplay\n" + "".join(
        "print(botplay.summary(%r, %d, %r, %d))\n" % g for g in UPY_GAMES)
    res = upy(code, extra_path=[here])
    assert res.returncode == 0, res.stderr.decode()
    want = [botplay.summary(*g) for g in UPY_GAMES]
    assert res.stdout.decode().splitlines() == want
    assert all(int(w.split()[3][8:]) > 20 for w in want)  # choices= ...
