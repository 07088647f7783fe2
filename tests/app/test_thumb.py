"""The button driver (host/dicecup_host/emu/thumb.py): the move a bot chose, made only
by gestures on the real UI (ui/ui.py through the app's seam, `on_buttons`), on a
4-button board and the 3-button XIAO; and whole games of simulated cups played by it,
where each variant's special move is made by buttons and motion alone."""
import json
import random

import pytest

from dicecup.engine import RULES, new_game
from dicecup.engine.actions import BANK, CHALLENGE, EXACT, ROLL_ANY, describe, kind, reroll
from dicecup.hw.buttons import BOTH, LONG, PRESS
from dicecup.ui.ui import Ui
from dicecup_host.emu import thumb
from dicecup_host.emu.thumb import SHAKE as SHAKE_GESTURE, Thumb
from gamestates import random_states

BOARD4 = ("left", "ok", "right", "back")   # esp32-devkitc, esp32-s3-devkitc-1
BOARD3 = ("left", "ok", "right")           # xiao-esp32c3
BOARDS = {"4 buttons": BOARD4, "3 buttons": BOARD3}
MOST = 40                                  # gestures one move may take at most


class Lobby:
    """What app.Lobby carries, for a UI fed by hand."""

    def __init__(self, role="alone", phase=None, seat=-1, members=(), rules=None, code=None):
        self.role, self.phase, self.seat, self.rules, self.code = role, phase, seat, rules, code
        self.members = list(members)
        self.tables, self.tid, self.bots, self.me = [], None, [False] * len(self.members), 0


def seated(view, names):
    """A UI in play at `view`'s seat."""
    ui = Ui(names)
    ui.on_lobby(Lobby("member", "playing", seat=view.seat, members=["a", "b", "c"][:view.seats],
                      rules=view.rules))
    ui.on_view(view)
    return ui


def drive(ui, th, next_gesture):
    """Gestures from `next_gesture()` into the UI until it asks for something; returns
    (requests, gestures made, whether the thumb called the last one final)."""
    for n in range(1, MOST + 1):
        g = next_gesture()
        assert g is not None, "the thumb has nothing to press after %d gestures" % (n - 1)
        assert g[0] in (PRESS, LONG, BOTH) and g[1], g
        out = ui.on_buttons(*g)
        if out:
            return out, n, th.final
        assert not th.final, "a gesture said to send sent nothing"
    raise AssertionError("no request after %d gestures" % MOST)


def states(rules, options, seed, steps=300):
    """(game, seat, view, hand) at every decision point of a random seeded 3-seat game."""
    return random_states(rules, options, 3, seed, steps)


def targets(view, rng):
    """The moves to make from this view: every legal one (an exact out of turn
    included), and on a Bluff turn with the option a few bids with a reroll."""
    out = [(a, None) for a in view.legal]
    if view.mine and view.rules == "bluff" and ("reroll", True) in view.options and len(view.hand) > 1:
        bids = [a for a in view.legal if 8 <= a < 0x10000]
        for _ in range(3):
            hand = list(view.hand)
            rng.shuffle(hand)
            out.append((rng.choice(bids), reroll(hand[:1 + rng.randrange(len(hand) - 1)])))
    return out


