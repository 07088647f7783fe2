"""The table's HINTS option (bit 7 of OP_RULES' option byte): set by the master in the
lobby, replicated and kept in snapshots like the rule set's own bits, and never handed
to the engine, so a game with hints on plays exactly as with them off."""
import pytest

from dicecup.net import table as tbl
from dicecup_host.cluster import Cluster


def play(rules, opts, seed=3):
    """A 3-cup table whose master sets `opts` just before the start; every cup's
    events (kind and values) and the options each cup's table reports."""
    cl = Cluster(3, rules=rules, seed=seed)
    logs = [[] for _ in cl.cups]
    for c, log in zip(cl.cups, logs):
        c.cup.listen(lambda e, log=log: log.append((e.kind, tuple(e.values))))
    host = cl.cups[0].cup

    def ready():
        host.set_rules(rules, opts)
        cl.cups[0].flush()
        assert cl.run(10000, lambda: all(c.cup.table.opts == opts for c in cl.cups))
    cl.setup(ready)
    assert cl.run(3_600_000, cl.finished)
    return cl, logs


@pytest.mark.parametrize("rules, opts", [("perudo", 2), ("liars", 3), ("bluff", 0), ("menteur", 0)])
def test_hints_replicate_and_the_game_plays_exactly_as_without(rules, opts):
    off, off_logs = play(rules, opts)
    on, on_logs = play(rules, opts | tbl.HINTS)
    for c in on.cups:                                        # every peer has the bit ...
        t = c.cup.table
        assert t.opts == opts | tbl.HINTS
        assert t.table_options() == t.options() + [("hints", True)]
        copy = tbl.Table.from_snapshot(t.snapshot())          # ... and a snapshot keeps it
        assert copy.opts == opts | tbl.HINTS and ("hints", True) in copy.table_options()
    for c in off.cups:
        assert c.cup.table.table_options() == c.cup.table.options()   # off: as before
    strip = lambda log: [e for e in log if e[0] not in ("rules", "op")]   # (op: the log, its hashes)
    assert [strip(x) for x in on_logs] == [strip(x) for x in off_logs]   # the same game, event for event
    assert sum(1 for e in on_logs[1] if e[0] in ("reveal", "lose", "out")) > 3   # (a real game)
    rules_ev = [e for e in on_logs[2] if e[0] == "rules"][-1]
    assert ["hints", True] in [list(o) for o in rules_ev[1][1]]


def test_the_engine_never_sees_the_hints_bit():
    t = tbl.Table()
    t.rules = "perudo"
    t.opts = 0x82                   # calza_anyone and hints
    assert dict(t.options()) == {"palifico": True, "calza_anyone": True}


def test_hints_are_accepted_for_every_rule_set_and_other_unknown_bits_still_refused():
    from dicecup.engine import RULES, rules_class
    for code, rules in enumerate(RULES, 1):
        t = tbl.Table()
        t.apply(bytes((tbl.OP_RULES, code, tbl.HINTS)))
        assert t.opts == tbl.HINTS and t.table_options()[-1] == ("hints", True)
        bad = 1 << len(rules_class(rules).OPTIONS)
        with pytest.raises(tbl.OpError, match="unknown option bits"):
            tbl.Table().apply(bytes((tbl.OP_RULES, code, bad | tbl.HINTS)))


def test_a_master_ui_dict_with_hints_sets_bit_7_only():
    from dicecup.app import options_bits
    assert options_bits("perudo", {"calza_anyone": True, "hints": True}) == 0x82
    assert options_bits("perudo", {"calza_anyone": True, "hints": False}) == 0x02
    assert options_bits("liars", {"hints": True}) == 0x80


def test_inside_micropython_the_bit_is_kept_and_kept_from_the_engine(upy):
    code = (
        "from dicecup.net import table as tbl\n"
        "t = tbl.Table()\n"
        "t.apply(bytes((tbl.OP_RULES, 2, 0x82)))\n"
        "print(t.opts, t.options(), t.table_options())\n"
        "try:\n"
        "    tbl.Table().apply(bytes((tbl.OP_RULES, 2, 0x84)))\n"
        "except tbl.OpError as e:\n"
        "    print('refused')\n")
    res = upy(code)
    assert res.returncode == 0, res.stdout.decode() + res.stderr.decode()
    assert res.stdout.decode().splitlines() == [
        "130 [('palifico', True), ('calza_anyone', True)] [('palifico', True), ('calza_anyone', True), ('hints', True)]",
        "refused"]
