"""Whole games played only through the buttons, on CPython and unchanged inside
MicroPython: every seat has its own `Controls` (ui/controls.py), a scripted player
presses buttons at random (a thumb mostly on ok), and the engine applies exactly what
the models send, nothing else. The same arguments print the same line on both runtimes.

argv: rules seats seed buttons(3|4) [options: name=value,...]. Prints one line:
`rules=.. seed=.. winner=.. presses=.. sent=..` and how many moves of each kind were
sent (`exact_out`: exact calls out of turn, `with_bid`: rerolls sent with a bid).
"""
import sys

from dicecup.engine import OVER, REVEAL, SHAKE, new_game
from dicecup.engine.actions import faces_of, kind, roll
from dicecup.hw.buttons import BOTH, LONG, PRESS
from dicecup.ui.controls import SEND, Controls

NAMES4 = ("left", "ok", "right", "back")
NAMES3 = ("left", "ok", "right")
COUNTED = ("bid", "challenge", "exact", "exact_out", "reroll", "with_bid", "keep", "roll", "bank")
# (weight, kind, buttons): the scripted player's thumb, mostly on ok
WALK = ((9, PRESS, "ok"), (4, PRESS, "right"), (3, PRESS, "left"), (1, PRESS, "back"),
        (1, LONG, "left"), (1, LONG, "ok"), (1, LONG, "right"), (1, LONG, "back"),
        (1, BOTH, "left+right"), (1, BOTH, "left+ok"))


class Rng:
    """A tiny deterministic `randrange`, identical on every runtime (xorshift32). Not
    net/sim.py's Rng: importing dicecup.net does not fit the 110 KB heap this runs in."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def randrange(self, n):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return (x >> 4) % n


def gestures(names):
    """WALK for a board: (weight, kind, mask), leaving out buttons it lacks."""
    out = []
    for w, k, buttons in WALK:
        held = buttons.split("+")
        if all(b in names for b in held):
            out.append((w, k, sum(1 << names.index(b) for b in held)))
    return out


class ButtonTable:
    """A table whose seats play by buttons only. `play()` runs the game to its end."""

    def __init__(self, rules, seats, options, seed, names=NAMES4):
        self.rng = Rng(seed)
        self.dice = Rng(seed + 7919)
        self.rules = rules
        self.g = new_game(rules, seats, options, rng=self.dice)
        self.n = seats
        self.bluffing = rules != "dixmille"
        self.hands = [[] for _ in range(seats)]
        self.models = [Controls(names, 2, None) for _ in range(seats)]
        self.walk = gestures(list(names))
        self.weight = 0
        for w, _, _ in self.walk:
            self.weight += w
        self.presses = 0
        self.counts = {}
        for k in COUNTED:
            self.counts[k] = 0
        self.refresh()

    def throw(self, n):
        return [self.dice.randrange(6) + 1 for _ in range(n)]

    def refresh(self):
        """What the app does after every table event: each seat's model gets its view."""
        g = self.g
        for s in range(self.n):
            self.models[s].update(g.view(s, self.hands[s] if self.bluffing else None))

    def press(self):
        """One button event on one seat: the seat on turn half of the time, else any seat."""
        g = self.g
        turn = g.to_act()
        s = turn if turn is not None and self.rng.randrange(2) else self.rng.randrange(self.n)
        r = self.rng.randrange(self.weight)
        for w, k, mask in self.walk:
            r -= w
            if r < 0:
                break
        self.presses += 1
        m = self.models[s]
        if m.event(k, mask) == SEND:
            self.apply(s, m.action, m.then, turn)
            self.refresh()

    def apply(self, s, a, then, turn):
        g = self.g
        k = kind(a)
        if k == "exact" and s != turn:
            k = "exact_out"
        self.counts[k] += 1
        if k == "roll":
            a = roll(self.throw(g.roll_size(s)))
        g.apply(s, a)  # IllegalAction here: the model sent what the table refuses
        if k == "reroll":
            self.set_aside(s, a)
        if then is not None:
            self.counts["with_bid"] += 1
            g.apply(s, then)
            self.set_aside(s, then)

    def set_aside(self, s, a):
        h = self.hands[s]
        for f in faces_of(a):
            h.remove(f)  # ValueError: the model set aside dice the seat does not hold
        self.hands[s] = self.throw(len(h))

    def play(self, cap=300000):
        g = self.g
        while g.need() != OVER:
            need = g.need()
            if need == SHAKE:
                self.hands = [self.throw(g.roll_size(s)) for s in range(self.n)]
                g.start_round()
                self.refresh()
            elif need == REVEAL:
                g.settle(self.hands)
                self.refresh()
            else:
                self.press()
                if self.presses > cap:
                    raise AssertionError("no winner after %d presses" % cap)
        return g.winner()

    def summary(self, seed):
        out = "rules=%s seed=%d winner=%d presses=%d" % (self.rules, seed, self.g.winner(), self.presses)
        sent = 0
        for k in COUNTED:
            out += " %s=%d" % (k, self.counts[k])
            if k != "with_bid":
                sent += self.counts[k]
        return out + " sent=%d" % sent


def options_of(text):
    """name=value,... with true/false or a word."""
    opts = {}
    for item in text.split(","):
        if item:
            name, value = item.split("=")
            opts[name] = True if value == "true" else False if value == "false" else value
    return opts


def main(argv):
    rules = argv[1]
    seats = int(argv[2])
    seed = int(argv[3])
    names = NAMES3 if argv[4] == "3" else NAMES4
    options = options_of(argv[5]) if len(argv) > 5 else {}
    t = ButtonTable(rules, seats, options, seed, names)
    t.play()
    print(t.summary(seed))


if __name__ == "__main__":
    main(sys.argv)
