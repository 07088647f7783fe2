"""`dicecup odds`: the figures a player asks for, checked against brute-force enumeration
with each rule set's counting written out here from RULES.md; bad input is one line, exit 2."""
import itertools
import json

import pytest

from dicecup_host import cli


def _counts_rules(rules, face, special):
    """Which faces count for a bid on `face`, as RULES.md words it (independent of the engine)."""
    wild = {"perudo": 1, "menteur": 1, "bluff": 6, "liars": None}[rules]
    if special or wild is None or face == wild:
        return {face}
    return {face, wild}


def _brute(rules, hand, aside, unseen, q, f, special=False):
    faces = _counts_rules(rules, f, special)
    known = sum(d in faces for d in hand + aside)
    ge = eq = n = hits = 0
    for roll in itertools.product(range(1, 7), repeat=unseen):
        c = known + sum(d in faces for d in roll)
        n += 1
        hits += c
        ge += c >= q
        eq += c == q
    return ge / n, eq / n, hits / n


def _odds(capsys, *argv):
    assert cli.main(["odds", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


CASES = [
    ("perudo", (1, 3, 3), (), 3, 4, 3, False),
    ("perudo", (1, 3, 3), (), 3, 4, 3, True),      # palifico: the ace no longer counts
    ("perudo", (1, 1, 5), (), 4, 3, 1, False),     # a bid on aces counts aces only
    ("menteur", (1, 4), (), 4, 3, 4, False),       # the joker is wild
    ("menteur", (1, 4), (), 4, 3, 4, True),        # ...but plain in a one-die round
    ("menteur", (1, 1), (), 3, 3, 1, False),       # a bid on jokers
    ("bluff", (6, 2), (2, 6), 3, 5, 2, False),     # stars wild, set-aside dice are seen
    ("bluff", (6, 2), (2, 6), 3, 3, 6, False),     # a star bet counts stars only
    ("liars", (2, 2, 1), (), 4, 3, 2, False),      # no wilds
    ("liars", (), (), 4, 1, 6, False),             # an empty hand sees nothing
]


@pytest.mark.parametrize("rules,hand,aside,unseen,q,f,special", CASES)
def test_figures_match_brute_force(capsys, rules, hand, aside, unseen, q, f, special):
    argv = ["--rules", rules, "--hand", ",".join(map(str, hand)), "--unseen", str(unseen),
            "--bid", "%dx%d" % (q, f)]
    if aside:
        argv += ["--set-aside", ",".join(map(str, aside))]
    if special:
        argv.append("--palifico" if rules == "perudo" else "--one-die-round")
    got = _odds(capsys, *argv)
    want = _brute(rules, hand, aside, unseen, q, f, special)
    assert (got["at_least"], got["exactly"], got["expected"]) == pytest.approx(want, abs=1e-12)


def test_human_output_names_what_counts_and_the_word(capsys):
    assert cli.main(["odds", "--rules", "perudo", "--hand", "1,3,3", "--unseen", "10", "--bid", "4x3"]) == 0
    out = capsys.readouterr().out
    assert "counting 3s and 1s: you see 3, 10 unseen" in out
    assert "at least 4" in out and "likely" in out
    assert "exactly 4" in out and "long shot" in out


BAD = [
    ["--rules", "liars", "--hand", "1,3", "--unseen", "3", "--bid", "2x3", "--palifico"],
    ["--rules", "perudo", "--hand", "1,3", "--unseen", "3", "--bid", "2x3", "--one-die-round"],
    ["--rules", "perudo", "--hand", "1", "--unseen", "3", "--bid", "2x3", "--set-aside", "2"],
    ["--rules", "perudo", "--hand", "1", "--unseen", "3", "--bid", "2x3", "--palifico", "--one-die-round"],
    ["--rules", "dixmille", "--hand", "1", "--unseen", "3", "--bid", "2x3"],
    ["--rules", "liars", "--hand", "1,9", "--unseen", "3", "--bid", "2x3"],
    ["--rules", "liars", "--hand", "1,,2", "--unseen", "3", "--bid", "2x3"],
    ["--rules", "liars", "--hand", "1,2,3,4,5,6", "--unseen", "3", "--bid", "2x3"],
    ["--rules", "liars", "--hand", "1", "--unseen", "-1", "--bid", "2x3"],
    ["--rules", "liars", "--hand", "1", "--unseen", "30", "--bid", "2x3"],
    ["--rules", "liars", "--hand", "1", "--unseen", "3", "--bid", "2y3"],
    ["--rules", "liars", "--hand", "1", "--unseen", "3", "--bid", "0x3"],
    ["--rules", "liars", "--hand", "1", "--unseen", "3", "--bid", "2x7"],
    ["--rules", "liars", "--hand", "1", "--unseen", "3", "--bid", "5x3"],
    ["--rules", "nosuch", "--hand", "1", "--unseen", "3", "--bid", "2x3"],
    ["--rules", "liars", "--unseen", "3", "--bid", "2x3"],
]


@pytest.mark.parametrize("argv", BAD)
def test_bad_input_is_one_line_and_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as e:
        if cli.main(["odds", *argv]) == 2:
            raise SystemExit(2)
    assert e.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("dicecup odds: error: ")
    assert "Traceback" not in err
