"""players/odds.py: the three figures of a bid equal a brute-force count over every
outcome of the unseen dice, for every rule set and special round, exactly (fractions,
not floats); the same figures come out of real MicroPython; screens get a percent and
a word."""
import itertools
import json
from fractions import Fraction

import pytest

from dicecup.engine import loads, new_game
from dicecup.engine.actions import CHALLENGE, bid, reroll
from dicecup.players import odds

ANA, BEN, CY = 0, 1, 2


def F(frac):
    num, den = frac
    return Fraction(num, den)


# --- the counting of RULES.md, written out here independently of the engine ----------

def counted(rules, special, f, die):
    """Does `die` count for a bid on face `f` (RULES.md, read afresh)?"""
    if rules == "liars" or special:
        return die == f
    if rules == "bluff":               # the star (6) is wild for number bets only
        return die == 6 if f == 6 else die in (f, 6)
    return die == 1 if f == 1 else die in (f, 1)   # perudo aces, menteur jokers


def brute(rules, special, q, f, seen_dice, unseen):
    """(at_least, exactly, expected) over all 6**unseen outcomes, as Fractions."""
    base = sum(counted(rules, special, f, d) for d in seen_dice)
    hits = exact = total = 0
    for out in itertools.product(range(1, 7), repeat=unseen):
        c = base + sum(counted(rules, special, f, d) for d in out)
        hits += c >= q
        exact += c == q
        total += c
    n = 6 ** unseen
    return Fraction(hits, n), Fraction(exact, n), Fraction(total, n)


def check_all_bids(v, rules, special, seen_dice, unseen):
    for f in range(1, 7):
        for q in range(1, v.total + 2):
            got = odds.for_view(v, (q, f))
            want = brute(rules, special, q, f, seen_dice, unseen)
            assert tuple(F(x) for x in got) == want, (rules, special, q, f, seen_dice)
            assert got[0][1] == got[1][1] == 6 ** unseen and got[2][1] == 6  # documented dens


def small_table(rules, counts, opener=ANA, **options):
    """A game between rounds with `counts` dice per seat (a state the engine accepts)."""
    g = new_game(rules, len(counts), options, opener=opener)
    g.dice[:] = counts
    return loads(g.dumps())


def special_round(rules):
    """Three seats of one die each, in the special round after ANA lost its second die:
    palifico (perudo) or no jokers (menteur)."""
    g = small_table(rules, [2, 1, 1])
    g.start_round()
    g.apply(ANA, bid(4, 6))
    g.apply(BEN, CHALLENGE)
    g.settle([[2, 3], [4], [5]])
    assert g.dice == [1, 1, 1]
    g.start_round()
    return g


# --- figures(): the binomial itself ----------------------------------------------------

def test_figures_equal_enumeration_for_every_k_known_and_small_unseen():
    for unseen in range(0, 5):
        for k in range(0, 7):
            for known in range(0, 3):
                for q in range(0, known + unseen + 3):
                    hits = exact = total = 0
                    for out in itertools.product(range(6), repeat=unseen):
                        c = known + sum(1 for d in out if d < k)
                        hits += c >= q
                        exact += c == q
                        total += c
                    n = 6 ** unseen
                    got = odds.figures(q, known, unseen, k)
                    assert tuple(F(x) for x in got) == (Fraction(hits, n), Fraction(exact, n),
                                                        Fraction(total, n)), (q, known, unseen, k)


def test_figures_at_30_unseen_are_exact_where_floats_would_round():
    # 1x? with nothing known: 1 - (5/6)^30, and the tail sums to one in integers
    a, e, x = odds.figures(1, 0, 30, 1)
    assert F(a) == 1 - Fraction(5, 6) ** 30 and a[1] == 6 ** 30
    assert F(x) == 5
    assert sum(odds.figures(q, 0, 30, 2)[1][0] for q in range(31)) == 6 ** 30
    with pytest.raises(ValueError):
        odds.figures(1, 0, -1, 1)


# --- for_view(): every rule set, from real views of small tables -------------------------

@pytest.mark.parametrize("rules", ["liars", "perudo", "menteur", "bluff"])
def test_normal_round_matches_enumeration(rules):
    g = small_table(rules, [2, 3])
    g.start_round()
    for hand in ([1, 6], [3, 3], [2, 5], [6, 6], [1, 1]):
        v = g.view(ANA, hand)
        assert v.special is None
        check_all_bids(v, rules, None, hand, 3)


@pytest.mark.parametrize("rules", ["perudo", "menteur"])
def test_palifico_and_one_die_round_match_enumeration_without_wilds(rules):
    g = special_round(rules)
    assert g.view(ANA).special in ("palifico", "no-jokers")
    for hand in ([1], [4], [6]):
        v = g.view(ANA, hand)
        check_all_bids(v, rules, v.special, hand, 2)
    # the wild ace/joker in the asker's hand no longer counts for a 4: 2x4 needs both unseen
    assert F(odds.for_view(g.view(ANA, [1]), (2, 4))[0]) == Fraction(1, 36)


