"""Random legal game states for the UI and button-driver tests (tests/ui, tests/app):
the engine plays a seeded game by random legal moves and every seat's View is yielded
at every decision point."""
import random

from dicecup.engine import OVER, REVEAL, SHAKE, new_game
from dicecup.engine.actions import faces_of, kind, roll


def random_states(rules, options, seats, seed, steps=400):
    """(game, seat, view, hand) for every seat at every decision point of a game played
    with random legal actions (bids mostly among the lowest raises, so rounds last),
    out-of-turn calls and rerolls included."""
    rng = random.Random(seed)
    g = new_game(rules, seats, options, rng=rng)
    bluffing = rules != "dixmille"
    hands = [[] for _ in range(seats)]
    for _ in range(steps):
        need = g.need()
        if need == OVER:
            return
        if need == SHAKE:
            hands = [[rng.randrange(6) + 1 for _ in range(g.roll_size(s))] for s in range(seats)]
            g.start_round()
            continue
        if need == REVEAL:
            g.settle(hands)
            continue
        for s in range(seats):
            h = list(hands[s]) if bluffing else None
            yield g, s, g.view(s, h), h
        cands = [(s, a) for s in range(seats) for a in g.legal(s, hands[s] if bluffing else None)]
        t = g.to_act()
        low = [(s, a) for s, a in cands if s == t][:6]
        s, a = rng.choice(low if low and rng.random() < 0.7 else cands)
        if kind(a) == "roll":
            a = roll([rng.randrange(6) + 1 for _ in range(g.roll_size(s))])
        g.apply(s, a)
        if kind(a) == "reroll":
            h = hands[s]
            for f in faces_of(a):
                h.remove(f)
            hands[s] = [rng.randrange(6) + 1 for _ in range(len(h))]
