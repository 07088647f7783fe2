"""`dicecup tournament`: seeded games between player kinds, seats rotated, results the
same for any worker count; forfeits and unfinished games reported; bad input one line,
exit 2. Test players (a resigning seat, one that raises, ...) are added to the players
registry for a test only: they make outcomes certain, so a wrong seat-to-kind mapping
cannot pass by chance."""
import json
import sys
import types

import pytest

from dicecup import bots, players
from dicecup.engine.actions import BANK, CHALLENGE
from dicecup_host import cli, tournament


def _fake(monkeypatch, kind, act, reroll=None):
    """A player kind for this test only, found by players.get like any other
    (workers fork, so they see it too)."""
    name = "fake_player_" + kind
    m = types.ModuleType(name)
    m.act = act
    m.reroll = reroll or (lambda view, bid, rng: None)
    monkeypatch.setitem(sys.modules, name, m)
    monkeypatch.setitem(players._MODULES, kind, name)


def _resign(view, rng):
    return None  # nothing, even on its turn: a forfeit


def _tour(capsys, *argv):
    assert cli.main(["tournament", *argv, "--json"]) == 0
    out = capsys.readouterr()
    lines = out.out.strip().splitlines()
    return json.loads(lines[-1]), lines, out.err


def _strip(j):
    j = dict(j)
    j.pop("elapsed_s")
    return j


def test_same_seed_same_games_any_worker_count():
    one = tournament.run("perudo", ["easy", "normal"], 12, 5, workers=1)
    two = tournament.run("perudo", ["easy", "normal"], 12, 5, workers=2)
    assert one == two
    other = tournament.run("perudo", ["easy", "normal"], 12, 6, workers=1)
    assert [r[1:3] for r in other] != [r[1:3] for r in one]  # the seed matters


def test_cli_same_seed_same_json(capsys):
    a, _, _ = _tour(capsys, "--rules", "liars", "--seats", "easy,normal,easy", "--games", "9", "--seed", "3",
                    "--workers", "1")
    b, _, _ = _tour(capsys, "--rules", "liars", "--seats", "easy,normal,easy", "--games", "9", "--seed", "3",
                    "--workers", "2")
    assert _strip(a) == _strip(b)


def test_every_kind_sits_in_every_seat_equally():
    kinds = ["strong", "normal", "easy", "baseline"]
    res = tournament.run("liars", kinds, 8, 1, workers=2)
    for k in kinds:
        for seat in range(4):
            assert sum(r[0][seat] == k for r in res) == 2


@pytest.mark.parametrize("rules", ["perudo", "bluff", "dixmille"])
def test_wins_map_back_to_the_kind_that_won(monkeypatch, capsys, rules):
    """A resigning seat forfeits every game: the other kind wins them all, in whichever
    seat it sat, and the resigner's seat (from each game's seating) is named each time."""
    _fake(monkeypatch, "resigner", _resign)
    j, lines, _ = _tour(capsys, "--rules", rules, "--seats", "resigner,easy", "--games", "10", "--workers", "2")
    assert j["wins"] == {"resigner": 0, "easy": 10}
    assert j["seat_wins"] == [5, 5]
    res = tournament.run(rules, ["resigner", "easy"], 10, 1, workers=1)
    assert len(j["forfeits"]) == 10
    for f, r in zip(j["forfeits"], res):
        assert r[0][f["seat"]] == "resigner" and f["kind"] == "resigner"
        assert f["action"] == "None" and "no action" in f["why"]
    assert "forfeits: 10" in "\n".join(lines)
    assert "seat 1 (resigner)" in "\n".join(lines)


def test_forfeit_names_the_illegal_action(monkeypatch, capsys):
    """On its turn it challenges with no bid standing, or repeats the standing bid: it
    holds dice until it acts, so it forfeits every game, each named with its action."""
    def bad(view, rng):
        if not view.mine:
            return None
        return view.bid[0] << 3 | view.bid[1] if view.bid else CHALLENGE
    _fake(monkeypatch, "badbid", bad)
    j, lines, _ = _tour(capsys, "--rules", "liars", "--seats", "badbid,normal,normal", "--games", "6")
    assert len(j["forfeits"]) == 6
    for f in j["forfeits"]:
        assert f["kind"] == "badbid"
        assert (f["action"] == "challenge" and "(no-bid)" in f["why"]) or \
            (f["action"].count("x") == 1 and "(bid-too-low)" in f["why"]), f
    # three seats: a forfeit is a loss for that seat, nobody's win
    assert j["wins"] == {"badbid": 0, "normal": 0}


