"""This round's bids in order (g.history()): kept one byte each, bidders derived
from the round's opener, through dumps/loads, cleared when the round ends."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import CHALLENGE, EXACT, bid, game, reroll, rnd, set_dice
from dicecup.engine import OVER, REVEAL, SHAKE, BadState, loads, new_game
from dicecup.engine.actions import faces_of, kind

ANA, BEN, CY, DEE = 0, 1, 2, 3
BLUFFING = ("bluff", "perudo", "menteur", "liars")


def test_bids_of_the_round_in_order_and_through_bytes():
    g = game("perudo", 3, opener=BEN)
    g.start_round()
    g.apply(BEN, bid(2, 3))
    g.apply(CY, bid(3, 3))
    g.apply(ANA, bid(3, 5))
    want = [(BEN, 2, 3), (CY, 3, 3), (ANA, 3, 5)]
    assert g.history() == want
    h = loads(g.dumps())
    assert h.history() == want and h.dumps() == g.dumps()
    h.apply(BEN, bid(4, 5))
    assert h.history() == want + [(BEN, 4, 5)] and g.history() == want


def test_bids_skip_eliminated_seats_and_survive_a_reroll():
    g = set_dice(game("bluff", 4, opener=CY, reroll=True), [3, 0, 5, 2])
    g.start_round()
    g.apply(CY, bid(2, 4))
    g.apply(CY, reroll([4]))   # the turn stays with dee
    g.apply(DEE, bid(3, 4))
    g.apply(ANA, bid(4, 4))
    g.apply(CY, bid(5, 4))
    assert g.history() == [(CY, 2, 4), (DEE, 3, 4), (ANA, 4, 4), (CY, 5, 4)]
    assert loads(g.dumps()).history() == g.history()


def test_bids_cleared_by_settle_restart_and_a_final_forfeit():
    g = game("perudo", 3)
    rnd(g, [[3] * 5, [3] * 5, [3] * 5], (ANA, bid(2, 3)), (BEN, bid(3, 3)), (CY, CHALLENGE))
    assert g.history() == [] and loads(g.dumps()).history() == []
    g.start_round()
    g.apply(g.to_act(), bid(2, 2))
    g.restart_round()
    assert g.history() == [] and loads(g.dumps()).history() == []
    g = game("liars", 2)
    g.start_round()
    g.apply(ANA, bid(2, 2))
    g.apply(BEN, CHALLENGE)
    g.forfeit(ANA)
    assert g.need() == OVER and g.history() == [] and g.bidder == -1


def test_a_forfeit_at_the_reveal_keeps_the_bidders():
    """A forfeit empties a seat mid-round: the bids it made are still its own."""
    g = game("perudo", 4)
    g.start_round()
    for s, q in ((ANA, 2), (BEN, 3), (CY, 4), (DEE, 5), (ANA, 6)):
        g.apply(s, bid(q, 3))
    g.apply(BEN, CHALLENGE)
    want = g.history()
    g.forfeit(CY)
    g.forfeit(BEN)
    assert g.history() == want and loads(g.dumps()).history() == want
    g.settle([[3] * 5, [], [], [3] * 5])
    assert g.history() == [] and loads(g.dumps()).history() == []


def test_state_bytes_grow_by_the_bids_only():
    g = new_game("perudo", 6, opener=0)
    assert len(g.dumps()) == 11  # as before: nothing added without bids
    g.start_round()
    assert len(g.dumps()) == 11
    for i in range(4):
        g.apply(g.to_act(), bid(2 + i, 3))
    assert len(g.dumps()) == 11 + 1 + 4  # a count and one byte per bid
    assert len(loads(g.dumps()).dumps()) == 16


def test_inconsistent_bids_in_the_bytes_are_rejected():
    g = game("perudo", 3)
    g.start_round()
    g.apply(ANA, bid(2, 3))
    g.apply(BEN, bid(3, 3))
    good = bytearray(g.dumps())
    assert good[-3:] == bytes([2, 2 << 3 | 3, 3 << 3 | 3])
    for bad in (good[:-3] + bytes([2, 2 << 3 | 3, 4 << 3 | 3]),   # last is not the standing bid
                good[:-3] + bytes([1, 3 << 3 | 3]),                 # bidder does not follow
                good[:-3] + bytes([2, 0, 3 << 3 | 3]),              # not a bid
                good[:-1]):                                         # truncated
        with pytest.raises(BadState):
            loads(bytes(bad))
    old = bytearray(good[:-3])   # a standing bid with no bids recorded
    old[4] &= 0x3F
    with pytest.raises(BadState):
        loads(bytes(old))


def play_random(rules, seats, opts, seed, forfeits=True):
    """A random legal game; after every step the history equals the bids the events
    showed this round, also through dumps/loads."""
    rng = random.Random(seed)
    g = new_game(rules, seats, opts, rng=rng)
    seen = []
    steps = 0
    while g.winner() is None:
        steps += 1
        assert steps < 5000
        need = g.need()
        if need == SHAKE:
            hands = [[rng.randrange(6) + 1 for _ in range(g.roll_size(s))] for s in range(seats)]
            ev = g.start_round()
        elif need == REVEAL:
            alive = [s for s in range(seats) if g.dice[s]]
            if forfeits and rng.random() < 0.15:
                s = rng.choice(alive)
                ev = g.forfeit(s)
                hands[s] = []
            elif rng.random() < 0.05:
                ev = g.restart_round()
            else:
                ev = g.settle(hands)
        else:
            if rng.random() < 0.02:
                ev = g.restart_round()
            else:
                off = [s for s in range(seats) if s != g.to_act() and EXACT in g.legal(s)]
                rr = [a for a in g.legal(g.bidder, hands[g.bidder]) if kind(a) == "reroll"] if g.bidder >= 0 else []
                if off and rng.random() < 0.05:
                    s, a = rng.choice(off), EXACT
                elif rr and rng.random() < 0.3:
                    s, a = g.bidder, rng.choice(rr)
                else:
                    s = g.to_act()
                    a = rng.choice(g.legal(s, hands[s]))
                if kind(a) == "reroll":
                    for f in faces_of(a):
                        hands[s].remove(f)
                    hands[s] = [rng.randrange(6) + 1 for _ in hands[s]]
                ev = g.apply(s, a)
        for e in ev:
            if e[0] == "bid":
                seen.append(e[1:])
            elif e[0] in ("rolled", "replay", "round", "win"):
                seen = []
        assert g.history() == seen
        h = loads(g.dumps())
        assert h.history() == seen and h.dumps() == g.dumps()
        if seen:
            assert seen[-1][0] == g.bidder and (seen[-1][1], seen[-1][2]) == (g.bid >> 3, g.bid & 7)
    return g


OPTIONS = {
    "bluff": st.fixed_dictionaries({}, optional={"star_track": st.sampled_from(["board", "half"]),
                                                 "reroll": st.booleans()}),
    "perudo": st.fixed_dictionaries({}, optional={"palifico": st.booleans(), "calza_anyone": st.booleans()}),
    "menteur": st.just({}),
    "liars": st.fixed_dictionaries({}, optional={"one_life": st.booleans(), "spot_on": st.booleans()}),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=st.sampled_from(BLUFFING), seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_bidders_derived_from_the_opener_match_the_events(data, rules, seats, seed):
    g = play_random(rules, seats, data.draw(OPTIONS[rules]), seed)
    assert g.history() == []
