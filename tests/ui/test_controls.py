"""The button model (ui/controls.py), through its public API: every legal move of every
rule set can be sent from buttons alone, on 4 and on 3 buttons, and no button sequence
ever sends what the table would refuse."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicecup.engine import new_game, loads
from dicecup.engine.actions import BANK, CHALLENGE, EXACT, ROLL_ANY, bid, describe, keep, reroll, roll
from dicecup.hw.buttons import BOTH, LONG, PRESS
from dicecup.ui import controls
from dicecup.ui.controls import (
    AT_DICE, AT_FACE, AT_MENU, AT_MOVES, AT_QUANTITY, M_BANK, M_BID, M_CHALLENGE, M_EXACT,
    M_KEEP, M_REROLL, M_ROLL, MENU_OPEN, MENU_PICK, NOTHING, PEEK_DICE, REDRAW, REFUSED, SEND,
    Controls,
)
from dicecup.ui.keymap import BACK, CALL_EXACT, MENU, NEXT, OK, PEEK, PREV, Keymap
from gamestates import random_states
from uisearch import BOARD3, BOARD4, BOARDS, all_events, check_sent, explore, fresh, search_events, snapshot

CONFIGS = [
    ("bluff", {}),
    ("bluff", {"reroll": True}),
    ("bluff", {"star_track": "half", "reroll": True}),
    ("perudo", {}),
    ("perudo", {"calza_anyone": True}),
    ("perudo", {"palifico": False}),
    ("menteur", {}),
    ("liars", {}),
    ("liars", {"spot_on": True, "one_life": True}),
    ("dixmille", {}),
    ("dixmille", {"overshoot_penalty": True}),
]


def _id(cfg):
    return cfg[0] + "".join("-%s=%s" % kv for kv in sorted(cfg[1].items()))


def _spread(items, n):
    """n items evenly spread over the list (all of them when fewer)."""
    if len(items) <= n:
        return items
    return [items[i * len(items) // n] for i in range(n)]


def _sample(rules, options, seeds, off_turn, on_turn):
    """Views from whole seeded games: `on_turn` of the seat on turn and `off_turn` of
    the others, each spread evenly over the game. A Bluff turn with the reroll option
    has up to ~90000 model states (every bid times every set-aside), so the fast test
    takes there the turns with the fewest bids left (ten or more)."""
    out = []
    for seed in seeds:
        views = snapshot(random_states(rules, options, 3, seed))
        mine = [x for x in views if x[2].mine]
        if options.get("reroll") and on_turn < 4:
            mine = [x for x in mine if len(x[2].legal) >= 10]
            mine.sort(key=lambda x: len(x[2].legal))
            mine = mine[:on_turn]
        out += _spread([x for x in views if not x[2].mine], off_turn) + _spread(mine, on_turn)
    return out


def _search(rules, options, names, seeds, off_turn, on_turn):
    events = search_events(names)
    figures = dict(views=0, states=0, sequences=0, longest=0, sent=0)
    specials = 0
    for g, seat, view, hand in _sample(rules, options, seeds, off_turn, on_turn):
        sent, states, edges, longest = explore(fresh(view, names), events)
        reached = set()
        for action, then in sent:
            check_sent(g, seat, hand, view, action, then)
            reached.add(action)
        missing = [describe(a) for a in view.legal if a not in reached]
        assert not missing, "seat %d (%s) cannot send %s" % (seat, view.need, missing)
        figures["views"] += 1
        figures["states"] += states
        figures["sequences"] += edges
        figures["sent"] += len(sent)
        figures["longest"] = max(figures["longest"], longest)
        specials += view.special is not None
    return figures, specials


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_every_legal_move_is_reachable_and_nothing_else_is_sent(cfg, board):
    rules, options = cfg
    on_turn = 2 if options.get("reroll") else 40 if rules == "dixmille" else 8
    seeds = (1 + 2 * CONFIGS.index(cfg), 2 + 2 * CONFIGS.index(cfg))
    figures, specials = _search(rules, options, BOARDS[board], seeds, off_turn=10, on_turn=on_turn)
    print("%s %s: %s" % (_id(cfg), board, figures))
    assert figures["views"] >= 20


@pytest.mark.heavy
@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_every_legal_move_is_reachable_in_many_more_states(cfg, board):
    rules, options = cfg
    on_turn = 2 if options.get("reroll") else 20   # a reroll state's search is the costly one
    base = 100 + 10 * CONFIGS.index(cfg)
    figures, specials = _search(rules, options, BOARDS[board], range(base, base + 6), off_turn=40, on_turn=on_turn)
    print("%s %s (heavy): %s" % (_id(cfg), board, figures))
    if rules in ("menteur",) or rules == "perudo" and options.get("palifico", True):
        assert specials, "no palifico / one-die round among the states"


# ----- small tables set up by hand --------------------------------------------------------
def table(rules, seats=3, opener=0, **options):
    g = new_game(rules, seats, options, opener=opener)
    if rules != "dixmille":
        g.start_round()
    return g


def model(g, seat, hand=None, names=BOARD4):
    c = Controls(names, 3, None)
    c.update(g.view(seat, hand))
    return c


def press(c, *cmds):
    """Commands in order; returns the last decision."""
    d = NOTHING
    for cmd in cmds:
        d = c.command(cmd)
    return d


def gesture(c, names, cmd):
    """The event a board gives for `cmd`, through the model's keymap."""
    kind_mask = Keymap(names).gesture(cmd)
    assert kind_mask is not None, cmd
    return c.event(*kind_mask)


