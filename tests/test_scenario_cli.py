"""The scenario replayer's contract (shared/scenarios/README.md), in process:
exit 2 for a malformed file (nothing on stdout, a message on stderr), exit 3 for a step
the game rejects (the error and the state before it on stdout), exit 0 otherwise."""
import copy
import json

import pytest

from dicecup.scenario import run

ROLL2 = {"roll": {"ana": [1, 3, 3, 5, 6], "ben": [2, 2, 4, 6, 6]}}
PERUDO = {
    "rules": "perudo",
    "players": ["ana", "ben"],
    "opener": "ana",
    "steps": [ROLL2, {"bid": ["ana", 3, 6]}, {"challenge": "ben"}],
}
DIXMILLE = {
    "rules": "dixmille",
    "players": ["ana", "ben"],
    "opener": "ana",
    "steps": [{"roll": ["ana", [1, 1, 1, 4, 6]]}, {"keep": ["ana", [1, 1, 1]]}, {"bank": "ana"}],
}


def doc(base, **changes):
    d = copy.deepcopy(base)
    for k, v in changes.items():
        if v is None:
            del d[k]
        else:
            d[k] = v
    return d


def steps(base, *more):
    return doc(base, steps=copy.deepcopy(base["steps"][:1]) + list(more))


def malformed(text):
    if type(text) is not str:
        text = json.dumps(text)
    code, out, err = run(text)
    assert code == 2, (out, err)
    assert out == ""
    assert err.strip()
    return err


def rejected(d, step):
    code, out, err = run(json.dumps(d))
    assert code == 3, (out, err)
    assert err == ""
    res = json.loads(out)
    assert list(res) == ["error", "state"]
    assert res["error"]["step"] == step
    assert type(res["error"]["code"]) is str and res["error"]["message"]
    return res


def ok(d):
    code, out, err = run(json.dumps(d))
    assert code == 0, (out, err)
    assert err == ""
    return json.loads(out)


# ----- exit 0 ---------------------------------------------------------------------------

def test_valid_files_replay():
    out = ok(PERUDO)  # three sixes with aces: 1+1+2 = 4 >= 3, ben loses
    assert out == {"dice": {"ana": 5, "ben": 4}, "eliminated": [], "winner": None, "round": 2,
                   "turn": "ben", "bid": None, "special": None}
    out = ok(DIXMILLE)
    assert out["scores"] == {"ana": 1000, "ben": 0} and out["turn"] == "ben"
    assert out["opened"] == {"ana": True, "ben": False} and out["turn_total"] == 0


def test_expect_and_unknown_top_level_keys_are_ignored():
    assert ok(doc(PERUDO, expect={"dice": {"ana": 0}})) == ok(PERUDO)


def test_options_omitted_or_empty_mean_defaults():
    assert ok(doc(PERUDO, options={})) == ok(PERUDO)
    assert ok(doc(PERUDO, options={"palifico": True, "calza_anyone": False})) == ok(PERUDO)


# ----- exit 2: malformed -------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "{", "not json", "{'rules': 'perudo'}", '{"rules": "perudo",}'])
def test_not_json(text):
    malformed(text)


@pytest.mark.parametrize("text", ["[]", "3", '"perudo"', "null"])
def test_not_an_object(text):
    malformed(text)


@pytest.mark.parametrize("field", ["rules", "players", "opener", "steps"])
def test_missing_field(field):
    malformed(doc(PERUDO, **{field: None}))


@pytest.mark.parametrize("change", [
    {"rules": 2},
    {"rules": ["perudo"]},
    {"players": "ana"},
    {"players": []},
    {"players": ["ana", 2]},
    {"opener": 0},
    {"opener": ["ana"]},
    {"steps": {"bid": ["ana", 3, 6]}},
    {"options": ["palifico"]},
])
def test_mistyped_top_level_field(change):
    malformed(doc(PERUDO, **change))


@pytest.mark.parametrize("step", [
    {"bid": ["ana", "3", 6]},
    {"bid": ["ana", 3.0, 6]},
    {"bid": ["ana", 3, True]},
    {"bid": ["ana", 3]},
    {"bid": "ana"},
    {"challenge": 1},
    {"challenge": ["ben"]},
    {"exact": None},
    {"reroll": ["ana", [3]]},
    {"reroll": ["ana", 3, [1, 2]]},
    {"roll": ["ana", [1, 2, 3, 4, 5]]},       # a dixmille-shaped roll in perudo
    {"roll": {"ana": "13356", "ben": [2, 2, 4, 6, 6]}},
    {"roll": {"ana": [1, 3, 3, 5, "6"], "ben": [2, 2, 4, 6, 6]}},
    {"bid": ["ana", 3, 6], "challenge": "ben"},  # two kinds in one step
    {},
    ["bid", "ana", 3, 6],
])
def test_mistyped_step(step):
    malformed(doc(PERUDO, steps=[ROLL2, step]))


