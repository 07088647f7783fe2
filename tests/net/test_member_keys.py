"""Per-member keys and the CPace join: no member (the leader included) can send as
another, a recorded join gives no offline test of the code, online guesses are
rationed and locked out, a rebooted member is back with its flash keys."""
from dicecup.net import gate, pake, timing, wire
from dicecup.net.lobby import _ci, _sid
from dicecup_host import simrun
from dicecup_host.cluster import Cluster


def _tx(c, since=0):
    return [rec for rec in c.medium.trace[since:] if rec[0] == "tx"]


def as_from(victim, sender):
    return [(victim.me, victim.keys.ring.pair(victim.me, sender))]


# ----- frames ---------------------------------------------------------------------------
def test_a_member_cannot_send_as_another_member_or_as_the_leader():
    c = Cluster(3, "liars", seed=4)
    c.setup()
    c.run(3000)
    cheat, victim, master = c.cups[2].cup, c.cups[1].cup, c.cups[0].cup
    before = (victim.table.snapshot(), master.table.snapshot())
    t = victim.table
    # the cheat's own key with the victim, on frames that claim the leader as sender
    mine = [(victim.me, cheat.keys.ring.pair(cheat.me, victim.me))]
    heart = wire.encode(wire.HEART, c.tid, 0, 10 ** 7, t.version, (t.term, t.version + 5, t.version + 5, 0), mine)
    op = bytes((wire.ACTION, 0))   # any bytes: nothing may be applied
    update = wire.encode(wire.UPDATE, c.tid, 0, 10 ** 7 + 1, t.version,
                         (t.term, t.version + 1, t.term, t.term, t.version + 1, op), mine)
    for data in (heart, update):
        victim.on_frame(c.cups[0].addr, data, c.clock.now)          # even from the leader's address
    assert victim.errors.get("bad-tag", 0) == 2
    # an action "as" member 1 to the master, tagged with the cheat's key with the master
    act = wire.encode(wire.ACTION, c.tid, 1, 10 ** 7, t.version, (t.seat_of(1), 0x1B, t.version, b""),
                      [(0, cheat.keys.ring.pair(cheat.me, 0))])
    master.on_frame(c.cups[1].addr, act, c.clock.now)
    assert master.errors.get("bad-tag", 0) == 1
    # a sender with no key at the table
    ghost = wire.encode(wire.HEART, c.tid, 5, 10 ** 7, 0, (t.term, 0, 0, 5), mine)
    victim.on_frame(c.cups[2].addr, ghost, c.clock.now)
    assert victim.errors.get("unknown-sender", 0) == 1
    assert (victim.table.snapshot(), master.table.snapshot()) == before
    # and the real pairwise key does pass: the refusals above were the sender's
    real = wire.encode(wire.HELLO, c.tid, 2, cheat.keys.next_seq(), 0, (t.version,), as_from(master, 2))
    n = sum(master.errors.values())
    master.on_frame(c.cups[2].addr, real, c.clock.now)
    assert sum(master.errors.values()) == n
    assert c.run(3_600_000, c.finished)


def test_every_replica_holds_every_members_key_and_bots_have_none():
    c = Cluster(3, "perudo", seed=6, bots=1)
    c.setup()
    c.run(2000)
    pks = [sc.cup.keys.ring.public() for sc in c.cups]
    for sc in c.cups:
        ms = sc.cup.table.members
        assert [m.pk for m in ms] == pks + [None]
        assert sorted(sc.cup.keys.ring.roster) == [0, 1, 2]
        assert sc.cup.flash.roster() == sc.cup.keys.ring.roster


def test_the_largest_frames_fit_esp_now_with_six_members():
    sizes = {}
    for seed, rules in ((1, "bluff"), (2, "dixmille"), (3, "perudo")):
        c, _ = simrun.play_one(6, rules, {"reroll": True} if rules == "bluff" else None, seed, record=True)
        for rec in _tx(c):
            f = wire.decode(rec[7])
            sizes[f.name()] = max(sizes.get(f.name(), 0), len(rec[7]))
    assert max(sizes.values()) <= wire.MTU, sizes
    print("largest frames: %s" % sizes)