HAND = [2, 3, 3, 6, 5]


def test_a_bid_is_face_then_quantity_from_the_lowest_raise():
    g = table("liars")
    g.apply(0, bid(2, 3))
    c = model(g, 1)
    assert (c.focus, c.move, c.face, c.quantity) == (AT_MOVES, M_BID, 4, 2)  # 2x4: the lowest raise
    assert press(c, OK) == REDRAW and c.focus == AT_FACE
    assert press(c, PREV) == REDRAW and (c.face, c.quantity) == (3, 3)   # 2x3 is taken: 3x3
    assert press(c, PREV, PREV) == REDRAW and (c.face, c.quantity) == (1, 3)
    assert press(c, OK, NEXT, NEXT) == REDRAW and c.quantity == 5
    assert press(c, PREV) == REDRAW and c.quantity == 4
    assert press(c, OK) == SEND and c.action == bid(4, 1) and c.then is None
    assert press(c, OK) == NOTHING  # waits for the next view: no second send


def test_quantities_stop_at_the_ends():
    g = table("liars", seats=2)
    c = model(g, 0)
    press(c, OK, OK)
    assert c.quantity == 1 and press(c, PREV) == NOTHING
    for _ in range(9):
        press(c, NEXT)
    assert c.quantity == 10 and press(c, NEXT) == NOTHING  # ten dice on the table


def test_perudo_aces_halve_and_palifico_fixes_the_face():
    g = table("perudo")
    g.apply(0, bid(5, 4))
    c = model(g, 1)
    press(c, OK)
    while c.face != 1:
        press(c, NEXT)
    assert c.quantity == 3  # 5x4 -> 3 aces
    assert press(c, PREV) == REDRAW and (c.face, c.quantity) == (6, 5)
    # a palifico round: the face the opener chose stays
    g = new_game("perudo", 3, None, opener=0)
    g.dice[:] = [1, 3, 3]
    g.special = 1
    g = loads(g.dumps())
    g.start_round()
    g.apply(0, bid(1, 1))  # the palifico opener may open on aces
    c = model(g, 1)
    press(c, OK)
    assert (c.face, c.quantity) == (1, 2)
    assert press(c, NEXT) == NOTHING and press(c, PREV) == NOTHING
    assert press(c, OK, NEXT, OK) == SEND and c.action == bid(3, 1)


def test_challenge_and_exact_are_moves_on_turn():
    g = table("perudo")
    g.apply(0, bid(2, 3))
    c = model(g, 1)
    assert c.moves == 1 << M_BID | 1 << M_CHALLENGE | 1 << M_EXACT
    assert press(c, NEXT) == REDRAW and c.move == M_CHALLENGE
    assert press(c, NEXT, PREV, PREV, PREV) == REDRAW and c.move == M_EXACT  # wraps round
    assert press(c, OK) == SEND and c.action == EXACT
    c = model(g, 1)
    assert press(c, NEXT, OK) == SEND and c.action == CHALLENGE