@pytest.mark.parametrize("step", [
    {"roll": {"ana": [1, 1, 1, 4, 6]}},
    {"roll": ["ana"]},
    {"roll": ["ana", [1, 1, 1, 4, 6], 3]},
    {"keep": ["ana", 1]},
    {"bank": ["ana"]},
    {"roll": ["ana", [1, 1, "1", 4, 6]]},
])
def test_mistyped_dixmille_step(step):
    malformed(doc(DIXMILLE, steps=[step]))


@pytest.mark.parametrize("rules", ["yahtzee", "Perudo", "", "dudo"])
def test_unknown_rule_set(rules):
    malformed(doc(PERUDO, rules=rules))


@pytest.mark.parametrize("rules,options", [
    ("perudo", {"calza": True}),
    ("perudo", {"reroll": True}),
    ("liars", {"palifico": True}),
    ("menteur", {"calza_anyone": True}),
    ("bluff", {"star_track": "full"}),
    ("bluff", {"reroll": "yes"}),
    ("liars", {"one_life": 1}),
    ("perudo", {"palifico": None}),
])
def test_unknown_option_or_value(rules, options):
    malformed(doc(PERUDO, rules=rules, options=options))


def test_unknown_dixmille_option():
    malformed(doc(DIXMILLE, options={"overshoot": True}))
    malformed(doc(DIXMILLE, options={"overshoot_penalty": 2000}))


@pytest.mark.parametrize("step", [
    {"pass": "ana"},
    {"dudo": "ben"},
    {"keep": ["ana", [1]]},   # a dixmille step in a bluffing game
    {"bank": "ana"},
])
def test_unknown_step_kind(step):
    malformed(doc(PERUDO, steps=[ROLL2, step]))


@pytest.mark.parametrize("step", [{"bid": ["ana", 1, 1]}, {"challenge": "ana"}, {"exact": "ana"}])
def test_bluffing_step_kind_in_dixmille(step):
    malformed(doc(DIXMILLE, steps=[step]))


@pytest.mark.parametrize("step", [
    {"bid": ["zed", 3, 6]},
    {"challenge": "zed"},
    {"exact": "Ben"},
    {"reroll": ["zed", [3], [1, 2, 3, 4]]},
])
def test_player_in_a_step_with_no_seat(step):
    malformed(doc(PERUDO, steps=[ROLL2, step]))


def test_player_with_no_seat_in_a_roll_or_as_opener():
    malformed(doc(PERUDO, steps=[{"roll": {"ana": [1, 3, 3, 5, 6], "zed": [2, 2, 4, 6, 6]}}]))
    malformed(doc(PERUDO, opener="zed"))
    malformed(doc(DIXMILLE, steps=[{"roll": ["zed", [1, 1, 1, 4, 6]]}]))
    malformed(doc(DIXMILLE, steps=[{"roll": ["ana", [1, 1, 1, 4, 6]]}, {"keep": ["zed", [1]]}]))
    malformed(doc(DIXMILLE, steps=[{"bank": "zed"}]))


def test_malformed_step_late_in_the_file_means_nothing_is_replayed():
    # the bid at step 1 is illegal, but the file is checked whole first: exit 2, not 3
    malformed(doc(PERUDO, steps=[ROLL2, {"bid": ["ana", 1, 1]}, {"challenge": "zed"}]))


def test_players_twice_or_seat_count_out_of_range():
    malformed(doc(PERUDO, players=["ana", "ana"], opener="ana"))
    malformed(doc(PERUDO, players=["ana"], opener="ana"))
    malformed(doc(PERUDO, players=["a", "b", "c", "d", "e", "f", "g"], opener="a"))


# ----- exit 3: a step the game rejects ------------------------------------------------------

def test_error_reports_the_state_before_the_step():
    d = steps(PERUDO, {"bid": ["ana", 3, 6]}, {"bid": ["ben", 3, 5]}, {"challenge": "ana"})
    res = rejected(d, 2)
    assert res["error"]["code"] == "bid-too-low"
    assert res["state"] == {"dice": {"ana": 5, "ben": 5}, "eliminated": [], "winner": None,
                            "round": 1, "turn": "ben", "bid": [3, 6], "special": None}