def test_forfeit_on_an_exception(monkeypatch, capsys):
    def boom(view, rng):
        raise ZeroDivisionError("no odds")
    _fake(monkeypatch, "crashes", boom)
    j, _, err = _tour(capsys, "--rules", "menteur", "--seats", "easy,crashes", "--games", "4")
    assert j["wins"] == {"easy": 4, "crashes": 0}
    assert {f["action"] for f in j["forfeits"]} == {"act() raised"}
    assert "ZeroDivisionError: no odds" in j["forfeits"][0]["why"]
    assert "Traceback" not in err


def test_bluff_reroll_is_asked_after_the_bid_and_the_hand_follows(monkeypatch, capsys):
    """A player that always sets aside one die after its bid: the engine takes every
    reroll and each reveal fits (else the game would end as unfinished); one that sets
    aside a die it does not hold forfeits, named with the reroll."""
    from dicecup.engine.actions import reroll
    asked = []

    def one_aside(view, bid, rng):
        asked.append(bid)
        return reroll(view.hand[:1]) if view.hand and len(view.hand) > 1 else None
    _fake(monkeypatch, "aside1", bots.act, one_aside)
    j, _, _ = _tour(capsys, "--rules", "bluff", "--seats", "aside1,easy", "--games", "6", "--workers", "1",
                    "--options", '{"reroll": true}')
    assert asked and j["forfeits"] == [] and j["unfinished"] == 0
    assert sum(j["wins"].values()) == 6
    asked.clear()
    _tour(capsys, "--rules", "bluff", "--seats", "aside1,easy", "--games", "2", "--workers", "1")
    assert asked == []  # option off: never asked

    def not_mine(view, bid, rng):
        return reroll([f for f in range(1, 7) if f not in view.hand][:1]) if len(set(view.hand)) < 5 else None
    _fake(monkeypatch, "cheat", bots.act, not_mine)
    j, _, _ = _tour(capsys, "--rules", "bluff", "--seats", "cheat,easy", "--games", "4", "--workers", "1",
                    "--options", '{"reroll": true}')
    assert j["forfeits"] and j["forfeits"][0]["action"].startswith("reroll")


def test_out_of_turn_exact_calls_are_asked(monkeypatch, capsys):
    """Menteur's tout pile may come from any seat but the bidder: a player that calls it
    whenever it is not on turn ends every round that way, and the calls are legal."""
    from dicecup.engine.actions import EXACT
    calls = []

    def caller(view, rng):
        if not view.mine and EXACT in view.legal:
            calls.append(view.seat)
            return EXACT
        return bots.act(view, rng)
    _fake(monkeypatch, "toutpile", caller)
    j, _, _ = _tour(capsys, "--rules", "menteur", "--seats", "easy,toutpile,easy", "--games", "3", "--workers", "1")
    assert calls and j["forfeits"] == [] and j["unfinished"] == 0
    calls.clear()
    _tour(capsys, "--rules", "perudo", "--seats", "easy,toutpile,easy", "--games", "3", "--workers", "1")
    assert calls == []  # perudo's calza only on turn by default
    _tour(capsys, "--rules", "perudo", "--seats", "easy,toutpile,easy", "--games", "3", "--workers", "1",
          "--options", '{"calza_anyone": true}')
    assert calls


def test_json_shape_and_table(capsys):
    j, lines, err = _tour(capsys, "--rules", "perudo", "--seats", "baseline,easy,easy", "--games", "6")
    assert j["games"] == 6
    assert set(j["wins"]) == {"baseline", "easy"}
    assert j["seat_count"] == {"baseline": 1, "easy": 2} and j["seat_games"] == {"baseline": 6, "easy": 12}
    assert sum(j["wins"].values()) == 6 and j["unfinished"] == 0 and j["forfeits"] == []
    assert "mean_turns" not in j
    lo, hi = j["ci95"]["easy"]
    assert lo <= j["win_rate"]["easy"] <= hi
    text = "\n".join(lines)
    assert "win rate" in text and "95% interval" in text and "elapsed:" in text
    assert err == ""  # progress goes to a tty only


def test_dixmille_solitaire_mean_turns(capsys):
    j, lines, _ = _tour(capsys, "--rules", "dixmille", "--seats", "baseline", "--games", "20")
    assert j["wins"] == {"baseline": 20}
    assert 15 < j["mean_turns"] < 120
    assert any("mean turns" in ln for ln in lines)


