"""Dix mille measured by play: solitaire turn counts (the tournament's `mean_turns`) and
heads-up wins, with the engine and the player modules only (no cups, no network).

A player module is what `dicecup.players.get(kind)` returns (act(view, rng)); dice come
from a seeded random.Random, each seat has an rng of its own, so a seed replays a game.
"""
import random

from dicecup import players
from dicecup.engine import new_game
from dicecup.engine.actions import kind as _kind, roll

from .tournament import wilson  # noqa: F401 - dixsim.wilson, as its callers use it

MAX_STEPS = 100000


def _play(mods, seed, options=None, opener=0):
    """One seeded game; returns (winner, turns taken by each seat)."""
    n = len(mods)
    rng = random.Random(seed)
    rngs = [random.Random(seed * 7919 + s) for s in range(n)]
    g = new_game("dixmille", n, options, opener=opener)
    turns = [0] * n
    fresh = True
    for _ in range(MAX_STEPS):
        if g.winner() is not None:
            return g.winner(), turns
        s = g.to_act()
        if fresh:
            turns[s] += 1
        v = g.view(s)
        a = mods[s].act(v, rngs[s])
        if a is None or _kind(a) == "roll":
            a = roll([rng.randrange(6) + 1 for _ in range(g.roll_size(s))])
        events = g.apply(s, a)
        fresh = any(e[0] == "turn" for e in events)
    raise RuntimeError("no winner in %d steps (seed %d)" % (MAX_STEPS, seed))


def solitaire_turns(kind, games, seed=0, options=None):
    """Turns each of `games` one-seat games took to reach exactly 10,000 (game i uses
    seed + i)."""
    mod = players.get(kind)
    return [_play([mod], seed + i, options)[1][0] for i in range(games)]


def headsup(kind_a, kind_b, games, seed=0, options=None):
    """Games `kind_a` wins against `kind_b` over `games` seeded games, seats alternated
    (a opens the even games, b the odd ones)."""
    a, b = players.get(kind_a), players.get(kind_b)
    wins = 0
    for i in range(games):
        if i % 2 == 0:
            wins += _play([a, b], seed + i, options)[0] == 0
        else:
            wins += _play([b, a], seed + i, options)[0] == 1
    return wins


def mean_interval(xs, z=1.96):
    """(mean, half-width of its 95 % interval) of a sample."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, z * (var / n) ** 0.5


if __name__ == "__main__":
    import sys
    import time
    t0 = time.time()
    if sys.argv[1] == "solo":
        k, n = sys.argv[2], int(sys.argv[3])
        m, h = mean_interval(solitaire_turns(k, n, int(sys.argv[4]) if len(sys.argv) > 4 else 0))
        print("%s solitaire: %d games, mean turns %.3f +- %.3f (%.0fs)" % (k, n, m, h, time.time() - t0))
    else:
        a, b, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
        w = headsup(a, b, n, int(sys.argv[4]) if len(sys.argv) > 4 else 0)
        lo, hi = wilson(w, n)
        print("%s vs %s: %d/%d = %.1f%% [%.1f, %.1f] (%.0fs)" % (a, b, w, n, 100.0 * w / n, 100 * lo, 100 * hi,
                                                                time.time() - t0))