def test_wrong_dice_count_in_a_bluffing_roll():
    res = rejected(doc(PERUDO, steps=[{"roll": {"ana": [1, 3, 3, 5], "ben": [2, 2, 4, 6, 6]}}]), 0)
    assert res["error"]["code"] == "dice-count"
    rejected(doc(PERUDO, steps=[{"roll": {"ana": [1, 3, 3, 5, 6, 6], "ben": [2, 2, 4, 6, 6]}}]), 0)
    rejected(doc(PERUDO, steps=[{"roll": {"ana": [1, 3, 3, 5, 6]}}]), 0)  # ben rolled nothing


def test_wrong_dice_count_after_a_lost_die():
    d = doc(PERUDO, steps=PERUDO["steps"] + [ROLL2])  # ben holds 4 now
    assert rejected(d, 3)["error"]["code"] == "dice-count"


def test_wrong_dice_count_in_a_dixmille_roll():
    d = doc(DIXMILLE, steps=[{"roll": ["ana", [1, 1, 1, 4]]}])
    assert rejected(d, 0)["error"]["code"] == "dice-count"
    d = doc(DIXMILLE, steps=[{"roll": ["ana", [1, 1, 1, 4, 6, 6]]}])
    assert rejected(d, 0)["error"]["code"] == "dice-count"
    d = doc(DIXMILLE, steps=[{"roll": ["ana", [1, 5, 2, 3, 4]]}, {"keep": ["ana", [1]]},
                             {"roll": ["ana", [5, 2, 3]]}])
    assert rejected(d, 2)["error"]["code"] == "dice-count"


@pytest.mark.parametrize("face", [7, 0, -1])
def test_face_outside_one_to_six(face):
    d = doc(PERUDO, steps=[{"roll": {"ana": [1, 3, 3, 5, face], "ben": [2, 2, 4, 6, 6]}}])
    assert rejected(d, 0)["error"]["code"] == "bad-face"
    d = doc(DIXMILLE, steps=[{"roll": ["ana", [1, 1, 1, 4, face]]}])
    assert rejected(d, 0)["error"]["code"] == "bad-face"
    d = steps(PERUDO, {"bid": ["ana", 3, face]})
    assert rejected(d, 1)["error"]["code"] == "bad-face"


def test_keep_face_not_rolled_or_out_of_range():
    d = doc(DIXMILLE, steps=[{"roll": ["ana", [1, 1, 1, 4, 6]]}, {"keep": ["ana", [7]]}])
    rejected(d, 1)
    d = doc(DIXMILLE, steps=[{"roll": ["ana", [1, 1, 1, 4, 6]]}, {"keep": ["ana", [5]]}])
    assert rejected(d, 1)["error"]["code"] == "not-your-dice"


@pytest.mark.parametrize("q", [0, -2, 31])
def test_bid_quantity_out_of_range(q):
    assert rejected(steps(PERUDO, {"bid": ["ana", q, 3]}), 1)["error"]["code"] == "bad-quantity"


def test_bid_too_low():
    d = steps(PERUDO, {"bid": ["ana", 4, 3]}, {"bid": ["ben", 4, 2]})
    assert rejected(d, 2)["error"]["code"] == "bid-too-low"


@pytest.mark.parametrize("bad,code", [
    ({"bid": ["ana", 1, 2]}, "wrong-phase"),            # bid before the roll
    ({"challenge": "ana"}, "wrong-phase"),
    ({"exact": "ben"}, "wrong-phase"),
])
def test_step_before_the_roll_out_of_order(bad, code):
    assert rejected(doc(PERUDO, steps=[bad]), 0)["error"]["code"] == code


def test_roll_mid_round_out_of_order():
    d = steps(PERUDO, {"bid": ["ana", 1, 2]}, ROLL2)
    assert rejected(d, 2)["error"]["code"] == "wrong-phase"


def test_challenge_with_no_bid():
    assert rejected(steps(PERUDO, {"challenge": "ana"}), 1)["error"]["code"] == "no-bid"


def test_wrong_player():
    assert rejected(steps(PERUDO, {"bid": ["ben", 1, 2]}), 1)["error"]["code"] == "not-your-turn"
    d = doc(DIXMILLE, steps=[{"roll": ["ben", [1, 1, 1, 4, 6]]}])
    assert rejected(d, 0)["error"]["code"] == "not-your-turn"
    d = doc(DIXMILLE, steps=[{"roll": ["ana", [1, 1, 1, 4, 6]]}, {"keep": ["ben", [1]]}])
    assert rejected(d, 1)["error"]["code"] == "not-your-turn"
    d = doc(DIXMILLE, steps=[{"roll": ["ana", [1, 1, 1, 4, 6]]}, {"keep": ["ana", [1, 1, 1]]},
                             {"bank": "ben"}])
    assert rejected(d, 2)["error"]["code"] == "not-your-turn"


