"""The rule book (docs/rules.md) and the scenario page (docs/scenarios.md) agree with
the engine, the cup's strings and the `dicecup scenario` command, and every relative
link in README.md and docs/*.md leads to a file of this repository. A player reads
these pages instead of the code, so a rule changed in one place must fail here."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dicecup.engine import RULES, IllegalAction, new_game, rules_class
from dicecup.engine.actions import bid
from dicecup.engine.dixmille import score
from dicecup.ui import lang

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RULEBOOK = DOCS / "rules.md"
SCENARIOS = DOCS / "scenarios.md"
BINDING = ROOT.parent / "shared" / "RULES.md"   # beside the repository, absent in a clone

FACE_SIGNS = {"★": 6, "🦜": 1}   # Bluff's star, Menteur's parrot, as the rule book writes them


# ----- reading the pages -------------------------------------------------------------

def sections(text, level="## "):
    """{heading: body} for the headings of one level."""
    out = {}
    head = None
    for line in text.splitlines():
        if line.startswith(level):
            head = line[len(level):].strip()
            out[head] = []
        elif head is not None:
            out[head].append(line)
    return {h: "\n".join(b) for h, b in out.items()}


def game_sections():
    """{rule set: its section's text}, from headings like "## Perudo (`perudo`)"."""
    out = {}
    for head, body in sections(RULEBOOK.read_text()).items():
        m = re.fullmatch(r".+ \(`(\w+)`\)", head)
        if m:
            out[m.group(1)] = body
    return out


def table_rows(body, first_header):
    """The rows (lists of cells) of the Markdown table whose header starts so."""
    lines = body.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_header:
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split("|")])
            return rows
    return None


def code_values(cell):
    """The JSON values written in backticks in a table cell."""
    return [json.loads(v) for v in re.findall(r"`([^`]+)`", cell)]


def doc_options(rules):
    """{option: (values, default, cup labels cell)} from the section's options table,
    None when the section has no table."""
    rows = table_rows(game_sections()[rules], "option")
    if rows is None:
        return None
    out = {}
    for name, values, default, cup, _what in rows:
        (n,) = re.findall(r"`(\w+)`", name)
        (d,) = code_values(default)
        out[n] = (code_values(values), d, cup)
    return out


def seat_range(rules):
    """The seat counts new_game accepts, as (lowest, highest)."""
    ok = []
    for n in range(0, 9):
        try:
            new_game(rules, n, opener=0)
            ok.append(n)
        except ValueError:
            pass
    return min(ok), max(ok)


# ----- the rule book and the engine --------------------------------------------------

def test_every_rule_set_has_its_section_and_no_other():
    assert sorted(game_sections()) == sorted(RULES)


@pytest.mark.parametrize("rules", RULES)
def test_options_table_is_the_engines_options(rules):
    engine = rules_class(rules).OPTIONS
    doc = doc_options(rules)
    if not engine:
        assert doc is None, "%s has no options, but the rule book lists some" % rules
        assert "no options" in game_sections()[rules], "say that %s has no options" % rules
        return
    assert doc is not None, "the %s section has no options table" % rules
    assert sorted(doc) == sorted(name for name, _ in engine), "option names differ"
    for name, choices in engine:
        values, default, _cup = doc[name]
        assert values == list(choices), "%s %s: values %r, the engine has %r" % (rules, name, values, choices)
        assert type(default) is type(choices[0]) and default == choices[0], \
            "%s %s: default %r, the engine's is %r" % (rules, name, default, choices[0])


@pytest.mark.parametrize("rules", [r for r in RULES if rules_class(r).OPTIONS])
def test_options_table_shows_the_cups_menu_labels(rules):
    """The "on the cup" column reads as the master's table menu does, for every value."""
    for name, (values, _default, cup) in doc_options(rules).items():
        for v in values:
            shown = lang.t("opt_on" if v else "opt_off", "en") if type(v) is bool \
                else lang.t("opt:%s:%s" % (name, v), "en")
            label = lang.t("table_opt_" + name, "en", shown)
            assert "*%s*" % label in cup, "%s %s: the cup shows %r" % (rules, name, label)


