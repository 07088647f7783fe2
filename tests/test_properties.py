"""Properties over random legal games, checked against small oracles written straight
from RULES.md (not from the engine's own ranking or outcome code)."""
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicecup.engine import IllegalAction, loads, new_game
from dicecup.engine.actions import BANK, CHALLENGE, EXACT, bid, roll

STEP_CAP = 5000
BLUFFING = ("bluff", "perudo", "menteur", "liars")
OPTIONS = {
    "bluff": {"star_track": st.sampled_from(["board", "half"]), "reroll": st.booleans()},
    "perudo": {"palifico": st.booleans(), "calza_anyone": st.booleans()},
    "menteur": {},
    "liars": {"one_life": st.booleans(), "spot_on": st.booleans()},
    "dixmille": {"overshoot_penalty": st.booleans()},
}


def options_for(rules):
    return st.fixed_dictionaries({}, optional=OPTIONS[rules])


# ----- oracles, from RULES.md --------------------------------------------------------
def bluff_track(limit=60):
    """The board: 1, *1, 2, 3, *2, 4, 5, *3 ... written out as a list of spaces."""
    spaces = [("n", 1)]
    q, s = 2, 1
    while q <= limit:
        spaces.append(("s", s))
        spaces.append(("n", q))
        spaces.append(("n", q + 1))
        q += 2
        s += 1
    return {sp: i for i, sp in enumerate(spaces)}


TRACK = bluff_track()


def outranks(rules, opts, special, prev, new):
    """Whether bid `new` may follow `prev` (both (q, f)), as RULES.md words it."""
    (q, f), (q2, f2) = prev, new
    plain = (q2 > q) or (q2 == q and f2 > f)
    if rules == "liars":
        return plain
    if rules == "bluff":
        star, star2 = f == 6, f2 == 6
        if opts.get("star_track", "board") == "half":
            if star and star2:
                return q2 > q
            if star:
                return q2 >= 2 * q + 1
            if star2:
                return q <= 2 * q2
            return plain
        a = TRACK[("s", q) if star else ("n", q)]
        b = TRACK[("s", q2) if star2 else ("n", q2)]
        return b > a or (a == b and not star and f2 > f)
    if special:  # palifico: the face stays; menteur one-die round: jokers rank below 2
        if rules == "perudo":
            return f2 == f and q2 > q
        return plain
    wild = 1
    if f != wild and f2 != wild:
        return plain
    if f2 == wild and f != wild:
        return q2 >= math.ceil(q / 2)
    if f == wild and f2 == wild:
        return q2 > q
    return q2 >= 2 * q + 1


def matching(rules, special, hands, aside, q, f):
    dice = [d for h in hands for d in h] + [d for a in aside for d in a]
    if rules == "bluff":
        return sum(1 for d in dice if d == 6 or (f != 6 and d == f))
    if rules == "liars" or special or f == 1:
        return sum(1 for d in dice if d == f)
    return sum(1 for d in dice if d == f or d == 1)


def expected_losses(rules, opts, n, call, caller, bidder, q, count, seats):
    """Dice change per seat for a call (before caps)."""
    d = [0] * seats
    if rules == "bluff":
        if q < count:
            d[caller] -= count - q
        elif q == count:
            d = [-1] * seats
            d[bidder] = 0
        else:
            d[bidder] -= q - count
        return d
    one = -5 if rules == "liars" and opts.get("one_life") else -1
    if call == "exact":
        d[caller] = 1 if count == q else one
        return d
    d[caller if count >= q else bidder] = one
    return d


# ----- random games ------------------------------------------------------------------
def play_bluffing(rules, seats, opts, seed, check_every_step=True):
    """A random legal game, every step checked against the oracles. Returns the game
    and its event log."""
    rng = random.Random(seed)
    g = new_game(rules, seats, opts, rng=rng)
    log = list(g.opening)
    steps = 0
    while g.winner() is None:
        assert g.phase == 0
        hands = [[rng.randrange(6) + 1 for _ in range(g.hidden(s))] for s in range(seats)]
        log += g.start_round()
        prev = None
        while g.phase == 1:
            steps += 1
            assert steps < STEP_CAP, "game did not end within the step cap"
            # an out-of-turn exact call now and then, where the rules allow it
            off = [s for s in range(seats) if s != g.to_act() and EXACT in g.legal(s)]
            rerolls = [a for a in g.legal(g.bidder, hands[g.bidder]) if a >> 16 == 3] if g.bidder >= 0 else []
            if off and rng.random() < 0.05:
                seat, a = rng.choice(off), EXACT
            elif rerolls and rng.random() < 0.3:
                seat, a = g.bidder, rng.choice(rerolls)
            else:
                seat = g.to_act()
                acts = g.legal(seat, hands[seat])
                assert acts, "the seat on turn always has an action"
                a = rng.choice(acts)
            before = g.dumps()
            if a >> 16 == 3:  # bluff reroll: faces come from the seat's own hand
                from dicecup.engine.actions import faces_of
                aside = faces_of(a)
                for f in aside:
                    hands[seat].remove(f)
                hands[seat] = [rng.randrange(6) + 1 for _ in hands[seat]]
            ev = g.apply(seat, a)
            log += ev
            if check_every_step:
                assert loads(g.dumps()).dumps() == g.dumps()
                assert loads(g.dumps()).history() == g.history()  # the round's bids too
                assert loads(before).dumps() == before
            if 8 <= a < 0x10000:
                new = (a >> 3, a & 7)
                if prev is not None:
                    assert outranks(rules, opts, g.special, prev, new), (prev, new)
                prev = new
                bidder = seat
        call = "exact" if log[-1][0] == "exact" else "challenge"
        caller = log[-1][1]
        q, f = g.bid >> 3, g.bid & 7
        aside = [faces(g, s) for s in range(seats)]
        count = matching(rules, g.special, hands, aside, q, f)
        dice_before = list(g.dice)
        special_before = g.special
        ev = g.settle(hands)
        log += ev
        assert ev[0] == ("reveal", q, f, count)
        want = expected_losses(rules, opts, seats, call, caller, bidder, q, count, seats)
        for s in range(seats):
            assert g.dice[s] == max(0, min(5, dice_before[s] + want[s])), (s, special_before)
    return g, log


