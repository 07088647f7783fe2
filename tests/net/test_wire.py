"""The frame codec: every frame type round-trips, every bad frame is a typed FrameError,
and fuzzing finds no other exception, in the codec or in a cup fed the garbage."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicecup.net import wire
from dicecup.net.cup import Cup
from dicecup.net.memstore import MemStore

KEY = wire.pair_key(0x1234, 2, 1, b"s" * 32)     # what sender 2 and member 1 share
JKEY = wire.session_key(b"i" * 64, b"welcome")
ME = 1                                            # the receiver these tests check as

SAMPLES = {
    wire.BEACON: (2, 3, 1, b"ana"),
    wire.JOIN: (b"n" * 8, b"y" * 32, b"p" * 32, b"ben"),
    wire.CHALLENGE: (b"n" * 8, b"y" * 32, b"\x00" + b"p" * 32, b"t" * 32),
    wire.CONFIRM: (b"n" * 8, b"t" * 32),
    wire.REFUSE: (b"n" * 8, 1),
    wire.WELCOME: (1, b"n" * 8),
    wire.HELLO: (7,),
    wire.UPDATE: (1, 42, 0, 0, 40, b"\x08\x01\x00\x00\x00\x1b"),
    wire.ACK: (0, 42, 1),
    wire.NEED: (40,),
    wire.SNAP: (0, 42, 0, 2, b"x" * 200),
    wire.ACTION: (1, 0x1B, 42, b""),
    wire.REJECT: (42, b"bid-too-low"),
    wire.COMMIT: (3, 1, b"d" * 12),
    wire.REVEAL: (3, 1, b"r" * 16),
    wire.HEART: (0, 42, 40, 0),
    wire.ROLLC: (42, 1, b"d" * 12, b""),
    wire.WITNESS: (42, b"w" * 16, b""),
    wire.ROLLR: (42, 1, b"r" * 16),
    wire.LEAVE: (2,),
    wire.AUTO: (2, 1),
    wire.VOTE_REQ: (3, 42, 2, 1),
    wire.VOTE: (3, 1, 0),
}


def key_for(ftype):
    return {0: None, 1: JKEY, 2: [(ME, KEY)]}[wire.TYPES[ftype][2]]


def check_key(ftype):
    return {0: None, 1: JKEY, 2: KEY}[wire.TYPES[ftype][2]]


@pytest.mark.parametrize("ftype", sorted(SAMPLES))
def test_every_frame_type_round_trips_within_250_bytes(ftype):
    data = wire.encode(ftype, 0x1234, 2, 99, 42, SAMPLES[ftype], key_for(ftype))
    assert len(data) <= 250
    f = wire.decode(data, 0x1234)
    assert (f.type, f.table, f.sender, f.seq, f.ver, f.body) == (ftype, 0x1234, 2, 99, 42, SAMPLES[ftype])
    if key_for(ftype):
        wire.check(f, check_key(ftype), ME)


def good():
    return wire.encode(wire.ACTION, 0x1234, 2, 99, 42, (1, 0x1B, 42, b""), [(ME, KEY)])


@pytest.mark.parametrize("data, code", [
    (b"", "truncated"),
    (good()[:7], "truncated"),
    (good() + bytes(250), "oversized"),
    (b"\xd1" + good()[1:], "version"),
    (good()[:1] + b"\x63" + good()[2:], "type"),
    (good()[:-8] + good()[-7:], "malformed"),
    (good()[:-1] + b"\x3f", "truncated"),          # six entries: no room for them
    (good()[:-1] + b"\x40", "malformed"),          # a 7th member
    (good()[:-1] + b"\x80", "malformed"),
    (good()[:-1] + b"\x04", "not-for-me"),         # another receiver's entry only
])
def test_bad_frames_are_typed_errors(data, code):
    with pytest.raises(wire.FrameError) as err:
        wire.check(wire.decode(data, 0x1234), KEY, ME)
    assert err.value.code == code


def test_other_table_and_wrong_key_are_rejected():
    with pytest.raises(wire.FrameError) as err:
        wire.decode(good(), 0x9999)
    assert err.value.code == "foreign-table"
    f = wire.decode(good(), 0x1234)
    other = wire.pair_key(0x1234, 3, 1, b"s" * 32)  # what member 3 shares with member 1
    with pytest.raises(wire.FrameError) as err:
        wire.check(f, other, ME)
    assert err.value.code == "bad-tag"
    flipped = bytearray(good())
    flipped[13] ^= 1
    with pytest.raises(wire.FrameError) as err:
        wire.check(wire.decode(bytes(flipped), 0x1234), KEY, ME)
    assert err.value.code == "bad-tag"


def test_a_broadcast_carries_one_tag_per_receiver_and_each_checks_its_own():
    keys = dict((j, wire.pair_key(0x1234, 0, j, bytes((j,)) * 32)) for j in (1, 2, 4, 5))
    body = (0, 42, 40, 0)
    data = wire.encode(wire.HEART, 0x1234, 0, 7, 42, body, sorted(keys.items()))
    plain = wire.encode(wire.HEART, 0x1234, 0, 7, 42, body, [])
    assert len(data) == len(plain) + 6 * 4 and data[-1] == 0b110110
    f = wire.decode(data, 0x1234)
    assert f.body == body
    for j, k in keys.items():
        wire.check(f, k, j)
        for other, k2 in keys.items():
            if other != j:
                with pytest.raises(wire.FrameError) as err:
                    wire.check(f, k2, j)     # another pair's key: refused
                assert err.value.code == "bad-tag"
    with pytest.raises(wire.FrameError) as err:
        wire.check(f, keys[1], 3)            # member 3 is not covered
    assert err.value.code == "not-for-me"
    # moving the mask to claim another receiver breaks every tag
    swapped = wire.decode(data[:-1] + bytes((0b110101,)), 0x1234)
    with pytest.raises(wire.FrameError):
        wire.check(swapped, keys[1], 0)


def test_pair_keys_are_symmetric_and_bound_to_table_and_members():
    s = b"x" * 32
    assert wire.pair_key(7, 1, 4, s).tag(b"m") == wire.pair_key(7, 4, 1, s).tag(b"m")
    assert wire.pair_key(7, 1, 4, s).tag(b"m") != wire.pair_key(8, 1, 4, s).tag(b"m")
    assert wire.pair_key(7, 1, 4, s).tag(b"m") != wire.pair_key(7, 1, 3, s).tag(b"m")


def test_hmac_matches_the_standard():
    import hashlib
    import hmac
    for key in (b"k", b"k" * 64, b"k" * 100):
        assert wire.hmac(key, b"message") == hmac.new(key, b"message", hashlib.sha256).digest()
        k = wire.Key(key)  # the padded blocks made once, reused for every tag
        for msg in (b"", b"message", bytes(range(256)) * 3):
            assert k.tag(msg) == hmac.new(key, msg, hashlib.sha256).digest()


def test_replay_window_accepts_each_sequence_once_and_reordered_ones():
    w = wire.Window()
    a = b"\x02\x00\x00\x00\x00\x01"
    assert w.accept(1, a, 10) and w.accept(1, a, 12) and w.accept(1, a, 11)
    assert not w.accept(1, a, 11) and not w.accept(1, a, 12)
    assert w.accept(1, a, 100) and not w.accept(1, a, 10)  # far behind: refused
    assert w.accept(2, a, 10)  # another sender has its own window
    assert w.accept(1, b"\x02\x00\x00\x00\x00\x02", 10)  # and another radio address


def mutate(data, rnd):
    data = bytearray(data)
    for _ in range(rnd.randrange(1, 4)):
        op = rnd.randrange(4)
        if op == 0 and data:
            data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
        elif op == 1 and data:
            del data[rnd.randrange(len(data)):]
        elif op == 2:
            data += bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 40)))
        elif data:
            i = rnd.randrange(len(data))
            data[i] = rnd.randrange(256)
    return bytes(data)


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), ftype=st.sampled_from(sorted(SAMPLES)), raw=st.binary(max_size=300))
def test_fuzzed_frames_only_ever_raise_frame_error(seed, ftype, raw):
    rnd = random.Random(seed)
    base = wire.encode(ftype, 0x1234, 2, 99, 42, SAMPLES[ftype], key_for(ftype))
    for data in (raw, mutate(base, rnd), base[:rnd.randrange(len(base) + 1)]):
        try:
            f = wire.decode(data, 0x1234 if rnd.randrange(2) else None)
            if wire.TYPES[f.type][2]:
                wire.check(f, check_key(f.type), ME)
        except wire.FrameError:
            pass


def live_cup():
    """A master with a game on, to throw garbage at."""
    cup = Cup(b"\x02\x00\x00\x00\x00\x01", MemStore(), random.Random(5).randbytes, "ana")
    cup.create(0x1234, "4321", "perudo", 0)
    cup.add_bot("bot1")
    cup.start()
    cup.tick(10)
    return cup


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), ftype=st.sampled_from(sorted(SAMPLES)))
def test_a_cup_survives_fuzzed_frames_and_changes_nothing(seed, ftype):
    cup = live_cup()
    before = cup.table.snapshot()
    rnd = random.Random(seed)
    base = wire.encode(ftype, 0x1234, 1, 99, 42, SAMPLES[ftype], key_for(ftype))
    for _ in range(5):
        cup.on_frame(b"\x02\x00\x00\x00\x00\x09", mutate(base, rnd), 20)
    assert cup.table.snapshot() == before
