"""Replay a rule scenario (shared/scenarios format) through the engine.

Runs unchanged on CPython (`dicecup scenario`) and inside MicroPython
(`micropython -m dicecup.scenario FILE`), printing the same bytes on both.
Exit 0: the final state; 3: a step the game rejects (error + state before it, on
stdout); 2: a malformed file (message on stderr, nothing on stdout).
"""
import sys

from .engine import RULES, IllegalAction, loads, new_game
from .engine.actions import BANK, CHALLENGE, EXACT, MAX_QUANTITY, bid, keep, reroll, roll
from .jsonw import Obj, dumps

BLUFFING_STEPS = ("roll", "bid", "challenge", "exact", "reroll")
DIXMILLE_STEPS = ("roll", "keep", "bank")


class Malformed(Exception):
    """The file is not a scenario: exit 2."""


def _is_int(v):
    return type(v) is int


def _ints(v, what):
    if type(v) is not list or not all(_is_int(x) for x in v):
        raise Malformed("%s must be a list of integers" % what)
    return v


def _fix_text(s):
    """MicroPython's json turns an escaped surrogate pair into two 3-byte sequences;
    join them back into the one character CPython reads."""
    raw = s.encode()
    if b"\xed" not in raw:
        return s
    out = bytearray()
    i = 0
    while i < len(raw):
        if (raw[i] == 0xED and i + 5 < len(raw) and 0xA0 <= raw[i + 1] <= 0xAF
                and raw[i + 3] == 0xED and 0xB0 <= raw[i + 4] <= 0xBF):
            hi = 0xD000 | (raw[i + 1] & 0x3F) << 6 | (raw[i + 2] & 0x3F)
            lo = 0xD000 | (raw[i + 4] & 0x3F) << 6 | (raw[i + 5] & 0x3F)
            c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
            out.extend(bytes([0xF0 | c >> 18, 0x80 | (c >> 12 & 0x3F), 0x80 | (c >> 6 & 0x3F), 0x80 | (c & 0x3F)]))
            i += 6
        else:
            out.append(raw[i])
            i += 1
    return out.decode()


def parse(doc):
    """Check the whole file's shape before replaying anything. Returns
    (rules, options, players, opener, steps) with each step as (kind, value)."""
    if type(doc) is not dict:
        raise Malformed("a scenario is a JSON object")
    for key in ("rules", "players", "opener", "steps"):
        if key not in doc:
            raise Malformed("missing field %r" % key)
    rules = doc["rules"]
    if type(rules) is not str or rules not in RULES:
        raise Malformed("unknown rule set %r" % (rules,))
    options = doc.get("options", {})
    if type(options) is not dict:
        raise Malformed("options must be an object")
    players = doc["players"]
    if type(players) is not list or not players or not all(type(p) is str for p in players):
        raise Malformed("players must be a list of names")
    if sys.implementation.name == "micropython":
        players = [_fix_text(p) for p in players]
    for i in range(len(players)):
        if players[i] in players[i + 1:]:
            raise Malformed("player %r has two seats" % players[i])
    seat = {}
    for i in range(len(players)):
        seat[players[i]] = i

    def who(name):
        if type(name) is not str:
            raise Malformed("a player is named by a string, not %r" % (name,))
        if sys.implementation.name == "micropython":
            name = _fix_text(name)
        if name not in seat:
            raise Malformed("%r has no seat" % name)
        return seat[name]

    opener = who(doc["opener"])
    steps = doc["steps"]
    if type(steps) is not list:
        raise Malformed("steps must be a list")
    kinds = DIXMILLE_STEPS if rules == "dixmille" else BLUFFING_STEPS
    out = []
    for i in range(len(steps)):
        st = steps[i]
        if type(st) is not dict or len(st) != 1:
            raise Malformed("step %d must be an object with one key" % i)
        kind = list(st.keys())[0]
        v = st[kind]
        if kind not in kinds:
            raise Malformed("step %d: %r is not a %s step" % (i, kind, rules))
        if kind == "roll" and rules != "dixmille":
            if type(v) is not dict:
                raise Malformed("step %d: roll maps each player to dice" % i)
            hands = {}
            for name in v:
                hands[who(name)] = _ints(v[name], "step %d: dice" % i)
            val = hands
        elif kind in ("challenge", "exact", "bank"):
            val = who(v)
        elif kind == "bid":
            if type(v) is not list or len(v) != 3 or not _is_int(v[1]) or not _is_int(v[2]):
                raise Malformed("step %d: bid is [player, quantity, face]" % i)
            val = (who(v[0]), v[1], v[2])
        elif kind == "reroll":
            if type(v) is not list or len(v) != 3:
                raise Malformed("step %d: reroll is [player, set aside, new dice]" % i)
            val = (who(v[0]), _ints(v[1], "step %d: set-aside dice" % i), _ints(v[2], "step %d: new dice" % i))
        else:  # dixmille roll / keep
            if type(v) is not list or len(v) != 2:
                raise Malformed("step %d: %s is [player, dice]" % (i, kind))
            val = (who(v[0]), _ints(v[1], "step %d: dice" % i))
        out.append((kind, val))
    return rules, options, players, opener, out


