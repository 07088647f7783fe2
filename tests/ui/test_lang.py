"""The cup's strings (firmware/dicecup/ui/lang.py): every key in every language, Latin-1
only, every string fits its place with its widest arguments in every language, the %
placeholders agree across languages, every game has its own words; the module runs
inside real MicroPython and compiles with mpy-cross."""
import re

import pytest

from dicecup.engine import RULES, rules_class
from dicecup.engine.errors import CODES
from dicecup.events import KINDS
from dicecup.net.lobby import REASONS
from dicecup.ui import lang
from dicecup_host import mpy

# The strings that are the English one on purpose (None in the table): the same word
# in those languages. Any other missing string is a forgotten translation.
FALLBACK = {
    "bid_value": {"fr", "de", "it", "es"},     # "%d × %s"
    "bid_of": {"de", "it", "es"},              # "%s: %d × %s" (French spaces its colon)
    "btn_ok": {"fr", "de", "it", "es"},        # OK
    "btn_exact": {"fr"},                       # Exact
    "btn_start": {"de"},                       # Start
    "scores": {"fr"},                          # Scores
    "options": {"fr"},                         # Options
    "opt:palifico": {"fr", "de", "it", "es"},  # Palifico: Perudo's own word
    "bots_n": {"de", "es"},                    # Bots: %d
    "bot_name": {"fr", "de", "it", "es"},      # Bot %d
}

# The keys each rule set has its own words for (the game table).
NOUNS = {"bid", "bid_title", "bid_is", "bid_none", "bid_confirm", "btn_bid",
         "err:bid-too-low", "err:no-bid"}
OWN = {
    "bluff": {"game", "call", "btn_call", "wild"} | NOUNS,
    "perudo": {"game", "call", "btn_call", "exact", "btn_exact", "special", "special_hint", "wild"},
    "menteur": {"game", "call", "btn_call", "exact", "btn_exact", "special", "special_hint", "wild"} | NOUNS,
    "liars": {"game", "call", "btn_call", "exact", "btn_exact"} | NOUNS,
    "dixmille": {"game"},
}

# Which keys tell a player about each event kind (dicecup/events.py); the screens
# pick among them (mine or someone else's, singular or plural).
EVENT_KEYS = {
    "joined": ["joined"], "left": ["left", "bot_for"], "seats": ["seats_changed", "seats", "seat_n"],
    "rules": ["rules_changed", "game", "options"], "start": ["game_n"],
    "master": ["master_is", "master_you"], "away": ["away", "bot_for"], "back": ["back"],
    "autoplay": ["bot_for", "plays_again", "bot_for_you", "bot_for_you_hint", "you_again"],
    "rolloff": ["rolloff", "rolloff_hint", "rolloff_tie"], "open": ["round_n", "shake"],
    "rolled": ["opens", "you_open", "your_turn", "turn_of"], "bid": ["bid_of", "bid_is", "bid_by"],
    "reroll": ["reroll_by", "aside"], "challenge": ["calls", "call"], "exact": ["calls", "exact"],
    "reveal": ["reveal", "counting", "counted", "was_true", "was_bluff", "was_exact"],
    "lose": ["lose_1", "lose_n", "lose_others", "you_lose_1", "you_lose_n"],
    "gain": ["gain_1", "you_gain_1"], "forfeit": ["cheated", "cheat_loss"],
    "withheld": ["withheld", "withheld_loss"], "out": ["out", "you_out", "spectator", "spectator_hint"],
    "round": ["round_n", "opens", "special", "special_hint", "last_die"],
    "replay": ["replay", "replay_missing", "master_is"], "win": ["game_over", "wins", "you_win", "you_lost", "rematch"],
    "roll": ["rolls"], "keep": ["keeps", "kept", "turn_total"], "hot": ["hot", "hot_hint"],
    "bank": ["banks", "score"], "bust": ["bust", "bust_by", "bust_lost"],
    "cross": ["cross_for", "crosses"], "penalty": ["three_crosses", "penalty"],
    "overshoot": ["overshoot"], "turn": ["your_turn", "turn_of"],
    "link": ["link_lost", "reconnecting", "link_back"], "quorum": ["quorum_wait", "quorum_hint", "quorum_ok"],
    "shake": ["shake", "shake_reroll", "shake_roll", "shake_hint", "wait_others", "wait_n"],
    "remind": ["remind_shake", "remind_act", "bot_in"], "rejected": ["err"],
    "join_failed": ["join:wrong-code", "retry_in"], "internal": ["internal"], "forged": ["forged"],
    "dice": ["your_dice", "peek"], "committed": ["rolled"],
}
NOT_SHOWN = {"op", "snapshot"}   # for loggers and re-checkers only