@pytest.mark.parametrize("names", [BOARD4, BOARD3], ids=["4 buttons", "3 buttons"])
def test_bluff_reroll_with_the_bid(names):
    g = table("bluff", reroll=True)
    c = model(g, 0, HAND, names)
    press(c, OK, OK)
    assert press(c, OK) == REDRAW and c.focus == AT_DICE and c.cursor == 5  # on "done"
    assert c.dice() == HAND
    # pick 2 and 6 (the die at 3 and 0): left from "done" goes to the last die
    assert press(c, PREV, PREV, OK, PREV, PREV, PREV, OK) == REDRAW
    assert c.picked == 1 << 0 | 1 << 3
    while c.cursor != 5:
        press(c, NEXT)
    assert press(c, OK) == SEND and c.action == bid(1, c.face) and c.then == reroll([2, 6])
    g.apply(0, c.action)
    g.apply(0, c.then)  # the engine takes the reroll right after the bid
    assert g.public()["aside"][0] == [2, 6]


def test_bluff_bid_alone_is_one_ok_more_and_never_all_dice():
    g = table("bluff", reroll=True)
    c = model(g, 0, HAND)
    assert press(c, OK, OK, OK, OK) == SEND and c.then is None
    c = model(g, 0, HAND)
    press(c, OK, OK, OK)
    for i in range(4):
        c.cursor = i
        assert press(c, OK) == REDRAW
    assert not c.offered(4)  # one die stays under the cup
    c.cursor = 4
    assert press(c, OK) == REFUSED and c.picked == 15
    assert press(c, BACK) == REDRAW and c.focus == AT_QUANTITY and c.picked == 0


def test_bluff_without_the_option_or_with_one_die_sends_the_bid_at_once():
    g = table("bluff")
    c = model(g, 0, HAND)
    assert press(c, OK, OK, OK) == SEND and c.then is None
    g = new_game("bluff", 2, {"reroll": True}, opener=0)
    g.dice[:] = [1, 5]
    g = loads(g.dumps())
    g.start_round()
    c = model(g, 0, [4])
    assert press(c, OK, OK, OK) == SEND and c.then is None


def test_bluff_reroll_after_the_bid_until_the_next_player_acts():
    g = table("bluff", reroll=True)
    g.apply(0, bid(2, 3))
    c = model(g, 0, HAND)  # off turn now, but the bettor may still reroll
    assert c.moves == 1 << M_REROLL and c.move == M_REROLL
    assert press(c, OK) == REDRAW and c.focus == AT_DICE and c.cursor == 0
    assert press(c, OK, NEXT) == REDRAW and c.offered(5)
    c.cursor = 5
    assert press(c, OK) == SEND and c.action == reroll([2])
    # the same, but the next player bids first: the offer goes, nothing is sent
    c = model(g, 0, HAND)
    press(c, OK, OK)
    g.apply(1, bid(3, 3))
    c.update(g.view(0, HAND))
    assert c.focus == AT_MOVES and c.moves == 0
    for cmd in (OK, NEXT, OK, PREV, OK, BACK, OK):
        assert press(c, cmd) in (NOTHING, REFUSED)


@pytest.mark.parametrize("names", [BOARD4, BOARD3], ids=["4 buttons", "3 buttons"])
def test_perudo_calza_anyone_out_of_turn(names):
    g = table("perudo", calza_anyone=True)
    c2 = model(g, 2, None, names)
    assert gesture(c2, names, CALL_EXACT) == REFUSED  # no bid yet
    g.apply(0, bid(2, 3))
    c2 = model(g, 2, None, names)
    assert c2.moves == 0  # off turn: no move on the screen, a stray ok calls nothing
    assert press(c2, OK) == NOTHING
    assert gesture(c2, names, CALL_EXACT) == SEND and c2.action == EXACT
    g.apply(2, EXACT)
    c0 = model(g, 0, None, names)
    assert gesture(c0, names, CALL_EXACT) == REFUSED  # the round is being revealed
    # the bidder never; without the option, off turn never
    g = table("perudo", calza_anyone=True)
    g.apply(0, bid(2, 3))
    assert gesture(model(g, 0, None, names), names, CALL_EXACT) == REFUSED
    g = table("perudo")
    g.apply(0, bid(2, 3))
    assert gesture(model(g, 2, None, names), names, CALL_EXACT) == REFUSED
    assert gesture(model(g, 1, None, names), names, CALL_EXACT) == SEND  # on turn: calza