def test_a_game_that_never_ends_is_called_off(monkeypatch, capsys):
    """Never banking, a Dix mille seat never opens: the game hits the turn cap."""
    _fake(monkeypatch, "nobank", lambda view, rng: [a for a in view.legal if a != BANK][-1] if view.legal else None)
    monkeypatch.setattr(tournament, "TURN_CAP", 50)
    j, lines, _ = _tour(capsys, "--rules", "dixmille", "--seats", "nobank", "--games", "2", "--workers", "1")
    assert j["unfinished"] == 2 and j["wins"] == {"nobank": 0}
    assert any("unfinished: 2" in ln for ln in lines)


def test_baseline_games_finish(capsys):
    for rules in ("perudo", "liars", "bluff", "menteur"):
        j, _, _ = _tour(capsys, "--rules", rules, "--seats", "baseline,easy", "--games", "6")
        assert j["unfinished"] == 0 and sum(j["wins"].values()) == 6, rules


def test_easy_vs_easy_near_even(monkeypatch, capsys):
    """The same bot under two names: each near half (a loose sanity check of the counting;
    the resigner tests above are the ones a wrong rotation or mapping cannot pass)."""
    monkeypatch.setitem(players._MODULES, "easy2", "dicecup.bots")
    j, _, _ = _tour(capsys, "--rules", "perudo", "--seats", "easy,easy2", "--games", "60")
    assert 18 <= j["wins"]["easy"] <= 42 and j["wins"]["easy"] + j["wins"]["easy2"] == 60
    # one kind twice: counted per seat, wins by either seat
    j, lines, _ = _tour(capsys, "--rules", "perudo", "--seats", "easy,easy", "--games", "10")
    assert j["wins"] == {"easy": 10} and j["seat_games"] == {"easy": 20} and j["win_rate"] == {"easy": 0.5}


@pytest.mark.parametrize("argv,says", [
    (["--seats", "easy,wizard"], "unknown player kind 'wizard'"),
    (["--seats", "easy,,easy"], "empty kind"),
    (["--games", "0"], "--games"),
    (["--workers", "0"], "--workers"),
    (["--options", "{bad"], "not JSON"),
    (["--options", "[1]"], "JSON object"),
    (["--options", '{"nope": 1}'], "no option nope"),
    (["--seats", "easy"], "2 to 6 seats"),
    (["--seats", "easy,easy,easy,easy,easy,easy,easy"], "2 to 6 seats"),
])
def test_bad_arguments_one_line_exit_2(capsys, argv, says):
    base = {"--rules": "perudo", "--seats": "easy,easy"}
    for i in range(0, len(argv), 2):
        base[argv[i]] = argv[i + 1]
    args = ["tournament"] + [x for kv in base.items() for x in kv]
    with pytest.raises(SystemExit) as e:
        cli.main(args)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert says in err[-1] and "Traceback" not in "\n".join(err)


def test_kind_not_built_yet_one_line_exit_2(monkeypatch, capsys):
    monkeypatch.setitem(players._MODULES, "future", "dicecup.players.not_written_yet")

    def later(view, rng):
        raise ImportError("players/later.py not built yet")
    _fake(monkeypatch, "later", later)
    for seats, says in (("future,easy", "'future' is not built yet"), ("easy,later", "'later' is not built yet")):
        with pytest.raises(SystemExit) as e:
            cli.main(["tournament", "--rules", "liars", "--seats", seats])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err


def test_strong_plays_dixmille_alone_and_says_its_mean_turns(capsys):
    """One strong seat at Dix mille: solitaire games to 10,000 and `mean_turns`, well
    under the easy bot's (about 33 against 47 turns)."""
    j, _, _ = _tour(capsys, "--rules", "dixmille", "--seats", "strong", "--games", "60", "--workers", "1")
    e, _, _ = _tour(capsys, "--rules", "dixmille", "--seats", "easy", "--games", "60", "--workers", "1")
    assert j["games"] == 60 and j["forfeits"] == [] and j["unfinished"] == 0
    assert 20 < j["mean_turns"] < e["mean_turns"] - 5


@pytest.mark.heavy
def test_bigger_run_strong_beats_normal(capsys):
    """400 perudo games: strong's lower 95 % bound above even, no forfeit, every game ends;
    two workers give what one gives."""
    j, _, _ = _tour(capsys, "--rules", "perudo", "--seats", "strong,normal", "--games", "400", "--workers", "2")
    assert j["forfeits"] == [] and j["unfinished"] == 0
    assert j["ci95"]["strong"][0] > 0.5
    k, _, _ = _tour(capsys, "--rules", "perudo", "--seats", "strong,normal", "--games", "400", "--workers", "1")
    assert _strip(j) == _strip(k)
