"""Whole games played by the bots from views only (g.view(seat, hand)), driven by
g.need(): imported by the CPython tests and run unchanged inside MicroPython, so both
runtimes can be compared choice by choice.

The driver holds every hidden hand (as a table of cups would) and passes each seat's
own hand in its view; the engine sees the hands only at `settle`.
"""
from dicecup import bots
from dicecup.engine import BID, OVER, REVEAL, SHAKE, loads, new_game
from dicecup.engine.actions import ROLL_ANY, faces_of, kind, roll

STEP_CAP = 20000


class Xorshift:
    """A tiny deterministic `randrange`, identical on every runtime."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def randrange(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return (x >> 4) % n


def throw(dice, n):
    return [dice.randrange(6) + 1 for _ in range(n)]


def play(rules, seats, options, dice, brain, on_view=None, choices=None, bytes_check=False):
    """One game: `dice` rolls every die (and draws the opener), `brain` is the bots' rng.
    Returns (game, choices): every action a bot chose, in order (ROLL_ANY as chosen),
    appended to `choices` (a new list unless given). `on_view(game, view, hand)` sees
    every view a bot is given. `bytes_check`: every state goes through dumps/loads,
    round history included."""
    g = new_game(rules, seats, options, rng=dice)
    if choices is None:
        choices = []
    hands = None
    steps = 0
    while g.need() != OVER:
        steps += 1
        if steps > STEP_CAP:
            raise AssertionError("the game did not end within %d steps" % STEP_CAP)
        if bytes_check:
            h = loads(g.dumps())
            if h.dumps() != g.dumps() or rules != "dixmille" and h.history() != g.history():
                raise AssertionError("state bytes lose something")
        need = g.need()
        if need == SHAKE:
            hands = [throw(dice, g.roll_size(s)) for s in range(seats)]
            g.start_round()
        elif need == REVEAL:
            g.settle(hands)
        elif need == BID:
            _bidding(g, hands, dice, brain, choices, on_view)
        else:  # dix mille: the seat on turn rolls, keeps, banks
            s = g.to_act()
            v = g.view(s)
            if on_view:
                on_view(g, v, None)
            a = bots.act(v, brain)
            if a not in v.legal:
                raise AssertionError("bot chose %r, not legal" % (a,))
            choices.append(a)
            if a == ROLL_ANY:
                a = roll(throw(dice, g.roll_size(s)))
            g.apply(s, a)
    return g, choices


def _bidding(g, hands, dice, brain, choices, on_view):
    """Every seat off turn may call an exact out of turn; then the seat on turn acts
    (and, right after its own bid, may set dice aside and reroll)."""
    turn = g.to_act()
    order = [s for s in range(g.n) if s != turn]
    order.append(turn)
    for s in order:
        v = g.view(s, hands[s])
        if on_view:
            on_view(g, v, hands[s])
        a = bots.act(v, brain)
        if a is None:
            if s == turn:
                raise AssertionError("the bot on turn did nothing")
            continue
        if a not in v.legal:
            raise AssertionError("bot chose %r, not legal" % (a,))
        choices.append(a)
        g.apply(s, a)
        if kind(a) == "bid":
            rr = bots.reroll(v, a, brain)
            if rr is not None:
                choices.append(rr)
                h = hands[s]
                for f in faces_of(rr):
                    h.remove(f)
                g.apply(s, rr)
                hands[s] = throw(dice, len(h))
        return


class Digest:
    """Keeps count and a running digest of the choices (a cup's heap holds no game log)."""

    def __init__(self):
        self.n = 0
        self.h = 0

    def append(self, a):
        self.n += 1
        self.h = (self.h * 1000003 + a) & 0xFFFFFFFF


def summary(rules, seats, options, seed):
    """One line per game, the same text on every runtime: choices and final state."""
    d = Digest()
    g, _ = play(rules, seats, options, Xorshift(seed), Xorshift(seed + 7919), choices=d, bytes_check=True)
    return "%s %d winner=%d choices=%d digest=%08x state=%s" % (rules, seed, g.winner(), d.n, d.h, g.dumps().hex())