@pytest.mark.parametrize("names", [BOARD4, BOARD3], ids=["4 buttons", "3 buttons"])
def test_menteur_tout_pile_from_any_screen(names):
    g = table("menteur")
    g.apply(0, bid(2, 3))
    screens = []
    c = model(g, 2, None, names)
    screens.append(c)
    c = model(g, 2, None, names)
    gesture(c, names, MENU)
    assert c.focus == AT_MENU
    screens.append(c)
    c = model(g, 1, None, names)  # on turn, in the middle of a bid
    press(c, OK, OK, NEXT)
    assert c.focus == AT_QUANTITY
    screens.append(c)
    for c in screens:
        assert gesture(c, names, CALL_EXACT) == SEND and c.action == EXACT
        assert gesture(c, names, CALL_EXACT) == NOTHING or c.sent  # one call per view
    assert gesture(model(g, 0, None, names), names, CALL_EXACT) == REFUSED  # own bid
    g.apply(2, EXACT)
    assert gesture(model(g, 1, None, names), names, CALL_EXACT) == REFUSED  # the race is won


@pytest.mark.parametrize("names", [BOARD4, BOARD3], ids=["4 buttons", "3 buttons"])
def test_liars_spot_on_only_on_turn_and_with_the_option(names):
    g = table("liars", spot_on=True)
    g.apply(0, bid(2, 3))
    assert gesture(model(g, 2, None, names), names, CALL_EXACT) == REFUSED  # off turn
    c = model(g, 1, None, names)
    assert c.moves >> M_EXACT & 1
    assert gesture(c, names, CALL_EXACT) == SEND and c.action == EXACT
    c = model(g, 1, None, names)
    assert press(c, PREV, OK) == SEND and c.action == EXACT  # the last move, wrapping left
    g = table("liars")
    g.apply(0, bid(2, 3))
    c = model(g, 1, None, names)
    assert gesture(c, names, CALL_EXACT) == REFUSED and not c.moves >> M_EXACT & 1


def test_dix_mille_keep_offers_scoring_dice_then_bank_or_roll():
    g = table("dixmille", seats=2)
    c = model(g, 0)
    assert c.moves == 1 << M_ROLL and press(c, OK) == SEND and c.action == ROLL_ANY
    g.apply(0, roll([2, 1, 2, 5, 3]))
    c = model(g, 0)
    assert c.moves == 1 << M_KEEP
    assert press(c, OK) == REDRAW and c.focus == AT_DICE and c.dice() == [1, 2, 2, 3, 5]  # as the view sorts them
    assert [c.offered(i) for i in range(6)] == [True, False, False, False, True, False]
    assert c.cursor == 0  # the first die that can score
    assert press(c, OK) == REDRAW and c.offered(5)  # the 1: a keep, "done" appears
    assert press(c, NEXT) == REDRAW and c.cursor == 4
    assert press(c, OK, NEXT) == REDRAW and c.cursor == 5
    assert press(c, OK) == SEND and c.action == keep([1, 5])
    g.apply(0, c.action)
    c = model(g, 0)
    assert c.moves == 1 << M_ROLL  # 150 is not open yet: no bank
    g = table("dixmille", seats=2)
    g.apply(0, roll([1, 1, 1, 5, 3]))
    g.apply(0, keep([1, 1, 1, 5]))
    c = model(g, 0)
    assert c.moves == 1 << M_ROLL | 1 << M_BANK and c.move == M_ROLL
    assert press(c, NEXT, OK) == SEND and c.action == BANK


def test_a_triple_is_picked_die_by_die():
    g = table("dixmille", seats=2)
    g.apply(0, roll([4, 3, 4, 6, 4]))
    c = model(g, 0)
    press(c, OK)
    assert c.dice() == [3, 4, 4, 4, 6]
    assert [c.offered(i) for i in range(5)] == [False, True, True, True, False]
    press(c, OK, NEXT, OK)
    assert not c.offered(5)  # two 4s score nothing
    assert press(c, NEXT, OK, NEXT) == REDRAW and c.cursor == 5
    assert press(c, OK) == SEND and c.action == keep([4, 4, 4])


def test_off_turn_only_peek_menu_and_exact_do_anything():
    g = table("perudo", calza_anyone=True)
    g.apply(0, bid(2, 3))
    for names in (BOARD4, BOARD3):
        c = model(g, 2, None, names)
        for ev in all_events(names):
            c2 = model(g, 2, None, names)
            d = c2.event(*ev)
            cmd = c2.keys.command(*ev)
            if cmd == PEEK:
                assert d == PEEK_DICE
            elif cmd == MENU:
                assert d == MENU_OPEN
            elif cmd == CALL_EXACT:
                assert d == SEND and c2.action == EXACT
            else:
                assert d == NOTHING, (ev, d)
        assert c.moves == 0


