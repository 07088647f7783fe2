"""The cup's UI through the app's seam only (dicecup/app.py docstring): lobby, events,
views and button events in, requests and screens out."""
import random

from dicecup.engine import RULES, new_game
from dicecup.events import Event
from dicecup.hw.buttons import BOTH, LONG, PRESS
from dicecup.ui import dice, fb
from dicecup.ui.ui import _PEEK_MS as PEEK_MS, _REVEAL_MS as REVEAL_MS, Ui

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


def test_with_two_tables_heard_the_code_is_followed_by_a_choice_of_table(monkeypatch):
    ui = Ui()
    lobby = Lobby()
    lobby.tables = [(0x1234, "Ana", 2, 3, False), (0x4321, "Bernard", 1, 2, False)]
    ui.on_lobby(lobby)
    ui.on_buttons(PRESS, RIGHT)
    ui.on_buttons(PRESS, OK)
    for digit in (0, 8, 1, 5):
        for _ in range(digit):
            ui.on_buttons(PRESS, RIGHT)
        out = ui.on_buttons(PRESS, OK)
    assert out is None and screen(ui) == "tables"
    name, seen = drawn(ui, monkeypatch)
    assert "Ana's table" in seen and "Bernard's table" in seen and "Perudo" in seen
    assert ui.on_buttons(PRESS, BACK) is None and screen(ui) == "code"   # back: the code again
    assert ui.on_buttons(PRESS, OK) is None and screen(ui) == "tables"
    ui.on_buttons(PRESS, RIGHT)
    name, seen = drawn(ui, monkeypatch)
    assert "Bluff" in seen                                              # the chosen table's game
    assert ui.on_buttons(PRESS, OK) == [("join", "0815", 0x4321)] and screen(ui) == "menu"


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


def test_peek_turns_my_dice_up_in_place_then_down_by_itself():
    """A long ok turns my dice up where they stand on the play screen (face down, flush
    right in the bid band), and PEEK_MS later they turn down again; only their face
    boxes change, one OLED page, and the frame is the one a whole draw gives."""
    g = new_game("perudo", 3, {}, rng=random.Random(1), opener=1)
    g.start_round()
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat=0, members=["Ana", "Ben", "Cy"], rules="perudo"))
    hand = [6, 6, 2, 3, 1]
    ui.on_view(g.view(0, hand))
    buf = fb.new()
    ui.tick(1000)
    assert ui.draw(buf) == "bidding"
    down = bytes(buf)
    assert ui.on_buttons(LONG, OK) == [("peek", True)]
    assert ui.tick(1001) is True
    assert ui.draw(buf) == "bidding"
    up = bytes(buf)
    assert up == whole(ui)
    changed = {i for i in range(fb.SIZE) if up[i] != down[i]}
    assert changed and {i // fb.WIDTH for i in changed} == {3} and min(i % fb.WIDTH for i in changed) >= 64
    for i, f in enumerate(hand):
        x = 64 + 13 * i
        assert die_at(up, x, 22) == die_at(drawn_die(f, x, 22), x, 22)
        assert die_at(down, x, 22) == die_at(drawn_die(dice.HIDDEN, x, 22), x, 22)
    assert ui.tick(1500) is False
    assert ui.on_buttons(LONG, OK) == [("peek", True)]   # held again: still up, for longer
    assert ui.tick(1501) is False                        # (nothing to redraw)
    assert ui.tick(1500 + PEEK_MS - 1) is False
    assert ui.tick(1500 + PEEK_MS) is True and ui.draw(buf) == "bidding"
    assert bytes(buf) == down
    assert ui.tick(1500 + PEEK_MS + 10) is False        # nothing changed: no redraw


def test_a_peek_with_another_change_or_into_another_buffer_draws_the_whole_screen():
    g = new_game("liars", 3, {}, rng=random.Random(2), opener=1)
    g.start_round()
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat=0, members=["Ana", "Ben", "Cy"], rules="liars"))
    ui.on_view(g.view(0, [4, 4, 1, 2, 5]))
    buf = fb.new()
    ui.tick(1000)
    ui.draw(buf)
    ui.on_buttons(LONG, OK)
    ui.status(link=False, quorum=None, battery_pct=None, low_battery=None)   # the link lost too: a banner
    assert ui.tick(1001) is True
    ui.draw(buf)
    assert bytes(buf) == whole(ui)
    ui.status(link=True, quorum=None, battery_pct=None, low_battery=None)
    ui.tick(1002)
    ui.draw(buf)
    ui.tick(1002 + PEEK_MS)                           # the peek ends, Ben bids ...
    g.apply(1, [a for a in g.legal(1) if a >= 8][0])
    ui.on_view(g.view(0, [4, 4, 1, 2, 5]))
    ui.tick(5000)
    other = fb.new()
    ui.draw(other)                                    # ... drawn into another buffer
    assert bytes(other) == whole(ui)
    ui.on_buttons(LONG, OK)
    assert ui.tick(5001) is True
    ui.draw(buf)                                      # buf still shows no bid: all of it
    assert bytes(buf) == whole(ui) and bytes(buf) != bytes(other)


