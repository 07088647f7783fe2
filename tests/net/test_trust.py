"""Nothing escapes, nothing grows: every frame that passes the tag check is refused or
taken without an exception, per-peer buffers stay bounded, no frame moves a replay
window out of reach, a join at extreme loss gives up with a clear result."""
import random

import pytest

from dicecup.net import wire
from dicecup_host.cluster import Cluster
from test_wire import mutate

RULES = ("bluff", "perudo", "menteur", "liars", "dixmille")


def as_from(victim, sender):
    """The tag vector a frame from member `sender` to `victim` carries."""
    return [(victim.me, victim.keys.ring.pair(victim.me, sender))]


def _mutate(v, rnd):
    """A field of a frame's body, changed a little (ints) or as test_wire mutates bytes."""
    if isinstance(v, int):
        return rnd.choice([v + 1, max(v - 1, 0), 0, rnd.randrange(256), v ^ (1 << rnd.randrange(8))])
    return mutate(v, rnd)


@pytest.mark.parametrize("rules", RULES)
def test_every_handler_survives_well_tagged_garbage(rules):
    """Real frames of a game, their bodies mutated and tagged again with the key their
    sender shares with the victim (what a member's modified firmware could send), into
    a live cup in strict mode: no handler raises."""
    for seed in range(6):
        rnd = random.Random(seed)
        c = Cluster(3, rules, {"reroll": True} if rules == "bluff" else None, seed=seed)
        c.setup()
        c.run(rnd.randrange(2000, 15000))
        frames = []
        for rec in c.medium.trace:
            if rec[0] == "tx":
                try:
                    frames.append((rec[3], wire.decode(rec[7])))
                except wire.FrameError:
                    pass
        victim = c.cups[rnd.randrange(3)].cup
        for n in range(250):
            src, f = rnd.choice(frames)
            kind = wire.TYPES[f.type][2]
            if kind == 1 or (kind == 2 and f.sender in (victim.me, wire.NOBODY)):
                continue
            body = list(f.body)
            for _ in range(rnd.randrange(1, 3)):
                i = rnd.randrange(len(body))
                body[i] = _mutate(body[i], rnd)
            try:
                data = wire.encode(f.type, c.tid, f.sender, 10 ** 7 + n, f.ver, tuple(body),
                                   as_from(victim, f.sender) if kind == 2 else None)
            except Exception:  # noqa: BLE001 - a mutation the codec cannot even write
                continue
            victim.on_frame(src, data, c.clock.now)
            victim.tick(c.clock.now)
        assert "internal" not in victim.errors


def test_buffers_stay_bounded_under_a_flood():
    """500 snapshot parts and 500 far-ahead updates, all well tagged, leave the buffers
    at their bounds."""
    c = Cluster(3, "perudo", seed=2)
    c.setup()
    c.run(3000)
    victim = c.cups[1].cup
    key = as_from(victim, 0)
    t = victim.table
    lead = victim.election.term
    for i in range(500):
        part = wire.encode(wire.SNAP, c.tid, 0, 10 ** 7 + 2 * i, 0, (lead, t.version + 1000 + i, i % 8, 8, bytes(150)),
                           key)
        ahead = wire.encode(wire.UPDATE, c.tid, 0, 10 ** 7 + 2 * i + 1, 0,
                            (lead, t.version + 2 + i, 0, 0, 0, bytes((8, 0, 0, 0, 0, 27))), key)
        victim.on_frame(c.cups[0].addr, part, c.clock.now)
        victim.on_frame(c.cups[0].addr, ahead, c.clock.now)
    assert len(victim.sync.pending) <= 16
    assert victim.sync.parts is None or len(victim.sync.parts[3]) <= 8
    assert c.run(3_600_000, c.finished)


def test_a_far_ahead_sequence_number_cannot_lock_a_sender_out():
    c = Cluster(3, "liars", seed=3)
    c.setup()
    c.run(2000)
    victim = c.cups[1].cup
    forged = wire.encode(wire.HEART, c.tid, 0, 0xFFFFFFF0, 0, (victim.table.term, 0, 0, 0), as_from(victim, 0))
    victim.on_frame(c.cups[0].addr, forged, c.clock.now)
    assert victim.errors.get("replay", 0) >= 1
    assert c.run(3_600_000, c.finished)   # the master's real frames still get through


def test_a_join_at_80_percent_loss_gives_up_or_gets_in_and_never_raises():
    outcomes = set()
    for seed in range(4):
        c = Cluster(2, "liars", seed=seed, loss=0.8, record=True)
        host = c.cups[0].cup
        host.create(c.tid, c.code, "liars", 0)
        c.cups[0].flush()
        guest = c.cups[1]
        if not c.run(20000, lambda: c.tid in guest.cup.heard):
            outcomes.add("never heard")
            continue
        guest.cup.join(c.tid, c.code)
        guest.flush()
        c.run(30000, lambda: guest.cup.table is not None)
        if guest.cup.me is not None:
            outcomes.add("in" if guest.cup.table is not None else "in, fetching the state")
        else:
            assert [ev for ev in guest.events if ev.kind == "join_failed"], "no result for the player"
            outcomes.add("gave up")
    assert outcomes


def test_a_wrong_code_gives_up_with_an_event():
    c = Cluster(2, "liars", seed=5, record=True)
    host = c.cups[0].cup
    host.create(c.tid, "1111", "liars", 0)
    c.cups[0].flush()
    guest = c.cups[1]
    assert c.run(3000, lambda: c.tid in guest.cup.heard)
    guest.cup.join(c.tid, "2222")
    guest.flush()
    assert c.run(30000, lambda: [ev for ev in guest.events if ev.kind == "join_failed"])
    assert guest.cup.table is None and guest.cup.joining is None
