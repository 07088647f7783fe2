"""The hint page through the UI's seams: a Ui at a table with the HINTS option fed a
seat's View, its buttons, its requests and the strings its screen draws. The figures
are checked against a count over every way the unseen dice can fall (not odds.py)."""
import itertools
import random
from fractions import Fraction

import pytest

from dicecup.engine import new_game
from dicecup.events import Event
from dicecup.hw.buttons import LONG, PRESS
from dicecup.ui import fb, hint
from dicecup.ui.ui import Ui

LEFT, OK, RIGHT, BACK = 1, 2, 4, 8


class Lobby:
    def __init__(self, role, phase, seat, members, rules, options):
        self.role, self.phase, self.seat, self.rules, self.code = role, phase, seat, rules, None
        self.members = list(members)
        self.tables, self.tid, self.bots, self.me = [], 1, [False] * len(members), 0
        self.options = options


def ev(kind, *values):
    return Event(kind, values, 0, 0, 0, 0, 0)


def drawn(ui, monkeypatch):
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


def brute(view, q, f):
    """P(at least q dice count for f) and P(exactly q), over every way the unseen dice
    fall, from the seat's hand and the set-aside dice."""
    faces = view.counts(f)
    mine = list(view.hand) + [d for a in view.aside for d in a]
    known = sum(1 for d in mine if d in faces)
    unseen = view.total - len(mine)
    k = len(faces)
    at_least = exactly = Fraction(0)
    for hits in range(unseen + 1):        # binomial: C(n, j) k^j (6-k)^(n-j) / 6^n
        ways = sum(1 for c in itertools.combinations(range(unseen), hits))
        p = Fraction(ways * k ** hits * (6 - k) ** (unseen - hits), 6 ** unseen)
        if known + hits >= q:
            at_least += p
        if known + hits == q:
            exactly += p
    return at_least, exactly


def frac(p):
    return Fraction(p[0], p[1])


