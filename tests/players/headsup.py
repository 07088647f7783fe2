"""A small table for measuring players: the engine and player modules only.

Hands are rolled with a seeded rng, each seat reads `g.view(seat, hand)`; after a bid
a Bluff bettor is asked for a reroll; while a bid stands every seat that may call exact
out of turn is asked before the seat on turn acts. `play(...)` returns the winner.
The opener rotates with the seed (`opener=seed % seats`), so no level always opens.
"""
import random

from dicecup.engine import new_game
from dicecup.engine.actions import EXACT, kind, roll, unpack


def player(kind_name):
    """The module playing `kind_name` (players.get)."""
    from dicecup import players
    return players.get(kind_name)


def play(rules, seats, seed, options=None, max_steps=5000, on_decision=None, make_rng=None):
    """One seeded game; `seats` a list of player modules. Returns the winning seat.
    `on_decision(seat, view, action)` sees every decision (tests check legality);
    `make_rng(seed)` makes the dice's and each seat's rng (default random.Random; a test
    gives MicroPython and CPython the same one)."""
    n = len(seats)
    make_rng = make_rng or random.Random
    rng = make_rng(seed)
    rngs = [make_rng(seed * 7919 + s) for s in range(n)]
    g = new_game(rules, n, options, opener=seed % n)
    hands = [[] for _ in range(n)]
    steps = 0
    while g.winner() is None:
        steps += 1
        if steps > max_steps:
            raise RuntimeError("game did not end in %d steps" % max_steps)
        need = g.need()
        if need == "shake":
            g.start_round()
            hands = [[rng.randrange(6) + 1 for _ in range(g.hidden(s))] for s in range(n)]
            continue
        if need == "reveal":
            g.settle(hands)
            continue
        if rules == "dixmille":
            s = g.to_act()
            v = g.view(s)
            a = seats[s].act(v, rngs[s])
            if on_decision:
                on_decision(s, v, a)
            if kind(a) == "roll":
                a = roll([rng.randrange(6) + 1 for _ in range(g.roll_size(s))])
            g.apply(s, a)
            continue
        if g.bid:
            called = False
            t = g.to_act()
            for i in range(1, n):
                s = (t + i) % n
                if not g.dice[s] or EXACT not in g.legal_run(s):
                    continue
                v = g.view(s, hands[s])
                a = seats[s].act(v, rngs[s])
                if on_decision and a is not None:
                    on_decision(s, v, a)
                if a is not None:
                    g.apply(s, a)
                    called = True
                    break
            if called:
                continue
        s = g.to_act()
        v = g.view(s, hands[s])
        a = seats[s].act(v, rngs[s])
        if on_decision:
            on_decision(s, v, a)
        g.apply(s, a)
        if kind(a) == "bid" and rules == "bluff":
            r = seats[s].reroll(v, a, rngs[s])
            if r is not None:
                if on_decision:
                    on_decision(s, g.view(s, hands[s]), r)
                g.apply(s, r)
                aside = unpack(r & 0x7FFF)
                left = len(hands[s]) - len(aside)
                hands[s] = [rng.randrange(6) + 1 for _ in range(left)]
    return g.winner()


def match(rules, a, b, games, options=None, first_seed=0):
    """Heads-up `a` vs `b` (kind names) over `games` seeded games, swapping seats each
    game (the opener rotates too). Returns a's wins."""
    pa, pb = player(a), player(b)
    wins = 0
    for i in range(games):
        seed = first_seed + i
        if i % 2 == 0:
            wins += play(rules, [pa, pb], seed, options) == 0
        else:
            wins += play(rules, [pb, pa], seed, options) == 1
    return wins


def table(rules, kinds, games, hero=0, options=None, first_seed=0):
    """`kinds` round a table; the hero (index in kinds) moves one seat each game.
    Returns the hero's wins."""
    mods = [player(k) for k in kinds]
    n = len(kinds)
    wins = 0
    for i in range(games):
        shift = i % n
        seats = [mods[(j - shift) % n] for j in range(n)]
        w = play(rules, seats, first_seed + i, options)
        wins += w == (hero + shift) % n
    return wins


if __name__ == "__main__":
    import sys
    import time

    from dicecup_host.tournament import wilson
    rules, a, b, games = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    t0 = time.time()
    if b.startswith("table"):
        w = table(rules, [a] + [b.split(":")[1]] * 3, games)
    else:
        w = match(rules, a, b, games)
    lo, hi = wilson(w, games)
    print("%s %s vs %s: %d/%d = %.1f%% [%.1f, %.1f] (%.0fs)" % (
        rules, a, b, w, games, 100.0 * w / games, 100 * lo, 100 * hi, time.time() - t0))