CONFIGS = [("bluff", {"reroll": True}), ("perudo", {"calza_anyone": True}), ("menteur", {}),
           ("liars", {"spot_on": True}), ("dixmille", {})]


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("cfg", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_every_legal_move_is_made_by_gestures_alone(cfg, board):
    """From every 7th decision point of two games: each move the seat may make is made
    from a fresh screen by the thumb's gestures, and the UI asks for exactly it."""
    rules, options = cfg
    names = BOARDS[board]
    rng = random.Random(5)
    made = longest = 0
    kinds = set()
    for seed in (1, 2):
        for i, (g, seat, view, hand) in enumerate(states(rules, options, seed)):
            if i % 7:
                continue
            for a, then in targets(view, rng):
                ui = seated(view, names)
                th = Thumb(names)
                if a == ROLL_ANY:    # a Dix mille roll is a shake, not a button
                    assert th.move(ui, a) == (SHAKE_GESTURE, 0)
                    continue
                out, n, final = drive(ui, th, lambda: th.move(ui, a, then))
                assert out == [("act", a, then) if then is not None else ("act", a)], describe(a)
                assert final
                made += 1
                longest = max(longest, n)
                kinds.add("exact_out" if a == EXACT and not view.mine else
                          "with_bid" if then is not None else kind(a))
    print("%s, %s: %d moves made, the longest in %d gestures" % (rules, board, made, longest))
    expect = {"bluff": {"bid", "challenge", "reroll", "with_bid"}, "perudo": {"bid", "challenge", "exact", "exact_out"},
              "menteur": {"bid", "challenge", "exact_out"}, "liars": {"bid", "challenge", "exact"},
              "dixmille": {"keep", "bank"}}[rules]
    assert expect <= kinds, kinds


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_a_menu_left_open_is_closed_first(board):
    names = BOARDS[board]
    g = new_game("perudo", 3, {}, opener=0)
    g.start_round()
    ui = seated(g.view(0, [1, 2, 3, 4, 5]), names)
    right = 1 << names.index("right")
    ui.on_buttons(LONG, right)                      # the in-game menu opens
    assert ui.controls.focus == 4
    th = Thumb(names)
    g1 = th.move(ui, CHALLENGE if CHALLENGE in g.legal(0) else g.legal(0)[-1])
    assert g1 == ((PRESS, 1 << names.index("back")) if "back" in names else (LONG, 1 << names.index("left")))


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("rules", RULES)
def test_a_table_is_created_for_each_game_from_the_menu(rules, board):
    names = BOARDS[board]
    ui = Ui(names)
    th = Thumb(names)
    assert drive(ui, th, lambda: th.pick(ui, "menu_create") or th.pick(ui, rules))[0] == [("create", rules, {})]
    ui.on_lobby(Lobby("master", "lobby", members=["ana"], rules=rules, code="0815"))
    out, n, final = drive(ui, th, lambda: th.pick(ui, "table_start"))
    assert out == [("start",)] and n == 1


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("code", ["0000", "4711", "9090", "5555"])
def test_the_join_code_is_typed_digit_by_digit(code, board):
    names = BOARDS[board]
    ui = Ui(names)
    th = Thumb(names)
    out, n, _ = drive(ui, th, lambda: th.pick(ui, "menu_join") or th.code(ui, code))
    assert out == [("join", code)]
    # each digit by the shorter way round (9 is one step down from 0), ok after each
    steps = sum(min(int(d), 10 - int(d)) for d in code)
    assert n == 2 + steps + 4


def test_nothing_to_press_where_the_screen_offers_no_such_thing():
    ui = Ui(BOARD3)
    th = Thumb(BOARD3)
    assert th.pick(ui, "table_start") is None and th.code(ui, "1234") is None
    g = new_game("liars", 2, {}, opener=0)
    g.start_round()
    off = seated(g.view(1, [1, 2, 3, 4, 5]), BOARD3)   # not my turn: no bid, no challenge
    assert th.move(off, 1 << 3 | 2) is None and th.move(off, CHALLENGE) is None
    assert th.move(off, EXACT) is None                  # no spot-on without the option
    g = new_game("dixmille", 2, {}, opener=0)
    assert th.move(seated(g.view(1), BOARD3), BANK) is None


# ----- whole games of simulated cups --------------------------------------------------------
TABLE = ["esp32-devkitc", "xiao-esp32c3", "esp32-s3-devkitc-1"]   # 4, 3 and 4 buttons


def log(cup):
    return [json.loads(line) for line in cup.serial]


def game_events(cup):
    return [e for e in log(cup) if e["k"] in ("start", "bid", "reroll", "exact", "challenge", "out", "round", "win")]


def played(t):
    """What a user notices of a game played by buttons: it finished, every cup shows the
    same winner on its game-over screen, the persons' buttons made every move."""
    winners = set()
    for c in t.cups:
        k = [e["k"] for e in log(c)]
        assert "win" in k and "internal" not in k and "autoplay" not in k
        assert c.screen() == "over" and c.oled.ram == c.ui_drawn()
        winners.add(c.ui.sc.view.winner)
        p = t.people[c.i]
        assert p.presses > 0 and c.app.rolls == p.shakes >= 1
    assert len(winners) == 1
    assert t.requested == []     # the options too were set on the master's table menu, by buttons


def out_of_turn_exacts(events):
    """The exact calls of seats not on turn: the seat on turn follows the last bidder,
    skipping seats out of the game."""
    n = None
    out = set()
    bidder = None
    found = []
    for e in events:
        k = e["k"]
        if k == "start":
            n = e["seats"]
        elif k == "out":
            out.add(e["seat"])
        elif k == "bid":
            bidder = e["seat"]
        elif k == "exact":
            turn = (bidder + 1) % n
            while turn in out:
                turn = (turn + 1) % n
            if e["seat"] != turn:
                found.append(e["seat"])
    return found


def test_bluff_with_rerolls_made_with_the_bid_by_buttons(app_table):
    t = app_table(TABLE, seed=11)
    assert t.play("bluff", limit_ms=1800000, options={"reroll": True, "star_track": "half"})
    played(t)           # (both options set on the master's table menu: requested is empty)
    assert dict(t.cups[0].app.cup.table.options()) == {"reroll": True, "star_track": "half"}
    ev = game_events(t.cups[0])
    with_bid = [ev[i + 1]["seat"] for i in range(len(ev) - 1)
                if ev[i]["k"] == "bid" and ev[i + 1]["k"] == "reroll" and ev[i + 1]["seat"] == ev[i]["seat"]]
    sent = [p.sent["with_bid"] for p in t.people]
    assert len(with_bid) == sum(sent) and sent[1] >= 1        # the XIAO too
    assert all(sent[c.cup.seat()] == with_bid.count(c.cup.seat()) for c in t.cups)


def test_perudo_calza_out_of_turn_by_both_buttons(app_table):
    t = app_table(TABLE, seed=3)
    assert t.play("perudo", limit_ms=1800000, options={"calza_anyone": True})
    played(t)
    calls = out_of_turn_exacts(game_events(t.cups[0]))
    sent = [p.sent["exact_out"] for p in t.people]
    assert calls and len(calls) <= sum(sent)      # (two calls may race: the later is refused)
    assert set(calls) <= set(c.cup.seat() for c in t.cups if t.people[c.i].sent["exact_out"])


def test_liars_dice_spot_on_by_buttons(app_table):
    t = app_table(TABLE, seed=11)
    assert t.play("liars", limit_ms=1800000, options={"spot_on": True})
    played(t)
    calls = [e["seat"] for e in game_events(t.cups[0]) if e["k"] == "exact"]
    sent = [p.sent["exact"] for p in t.people]
    assert calls and len(calls) == sum(sent) and not out_of_turn_exacts(game_events(t.cups[0]))


def test_the_player_runs_on_views_alone():
    """thumb.Player needs only the UI: its moves come from dicecup.bots on the view,
    once per situation, and what it counts is what its gestures sent."""
    g = new_game("liars", 2, {}, opener=0)
    g.start_round()
    ui = seated(g.view(0, [6, 6, 6, 2, 1]), BOARD4)
    p = thumb.Player(BOARD4, random.Random(1))
    out = None
    for _ in range(MOST):
        gest = p.next(ui)
        p.did(gest)
        out = ui.on_buttons(*gest)
        if out:
            break
    assert out and out[0][0] == "act" and out[0][1] in g.legal(0)
    assert sum(p.sent.values()) == 1 and p.presses >= 1 and p.shakes == 0
    assert p.next(ui) is None          # sent: nothing more until the next view
