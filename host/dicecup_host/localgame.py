"""A whole game with every seat a bot, the host holding all dice: the reference
for what a table should do, and the terminal game `make sim` shows."""
import random

from dicecup import bots
from dicecup.engine import new_game

MAX_STEPS = 20000


class StepCap(RuntimeError):
    """A game that did not end within MAX_STEPS actions (a bug, never a draw)."""


def play(rules, seats, options=None, seed=0, opener=None, on_event=None):
    """Play one bot game; returns the finished game. `on_event(event, hands)` sees
    every event in order."""
    rng = random.Random(seed)
    g = new_game(rules, seats, options, rng=rng, opener=opener)
    emit = on_event or (lambda ev, hands: None)
    for ev in g.opening:
        emit(ev, None)
    steps = 0
    while g.winner() is None:
        steps += 1
        if steps > MAX_STEPS:
            raise StepCap("%s game with seed %d did not end" % (rules, seed))
        if rules == "dixmille":
            seat = g.to_act()
            for ev in g.apply(seat, bots.dixmille(g, seat, rng)):
                emit(ev, None)
            continue
        hands = [[rng.randrange(6) + 1 for _ in range(g.hidden(s))] for s in range(g.n)]
        for ev in g.start_round():
            emit(ev, hands)
        while g.phase == 1:
            seat = g.to_act()
            for ev in g.apply(seat, bots.bluffing(g, seat, hands[seat], rng)):
                emit(ev, hands)
        for ev in g.settle(hands):
            emit(ev, hands)
    return g
