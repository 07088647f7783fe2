"""Helpers for the button-model tests: random legal game states (tests/gamestates.py), and an
exhaustive search over button sequences from a model's state (breadth first, states
told apart by what the screens draw, so every sequence is covered without listing
them one by one)."""
from dicecup.engine import loads
from dicecup.engine.actions import kind
from dicecup.hw.buttons import BOTH, LONG, PRESS
from dicecup.ui.controls import SEND, Controls
from dicecup.ui.keymap import Keymap

BOARD4 = ("left", "ok", "right", "back")   # esp32-devkitc, esp32-s3-devkitc-1
BOARD3 = ("left", "ok", "right")           # xiao-esp32c3
BOARDS = {"4 buttons": BOARD4, "3 buttons": BOARD3}


def all_events(names):
    """Every event hw/buttons.py can give on a board: press and long of each button,
    both of each pair, and of three at once."""
    n = len(names)
    out = []
    for i in range(n):
        out += [(PRESS, 1 << i), (LONG, 1 << i)]
    for i in range(n):
        for j in range(i + 1, n):
            out.append((BOTH, 1 << i | 1 << j))
            for k in range(j + 1, n):
                out.append((BOTH, 1 << i | 1 << j | 1 << k))
    return out


def search_events(names):
    """The events worth searching with: each the keymap maps, and one it does not
    (every unmapped event is the same no-op: `event` ignores what maps to no command,
    which test_unmapped_events_change_nothing checks on its own)."""
    km = Keymap(names)
    out = [ev for ev in all_events(names) if km.command(*ev)]
    out.append([ev for ev in all_events(names) if not km.command(*ev)][0])
    return out


def clone(c):
    """A copy of a model (its fields are ints and shared read-only objects)."""
    d = object.__new__(Controls)
    d.__dict__.update(c.__dict__)
    return d


def screen_state(c):
    """What tells two model states apart: the fields the screens draw, and `sent`."""
    return (c.focus, c.under, c.move, c.face, c.quantity, c.picking, c.picked, c.cursor,
            c.menu, c.menu_size, c.sent)


def fresh(view, names, menu_size=1):
    c = Controls(names, menu_size, None)
    c.update(view)
    return c


def explore(model, events, max_len=80):
    """Every state reachable from `model` in at most `max_len` events, and every move
    sent on the way: returns (sent {(action, then): shortest length}, states, edges,
    longest shortest sequence needed)."""
    seen = {screen_state(model)}
    frontier = [model]
    sent = {}
    edges = 0
    depth = 0
    while frontier and depth < max_len:
        depth += 1
        nxt = []
        for m in frontier:
            for ev in events:
                c = clone(m)
                edges += 1
                if c.event(*ev) == SEND:
                    sent.setdefault((c.action, c.then), depth)
                k = screen_state(c)
                if k not in seen:
                    seen.add(k)
                    nxt.append(c)
        frontier = nxt
    assert not frontier, "states still unexplored after %d events" % max_len
    return sent, len(seen), edges, max(sent.values()) if sent else 0


def check_sent(g, seat, hand, view, action, then):
    """A move the model sent is one the engine takes from this seat now (the reroll
    with a bid: right after that bid), and off turn only an exact or a reroll."""
    assert action in view.legal
    assert action in g.legal(seat, hand)
    if not view.mine:
        assert kind(action) in ("exact", "reroll"), kind(action)
    if then is not None:
        assert kind(action) == "bid" and kind(then) == "reroll"
        g2 = loads(g.dumps())
        g2.apply(seat, action)
        assert then in g2.legal(seat, hand)


def snapshot(states):
    """Copies of (game, seat, view, hand), the games frozen as they were."""
    return [(loads(g.dumps()), s, v, h) for g, s, v, h in states]