def _faces_ok(faces, seat):
    if len(faces) > 5:
        raise IllegalAction("dice-count", "at most five dice, not %d" % len(faces), seat)
    for f in faces:
        if not 1 <= f <= 6:
            raise IllegalAction("bad-face", "face %d is not 1..6" % f, seat)


def _bid(seat, q, f):
    if not 1 <= q <= MAX_QUANTITY:
        raise IllegalAction("bad-quantity", "quantity %d is not 1..%d" % (q, MAX_QUANTITY), seat)
    if not 1 <= f <= 6:
        raise IllegalAction("bad-face", "face %d is not 1..6" % f, seat)
    return bid(q, f)


class Replay:
    """A game plus the hidden hands the scenario reveals, stepped one at a time."""

    def __init__(self, rules, options, players, opener):
        self.players = players
        self.game = new_game(rules, len(players), options, opener=opener)
        self.hands = None

    def step(self, kind, val):
        g = self.game
        if g.name == "dixmille":
            if kind == "bank":
                return g.apply(val, BANK)
            seat, faces = val
            if g.to_act() is not None and seat != g.to_act():
                raise IllegalAction("not-your-turn", "seat %d plays, not seat %d" % (g.to_act(), seat), seat)
            _faces_ok(faces, seat)
            return g.apply(seat, roll(faces) if kind == "roll" else keep(faces))
        if kind == "roll":
            if g.winner() is not None:
                raise IllegalAction("game-over", "the game is over", -1)
            if g.phase != 0:
                raise IllegalAction("wrong-phase", "a round is already under way", -1)
            hands = []
            for s in range(g.n):
                h = val.get(s, [])
                g.check_hand(s, h)
                hands.append(list(h))
            ev = g.start_round()
            self.hands = hands
            return ev
        if kind == "bid":
            return g.apply(val[0], _bid(val[0], val[1], val[2]))
        if kind in ("challenge", "exact"):
            ev = g.apply(val, CHALLENGE if kind == "challenge" else EXACT)
            return ev + g.settle(self.hands)
        # bluff reroll: the set-aside dice must be under the cup, the new ones fill it
        seat, aside, new = val
        _faces_ok(aside, seat)
        _faces_ok(new, seat)
        hand = list(self.hands[seat]) if self.hands else []
        for f in aside:
            if f not in hand:
                raise IllegalAction("not-your-dice", "seat %d has no %d under the cup" % (seat, f), seat)
            hand.remove(f)
        saved = g.dumps()
        ev = g.apply(seat, reroll(aside))
        if len(new) != len(hand):
            self.game = loads(saved)
            raise IllegalAction("dice-count", "reroll %d dice, not %d" % (len(hand), len(new)), seat)
        self.hands[seat] = list(new)
        return ev

    def state(self):
        g = self.game
        p = g.public()
        names = self.players

        def name(s):
            return None if s is None else names[s]

        def by_seat(values):
            return Obj([(names[s], values[s]) for s in range(g.n)])

        if g.name == "dixmille":
            return Obj([
                ("scores", by_seat(p["scores"])),
                ("crosses", by_seat(p["crosses"])),
                ("opened", by_seat(p["opened"])),
                ("turn", name(p["turn"])),
                ("turn_total", p["turn_total"]),
                ("winner", name(p["winner"])),
            ])
        return Obj([
            ("dice", by_seat(p["dice"])),
            ("eliminated", [names[s] for s in p["eliminated"]]),
            ("winner", name(p["winner"])),
            ("round", p["round"]),
            ("turn", name(p["turn"])),
            ("bid", p["bid"]),
            ("special", p["special"]),
        ])

    def message(self, err):
        """The engine speaks of seats; a scenario reader knows names."""
        m = err.message
        for s in range(len(self.players)):
            m = m.replace("seat %d" % s, self.players[s])
        return m


def run(text):
    """(exit code, stdout text, stderr text) for a scenario file's text."""
    import json
    try:
        doc = json.loads(text)
    except ValueError as e:
        return 2, "", "not JSON: %s" % e
    try:
        rules, options, players, opener, steps = parse(doc)
        try:
            rp = Replay(rules, options, players, opener)
        except ValueError as e:
            raise Malformed(str(e))
    except Malformed as e:
        return 2, "", str(e)
    for i in range(len(steps)):
        before = rp.state()
        try:
            rp.step(steps[i][0], steps[i][1])
        except IllegalAction as e:
            err = Obj([("step", i), ("code", e.code), ("message", rp.message(e))])
            return 3, dumps(Obj([("error", err), ("state", before)])), ""
    return 0, dumps(rp.state()), ""


def main(argv):
    if len(argv) != 1:
        sys.stderr.write("usage: scenario FILE.json\n")
        return 2
    try:
        with open(argv[0], "rb") as fh:
            raw = fh.read()
        text = raw.decode()
    except (OSError, UnicodeError) as e:
        sys.stderr.write("cannot read %s: %s\n" % (argv[0], e))
        return 2
    code, out, err = run(text)
    if out:
        sys.stdout.write(out + "\n")
    if err:
        sys.stderr.write(err + "\n")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
