"""The baseline (Neller's binomial player) in the bidding games: hand-worked positions
where its bid or challenge is known, then the rule itself checked against
brute-force odds on random positions, whole games, and MicroPython.

The rule: on its turn, the highest-ranking legal bid whose chance of being true (own
dice, set-aside dice, the round's counting) is at least 1/2; none: challenge. Never
exact, never a reroll, nothing out of turn; the opener bids the same way."""
import itertools
import random
from fractions import Fraction

import pytest

from dicecup import players
from dicecup.engine import loads, new_game
from dicecup.engine.actions import CHALLENGE, EXACT, bid, describe
from dicecup.players import binomial

ANA, BEN, CY = 0, 1, 2
BASE = players.get("baseline")


def table(rules, counts, opener=ANA, **options):
    g = new_game(rules, len(counts), options, opener=opener)
    g.dice[:] = counts
    g = loads(g.dumps())
    g.start_round()
    return g


def move(g, hand):
    """The baseline's action for the seat on turn holding `hand`, as words."""
    s = g.to_act()
    return describe(BASE.act(g.view(s, hand), random.Random(0)))


# --- hand-worked positions ----------------------------------------------------------------

def test_liars_opener_bids_its_pair():
    # [4,4] and 3 unseen: 2x4 is certain; 3x4 needs a 4 among 3 dice, 91/216 < 1/2;
    # any 1x(other face) is 91/216 too. Highest even bid: 2x4.
    assert move(table("liars", [2, 3]), [4, 4]) == "2x4"


def test_equal_chances_go_to_the_higher_rank():
    # [3,5]: 1x3 and 1x5 are both certain, everything else is 91/216. Both pass the
    # 1/2 bar; rank decides (same quantity: the higher face ranks higher).
    assert move(table("liars", [2, 3]), [3, 5]) == "1x5"


class Stub:
    """A View stand-in for one position no rule set reaches: three faces count for
    every bid (k = 3), so one unseen die backs a bid with chance exactly 1/2."""
    rules = "liars"
    need = "bid"
    mine = True
    seat = 0
    bid = None
    aside = []

    def __init__(self, hand, total, legal):
        self.hand, self.total, self.legal = hand, total, legal

    def counts(self, face):
        return (face, face % 6 + 1, (face + 1) % 6 + 1)


def test_even_money_itself_is_enough():
    # own [2], 1 unseen at 1/2: 2x2 is exactly 1/2 (bid it), 3x2 impossible, 2x3 1/4
    v = Stub([2], 2, [bid(1, 2), bid(2, 2), bid(2, 3), bid(3, 2)])
    assert describe(BASE.act(v, None)) == "2x2"


def test_perudo_raises_on_the_face_it_can_back_then_challenges():
    # BEN [2,3,4,5,6], 5 unseen, aces wild (k=2): a face f needs 1 more of 5 for 2xf
    # (211/243), 2 more for 3xf (131/243 >= 1/2), 3 more for 4xf (51/243). Aces (k=1):
    # 1x1 is 4651/7776, 2x1 is 1526/7776. After 3x5 the raises are 3x6 (even), 2x1
    # (no), 4x.. (no): it bids 3x6.
    g = table("perudo", [5, 5])
    g.apply(ANA, bid(3, 5))
    assert move(g, [2, 3, 4, 5, 6]) == "3x6"
    g = table("perudo", [5, 5])
    g.apply(ANA, bid(3, 6))          # now only 2x1 and 4x.. remain: none even
    assert move(g, [2, 3, 4, 5, 6]) == CHALLENGE_WORD


CHALLENGE_WORD = "challenge"


def test_perudo_goes_to_aces_when_they_rank_highest():
    # BEN [1,1,2,3,4]: 3x1 needs one ace among 5 (4651/7776); 4x1 two (no). 5x2, 5x3,
    # 5x4 need 2 of 5 at 1/3 (131/243); 5x5, 5x6 need 3 (no). After 4x5 the candidates
    # are 4x6, 5x2..5x4 and 3x1: 3x1 ranks above 6x6, so it is the pick.
    g = table("perudo", [5, 5])
    g.apply(ANA, bid(4, 5))
    assert move(g, [1, 1, 2, 3, 4]) == "3x1"