# ----- the join -------------------------------------------------------------------------
def _join_record(code):
    c = Cluster(2, "liars", seed=9, record=True)
    c.code = code
    host, guest = c.cups[0], c.cups[1]
    host.cup.create(c.tid, code, "liars", 0)
    host.flush()
    assert c.run(3000, lambda: c.tid in guest.cup.heard)
    start = len(c.medium.trace)
    guest.cup.join(c.tid, code)
    guest.flush()
    assert c.run(5000, lambda: guest.cup.table is not None)
    frames = [wire.decode(rec[7]) for rec in _tx(c, start)]
    return c, [f for f in frames if f.type in (wire.JOIN, wire.CHALLENGE, wire.CONFIRM, wire.WELCOME)]


def test_a_recorded_join_gives_no_offline_test_of_the_code():
    c1, a = _join_record("1111")
    c2, b = _join_record("9876")
    # the same frames, of the same sizes, whatever the code
    assert [(f.type, len(f.raw)) for f in a] == [(f.type, len(f.raw)) for f in b]
    assert [f.type for f in a] == [wire.JOIN, wire.CHALLENGE, wire.CONFIRM, wire.WELCOME]
    assert all(wire.key_kind(f.type) in (0, 1) for f in a)   # no tag keyed from the code
    # an eavesdropper who knows the right code but neither scalar: the master's
    # confirmation checks no better than under a wrong code
    join, challenge = a[0], a[1]
    nonce, share, pk, name = join.body
    guest, host = c1.cups[1].addr, c1.cups[0].addr
    for code in (b"1111", b"0000"):
        spy = pake.Cpace(code, _sid(c1.tid, nonce), _ci(c1.tid, guest, host), True, bytes, pk + name)
        spy._random = lambda n: bytes(range(n))
        spy.finish(challenge.body[1] + challenge.body[2])
        assert not spy.check_confirm(challenge.body[3])


def test_a_wrong_code_is_counted_on_the_master_and_reported_to_the_joiner():
    c = Cluster(2, "liars", seed=5, record=True)
    host, guest = c.cups[0], c.cups[1]
    host.cup.create(c.tid, "1111", "liars", 0)
    host.flush()
    assert c.run(3000, lambda: c.tid in guest.cup.heard)
    guest.cup.join(c.tid, "2222")
    guest.flush()
    assert c.run(5000, lambda: [ev for ev in guest.events if ev.kind == "join_failed"])
    assert [ev.values[1] for ev in guest.events if ev.kind == "join_failed"] == ["wrong-code"]
    c.run(100)   # the guest's confirmation, on its way
    assert host.cup.errors.get("join-bad-code") == 1 and len(host.cup.table.members) == 1
    assert guest.cup.me is None and guest.cup.keys.jkey is None


def _guess_until_locked(c, guest, limit_ms):
    """Wrong codes, one join after the other, until the master says locked."""
    reasons = []
    code = 0
    while c.clock.now < limit_ms:
        n = len(reasons)
        guest.cup.join(c.tid, "%04d" % code)
        guest.flush()
        code += 1
        assert c.run(30000, lambda: len([e for e in guest.events if e.kind == "join_failed"]) > n)
        reasons = [e.values[1] for e in guest.events if e.kind == "join_failed"]
        if reasons[-1] == "locked":
            return reasons
    return reasons