def test_a_stale_composition_follows_the_latest_view():
    g = table("liars")
    g.apply(0, bid(2, 3))
    c = model(g, 1)
    press(c, OK, OK, NEXT, NEXT)
    assert (c.focus, c.face, c.quantity) == (AT_QUANTITY, 4, 4)
    c.update(g.view(1))  # the same situation, the view rebuilt: kept
    assert (c.focus, c.face, c.quantity) == (AT_QUANTITY, 4, 4)
    g.apply(1, bid(3, 3))  # (from another input) the turn moves on
    c.update(g.view(1))
    assert c.focus == AT_MOVES and c.moves == 0
    assert press(c, OK) == NOTHING and c.action is None
    # back on turn: a fresh start at the lowest raise
    g.apply(2, bid(5, 2))
    g.apply(0, bid(5, 3))
    c.update(g.view(1))
    assert (c.focus, c.move, c.face, c.quantity) == (AT_MOVES, M_BID, 4, 5)


def test_the_menu_has_its_own_cursor_and_gives_the_focus_back():
    g = table("liars")
    c = model(g, 0)
    press(c, OK, OK)
    assert c.command(MENU) == MENU_OPEN and c.focus == AT_MENU and c.under == AT_QUANTITY
    assert press(c, PREV) == REDRAW and c.menu == 2
    assert press(c, OK) == MENU_PICK and c.menu == 2 and c.focus == AT_QUANTITY
    assert press(c, MENU, BACK) == REDRAW and c.focus == AT_QUANTITY
    assert press(c, MENU, MENU) == REDRAW and c.focus == AT_QUANTITY
    assert press(c, MENU, PEEK) == PEEK_DICE and c.focus == AT_MENU
    g.apply(0, bid(1, 2))  # the game moves on under the menu
    c.update(g.view(0))
    assert c.focus == AT_MENU and press(c, BACK) == REDRAW and c.focus == AT_MOVES


def test_the_keymaps():
    k4 = Keymap(BOARD4)
    k3 = Keymap(BOARD3)
    left, ok, right, back = 1, 2, 4, 8
    common = {(PRESS, left): PREV, (PRESS, right): NEXT, (PRESS, ok): OK, (LONG, left): BACK,
              (LONG, ok): PEEK, (LONG, right): MENU, (BOTH, left | right): CALL_EXACT}
    four = dict(common)
    four.update({(PRESS, back): BACK, (LONG, back): MENU})
    for km, want, names in ((k4, four, BOARD4), (k3, common, BOARD3)):
        got = {}
        for ev in all_events(names):
            if km.command(*ev):
                got[ev] = km.command(*ev)
        assert got == want
    # board files give the order; the keymap follows it
    assert Keymap(("ok", "left", "right")).command(PRESS, 1) == OK
    # its table spells hw/buttons.py's event kinds as literals (one constant when frozen)
    from dicecup.ui import keymap
    assert (keymap._PRESS, keymap._LONG, keymap._BOTH) == (PRESS, LONG, BOTH)
    assert controls._SENT == (0, 0, CHALLENGE, EXACT, 0, 0, ROLL_ANY, BANK)


def test_unmapped_events_change_nothing():
    g = table("bluff", reroll=True)
    g.apply(0, bid(2, 3))
    for names in (BOARD4, BOARD3):
        km = Keymap(names)
        for seat, hand in ((1, HAND), (0, HAND)):
            c = model(g, seat, hand, names)
            press(c, OK, OK)
            before = dict(c.__dict__)
            for ev in all_events(names):
                if not km.command(*ev):
                    assert c.event(*ev) == NOTHING and c.__dict__ == before, ev