@pytest.mark.parametrize("rules", RULES)
def test_seat_limits_are_new_games(rules):
    m = re.search(r"\*\*Players:\*\* (\d+) to (\d+)\.", game_sections()[rules])
    assert m, "the %s section states no **Players:** line" % rules
    assert (int(m.group(1)), int(m.group(2))) == seat_range(rules)


def raise_examples(rules):
    """(previous, next, allowed) for the lines "* `4×3 → 4×5`: yes" of a section."""
    out = []
    for a, fa, b, fb, verdict in re.findall(
            r"^\* `(\d+)×(\S+) → (\d+)×(\S+)`: (yes|no)", game_sections()[rules], re.M):
        face = lambda f: FACE_SIGNS.get(f) or int(f)  # noqa: E731
        out.append(((int(a), face(fa)), (int(b), face(fb)), verdict == "yes"))
    return out


def allowed_after(rules, prev, new):
    """Whether a normal round's engine takes `new` right after `prev` stands. A bid that
    may not open a round (Perudo's aces) is reached from the lowest opening, 1×2."""
    g = new_game(rules, 3, opener=0)
    g.start_round()
    seat = 0
    try:
        g.apply(seat, bid(*prev))
    except IllegalAction as e:
        assert e.code == "aces-opening", e
        g.apply(seat, bid(1, 2))
        seat += 1
        g.apply(seat, bid(*prev))
    try:
        g.apply(seat + 1, bid(*new))
    except IllegalAction as e:
        assert e.code == "bid-too-low", e
        return False
    return True


@pytest.mark.parametrize("rules", [r for r in RULES if r != "dixmille"])
def test_raising_examples_are_what_the_engine_accepts(rules):
    examples = raise_examples(rules)
    assert len(examples) >= 4, "the %s section shows too few raising examples" % rules
    assert any(ok for _, _, ok in examples) and not all(ok for _, _, ok in examples)
    for prev, new, ok in examples:
        assert allowed_after(rules, prev, new) == ok, \
            "%s: %s -> %s is %s in the rule book" % (rules, prev, new, "allowed" if ok else "refused")


def test_dix_mille_scoring_table_is_the_engines():
    rows = table_rows(game_sections()["dixmille"], "combination")
    assert rows and len(rows) >= 10
    for what, kept, points in rows:
        (dice,) = re.findall(r"`([1-6 ]+)`", kept)
        faces = [int(f) for f in dice.split()]
        expect = None if points.startswith("not a keep") else int(points.replace(",", ""))
        assert score(faces) == expect, "%s: %s scores %r, the rule book says %r" % (what, faces, score(faces), expect)


# ----- the binding RULES.md, when it is beside the repository -------------------------

def binding_options(text):
    """{rule set: {option: default}} as RULES.md writes them: `option `name`` followed,
    within a few words, by "default on/off" or by `"value"` (default."""
    out = {}
    for head, body in sections(text).items():
        m = re.match(r"`(\w+)`", head)
        if not m:
            continue
        flat = re.sub(r"\s+", " ", body.replace("**", ""))
        opts = {}
        for om in re.finditer(r"[Oo]ption `(\w+)`", flat):
            after = flat[om.end():om.end() + 120]
            onoff = re.match(r"[^.;]*?default (on|off)", after)
            value = re.match(r'[^.;]*?`("[^"]+")` \(default', after)
            if value:
                opts[om.group(1)] = json.loads(value.group(1))
            elif onoff:
                opts[om.group(1)] = onoff.group(1) == "on"
            else:
                raise AssertionError("RULES.md: no default found for option %s" % om.group(1))
        out[m.group(1)] = opts
    return out


@pytest.mark.skipif(not BINDING.is_file(), reason="../shared/RULES.md is not beside this clone")
def test_option_names_and_defaults_are_the_binding_rules():
    binding = binding_options(BINDING.read_text())
    assert sorted(binding) == sorted(RULES)
    for rules in RULES:
        doc = doc_options(rules) or {}
        assert {n: d for n, (_v, d, _c) in doc.items()} == binding[rules], rules