def test_online_guesses_are_rationed_and_locked_out_and_the_joiner_is_told():
    c = Cluster(3, "liars", seed=12, record=True)
    c.code = "9999"
    host, thief, friend = c.cups
    host.cup.create(c.tid, c.code, "liars", 0)
    host.flush()
    assert c.run(3000, lambda: c.tid in thief.cup.heard)
    reasons = _guess_until_locked(c, thief, 30 * 60000)
    assert reasons[-1] == "locked"
    wrong = reasons.count("wrong-code")
    assert wrong == gate.LOCK_AFTER                     # exactly the limit, then locked
    assert "busy" in reasons                            # the rate limit held guesses back on the way
    errs = host.cup.errors
    assert errs.get("join-bad-code") == gate.LOCK_AFTER and errs.get("join-lockout") == 1
    assert errs.get("join-busy", 0) >= 1 and errs.get("join-locked", 0) >= 1
    locked_at = c.clock.now
    # at 3 guesses a minute: LOCK_AFTER guesses took over 3 minutes
    assert locked_at > (gate.LOCK_AFTER // gate.RATE) * gate.WINDOW_MS
    # locked for everyone, the right code too
    assert c.run(3000, lambda: c.tid in friend.cup.heard)
    friend.cup.join(c.tid, c.code)
    friend.flush()
    assert c.run(5000, lambda: [e for e in friend.events if e.kind == "join_failed"])
    assert [e.values[1] for e in friend.events if e.kind == "join_failed"] == ["locked"]
    assert len(host.cup.table.members) == 1
    # and open again after the lockout
    c.run(gate.LOCK_MS)
    friend.cup.join(c.tid, c.code)
    friend.flush()
    assert c.run(5000, lambda: friend.cup.table is not None and len(host.cup.table.members) == 2)


def test_a_guess_that_never_confirms_is_counted_too():
    """An attacker checks the master's confirmation itself and never answers: the session
    still counts as a failed guess once it expires."""
    c = Cluster(2, "liars", seed=14)
    host, spy = c.cups
    host.cup.create(c.tid, c.code, "liars", 0)
    host.flush()
    assert c.run(3000, lambda: c.tid in spy.cup.heard)
    spy.cup.join(c.tid, "0000")
    spy.cup.joining.on_challenge = lambda src, f: None   # it only listens (frames reach it by name)
    spy.flush()
    c.run(timing.SESSION_MS + 2000)
    assert host.cup.errors.get("join-expired", 0) >= 1
    assert host.cup.lobby.gate.failures >= 1


# ----- reboots and rejoins ------------------------------------------------------------
def test_a_rebooted_member_is_back_with_its_flash_keys_and_no_join():
    c = Cluster(3, "perudo", seed=33)
    c.setup()
    c.run(4000)
    peer = c.cups[2]
    pk = peer.cup.keys.ring.public()
    me = peer.cup.me
    peer.power_off()
    c.run(1000)
    start = len(c.medium.trace)
    peer.power_on()
    assert peer.cup.keys.ring.public() == pk and peer.cup.me == me
    assert sorted(peer.cup.keys.ring.roster) == [0, 1, 2]       # the roster came from flash
    assert c.run(3000, lambda: peer.cup.table is not None)
    sent = [wire.decode(rec[7]).type for rec in _tx(c, start) if rec[3] == peer.addr]
    assert wire.JOIN not in sent and wire.HELLO in sent
    assert c.run(3_600_000, c.finished)
    ok, reasons = simrun.check_game(c)
    assert ok, reasons


def test_a_member_joining_again_proves_itself_with_its_key_not_the_code():
    c = Cluster(3, "liars", seed=21)
    c.setup()
    c.run(4000)
    member = c.cups[1]
    start = len(c.medium.trace)
    member.cup.join(c.tid, "0000")          # a wrong code: not needed, not checked
    member.flush()
    c.run(2000)
    sent = [wire.decode(rec[7]).type for rec in _tx(c, start) if rec[3] == member.addr]
    assert wire.JOIN not in sent
    assert member.cup.table is not None and member.cup.me == 1
    assert c.cups[0].cup.errors.get("join-bad-code", 0) == 0
    assert c.run(3_600_000, c.finished)


def test_a_snapshot_cannot_change_a_key_a_member_already_knows():
    """Trust on first use: a master that later hands out another key for a member (to
    stand in the middle) is not followed."""
    c = Cluster(3, "liars", seed=23)
    c.setup()
    c.run(2000)
    peer = c.cups[2].cup
    known = peer.keys.ring.roster[1][1]
    t = peer.table
    t.members[1].pk = bytes(range(32))     # what a dishonest master's snapshot would say
    peer.resynced(t, t.snapshot())
    assert peer.errors.get("key-changed") == 1 and peer.keys.ring.roster[1][1] == known