def test_the_docstring_table_is_the_keymap():
    """Each row of the button map in ui/controls.py's docstring says what the keymap does."""
    words = {"left/right": ("left", "right"), "left+right": ("left+right",)}
    kinds = {"press": PRESS, "long": LONG, "both": BOTH}
    does = {"step": (PREV, NEXT), "choose": (OK,), "one field back": (BACK,), "back,": (BACK,),
            "peek": (PEEK,), "open / close the menu": (MENU,), "exact": (CALL_EXACT,)}
    rows = 0
    for line in controls.__doc__.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) != 4 or cells[0].split()[0] not in kinds:
            continue
        rows += 1
        kind, buttons = cells[0].split()
        cmds = [v for k, v in does.items() if cells[3].startswith(k)][0]
        for names, has in ((BOARD4, cells[1]), (BOARD3, cells[2])):
            km = Keymap(names)
            for button, cmd in zip(words.get(buttons, (buttons,)), cmds):
                mask = 0
                if all(b in names for b in button.split("+")):
                    for b in button.split("+"):
                        mask |= 1 << names.index(b)
                got = km.command(kinds[kind], mask) if mask else 0
                assert (got == cmd) == (has == "yes") and (has == "yes" or not got), line
    assert rows == 8


def test_the_board_files_name_the_buttons_the_keymap_knows():
    import json
    from dicecup_host import mpy
    for path in sorted((mpy.ROOT / "hardware" / "boards").glob("*.json")):
        names = [b["name"] for b in json.loads(path.read_text())["buttons"]]
        assert tuple(names) in (BOARD4, BOARD3), path.name
        km = Keymap(names)
        for cmd in (PREV, NEXT, OK, BACK, PEEK, MENU, CALL_EXACT):
            assert km.gesture(cmd) is not None, (path.name, cmd)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), cfg=st.sampled_from(CONFIGS), board=st.sampled_from(sorted(BOARDS)),
       seed=st.integers(0, 2 ** 16))
def test_a_stale_view_never_sends_an_illegal_move(data, cfg, board, seed):
    """Presses under one view, then the table moves on (any seat's legal move) and the
    model gets the new view: from wherever it was, no sequence sends what is now illegal."""
    rules, options = cfg
    names = BOARDS[board]
    states = snapshot(random_states(rules, options, 3, seed, steps=60))
    if len(states) < 4:
        return
    i = data.draw(st.integers(0, len(states) - 4))
    g0, seat, v0, h0 = states[i]
    c = fresh(v0, names)
    events = search_events(names)
    for ev in data.draw(st.lists(st.sampled_from(all_events(names)), max_size=12)):
        if c.event(*ev) == SEND:
            check_sent(g0, seat, h0, v0, c.action, c.then)
    later = [x for x in states[i + 1:] if x[1] == seat]
    g1, _, v1, h1 = later[data.draw(st.integers(0, min(len(later), 6) - 1))] if later else states[i]
    c.update(v1)
    sent, _, _, _ = explore(c, events)
    for action, then in sent:
        check_sent(g1, seat, h1, v1, action, then)


# ----- whole games, buttons only ----------------------------------------------------------
GAMES = [
    ("bluff", {"reroll": True}), ("bluff", {}), ("perudo", {"calza_anyone": True}),
    ("perudo", {}), ("menteur", {}), ("liars", {"spot_on": True}), ("dixmille", {}),
]


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("cfg", GAMES, ids=_id)
def test_whole_games_played_only_by_buttons(cfg, board):
    from dicecup_host.upy.buttongame import ButtonTable
    rules, options = cfg
    seeds = range(3) if rules == "dixmille" else range(8)
    total = {}
    presses = 0
    for seed in seeds:
        t = ButtonTable(rules, 3 + seed % 3, options, seed, BOARDS[board])
        assert t.play() is not None
        presses += t.presses
        for k, v in t.counts.items():
            total[k] = total.get(k, 0) + v
    print("%s %s: %d games, %d presses, %s" % (_id(cfg), board, len(seeds), presses,
                                                dict((k, v) for k, v in total.items() if v)))
    want = {"bluff": ("bid", "challenge"), "perudo": ("bid", "challenge", "exact"),
            "menteur": ("bid", "challenge", "exact", "exact_out"), "liars": ("bid", "challenge", "exact"),
            "dixmille": ("roll", "keep", "bank")}[rules]
    if options.get("reroll"):
        want += ("with_bid",)
    if options.get("calza_anyone"):
        want += ("exact_out",)
    for k in want:
        assert total[k], "no %s sent in %d games" % (k, len(seeds))
    if rules == "bluff" and not options:
        assert not total["reroll"] and not total["with_bid"]
    if rules == "liars" and not options.get("spot_on") or rules == "bluff":
        assert not total["exact"]