def faces(g, seat):
    from dicecup.engine.actions import unpack
    return unpack(g.aside[seat])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=st.sampled_from(BLUFFING), seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_random_bluffing_games_follow_the_rules(data, rules, seats, seed):
    opts = data.draw(options_for(rules))
    g, log = play_bluffing(rules, seats, opts, seed)
    alive = [s for s in range(seats) if g.dice[s]]
    assert alive == [g.winner()], "exactly one winner, the last with dice"
    assert log[-1] == ("win", g.winner())


@settings(max_examples=30, deadline=None)
@given(rules=st.sampled_from(BLUFFING), seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_replay_is_deterministic(rules, seats, seed):
    a = play_bluffing(rules, seats, {}, seed, check_every_step=False)
    b = play_bluffing(rules, seats, {}, seed, check_every_step=False)
    assert a[1] == b[1] and a[0].dumps() == b[0].dumps()


@settings(max_examples=40, deadline=None)
@given(rules=st.sampled_from(BLUFFING), seats=st.integers(2, 6), seed=st.integers(0, 2**32),
       q=st.integers(-3, 40), f=st.integers(-1, 8))
def test_illegal_actions_raise_and_change_nothing(rules, seats, seed, q, f):
    rng = random.Random(seed)
    g = new_game(rules, seats, None, rng=rng)
    g.start_round()
    for _ in range(rng.randrange(4)):
        s = g.to_act()
        bids = [a for a in g.legal(s) if a >= 8]
        if bids:
            g.apply(s, rng.choice(bids))
    for seat in range(seats):
        legal = set(g.legal(seat))
        for a in (q << 3 | f if q > 0 and 0 <= f < 8 else q, CHALLENGE, EXACT, BANK, roll([1])):
            if a in legal or (8 <= a < 0x10000 and a >> 3 > sum(g.dice) and seat == g.to_act()):
                continue  # legal (bids above the dice on the table are legal but unlisted)
            before = g.dumps()
            with pytest.raises(IllegalAction) as err:
                g.apply(seat, a)
            assert err.value.code
            assert g.dumps() == before


@settings(max_examples=40, deadline=None)
@given(seats=st.integers(1, 6), seed=st.integers(0, 2**32), penalty=st.booleans())
def test_dixmille_games_end_with_exactly_ten_thousand(seats, seed, penalty):
    rng = random.Random(seed)
    g = new_game("dixmille", seats, {"overshoot_penalty": penalty}, rng=rng)
    steps = 0
    while g.winner() is None:
        steps += 1
        assert steps < 40 * STEP_CAP, "game did not end within the step cap"
        s = g.to_act()
        acts = g.legal(s)
        # a sensible bias (bank when allowed half the time), else games never end
        a = BANK if BANK in acts and rng.random() < 0.5 else rng.choice(acts)
        if a >> 16 == 1:
            a = roll([rng.randrange(6) + 1 for _ in range(g.left)])
        score, total = g.scores[s], g.total
        ev = g.apply(s, a)
        if a == BANK:
            assert g.scores[s] == score + total
        assert loads(g.dumps()).dumps() == g.dumps()
        for e in ev:
            if e[0] == "keep":
                assert e[3] > 0
    assert g.scores[g.winner()] == 10000
    assert sum(1 for s in g.scores if s == 10000) >= 1


@pytest.mark.heavy
@pytest.mark.parametrize("rules", BLUFFING)
def test_many_random_games(rules):
    """Thousands of seeded games per rule set, all options mixed."""
    opts_choices = {
        "bluff": [{}, {"star_track": "half"}, {"reroll": True}, {"star_track": "half", "reroll": True}],
        "perudo": [{}, {"palifico": False}, {"calza_anyone": True}],
        "menteur": [{}],
        "liars": [{}, {"one_life": True}, {"spot_on": True}, {"one_life": True, "spot_on": True}],
    }[rules]
    for i in range(400):
        opts = opts_choices[i % len(opts_choices)]
        g, _ = play_bluffing(rules, 2 + i % 5, opts, 10_000 + i, check_every_step=False)
        assert g.winner() is not None
