"""A bot seat has a level, chosen by the master in the lobby and replicated with the
table, so every cup (and a master after a failover) plays that seat the same way."""
import random

import pytest

from dicecup import players
from dicecup.net import table as tbl
from dicecup.net.cup import Cup
from dicecup.net.memstore import MemStore


def master():
    cup = Cup(b"\x02\x00\x00\x00\x00\x01", MemStore(), random.Random(5).randbytes, "ana")
    events = []
    cup.listen(events.append)
    cup.create(0x1234, "4321", "perudo", 0)
    return cup, events


def test_a_bot_joins_at_its_level_and_every_replica_knows_it():
    cup, events = master()
    kinds = players.available()
    for i, kind in enumerate(kinds):
        cup.add_bot("bot%d" % i, kind)
    joined = [e for e in events if e.kind == "joined"]
    assert [e["level"] for e in joined] == [None] + kinds        # the master's own cup has none
    assert [m.level() for m in cup.table.members[1:]] == kinds
    copy = tbl.Table.from_snapshot(cup.table.snapshot())        # what a joiner or a new master gets
    assert [m.level() for m in copy.members[1:]] == kinds


def test_the_default_bot_is_easy_and_a_level_the_cup_lacks_is_refused():
    cup, _ = master()
    cup.add_bot("bot1")
    assert cup.table.members[1].level() == "easy"
    with pytest.raises(ValueError, match="no 'expert' bot"):
        cup.add_bot("bot2", "expert")
    assert len(cup.table.members) == 2                          # nothing was committed


def test_a_cup_cannot_claim_a_level():
    t = tbl.Table()
    op = tbl.op_join(0, b"\x02\x00\x00\x00\x00\x01", "ana", 1 << tbl.LEVEL_SHIFT, bytes(32))
    with pytest.raises(tbl.OpError, match="only a bot seat has a level"):
        t.apply(op)
