"""The cup's UI through the app's seam only (dicecup/app.py docstring): lobby, events,
views and button events in, requests and screens out."""
import random

from dicecup.engine import RULES, new_game
from dicecup.events import Event
from dicecup.hw.buttons import BOTH, LONG, PRESS
from dicecup.ui import fb
from dicecup.ui.ui import PEEK_MS, REVEAL_MS, Ui

LEFT, OK, RIGHT, BACK = 1, 2, 4, 8      # the 4-button boards' order: left, ok, right, back


class Lobby:
    def __init__(self, role="alone", phase=None, seat=-1, members=(), rules=None, code=None):
        self.role, self.phase, self.seat, self.rules, self.code = role, phase, seat, rules, code
        self.members = list(members)
        self.tables, self.tid, self.bots, self.me = [], None, [False] * len(members), 0


def ev(kind, *values):
    return Event(kind, values, 0, 0, 0, 0, 0)


def screen(ui):
    return ui.draw(fb.new())


def test_joining_by_code_from_the_menu():
    ui = Ui()
    assert screen(ui) == "menu"
    assert ui.on_buttons(PRESS, RIGHT) is None            # the cursor to "join"
    assert ui.on_buttons(PRESS, OK) is None and screen(ui) == "code"
    for digit in (4, 7, 1, 1):
        for _ in range(digit):
            ui.on_buttons(PRESS, RIGHT)
        out = ui.on_buttons(PRESS, OK)
    assert out == [("join", "4711")] and screen(ui) == "menu"


def test_creating_a_table_for_a_chosen_game_then_starting_it():
    ui = Ui()
    ui.on_buttons(PRESS, OK)                              # "create" -> the games
    ui.on_buttons(PRESS, RIGHT)
    assert ui.on_buttons(PRESS, OK) == [("create", RULES[1], {})]
    ui.on_lobby(Lobby("master", "lobby", members=["Ana", "Ben"], rules=RULES[1], code="0815"))
    assert screen(ui) == "table" and ui.sc.code == "0815"
    assert ui.on_buttons(PRESS, OK) == [("start",)]


def test_a_turn_played_with_buttons_sends_only_legal_moves():
    g = new_game("perudo", 3, {}, rng=random.Random(1), opener=0)
    g.start_round()
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat=0, members=["Ana", "Ben", "Cy"], rules="perudo"))
    ui.on_event(ev("seats", [0, 1, 2]))
    ui.on_view(g.view(0, [1, 2, 3, 4, 5]))
    assert screen(ui) == "entry"
    sent = None
    for _ in range(4):
        sent = ui.on_buttons(PRESS, OK) or sent
    assert sent and sent[0][0] == "act" and sent[0][1] in g.legal(0)


def test_peek_shows_my_dice_then_blanks_by_itself():
    g = new_game("perudo", 3, {}, rng=random.Random(1), opener=1)
    g.start_round()
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat=0, members=["Ana", "Ben", "Cy"], rules="perudo"))
    ui.on_view(g.view(0, [6, 6, 2, 3, 1]))
    ui.tick(1000)
    assert ui.on_buttons(LONG, OK) == [("peek", True)] and screen(ui) == "peek"
    assert ui.tick(1000 + PEEK_MS - 1) is True          # (the peek itself was a change)
    assert ui.tick(1000 + PEEK_MS) is True and screen(ui) == "bidding"
    assert ui.tick(1000 + PEEK_MS + 10) is False        # nothing changed: no redraw


def test_shake_roll_and_reveal_screens_follow_the_events():
    g = new_game("liars", 2, {}, rng=random.Random(3), opener=0)
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat=0, members=["Ana", "Ben"], rules="liars"))
    ui.on_view(g.view(0))
    ui.on_event(ev("shake", "round"))
    assert screen(ui) == "shake"
    ui.on_event(ev("committed", "round", b"d" * 12))
    assert screen(ui) == "waiting"
    g.start_round()
    ui.on_view(g.view(0, [1, 1, 2, 2, 3]))
    assert screen(ui) == "entry"
    ui.tick(5000)
    ui.on_event(ev("reveal", 3, 2, 4, [[1, 1, 2, 2, 3], [2, 2, 5, 6, 6]]))
    ui.on_event(ev("lose", 1, 4))
    g2 = new_game("liars", 2, {}, rng=random.Random(3), opener=1)
    g2.start_round()
    ui.on_view(g2.view(0, [1, 2, 3, 4, 5]))
    assert screen(ui) == "reveal" and ui.sc.reveal["lines"] == [("lose_1", ("Ben",))]
    ui.tick(5000 + REVEAL_MS)
    assert screen(ui) == "bidding"


def test_status_and_toasts_are_drawn_over_any_screen():
    ui = Ui()
    ui.status(link=False)
    buf = fb.new()
    ui.draw(buf)
    lost = bytes(buf)
    ui.status(link=True, quorum=True, battery_pct=5, low_battery=True)
    assert ui.sc.toast == ("battery_low", ())
    ui.draw(buf)
    assert bytes(buf) != lost
    ui.on_setting("lang", "es")
    ui.on_event(ev("rejected", 0x10000, "bid-too-low"))
    assert ui.sc.toast == ("err:bid-too-low", ())


def test_the_out_of_turn_exact_call_is_one_gesture():
    g = new_game("perudo", 3, {"calza_anyone": True}, rng=random.Random(2), opener=1)
    g.start_round()
    g.apply(1, 2 << 3 | 3)
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat=0, members=["Ana", "Ben", "Cy"], rules="perudo"))
    ui.on_view(g.view(0, [3, 3, 1, 4, 5]))
    out = ui.on_buttons(BOTH, LEFT | RIGHT)
    assert out and out[0][0] == "act" and out[0][1] in g.legal(0)