def test_a_cursor_step_redraws_the_moves_line_and_a_face_step_the_whole_screen():
    """A press right on my turn moves the cursor along the moves: the frame changes on
    the moves line only and is what a whole draw gives; ok (on to the face) is a new
    screen, drawn whole."""
    g = new_game("perudo", 3, {}, rng=random.Random(1), opener=1)
    g.start_round()
    for s in (1, 2):                               # Ben and Cy bid: Ana may bid, dudo, calza
        g.apply(s, [a for a in g.legal(s) if a >= 8][0])
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat=0, members=["Ana", "Ben", "Cy"], rules="perudo"))
    ui.on_view(g.view(0, [1, 2, 3, 4, 5]))
    buf = fb.new()
    ui.tick(1000)
    assert ui.draw(buf) == "entry"
    for t in (1001, 1002, 1003):
        before = bytes(buf)
        assert ui.on_buttons(PRESS, RIGHT) is None
        assert ui.tick(t) is True
        assert ui.draw(buf) == "entry"
        assert bytes(buf) == whole(ui)
        changed = {i // fb.WIDTH for i in range(fb.SIZE) if buf[i] != before[i]}
        assert changed == {7}
    while ui.controls.move != 1:                   # back on the bid (the first move) ...
        ui.on_buttons(PRESS, LEFT)
    ui.tick(1004)
    ui.draw(buf)
    ui.on_buttons(PRESS, OK)                       # ... and on to its face
    assert ui.tick(1005) is True
    ui.draw(buf)
    assert bytes(buf) == whole(ui) and ui.controls.focus == 1


def whole(ui):
    from dicecup.ui.screens import draw
    buf = fb.new()
    draw(buf, ui.sc)
    return bytes(buf)


def drawn_die(face, x, y):
    buf = fb.new()
    dice.draw(buf, face, x, y, dice.SMALL, False)
    return buf


def die_at(buf, x, y):
    return [buf[(yy >> 3) * fb.WIDTH + xx] >> (yy & 7) & 1 for yy in range(y, y + 12) for xx in range(x, x + 12)]


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
    ui.status(link=False, quorum=None, battery_pct=None, low_battery=None)
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


# --- the table before a game ------------------------------------------------------------

def drawn(ui, monkeypatch):
    """The strings the screen draws now, their margins stripped (the text module's one
    writer, spied on)."""
    from dicecup.ui import text
    seen = []
    real = text.draw

    def spy(buf, s, x, y, font=text.FONT, inverse=False):
        seen.append(s.strip())
        return real(buf, s, x, y, font, inverse)
    monkeypatch.setattr(text, "draw", spy)
    try:
        name = ui.draw(fb.new())
    finally:
        monkeypatch.setattr(text, "draw", real)
    return name, seen


def at_table(role, rules, members, bots, options, me=0):
    ui = Ui()
    for m in range(len(members)):
        ui.on_event(ev("joined", m, members[m], bots[m]))
    ui.on_event(ev("rules", rules, [list(o) for o in options]))
    lb = Lobby(role, "lobby", members=members, rules=rules, code="0815" if role == "master" else None)
    lb.bots, lb.me = list(bots), me
    ui.on_lobby(lb)
    return ui, lb


def press_until(ui, item):
    """What a scripted player does: right until the cursor is on `item`, then ok."""
    assert item in ui.sc.menu, ui.sc.menu
    for _ in range(len(ui.sc.menu)):
        if ui.sc.menu[ui.sc.cursor] == item:
            break
        ui.on_buttons(PRESS, RIGHT)
    assert ui.sc.menu[ui.sc.cursor] == item
    return ui.on_buttons(PRESS, OK)


def test_the_masters_table_menu_starts_adds_and_drops_bots_and_toggles_options(monkeypatch):
    ui, lb = at_table("master", "bluff", ["Ana", "Ben", "Bot 1"], [False, False, True],
                      [("star_track", "board"), ("reroll", False)])
    assert ui.sc.menu == ("table_start", "table_add_bot", "table_bot_level", "table_drop_bot",
                          "table_opt_star_track", "table_opt_reroll", "table_hints", "leave_table")
    name, seen = drawn(ui, monkeypatch)
    assert name == "table" and "Join code: 0815" in seen and "Ben" in seen and "Bot 1" in seen
    assert press_until(ui, "table_opt_reroll") == [("rules", "bluff", {"star_track": "board", "reroll": True})]
    assert press_until(ui, "table_opt_star_track") == [("rules", "bluff", {"star_track": "half", "reroll": False})]
    ui.on_event(ev("rules", "bluff", [["star_track", "half"], ["reroll", False]]))
    assert ui.sc.menu[ui.sc.cursor] == "table_opt_star_track"        # the cursor stays put
    assert "Stars: Half" in drawn(ui, monkeypatch)[1]
    assert press_until(ui, "table_add_bot") == [("bot", "Bot 2", "easy")]
    from dicecup import players
    nxt = players.available()[1]
    assert press_until(ui, "table_bot_level") is None                # ok steps the level ...
    assert "Bot level: %s" % nxt in drawn(ui, monkeypatch)[1]        # ... shown on the item
    assert press_until(ui, "table_add_bot") == [("bot", "Bot 2", nxt)]   # ... the next bot's
    assert press_until(ui, "table_drop_bot") == [("drop_bot", 2)]
    assert press_until(ui, "table_start") == [("start",)]
    assert press_until(ui, "leave_table") == [("leave",)]
    ui.on_buttons(PRESS, RIGHT)                                        # round to the first again
    assert ui.sc.menu[ui.sc.cursor] == "table_start"
    ui.on_event(ev("left", 2))                                         # the bot went: no drop item
    assert "table_drop_bot" not in ui.sc.menu and ui.sc.players == ("Ana", "Ben")


def test_a_members_table_shows_seats_in_order_the_options_and_only_leaving(monkeypatch):
    ui, lb = at_table("member", "perudo", ["Ana", "Ben", "Cy", "Bot 1"], [False, False, False, True],
                      [("palifico", True), ("calza_anyone", True)], me=1)
    ui.on_event(ev("seats", [3, 1, 0, 2]))
    ui.on_event(ev("left", 0))
    assert ui.sc.menu == ("leave_table",) and ui.sc.players == ("Bot 1", "Ben", "Cy")
    assert ui.sc.bots == (True, False, False)
    name, seen = drawn(ui, monkeypatch)
    assert name == "table" and "Palifico: On" in seen and "Calza by all: On" in seen
    assert "Waiting for the start" in seen and not any("0815" in s for s in seen)
    assert ui.on_buttons(PRESS, OK) == [("leave",)]
    lb.role, lb.phase = "alone", None                                  # left: back to the menu
    ui.on_lobby(lb)
    assert screen(ui) == "menu"


def test_a_seat_taken_over_by_a_bot_and_given_back_shows_on_the_screen(monkeypatch):
    g = new_game("perudo", 3, {}, rng=random.Random(1), opener=1)
    g.start_round()
    ui = Ui()
    lb = Lobby("member", "playing", seat=0, members=["Ana", "Ben", "Cy"], rules="perudo")
    ui.on_lobby(lb)
    ui.on_event(ev("seats", [0, 1, 2]))
    ui.on_view(g.view(0, [1, 2, 3, 4, 5]))
    ui.tick(1000)
    ui.on_event(ev("autoplay", 0, True))                               # my own cup's bot
    assert ui.tick(1001) is True
    assert "Bot plays for you" in drawn(ui, monkeypatch)[1]
    ui.on_event(ev("autoplay", 0, False))
    assert "You play again" in drawn(ui, monkeypatch)[1]
    ui.on_event(ev("autoplay", 2, True))                               # someone else's
    assert "Bot plays for Cy" in drawn(ui, monkeypatch)[1]
    ui.tick(1001 + 2500)
    assert not any("Bot" in s for s in drawn(ui, monkeypatch)[1])      # the toast went


def test_bluffs_roll_off_is_shown_with_who_opens_then_the_shake(monkeypatch):
    from dicecup.ui.ui import _ROLLOFF_MS as ROLLOFF_MS
    for seed in range(40):
        g = new_game("bluff", 3, {}, rng=random.Random(seed))
        if len(g.opening) > 3:
            break                                                      # one with a tie
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat=0, members=["Ana", "Ben", "Cy"], rules="bluff"))
    ui.tick(500)
    ui.on_event(ev("start", 1, 3))
    for e in g.opening:
        ui.on_event(ev(*e))
    ui.on_view(g.view(0))
    ui.on_event(ev("shake", "round"))
    name, seen = drawn(ui, monkeypatch)
    opener = ["You", "Ben", "Cy"][g.turn]
    assert name == "rolloff" and (opener + " opens" in seen or (g.turn == 0 and "You open" in seen))
    assert "Tie: roll again" in seen
    totals = [sum(e[2]) for e in g.opening]
    assert all(any(str(t) in s for s in seen) for t in totals[-2:])
    ui.tick(500 + ROLLOFF_MS)
    assert screen(ui) == "shake"
    ui.on_event(ev("start", 2, 3))                                     # ok skips it at once
    for e in g.opening:
        ui.on_event(ev(*e))
    assert screen(ui) == "rolloff"
    assert ui.on_buttons(PRESS, OK) is None and screen(ui) == "shake"