PLACEHOLDER = re.compile(r"%(?:%|[-+ 0#]*\d*(?:\.\d+)?([a-zA-Z]))")


def conversions(s):
    """The % conversions of `s`, in order ("%%" is none)."""
    return "".join(m.group(1) or "" for m in PLACEHOLDER.finditer(s))


def strings():
    """Every (key, lang, string, rules) the cup can show: the main table, then each
    game's own strings (None where the game keeps the main table's)."""
    out = []
    for k in lang.keys():
        for lg in lang.LANGS:
            out.append((k, lg, lang.t(k, lg), None))
    for rules in RULES:
        for k in lang.own_keys(rules):
            for lg in lang.LANGS:
                if lang._own(rules, k, lang.LANGS.index(lg)) is not None:
                    out.append((k, lg, lang.tr(rules, k, lg), rules))
    return out


def overflows():
    """Every string that, with its widest arguments, is wider than its place."""
    bad = []
    for k, lg, _, rules in strings():
        if not lang.fits(k, lg, rules):
            s = lang.tr(rules, k, lg, *lang.worst(k)) if rules else lang.t(k, lg, *lang.worst(k))
            name, px, font = lang.place(k)
            bad.append("%s%s [%s] %r: %d px > %s %d px (%d characters at most)"
                       % (rules + ":" if rules else "", k, lg, s, lang.width(s, font), name, px, lang.limit(k)))
    return bad


# --- the tables -----------------------------------------------------------------------

def test_rule_sets_are_the_engines():
    assert lang.RULES == RULES


def test_every_row_is_whole_and_keys_are_unique():
    names = lang.keys()
    assert len(names) == len(set(names)), [k for k in names if names.count(k) > 1]
    for row in lang._T:
        assert len(row) == 3 + len(lang.LANGS), row[0]
        assert isinstance(row[0], str) and 0 <= row[1] < len(lang.PLACES), row[0]
        assert all(c in lang.ARG_KINDS for c in row[2]), row[0]
        assert isinstance(row[3], str) and row[3], "%s has no English" % row[0]
    seen = set()
    for row in lang._G:
        assert len(row) == 2 + len(lang.LANGS), row[:2]
        assert row[0] in RULES, row[:2]
        assert row[1] in names, "%s: %s is not a key of the main table" % row[:2]
        assert (row[0], row[1]) not in seen, row[:2]
        seen.add((row[0], row[1]))
        assert any(s is not None for s in row[2:]), row[:2]


def test_every_key_exists_in_every_language_or_falls_back_on_purpose():
    missing = {}
    for row in lang._T:
        for i, lg in enumerate(lang.LANGS):
            if row[3 + i] is None:
                missing.setdefault(row[0], set()).add(lg)
            else:
                assert row[3 + i], "%s [%s] is empty" % (row[0], lg)
    assert missing == FALLBACK
    for k, langs in FALLBACK.items():
        for lg in langs:
            assert lang.t(k, lg) == lang.t(k, "en")


def test_only_printable_latin1():
    bad = [(rules, k, lg, s) for k, lg, s, rules in strings()
           if any(not (0x20 <= ord(c) <= 0x7E or 0xA0 <= ord(c) <= 0xFF) for c in s)]
    assert not bad, "outside printable Latin-1 (the cup's font): %s" % bad
    for k in lang.keys():                       # keys and args too: they are in flash
        assert all(ord(c) < 0x80 for c in k + lang.args(k)), k


def test_every_string_fits_its_place_with_its_widest_arguments_in_every_language():
    bad = overflows()
    assert not bad, "too wide for the screen:\n" + "\n".join(bad)