def special(rules):
    """Three seats of one die, in the special round after ANA lost its second die."""
    g = table(rules, [2, 1, 1])
    g.apply(ANA, bid(4, 6))
    g.apply(BEN, CHALLENGE)
    g.settle([[2, 3], [4], [5]])
    g.start_round()
    assert g.dice == [1, 1, 1] and g.to_act() == ANA
    return g


def test_palifico_opener_opens_on_its_ace_and_the_face_stays():
    g = special("perudo")
    # aces not wild: only 1x1 is certain (any other 1xf is 11/36)
    assert move(g, [1]) == "1x1"
    g.apply(ANA, bid(1, 1))
    # BEN [4]: the face stays 1, 2x1 needs both unseen dice to be aces (1/36): challenge,
    # though 1x4 would be certain in any other round
    assert move(g, [4]) == CHALLENGE_WORD


def test_menteur_one_die_round_and_normal_round_differ():
    # no jokers: [1] backs only 1x1, which ranks below 1x2
    assert move(special("menteur"), [1]) == "1x1"
    # a normal round with the same die: the joker backs every face; 2x6 needs one of 2
    # unseen at 2/6 (20/36, even), but the joker bid 1x1 (certain) ranks above 2x6
    g = table("menteur", [1, 1, 1])
    assert g.view(ANA).special is None
    assert move(g, [1]) == "1x1"
    assert move(table("menteur", [1, 1, 1]), [5]) == "2x5"   # 20/36 for 2x5 > 1x5


def test_bluff_board_and_half_track_rank_stars_differently():
    # ANA [6,6,2], 3 unseen. Number bets count face + star: 4x2 needs one of 3 at 1/3
    # (19/27), 5x2 two (7/27); 3x5 likewise 19/27. Star bets count stars: 2 stars
    # certain, 3 stars needs one of 3 at 1/6 (91/216). Board track: 1,*1,2,3,*2,4,5:
    # 4x2 ranks above *2. Half track: *2 sits above 4 and below 5: *2 is the pick.
    assert move(table("bluff", [3, 3]), [6, 6, 2]) == "4x2"
    assert move(table("bluff", [3, 3], star_track="half"), [6, 6, 2]) == "2x6"


def test_bluff_counts_set_aside_dice():
    g = table("bluff", [4, 2], reroll=True)
    g.apply(ANA, bid(1, 3))
    from dicecup.engine.actions import reroll
    g.apply(ANA, reroll([6, 6, 6]))      # three stars face up
    # BEN [2,5] sees 3 stars: 4x5 is certain, 5x5 needs 1 of ANA's 1 hidden die (2/6)
    # no; stars: *3 certain, *4 1/6 no. Board: *3 (pos 7) ranks above 4x5 (pos 5),
    # and 5x.. (pos 6) needs the hidden die: *3 is the pick.
    assert move(g, [2, 5]) == "3x6"


def test_out_of_turn_nothing_and_never_a_reroll():
    g = table("bluff", [5, 5], reroll=True)
    hand = [6, 6, 6, 6, 1]
    assert BASE.act(g.view(BEN, hand), random.Random(0)) is None      # ANA's turn
    assert BASE.reroll(g.view(ANA, hand), bid(1, 6), random.Random(0)) is None
    g = table("menteur", [5, 5])
    g.apply(ANA, bid(2, 3))
    # tout pile may be called by ANA's opponent at any time; the baseline never does
    v = g.view(BEN, [3, 3, 4, 4, 5])
    assert EXACT in v.legal and BASE.act(v, random.Random(0)) != EXACT
    assert BASE.act(g.view(ANA, [2, 2, 2, 2, 2]), random.Random(0)) is None  # own bid standing


def test_players_registry_gives_the_baseline_for_every_bidding_game():
    assert "baseline" in players.available()
    for rules in ("bluff", "perudo", "menteur", "liars"):
        g = table(rules, [5, 5])
        a = players.get("baseline").act(g.view(ANA, [2, 3, 3, 4, 6]), random.Random(0))
        assert a in g.legal(ANA) and 8 <= a < 0x10000


# --- the rule against brute force, on random positions ------------------------------------