def test_the_roll_off_read_from_its_events_names_the_engines_opener():
    from dicecup.ui.rolloff import rolloff_result
    ties = 0
    for seats in range(2, 7):
        for seed in range(60):
            g = new_game("bluff", seats, {}, rng=random.Random(seed))
            rolls = [(e[1], e[2]) for e in g.opening]
            mine, opener = rolloff_result(seats, rolls)
            assert opener == g.turn, (seats, seed)
            assert sum(len(r) for r in mine) == len(rolls)
            ties += len(rolls) > seats
            assert rolloff_result(seats, rolls[:-1])[1] is None        # not decided yet
    assert ties > 10


def test_dix_mille_shows_the_kept_dice_and_a_long_ok_shows_the_score_sheet(monkeypatch):
    from dicecup.engine.actions import keep, roll
    g = new_game("dixmille", 2, {}, rng=random.Random(1), opener=0)
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat=0, members=["Ana", "Ben"], rules="dixmille"))
    ui.on_event(ev("seats", [0, 1]))
    for a in (roll([1, 5, 2, 3, 4]), keep([1, 5]), roll([5, 2, 3])):
        for e in g.apply(0, a):
            ui.on_event(ev(*e))
    ui.on_view(g.view(0))
    assert ui.sc.kept == [1, 5]
    name, seen = drawn(ui, monkeypatch)
    assert name == "dixmille" and "This turn: 150" in seen
    assert ui.on_buttons(LONG, OK) == [("peek", True)]
    name, seen = drawn(ui, monkeypatch)
    assert name == "scores" and "Scores" in seen and "0/500" in seen and "Ben" in seen
    for e in g.apply(0, keep([5])) + g.apply(0, roll([2, 3])):         # a bust: the turn passes
        ui.on_event(ev(*e))
    assert ui.sc.kept == []