def test_a_too_long_string_is_caught_and_named(monkeypatch):
    row = ("planted", lang._BUTTON, "n", "Hi %s", None, "Hallo %s", None, None)
    monkeypatch.setattr(lang, "_T", lang._T + (row,))
    assert not lang.fits("planted", "de", None) and not lang.fits("planted", "fr", None)
    bad = overflows()
    assert bad and all("planted" in b for b in bad)
    assert "planted [de] 'Hallo MMMMMMMM': 70 px > button 42 px (8 characters at most)" in bad


def test_placeholders_agree_across_languages_and_with_the_args():
    for k, lg, s, rules in strings():
        want = "".join(lang.ARG_CONV[lang.ARG_KINDS.index(c)] for c in lang.args(k))
        assert conversions(s) == want, "%s%s [%s] %r: %r, its args %r want %r" % (
            rules + ":" if rules else "", k, lg, s, conversions(s), lang.args(k), want)
        assert "%" not in PLACEHOLDER.sub("", s), (k, lg, s)
        lang.t(k, lg, *lang.worst(k))          # formats without an error


def test_worst_cases_are_the_documented_ones():
    assert len(lang.WORST) == len(lang.ARG_KINDS) == len(lang.ARG_CONV)
    w = dict(zip(lang.ARG_KINDS, lang.WORST))
    assert len(w["n"]) == 8 and w["q"] == 30 and len(w["f"]) == 1 and w["p"] == 10000
    assert len(str(w["s"])) == 6 and len(w["c"]) == 4 and w["b"] == 100
    assert len(w["o"]) == 3 and len(w["v"]) == 9
    assert lang.worst("bid_of") == ("MMMMMMMM", 30, "*")