def brute_chance(g, seat, hand, q, f):
    """P(bid true) by enumerating the unseen dice (the engine's counts, a Fraction)."""
    faces = g.counts(f)
    seen = list(hand) + [d for s in range(g.n) for d in _aside(g, s)]
    unseen = g.total() - len(seen)
    base = sum(d in faces for d in seen)
    hits = sum(base + sum(d in faces for d in out) >= q
               for out in itertools.product(range(1, 7), repeat=unseen))
    return Fraction(hits, 6 ** unseen)


def _aside(g, s):
    from dicecup.engine.actions import unpack
    return unpack(g.aside[s]) if g.aside[s] else []


def literal_choice(g, seat, hand):
    """The rule as written: the highest-ranking legal bid at even money or better
    (ties: lower quantity, then lower face), else a challenge."""
    best = None
    for a in g.legal(seat):
        if 8 <= a < 0x10000:
            q, f = a >> 3, a & 7
            if brute_chance(g, seat, hand, q, f) >= Fraction(1, 2):
                key = (g.rank(q, f), -q, -f)
                if best is None or key > best[0]:
                    best = (key, a)
    return best[1] if best else CHALLENGE


@pytest.mark.parametrize("rules,options", [("liars", {}), ("perudo", {}), ("menteur", {}),
                                           ("bluff", {}), ("bluff", {"star_track": "half"})])
def test_the_choice_is_the_rule_on_random_small_tables(rules, options):
    rng = random.Random(5)
    for trial in range(25):
        counts = [rng.randrange(1, 3), rng.randrange(1, 4)]
        g = table(rules, counts, **options)
        hands = [[rng.randrange(6) + 1 for _ in range(c)] for c in counts]
        for _ in range(rng.randrange(3)):   # a few random bids first
            s = g.to_act()
            bids = [a for a in g.legal(s) if 8 <= a < 0x10000]
            if not bids:
                break
            g.apply(s, bids[rng.randrange(min(4, len(bids)))])
        s = g.to_act()
        want = literal_choice(g, s, hands[s])
        assert BASE.act(g.view(s, hands[s]), rng) == want, (rules, counts, hands, g.history())


@pytest.mark.parametrize("rules", ["bluff", "perudo", "menteur", "liars"])
def test_baseline_tables_play_whole_games(rules):
    rng = random.Random(11)
    g = new_game(rules, 3, None, rng=rng)
    for _ in range(400):
        if g.winner() is not None:
            break
        if g.need() == "shake":
            g.start_round()
            hands = [[rng.randrange(6) + 1 for _ in range(g.hidden(s))] for s in range(g.n)]
        elif g.need() == "bid":
            s = g.to_act()
            a = BASE.act(g.view(s, hands[s]), rng)
            assert a in g.legal(s) and a != EXACT
            g.apply(s, a)
        else:
            g.settle(hands)
    assert g.winner() is not None


def baseline_games(rules, draws):
    """Three baseline seats play `rules` (opener ANA); round r's hands are the first
    dice of draws[r]. The actions, as ints."""
    g = new_game(rules, 3, None, opener=ANA)
    out = []
    r = -1
    for _ in range(400):
        if g.winner() is not None:
            break
        n = g.need()
        if n == "shake":
            g.start_round()
            r += 1
            hands = [draws[r][s][:g.hidden(s)] for s in range(3)]
        elif n == "bid":
            s = g.to_act()
            a = BASE.act(g.view(s, hands[s]), None)
            g.apply(s, a)
            out.append(a)
        else:
            g.settle(hands)
    return [g.winner()] + out


UPY = """
from dicecup.engine import new_game
from dicecup.players import get
BASE = get("baseline")
ANA = 0
DRAWS = %r
%s
for rules in ("bluff", "perudo", "menteur", "liars"):
    print(repr(baseline_games(rules, DRAWS)))
"""


def test_micropython_baseline_plays_the_same_games(upy):
    import inspect
    rng = random.Random(3)
    draws = [[[rng.randrange(6) + 1 for _ in range(5)] for s in range(3)] for r in range(40)]
    res = upy(UPY % (draws, inspect.getsource(baseline_games)))
    assert res.returncode == 0, res.stderr.decode()
    got = [eval(line) for line in res.stdout.decode().splitlines()]
    want = [baseline_games(rules, draws) for rules in ("bluff", "perudo", "menteur", "liars")]
    assert got == want and all(w[0] is not None for w in want)