# ----- the scenario page and the command ---------------------------------------------

def dicecup_scenario(path):
    return subprocess.run([sys.executable, "-m", "dicecup_host.cli", "scenario", path],
                          capture_output=True, text=True, cwd=ROOT)


def contains(part, whole):
    """Every key of `part` is in `whole` with the same value (objects: their keys)."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(k in whole and contains(v, whole[k]) for k, v in part.items())
    return part == whole and type(part) is type(whole)


def scenario_rows():
    rows = table_rows(sections(SCENARIOS.read_text())["Examples"], "file")
    out = []
    for file_cell, _what, exit_cell, output in rows:
        (target,) = re.findall(r"\]\(([^)]+)\)", file_cell)
        out.append(((SCENARIOS.parent / target).resolve(), int(exit_cell), output))
    return out


def test_scenario_page_links_the_format_examples():
    linked = {p for p, _, _ in scenario_rows()}
    examples = set((ROOT / "tests" / "scenarios" / "examples").glob("*.json"))
    assert examples and examples <= linked, "examples not on the page: %s" % sorted(p.name for p in examples - linked)


@pytest.mark.parametrize("path,code,output", scenario_rows(), ids=[p.name for p, _, _ in scenario_rows()])
def test_each_linked_example_replays_as_the_page_says(path, code, output):
    res = dicecup_scenario(str(path.relative_to(ROOT)))
    assert res.returncode == code, res.stderr
    if output == "nothing":
        assert res.stdout == "" and res.stderr.count("\n") == 1, "exit 2 is one line on stderr"
        return
    (part,) = code_values(output)
    assert contains(part, json.loads(res.stdout)), "the page says %s, the command printed %s" % (part, res.stdout)


def transcripts():
    """(command, what the terminal shows, exit code) from the page's console block."""
    (block,) = re.findall(r"```console\n(.*?)```", SCENARIOS.read_text(), re.S)
    out = []
    for chunk in re.split(r"^\$ dicecup scenario ", block, flags=re.M)[1:]:
        path, rest = chunk.split("\n", 1)
        shown, code = rest.split("$ echo $?\n")
        out.append((path, shown, int(code.strip())))
    return out


def test_console_transcripts_are_byte_for_byte_the_command():
    runs = transcripts()
    assert len(runs) == 3 and sorted(c for _, _, c in runs) == [0, 2, 3]
    for path, shown, code in runs:
        res = dicecup_scenario(path)
        assert (res.stdout + res.stderr, res.returncode) == (shown, code), path


# ----- links --------------------------------------------------------------------------

def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces -> '-'."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def anchors(md):
    text = re.sub(r"```.*?```", "", md.read_text(), flags=re.S)
    return {slug(m) for m in re.findall(r"^#+ (.+)$", text, re.M)}


PAGES = [ROOT / "README.md"] + sorted(DOCS.glob("*.md"))


def links(md):
    text = re.sub(r"```.*?```", "", md.read_text(), flags=re.S)
    return re.findall(r"!?\[[^\]]*\]\(([^)\s]+)\)", text)


@pytest.mark.parametrize("md", PAGES, ids=[p.name for p in PAGES])
def test_relative_links_lead_to_files_in_the_repository(md):
    for target in links(md):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, frag = target.partition("#")
        dest = (md.parent / path).resolve() if path else md
        assert dest.exists(), "%s links %s: no such file" % (md.name, target)
        assert ROOT in dest.parents or dest == ROOT, "%s links %s, outside the repository" % (md.name, target)
        if frag:
            assert dest.suffix == ".md" and frag in anchors(dest), "%s links %s: no such heading" % (md.name, target)


def test_pages_do_not_send_a_reader_to_the_shared_folder():
    """A fresh clone has no ../shared: no link goes there (mentions in words are fine)."""
    for md in PAGES:
        assert not [t for t in links(md) if "shared/" in t], md.name


def test_readme_links_the_rule_book_and_the_scenario_page():
    found = set(links(ROOT / "README.md"))
    assert "docs/rules.md" in found and "docs/scenarios.md" in found