def test_places_and_fonts():
    assert lang.FONTS == (("6x10", 6, 10), ("5x8", 5, 8))
    chars = {p[0]: p[1] // lang.advance(p[2]) for p in lang.PLACES}
    assert chars == {"title": 21, "line": 21, "small": 25, "button": 8, "name": 8, "half": 10, "item": 19, "note": 12}
    assert lang.place("shake") == ("title", 128, "6x10")
    assert lang.place("btn_ok") == ("button", 42, "5x8") and lang.limit("btn_ok") == 8
    assert lang.width("Dudo!", "6x10") == 30 and lang.width("Dudo!", "5x8") == 25
    with pytest.raises(ValueError):
        lang.advance("8x8")


# --- what a player sees, and the game's own words -----------------------------------------

def test_every_event_a_player_is_told_of_has_its_strings():
    assert set(EVENT_KEYS) | NOT_SHOWN == set(k for k, _ in KINDS)
    names = set(lang.keys())
    for kind, keys in EVENT_KEYS.items():
        assert set(keys) <= names, (kind, set(keys) - names)


def test_every_engine_error_code_has_its_string():
    for code in CODES:
        assert "err:" + code in lang.keys(), code
        for lg in lang.LANGS:
            assert lang.error(code, lg, None) != lang.t("err", lg), (code, lg)
    assert lang.error("a-code-from-the-future", "it", None) == "Non consentito"
    assert lang.error("bid-too-low", "de", "bluff") == "Wette zu niedrig"
    assert lang.error("bid-too-low", "de", None) == "Gebot zu niedrig"


def test_every_join_failure_has_its_string():
    for why in REASONS[1:] + ("wrong-code", "bad-share", "no-answer"):
        assert "join:" + why in lang.keys(), why


def test_every_engine_option_and_value_has_its_strings():
    for rules in RULES:
        for name, choices in rules_class(rules).OPTIONS:
            assert "opt:" + name in lang.keys(), (rules, name)
            assert "opt:" + name + "?" in lang.keys(), (rules, name)
            item = "table_opt_" + name          # the table menu's toggle, with the value
            kind = "o" if isinstance(choices[0], bool) else "v"
            assert lang.args(item) == kind and lang.place(item)[0] == "item", (rules, name)
            for v in choices:
                if isinstance(v, bool):
                    values = [lang.t("opt_on" if v else "opt_off", lg) for lg in lang.LANGS]
                else:
                    assert "opt:%s:%s" % (name, v) in lang.keys(), (rules, name, v)
                    values = [lang.t("opt:%s:%s" % (name, v), lg) for lg in lang.LANGS]
                # the worst case `fits` checks the item with is as wide as every value
                assert max(len(x) for x in values) <= len(lang.WORST[lang.ARG_KINDS.index(kind)]), (name, values)


def test_every_rule_set_has_its_own_words_in_every_language():
    for rules in RULES:
        assert set(lang.own_keys(rules)) == OWN[rules], rules
        for word in lang.WORDS:
            for lg in lang.LANGS:
                s = lang.game_word(rules, word, lg)
                assert s and lang.fits(word, lg, rules), (rules, word, lg, s)
        # its name and its calls: the game's own string in every language
        for word in ("game", "call", "btn_call") if rules != "dixmille" else ("game",):
            row = [r for r in lang._G if r[:2] == (rules, word)][0]
            assert None not in row[2:], row


def test_the_games_iconic_words():
    for lg in lang.LANGS:
        assert "Dudo" in lang.game_word("perudo", "call", lg)
        assert lang.game_word("perudo", "exact", lg).strip("¡!  ") in ("Calza", "Calzo")
        assert "Palifico" in lang.game_word("perudo", "special", lg)
        assert lang.game_word("menteur", "call", lg) == "Menteur !"
        assert lang.game_word("menteur", "exact", lg) == "Tout pile !"
    assert lang.game_word("perudo", "exact", "es") == "¡Calzo!"
    assert lang.game_word("bluff", "call", "de") == "Hoch die Becher!"
    assert lang.game_word("bluff", "call", "fr") == "Levez les gobelets !"
    assert lang.game_word("liars", "call", "en") == "Liar!"
    assert lang.game_word("liars", "exact", "en") == "Spot on!"
    assert lang.game_word("dixmille", "game", "de") == "Zehntausend"
    assert lang.game_word("dixmille", "btn_bank", "fr") == "Marquer"
    assert lang.tr("bluff", "bid_is", "de", 5, "*") == "Wette: 5 × *"
    assert lang.tr("bluff", "bid_is", "fr", 5, "*") == "Mise : 5 × *"   # the French edition says mise
    assert lang.tr("menteur", "bid_is", "fr", 3, "4") == "Pari : 3 × 4"
    assert lang.tr("liars", "bid_is", "it", 3, "4") == "Offerta: 3 × 4"
    assert lang.tr("perudo", "bid_is", "it", 3, "4") == "Puntata: 3 × 4"


def test_typography():
    for k, lg, s, rules in strings():
        assert s == s.strip() and "  " not in s, (k, lg, s)
        if rules == "menteur" and k in ("call", "exact"):
            continue                                  # French words in every language
        if lg == "fr":
            assert not re.search(r"[^ ][!?:]", s), "French spaces before ! ? : -- %s %r" % (k, s)
        else:
            assert not re.search(r" [!?:]", s), "%s [%s] %r" % (k, lg, s)
        if lg == "es":
            assert s.count("¡") == s.count("!") and s.count("¿") == s.count("?"), (k, s)


# --- the API ------------------------------------------------------------------------------

def test_t_formats_and_falls_back():
    assert lang.t("turn_of", "fr", "Anna") == "À Anna de jouer"
    assert lang.t("lose_n", "de", "Bea", 2) == "Bea gibt 2 Würfel ab"
    assert lang.t("battery", "es", 7) == "Batería 7 %"
    assert lang.t("bid_value", "it", 4, "5") == "4 × 5"
    assert lang.t("shake", "en") == "Shake your cup"
    assert lang.t(lang.key("shake"), "de") == lang.t("shake", 2) == "Becher schütteln"
    assert lang.t("lang_name", "es") == "Español"


def test_unknown_keys_and_languages_are_clear_errors():
    with pytest.raises(lang.UnknownKey) as e:
        lang.t("shaek", "en")
    assert isinstance(e.value, KeyError) and "shaek" in str(e.value)
    with pytest.raises(KeyError):
        lang.tr("perudo", "dudo", "es")
    with pytest.raises(KeyError):
        lang.key("nope")
    with pytest.raises(KeyError):
        lang.t(len(lang.keys()), "en")
    with pytest.raises(ValueError):
        lang.t("shake", "pt")
    with pytest.raises(ValueError):
        lang.game_word("yahtzee", "call", "en")


# --- MicroPython ----------------------------------------------------------------------------

UPY = r"""
import micropython
from dicecup.ui import lang
for k in lang.keys():
    for l in lang.LANGS:
        print(k, l, lang.fits(k, l, None), lang.t(k, l, *lang.worst(k)))
for r in lang.RULES:
    for w in lang.WORDS:
        print(r, w, "|".join([lang.game_word(r, w, l) for l in lang.LANGS]))
try:
    lang.t("shaek", "en")
except KeyError as e:
    print("UnknownKey", isinstance(e, lang.UnknownKey), "shaek" in str(e))
def lookups(i):
    micropython.heap_lock()     # a lookup without arguments allocates nothing
    try:
        a = lang.t("shake", "it")
        b = lang.tr("menteur", "exact", "de")
        c = lang.t(i, 4)
    finally:
        micropython.heap_unlock()
    return a, b, c
print(*lookups(lang.key("your_turn")))
"""


def cpython_listing():
    out = []
    for k in lang.keys():
        for lg in lang.LANGS:
            out.append("%s %s %s %s" % (k, lg, lang.fits(k, lg, None), lang.t(k, lg, *lang.worst(k))))
    for r in RULES:
        for w in lang.WORDS:
            out.append("%s %s %s" % (r, w, "|".join(lang.game_word(r, w, lg) for lg in lang.LANGS)))
    out.append("UnknownKey True True")
    out.append("Scuoti il bicchiere Tout pile ! Te toca")
    return out


def test_it_runs_the_same_in_micropython(upy):
    """As .mpy on the 64-bit unix port. Loaded from a .mpy every string is a heap object
    (about 135 KB on this 64-bit port, more than the 110 KB cap): the cup without PSRAM
    runs it frozen (see the fw32 test), where it stays in flash."""
    res = upy(UPY, heap="512K")
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.decode().splitlines() == cpython_listing()


def test_mpy_cross_compiles_it(mpy_dir):
    sizes = mpy.sizes(mpy_dir, under="dicecup/ui")
    print("dicecup/ui .mpy sizes:", sizes)
    assert sizes["dicecup/ui/lang.mpy"] > 0 and sizes["dicecup/ui/__init__.mpy"] > 0


@pytest.mark.heavy
def test_frozen_in_the_32_bit_build_it_costs_almost_no_ram(fw32):
    """Frozen, the tables are constants in flash: importing the module costs the heap
    only its functions and globals."""
    code = ("import gc\ngc.collect()\na0 = gc.mem_alloc()\nfrom dicecup.ui import lang\n"
            "gc.collect()\na1 = gc.mem_alloc()\n"
            "n = sum(1 for k in lang.keys() for l in lang.LANGS if lang.fits(k, l, None))\n"
            "print(a1 - a0, n, len(lang.keys()) * 5, lang.__file__)\n")
    res = fw32.run_code(code)
    assert res.returncode == 0, res.stderr.decode()
    ram, fit, total, where = res.stdout.decode().split()
    print("dicecup.ui.lang frozen, 32-bit: import costs %s bytes of heap" % ram)
    assert where == "dicecup/ui/lang.py"      # the frozen module, not a file
    assert int(fit) == int(total)
    assert int(ram) < 2048


def test_the_places_fonts_are_the_fonts_the_screens_draw_with():
    from dicecup.ui import font_5x8, font_6x10, text
    mods = {"6x10": font_6x10, "5x8": font_5x8}
    for name, adv, height in lang.FONTS:
        assert (mods[name].WIDTH, mods[name].HEIGHT) == (adv, height)
    for k in lang.keys():
        for code in lang.LANGS:
            s = lang.t(k, code, *lang.worst(k)) if lang.args(k) else lang.t(k, code)
            assert lang.width(s, lang.place(k)[2]) == text.width(s, mods[lang.place(k)[2]])