def test_bluff_set_aside_dice_are_seen_by_everyone():
    g = small_table("bluff", [4, 2], reroll=True)
    g.start_round()
    g.apply(ANA, bid(2, 3))
    g.apply(ANA, reroll([3, 6]))            # face up: a 3 and a star; 2 dice stay hidden
    assert g.hidden(ANA) == 2
    # BEN sees its own 2 dice and the 2 set aside: 2 unseen (ANA's cup)
    for hand in ([3, 5], [6, 1]):
        v = g.view(BEN, hand)
        assert v.aside[ANA] == [3, 6]
        check_all_bids(v, "bluff", None, hand + [3, 6], 2)
    # ANA sees its hidden 2 and its own set-aside 2: BEN's 2 unseen
    v = g.view(ANA, [6, 2])
    check_all_bids(v, "bluff", None, [6, 2, 3, 6], 2)
    # a star bet counts stars only, a number bet face + stars
    assert odds.for_view(v, (2, 6))[0] == (36, 36)      # two stars seen
    assert F(odds.for_view(v, (5, 3))[0]) == Fraction(4, 36)   # 3 seen, both unseen must be 3/★


def test_for_view_judges_the_standing_bid_and_takes_an_action_int():
    g = small_table("liars", [2, 3])
    g.start_round()
    assert odds.for_view(g.view(ANA, [4, 4]), None) is None   # no bid yet
    g.apply(ANA, bid(3, 4))
    v = g.view(BEN, [4, 2, 2])
    assert odds.for_view(v, None) == odds.for_view(v, (3, 4)) == odds.for_view(v, bid(3, 4))
    assert F(odds.for_view(v, None)[0]) == Fraction(1, 36)     # one 4 seen: both unseen must be 4s


# --- screens ------------------------------------------------------------------------------

def test_percent_and_word_for_screens():
    assert odds.percent((0, 7)) == 0 and odds.percent((7, 7)) == 100
    assert odds.percent((1, 3)) == 33 and odds.percent((2, 3)) == 67 and odds.percent((1, 8)) == 13
    assert odds.percent((129, 200)) == 65          # 64.5 % rounds half up
    # the word follows the shown percent: 64.5 % reads "65 % likely", 14.9 % "15 % thin"
    assert [odds.word(f) for f in ((13, 20), (129, 200), (2, 5), (3, 20), (149, 1000), (144, 1000))] == \
        ["likely", "likely", "fair", "thin", "thin", "long shot"]
    assert odds.word((1, 3)) == "thin" and odds.word((1, 2)) == "fair" and odds.word((1, 10)) == "long shot"


# --- the same figures inside real MicroPython -------------------------------------------

GRID = [(q, known, unseen, k) for unseen in (0, 1, 5, 12, 30) for k in (1, 2, 3)
        for known in (0, 2) for q in (1, 3, 7, 16, 31)]

UPY = """
from dicecup.players import odds
from dicecup.engine import new_game, loads
from dicecup.engine.actions import bid, reroll
for q, known, unseen, k in %r:
    a, e, x = odds.figures(q, known, unseen, k)
    print(repr([a[0], a[1], e[0], e[1], x[0], x[1]]))
g = new_game("bluff", 2, {"reroll": True}, opener=0)
g.start_round()
g.apply(0, bid(2, 3))
g.apply(0, reroll([3, 6]))
v = g.view(1, [6, 2, 2, 3, 1])
for f in range(1, 7):
    a, e, x = odds.for_view(v, (4, f))
    print(repr([a[0], a[1], e[0], e[1], x[0], x[1]]))
print(repr([odds.percent((1, 3)), odds.word((1, 3))]))
"""


def test_micropython_gives_the_same_exact_figures(upy):
    res = upy(UPY % (GRID,))
    assert res.returncode == 0, res.stderr.decode()
    got = [eval(line) for line in res.stdout.decode().splitlines()]  # ints, a str: same repr
    want = []
    for q, known, unseen, k in GRID:
        a, e, x = odds.figures(q, known, unseen, k)
        want.append([a[0], a[1], e[0], e[1], x[0], x[1]])
    g = new_game("bluff", 2, {"reroll": True}, opener=0)
    g.start_round()
    g.apply(0, bid(2, 3))
    g.apply(0, reroll([3, 6]))
    v = g.view(1, [6, 2, 2, 3, 1])
    for f in range(1, 7):
        a, e, x = odds.for_view(v, (4, f))
        want.append([a[0], a[1], e[0], e[1], x[0], x[1]])
    want.append([33, "thin"])
    assert got == want
    assert got[GRID.index((1, 0, 30, 1))][1] == 6 ** 30   # big ints survive as such