def played(rules, options, seed, bids=2, seats=3):
    """A game a couple of bids into its first round; (game, hands)."""
    g = new_game(rules, seats, options, rng=random.Random(seed), opener=1)
    g.start_round()
    rng = random.Random(seed)
    hands = [[rng.randrange(6) + 1 for _ in range(g.dice[s])] for s in range(seats)]
    for _ in range(bids):
        s = g.to_act()
        legal = [a for a in g.view(s, hands[s]).legal if 8 <= a < 0x10000]
        g.apply(s, legal[len(legal) // 7])
    return g, hands


def ui_at(rules, options, hints=True, seat=0):
    opts = [(k, v) for k, v in options.items()] + ([("hints", True)] if hints else [])
    ui = Ui()
    ui.on_lobby(Lobby("member", "playing", seat, ["Ana", "Ben", "Cy"], rules, opts))
    return ui


def open_hint(ui):
    ui.on_buttons(LONG, RIGHT)                 # the game's menu; "Show the odds" first
    assert ui.sc.game_menu[0] == "menu_hint"
    return ui.on_buttons(PRESS, OK)


@pytest.mark.parametrize("rules, options, seed", [
    ("perudo", {}, 1), ("perudo", {"calza_anyone": True}, 2), ("liars", {"spot_on": True}, 3),
    ("liars", {}, 4), ("menteur", {}, 5), ("bluff", {}, 6)])
def test_the_hint_page_shows_the_standing_bid_exact_and_safest_raise(rules, options, seed, monkeypatch):
    g, hands = played(rules, options, seed)
    seat = g.to_act()
    ui = ui_at(rules, options, seat=seat)
    view = g.view(seat, hands[seat])
    ui.on_view(view)
    assert open_hint(ui) is None                # nothing goes to the table
    name, seen = drawn(ui, monkeypatch)
    assert name == "hint"
    standing, exact, safest = hint.figures(ui.sc.view)
    q, f = view.bid
    at_least, exactly = brute(view, q, f)
    assert standing[:2] == (q, f) and frac(standing[2]) == at_least
    from dicecup.players import odds
    assert "%d%%" % odds.percent(standing[2]) in seen and odds.word(standing[2]) in seen
    if rules in ("perudo", "menteur") or options.get("spot_on"):
        assert frac(exact) == exactly and ("Calza" in seen or "Pile" in seen or "Spot on" in seen)
    else:
        assert exact is None
    # the safest raise: the legal bid most likely true, ties to the lower (rank order)
    bids = [a for a in view.legal if 8 <= a < 0x10000]
    best = max(brute(view, a >> 3, a & 7)[0] for a in bids)
    first = [a for a in bids if brute(view, a >> 3, a & 7)[0] == best][0]
    assert safest[:2] == (first >> 3, first & 7) and frac(safest[2]) == best
    assert "Safest raise" in seen
    ui.on_buttons(PRESS, LEFT)                  # any button: the page goes, nothing else
    assert ui.draw(fb.new()) == "entry" and ui.controls.focus == 0
    assert not ui.sc.hint


def test_off_turn_the_page_shows_the_bid_and_waits_for_my_turn_for_a_raise(monkeypatch):
    g, hands = played("perudo", {}, 7)
    seat = (g.to_act() + 1) % 3
    ui = ui_at("perudo", {}, seat=seat)
    ui.on_view(g.view(seat, hands[seat]))
    open_hint(ui)
    name, seen = drawn(ui, monkeypatch)
    assert name == "hint" and "Standing bid" in seen and "on your turn" in seen
    assert hint.figures(ui.sc.view)[2] is None


def test_bluff_counts_set_aside_dice_as_known(monkeypatch):
    g, hands = played("bluff", {"reroll": True}, 6)
    seat = g.to_act()
    view = g.view(seat, hands[seat])
    q, f = view.bid
    plain = hint.figures(view)[0][2]
    other = (seat + 1) % 3
    view.aside = [[] for _ in range(3)]
    view.aside[other] = [f, f]                 # two of the bid's face lie face up
    ui = ui_at("bluff", {"reroll": True}, seat=seat)
    ui.on_view(view)
    open_hint(ui)
    assert ui.draw(fb.new()) == "hint"
    got = hint.figures(ui.sc.view)[0][2]
    assert frac(got) == brute(view, q, f)[0] > frac(plain)


def test_with_hints_off_nothing_changes(monkeypatch):
    g, hands = played("perudo", {}, 1)
    seat = g.to_act()
    ui = ui_at("perudo", {}, hints=False, seat=seat)
    ui.on_view(g.view(seat, hands[seat]))
    ui.on_buttons(LONG, RIGHT)
    assert ui.sc.game_menu == ("menu_lang", "leave_table")
    assert ui.on_buttons(PRESS, OK) == [("lang", "fr")]       # the first item is the language
    assert not ui.sc.hint


def test_dix_mille_offers_no_hint():
    ui = ui_at("dixmille", {}, hints=True)
    assert ui.sc.hints and ui.sc.game_menu == ("menu_lang", "leave_table")
    assert hint.figures(new_game("dixmille", 2, {}, rng=random.Random(1)).view(0)) == (None, None, None)


def test_the_master_toggles_hints_in_the_table_menu_and_keeps_them_with_other_options(monkeypatch):
    ui = Ui()
    for m, name in enumerate(["Ana", "Ben"]):
        ui.on_event(ev("joined", m, name, False))
    ui.on_event(ev("rules", "liars", [["one_life", False], ["spot_on", False]]))
    lb = Lobby("master", "lobby", -1, ["Ana", "Ben"], "liars", None)
    ui.on_lobby(lb)
    assert "table_hints" in ui.sc.menu
    for _ in range(ui.sc.menu.index("table_hints")):
        ui.on_buttons(PRESS, RIGHT)
    assert "Hints: Off" in drawn(ui, monkeypatch)[1]
    assert ui.on_buttons(PRESS, OK) == [("rules", "liars", {"one_life": False, "spot_on": False, "hints": True})]
    ui.on_event(ev("rules", "liars", [["one_life", False], ["spot_on", False], ["hints", True]]))
    assert ui.sc.hints and ui.sc.options == (("one_life", False), ("spot_on", False))
    name, seen = drawn(ui, monkeypatch)
    assert "Hints: On" in seen and "Hints" in seen               # the item, and the strip's tag
    ui.on_buttons(PRESS, LEFT)                                   # on spot_on: its toggle keeps hints
    assert ui.on_buttons(PRESS, OK) == [("rules", "liars", {"one_life": False, "spot_on": True, "hints": True})]
    # the options dict becomes the HINTS bit on the wire, the rule set's bits unchanged
    from dicecup.app import options_bits
    assert options_bits("liars", {"one_life": False, "spot_on": True, "hints": True}) == 0x82


def test_a_member_sees_hints_on_in_the_table_screen(monkeypatch):
    ui = Ui()
    ui.on_event(ev("rules", "perudo", [["palifico", True], ["calza_anyone", False], ["hints", True]]))
    ui.on_lobby(Lobby("member", "lobby", -1, ["Ana", "Ben"], "perudo", None))
    name, seen = drawn(ui, monkeypatch)
    assert name == "table" and "Hints" in seen and ui.sc.menu == ("leave_table",)
    ui.on_event(ev("rules", "perudo", [["palifico", True], ["calza_anyone", False]]))
    assert "Hints" not in drawn(ui, monkeypatch)[1]


def test_the_strips_hints_tag_never_touches_the_games_name():
    """The table screen's strip: the game's name left, the tag right of it, then the
    battery; in every language and bidding game a cell of air stays between them."""
    from dicecup.ui import lang, screens, text
    for lg in lang.LANGS:
        tag = text.width(lang.t("hints_tag", lg), screens.SMALL)
        for rules in lang.RULES[:4]:
            name = text.width(lang.game_word(rules, "game", lg), screens.SMALL)
            assert name + screens.SMALL.WIDTH <= 127 - 17 - tag, (lg, rules)