@pytest.mark.parametrize("seq,step,code", [
    ([{"keep": ["ana", [1]]}], 0, "wrong-phase"),                         # keep before rolling
    ([{"bank": "ana"}], 0, "wrong-phase"),                                # bank before rolling
    ([{"roll": ["ana", [1, 1, 1, 4, 6]]}, {"bank": "ana"}], 1, "keep-first"),
    ([{"roll": ["ana", [1, 1, 1, 4, 6]]}, {"roll": ["ana", [1, 2]]}], 1, "keep-first"),
    ([{"roll": ["ana", [1, 5, 2, 3, 4]]}, {"keep": ["ana", [1]]}, {"keep": ["ana", [5]]}], 2, "wrong-phase"),
    ([{"roll": ["ana", [1, 2, 3, 4, 6]]}, {"keep": ["ana", [1, 2]]}], 1, "keep-not-scoring"),
])
def test_dixmille_steps_out_of_order(seq, step, code):
    assert rejected(doc(DIXMILLE, steps=seq), step)["error"]["code"] == code


def test_step_after_the_game_is_won():
    d = copy.deepcopy(PERUDO)  # round 1: ben loses a die and opens
    for k in range(4, 0, -1):  # ben bids 9 sixes four times and is called each time
        d["steps"] += [{"roll": {"ana": [2, 3, 3, 4, 5], "ben": [2] * k}},
                       {"bid": ["ben", 9, 6]}, {"challenge": "ana"}]
    out = ok(d)
    assert out["winner"] == "ana" and out["turn"] is None and out["round"] == 6
    n = len(d["steps"])
    for late in ({"roll": {"ana": [2, 3, 3, 4, 5]}}, {"bid": ["ana", 1, 2]}, {"challenge": "ana"}):
        res = rejected(doc(d, steps=d["steps"] + [late]), n)
        assert res["error"]["code"] == "game-over"
        assert res["state"] == out


def test_reroll_steps_rejected_by_the_game():
    base = {"rules": "bluff", "options": {"reroll": True}, "players": ["ana", "ben"], "opener": "ana",
            "steps": [{"roll": {"ana": [4, 4, 1, 2, 3], "ben": [4, 5, 5, 2, 1]}}, {"bid": ["ana", 3, 4]}]}
    d = steps(base, {"bid": ["ana", 3, 4]}, {"reroll": ["ana", [5], [1, 2, 3, 4]]})
    assert rejected(d, 2)["error"]["code"] == "not-your-dice"
    d = steps(base, {"bid": ["ana", 3, 4]}, {"reroll": ["ana", [4, 4], [1, 2]]})
    res = rejected(d, 2)
    assert res["error"]["code"] == "dice-count"
    d = steps(base, {"bid": ["ana", 3, 4]}, {"reroll": ["ana", [4, 4, 1, 2, 3], []]})
    assert rejected(d, 2)["error"]["code"] == "reroll-count"
    d = steps(base, {"bid": ["ana", 3, 4]}, {"reroll": ["ben", [4], [1, 2, 3, 4]]})
    assert rejected(d, 2)["error"]["code"] == "reroll-not-allowed"
    d = steps(base, {"bid": ["ana", 3, 4]}, {"reroll": ["ana", [4], [1, 2, 3, 9]]})
    assert rejected(d, 2)["error"]["code"] == "bad-face"


def test_rejected_reroll_leaves_the_game_as_it_was():
    """A reroll with the wrong number of new dice is refused; the step after it would
    have been fine, so the replay stops with the state of before the reroll."""
    base = {"rules": "bluff", "options": {"reroll": True}, "players": ["ana", "ben"], "opener": "ana",
            "steps": [{"roll": {"ana": [4, 4, 1, 2, 3], "ben": [4, 5, 5, 2, 1]}},
                      {"bid": ["ana", 3, 4]}, {"reroll": ["ana", [4, 4], [1, 2]]}]}
    res = rejected(base, 2)
    assert res["state"]["bid"] == [3, 4] and res["state"]["turn"] == "ben"
    good = copy.deepcopy(base)
    good["steps"][2] = {"reroll": ["ana", [4, 4], [1, 2, 3]]}
    good["steps"].append({"challenge": "ben"})
    assert ok(good)["dice"] == {"ana": 5, "ben": 4}  # 4, 4 aside + ben's 4 = 3: exact
