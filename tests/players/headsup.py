"""A small table for measuring players: the engine and player modules only.

Hands are rolled with a seeded rng, each seat reads `g.view(seat, hand)`; after a bid
a Bluff bettor is asked for a reroll; while a bid stands every seat that may call exact
out of turn is asked before the seat on turn acts. `play(...)` returns the winner.
The opener rotates with the seed (`opener=seed % seats`), so no level always opens.

For the baseline it uses players/baseline.py when players/binomial.py exists, else
`Neller` below (the same rule: the highest-ranking legal bid at least even odds to be
true given its own dice, else challenge; never exact, never reroll).
"""
import math
import random

from dicecup.engine import new_game
from dicecup.engine.actions import CHALLENGE, EXACT, kind, roll, unpack


class Neller:
    """Neller's binomial player, for the baseline seat (see the module docstring)."""

    @staticmethod
    def act(view, rng):
        if view.rules == "dixmille":
            from dicecup import bots
            return bots.act(view, rng)
        if not view.mine or not view.legal:
            return None
        best = None
        for a in view.legal:
            if 8 <= a < 0x10000 and _even_odds(view, a >> 3, a & 7):
                best = a
        if best is None:
            return CHALLENGE if CHALLENGE in view.legal else view.legal[0]
        return best

    @staticmethod
    def reroll(view, bid, rng):
        return None


def _even_odds(view, q, f):
    faces = view.counts(f)
    known = sum(1 for d in view.hand if d in faces)
    seen = len(view.hand)
    for a in view.aside:
        seen += len(a)
        known += sum(1 for d in a if d in faces)
    need = q - known
    u = view.total - seen
    k = len(faces)
    if need <= 0:
        return True
    num = sum(math.comb(u, j) * k ** j * (6 - k) ** (u - j) for j in range(need, u + 1))
    return 2 * num >= 6 ** u


def player(kind_name):
    """The module (or object) playing `kind_name`: players.get, Neller for a baseline
    whose binomial module is not there yet."""
    from dicecup import players
    if kind_name == "baseline":
        try:
            import dicecup.players.binomial  # noqa: F401
        except ImportError:
            return Neller
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


def wilson(wins, n, z=1.96):
    """Wilson 95 % interval for a win rate: (low, high)."""
    if not n:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


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
    rules, a, b, games = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    t0 = time.time()
    if b.startswith("table"):
        w = table(rules, [a] + [b.split(":")[1]] * 3, games)
    else:
        w = match(rules, a, b, games)
    lo, hi = wilson(w, games)
    print("%s %s vs %s: %d/%d = %.1f%% [%.1f, %.1f] (%.0fs)" % (
        rules, a, b, w, games, 100.0 * w / games, 100 * lo, 100 * hi, time.time() - t0))