def test_at_game_over_ok_is_the_masters_rematch_and_back_leaves():
    g = new_game("dixmille", 1, {}, rng=random.Random(1), opener=0)
    from dicecup.engine.actions import BANK, keep, roll
    while g.winner() is None:
        g.apply(0, roll([1] * g.left))
        g.apply(0, keep([1] * min(g.left, 5)))
        if g.winner() is None and g.need() != "shake":
            g.apply(0, BANK)
    ui = Ui()
    lb = Lobby("master", "done", seat=0, members=["Ana"], rules="dixmille")
    ui.on_lobby(Lobby("master", "playing", seat=0, members=["Ana"], rules="dixmille"))
    ui.on_view(g.view(0))
    ui.on_lobby(lb)
    assert screen(ui) == "over"
    assert ui.on_buttons(PRESS, OK) == [("start",)]
    assert ui.on_buttons(PRESS, BACK) == [("leave",)]
    lb.role = "member"                                                 # a member waits for it
    ui.on_lobby(lb)
    assert ui.on_buttons(PRESS, OK) is None and ui.on_buttons(PRESS, BACK) == [("leave",)]


def test_the_game_menu_is_drawn_over_the_game_and_leaves_the_table(monkeypatch):
    g = new_game("liars", 3, {}, rng=random.Random(4), opener=1)
    g.start_round()
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat=0, members=["Ana", "Ben", "Cy"], rules="liars"))
    ui.on_view(g.view(0, [1, 2, 3, 4, 5]))
    assert "Leave the table" not in drawn(ui, monkeypatch)[1]
    ui.on_buttons(LONG, RIGHT)                                         # the menu gesture
    seen = drawn(ui, monkeypatch)[1]
    assert "Language: English" in seen and "Leave the table" in seen
    ui.on_buttons(PRESS, RIGHT)
    assert ui.on_buttons(PRESS, OK) == [("leave",)]
    assert "Leave the table" not in drawn(ui, monkeypatch)[1]          # closed again


def test_a_banked_dix_mille_turn_leaves_no_shake_on_screen():
    from dicecup.engine.actions import BANK, keep, roll
    g = new_game("dixmille", 2, {}, rng=random.Random(1), opener=0)
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat=0, members=["Ana", "Ben"], rules="dixmille"))
    ui.on_view(g.view(0))
    ui.on_event(ev("shake", "roll"))
    assert screen(ui) == "shake"
    for e in g.apply(0, roll([1, 1, 1, 5, 2])):
        ui.on_event(ev(*e))
    ui.on_event(ev("committed", "roll", b"d" * 12))
    for e in g.apply(0, keep([1, 1, 1, 5])):
        ui.on_event(ev(*e))
    ui.on_view(g.view(0))
    ui.on_event(ev("shake", "roll"))        # the cup offers the next roll: shake or bank
    assert screen(ui) == "shake"
    for e in g.apply(0, BANK):
        ui.on_event(ev(*e))
    ui.on_view(g.view(0))                   # Ben's turn now
    assert not g.view(0).mine and screen(ui) != "shake"


def test_the_hint_menu_is_the_game_menu_after_menu_hint():
    from dicecup.ui import ui
    assert ui.HINT_MENU == ("menu_hint",) + ui.GAME_MENU
