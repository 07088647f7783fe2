"""The join's PAKE primitives: X25519 (net/x25519.py), SHA-512 (net/sha512.py) and
CPace (net/pake.py), against RFC 7748's vectors, the `cryptography` package, hashlib,
and the X25519/SHA-512 test vectors of draft-irtf-cfrg-cpace-21 (appendix "Test vector
for CPace using group X25519 and hash SHA-512"), on CPython and inside MicroPython."""
import hashlib
import hmac
import os
import random

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from dicecup.net import pake, x25519
from dicecup.net.pake import Cpace, PakeError
from dicecup.net.sha512 import sha512

h = bytes.fromhex
heavy = pytest.mark.heavy

# --- X25519 ------------------------------------------------------------------------

RFC7748_5_2 = [  # scalar, u, X25519(scalar, u)
    ("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
     "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
     "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"),
    ("4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
     "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
     "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"),
]
ITERATED = {1: "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079",
            1000: "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51"}
# (1,000,000 iterations: ~25 minutes at 1.4 ms each on CPython; not run)


def crypto_x25519(k, u):
    return X25519PrivateKey.from_private_bytes(k).exchange(X25519PublicKey.from_public_bytes(u))


def crypto_public(k):
    return X25519PrivateKey.from_private_bytes(k).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


@pytest.mark.parametrize("k,u,out", RFC7748_5_2)
def test_rfc7748_section_5_2(k, u, out):
    assert x25519.scalarmult(h(k), h(u)).hex() == out
    assert crypto_x25519(h(k), h(u)).hex() == out


def iterate(n):
    k = u = x25519.BASE
    for _ in range(n):
        k, u = x25519.scalarmult(k, u), k
    return k


def test_rfc7748_one_iteration():
    assert iterate(1).hex() == ITERATED[1]


@heavy
def test_rfc7748_thousand_iterations():
    assert iterate(1000).hex() == ITERATED[1000]


def test_rfc7748_section_6_1_diffie_hellman():
    a = h("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
    b = h("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
    pa, pb = x25519.public_key(a), x25519.scalarmult_base(b)
    assert pa.hex() == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
    assert pb.hex() == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
    shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
    assert x25519.scalarmult(a, pb).hex() == x25519.scalarmult(b, pa).hex() == shared


def test_matches_cryptography_on_random_keys_and_points():
    rng = random.Random(25519)
    for _ in range(40):
        k, k2 = rng.randbytes(32), rng.randbytes(32)
        assert x25519.public_key(k) == crypto_public(k)
        u = rng.randbytes(32)              # any 32 bytes: bit 255 set, twist points, >= P
        assert x25519.scalarmult(k, u) == crypto_x25519(k, u)
        assert x25519.scalarmult(k, x25519.public_key(k2)) == crypto_x25519(k2, crypto_public(k))


def test_clamping_ignores_the_cofactor_and_top_bits():
    k = bytearray(os.urandom(32))
    u = x25519.public_key(os.urandom(32))
    same = bytearray(k)
    same[0] ^= 7
    same[31] ^= 0xC0
    assert x25519.scalarmult(bytes(k), u) == x25519.scalarmult(bytes(same), u)
    assert x25519.clamp(bytes(k)) % 8 == 0 and x25519.clamp(bytes(k)) >> 254 == 1


def test_wrong_sizes_raise_value_error():
    for k, u in ((bytes(31), x25519.BASE), (bytes(32), bytes(33))):
        with pytest.raises(ValueError):
            x25519.scalarmult(k, u)


def test_field_helpers():
    rng = random.Random(7)
    for _ in range(20):
        x = rng.randrange(1, x25519.P)
        assert x * x25519.inverse(x) % x25519.P == 1
        assert x25519.is_square(x * x % x25519.P)
    assert x25519.inverse(0) == 0 and x25519.is_square(0) and not x25519.is_square(2)


def test_elligator2_lands_on_the_curve():
    rng = random.Random(9)
    p, a = x25519.P, x25519.A
    for _ in range(50):
        u = x25519.map_to_curve_elligator2(rng.randrange(p))
        assert 0 <= u < p and x25519.is_square((u * u * u + a * u * u + u) % p)


# --- SHA-512 -------------------------------------------------------------------------

def test_sha512_matches_hashlib():
    rng = random.Random(512)
    for n in list(range(0, 260)) + [1000, 4096]:
        data = rng.randbytes(n)
        assert sha512(data).digest() == hashlib.sha512(data).digest(), n
    data = rng.randbytes(777)
    s = sha512()
    for i in range(0, len(data), 13):
        s.update(data[i:i + 13])
    assert s.digest() == s.digest() == hashlib.sha512(data).digest()
    assert sha512(b"abc").hexdigest() == hashlib.sha512(b"abc").hexdigest()
    for _ in range(200):   # pieces of any size, across block edges (a join feeds it so)
        data = rng.randbytes(rng.randrange(600))
        s = sha512()
        i = 0
        while i < len(data):
            k = rng.randrange(1, 200)
            s.update(bytearray(data[i:i + k]))
            i += k
        assert s.digest() == hashlib.sha512(data).digest()


# --- CPace: the draft's vectors ------------------------------------------------------

V = {  # draft-irtf-cfrg-cpace-21, group X25519 and hash SHA-512 (testvectors.json G_25519)
    "PRS": b"Password",
    "CI": h("0b415f696e69746961746f720b425f726573706f6e646572"),
    "sid": h("7e4b4791d6a8ef019b936c79fb7f2c57"),
    "generator_string": h(
        "0843506163653235350850617373776f72646d" + "00" * 109
        + "180b415f696e69746961746f720b425f726573706f6e646572107e4b4791d6a8ef019b936c79fb7f2c57"),
    "hash": h("03998087bdb1a2617bbe25ef5a7c18cd4f84f902328701790958755ee4aed1d3"),
    "g": h("d04bf6d41f6a289632a2e929fa29bebd51092512a7829fdde7d314b62f05a73f"),
    "ya": h("21b4f4bd9e64ed355c3eb676a28ebedaf6d8f17bdc365995b319097153044080"),
    "ADa": b"ADa",
    "Ya": h("1d13c89278cdadd826f6d8d7f887701430f8380ddc17611cdd6dc989ce0c9f32"),
    "yb": h("848b0779ff415f0af4ea14df9dd1d3c29ac41d836c7808896c4eba19c51ac40a"),
    "ADb": b"ADb",
    "Yb": h("248cccf6d5cdc3646f0ad593f9e6cef4e69d4945f8372e623512ecea32185623"),
    "K": h("5b067effbdc0b2a0e1d907b21ebb25cfedb96a852179a847c37e43ee71322c6b"),
    "ISK_IR": h("6e19b875f7a561d6b3ca3dbb9ef42ac55de3e717881018204b8922b4d5e53bb2"
                "aa82c300bea7b65d2b671da71922ddf6472301b79bc270adfa8bf413285f2263"),
}
# G_X25519.scalar_mult_vfy(s, uN) = qN; u0-u5 and u7 must make a party abort
S_LOW = h("af46e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449aff")
LOW = [
    ("0000000000000000000000000000000000000000000000000000000000000000", None),
    ("0100000000000000000000000000000000000000000000000000000000000000", None),
    ("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", None),
    ("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800", None),
    ("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157", None),
    ("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", None),
    ("daffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
     "d8e2c776bbacd510d09fd9278b7edcd25fc5ae9adfba3b6e040e8d3b71b21806"),
    ("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", None),
    ("dbffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
     "c85c655ebe8be44ba9c0ffde69f2fe10194458d137f09bbff725ce58803cdb38"),
    ("d9ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
     "db64dafa9b8fdd136914e61461935fe92aa372cb056314e1231bc4ec12417456"),
    ("cdeb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b880",
     "e062dcd5376d58297be2618c7498f55baa07d7e03184e8aada20bca28888bf7a"),
    ("4c9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f11d7",
     "993c6ad11c4c29da9a56f7691fd0ff8d732e49de6250b6c2e80003ff4629a175"),
]


def fixed(y):
    return lambda n: y


def draft_pair():
    a = Cpace(V["PRS"], V["sid"], V["CI"], initiator=True, random_bytes=fixed(V["ya"]), ad=V["ADa"])
    b = Cpace(V["PRS"], V["sid"], V["CI"], initiator=False, random_bytes=fixed(V["yb"]), ad=V["ADb"])
    return a, b


def test_string_utilities_match_the_draft():
    assert pake.prepend_len(b"") == h("00")
    assert pake.prepend_len(b"1234") == h("0431323334")
    assert pake.prepend_len(bytes(range(127))) == b"\x7f" + bytes(range(127))
    assert pake.prepend_len(bytes(range(128))) == b"\x80\x01" + bytes(range(128))
    assert pake.lv_cat(b"1234", b"5", b"", b"678") == h("043132333401350003363738")
    assert pake.transcript_ir(b"123", b"PartyA", b"234", b"PartyB") == h(
        "03313233065061727479410332333406506172747942")
    assert pake.transcript_ir(b"3456", b"PartyA", b"2345", b"PartyB") == h(
        "043334353606506172747941043233343506506172747942")


def test_generator_matches_the_draft():
    gs = pake.generator_string(V["PRS"], V["CI"], V["sid"])
    assert len(gs) == 170 and gs == V["generator_string"]
    assert hashlib.sha512(gs).digest()[:32] == sha512(gs).digest()[:32] == V["hash"]
    assert pake.calculate_generator(V["PRS"], V["CI"], V["sid"]) == V["g"]


def test_shares_k_and_isk_match_the_draft():
    a, b = draft_pair()
    assert a.message() == V["Ya"] + V["ADa"]
    assert b.message() == V["Yb"] + V["ADb"]
    assert x25519.scalarmult(V["ya"], V["Yb"]) == x25519.scalarmult(V["yb"], V["Ya"]) == V["K"]
    assert a.finish(b.message()) == b.finish(a.message()) == V["ISK_IR"]
    assert a.peer_ad == b"ADb" and b.peer_ad == b"ADa"
    assert b.check_confirm(a.confirm_tag()) and a.check_confirm(b.confirm_tag())
    assert a.confirmed and b.confirmed


def test_confirmation_layout_agrees_with_another_implementation():
    """The draft gives no tag vectors. With HMAC-SHA512 as the MAC, this module's
    mac_key and tagged string (lv_cat(Y, AD)) give the tags that the Python `cpace`
    package 0.1.0 computes for the draft's inputs (as recorded by the Zig package
    zig-std-crypto-ext, tests/cpace.zig): third-party figures, a cross-check of the
    layout only. The cups use HMAC-SHA256 over the same string."""
    a, b = draft_pair()
    a.finish(b.message())
    mac_key = hashlib.sha512(b"CPaceMac" + V["sid"] + V["ISK_IR"]).digest()
    assert a._mac_key == mac_key
    ta = hmac.new(mac_key, pake.lv_cat(V["Ya"], V["ADa"]), hashlib.sha512).hexdigest()
    tb = hmac.new(mac_key, pake.lv_cat(V["Yb"], V["ADb"]), hashlib.sha512).hexdigest()
    assert ta.upper() == ("214B05FED53D47D1AC815B42EAE64CC68F93F2013DB81DB04CC9A4F12A1A5CA5"
                          "13CB2458C9071BBECF720556872DE984260FDC2B576C8F5331C455DE81BD22DD")
    assert tb.upper() == ("B792827DC20F93390415CBA5F17CBDBB00556053CE74D334E16FFD52258C1320"
                          "36F933ECE5527CA39CCD6D25AC7030C15B15AE6EE45B7665E5DF9DC651AD9362")
    assert a.confirm_tag() == hmac.new(mac_key, pake.lv_cat(V["Ya"], V["ADa"]), hashlib.sha256).digest()


@pytest.mark.parametrize("i", range(len(LOW)))
def test_low_order_and_non_canonical_points(i):
    u, q = LOW[i]
    assert x25519.scalarmult(S_LOW, h(u)).hex() == (q or "00" * 32)
    a, b = draft_pair()
    a.message()
    if q is None:                          # the draft: these MUST abort
        with pytest.raises(PakeError) as e:
            a.finish(h(u))
        assert e.value.code == "bad-point" and isinstance(e.value, ValueError)
        with pytest.raises(PakeError) as e:
            a.message()
        assert e.value.code == "wrong-state"   # the session is dead
    else:
        assert len(a.finish(h(u) + b"x")) == 64


# --- CPace: the state machine ---------------------------------------------------------

def pair(pa=b"4321", pb=b"4321", sid=b"sid-0123456789ab", ci=b"\x04t1234\x04m042"):
    return (Cpace(pa, sid, ci, initiator=True, random_bytes=os.urandom, ad=b"joiner"),
            Cpace(pb, sid, ci, initiator=False))


def test_two_honest_sides_agree_and_confirm():
    a, b = pair()
    ma = a.message()
    assert len(ma) == 32 + 6 and a.message() == ma          # resendable: the same bytes
    mb = b.message()
    ka, kb = a.finish(mb), b.finish(ma)
    assert ka == kb and len(ka) == 64
    ta, tb = a.confirm_tag(), b.confirm_tag()
    assert len(ta) == len(tb) == 32 and ta != tb
    assert b.check_confirm(ta) and a.check_confirm(tb)
    assert b.check_confirm(ta)                               # a resent tag: still fine
    assert not b.check_confirm(tb) and b.confirmed           # a stray one: False, no harm
    assert a.confirm_tag() == ta


def test_fresh_shares_every_session():
    a1, _ = pair()
    a2, _ = pair()
    assert a1.message()[:32] != a2.message()[:32]


def test_wrong_password_gives_different_keys_and_failed_confirmations():
    a, b = pair(pa=b"4321", pb=b"4322")
    ka, kb = a.finish(b.message()), b.finish(a.message())
    assert ka != kb
    ta, tb = a.confirm_tag(), b.confirm_tag()
    assert not b.check_confirm(ta) and not a.check_confirm(tb)
    for side in (a, b):
        assert not side.confirmed
        for call in (side.confirm_tag, side.message, lambda: side.check_confirm(bytes(32))):
            with pytest.raises(PakeError) as e:
                call()
            assert e.value.code == "wrong-state"


@pytest.mark.parametrize("where", ["share", "ad", "tag", "sid", "ci"])
def test_tampering_fails_the_confirmation(where):
    sid, ci = b"sid-0123456789ab", b"\x04t1234\x04m042"
    a = Cpace(b"4321", sid, ci, initiator=True, ad=b"joiner")
    b = Cpace(b"4321", sid + (b"!" if where == "sid" else b""), ci + (b"!" if where == "ci" else b""),
              initiator=False)
    ma = bytearray(a.message())
    if where == "share":
        ma[5] ^= 1
    elif where == "ad":
        ma[-1] ^= 1
    b.finish(bytes(ma))
    a.finish(b.message())
    ta, tb = bytearray(a.confirm_tag()), b.confirm_tag()
    if where == "tag":
        ta[0] ^= 0x80
    assert not b.check_confirm(bytes(ta))
    assert a.check_confirm(tb) == (where == "tag")   # only A's tag was touched


def test_the_responder_may_finish_before_sending():
    a, b = pair()
    kb = b.finish(a.message())            # the master answers on the joiner's message
    assert a.finish(b.message()) == kb


def test_refusals_have_stable_codes():
    a, b = pair()
    for bad in (b"", bytes(31), bytes(32 + pake.MAX_AD + 1)):
        with pytest.raises(PakeError) as e:
            a.finish(bad)
        assert e.value.code == "bad-length"
    assert a.finish(b.message()) == b.finish(a.message())   # a bad length leaves the session
    with pytest.raises(PakeError) as e:
        a.finish(b.message())
    assert e.value.code == "wrong-state"
    with pytest.raises(PakeError) as e:
        a.check_confirm(bytes(31))
    assert e.value.code == "bad-length"
    fresh = Cpace(b"1", b"", b"")
    for call in (fresh.confirm_tag, lambda: fresh.check_confirm(bytes(32))):
        with pytest.raises(PakeError) as e:
            call()
        assert e.value.code == "wrong-state"
    for args, kw in (((u"4321", b"", b""), {}), ((b"4321", None, b""), {}),
                     ((b"4321", b"", b""), {"ad": bytes(pake.MAX_AD + 1)})):
        with pytest.raises(PakeError) as e:
            Cpace(*args, **kw)
        assert e.value.code == "bad-input"
    with pytest.raises(PakeError) as e:
        Cpace(b"4321", b"", b"", random_bytes=lambda n: bytes(16)).message()
    assert e.value.code == "bad-random"
    with pytest.raises(PakeError) as e:
        Cpace(b"4321", b"", b"").finish(u"x" * 40)
    assert e.value.code == "bad-input"


def test_messages_fit_a_radio_frame():
    a = Cpace(b"4321", b"", b"", ad=bytes(pake.MAX_AD))
    assert len(a.message()) == 32 + pake.MAX_AD <= 250 - 11 - 8 - 2


# --- inside MicroPython ----------------------------------------------------------------

# Prints the draft's vectors and a few whole sessions with fixed randomness; CPython and
# MicroPython must print the same lines. The pure-Python SHA-512 is what MicroPython
# uses (its hashlib has none); CPython uses hashlib's.
EXCHANGE = r"""
import hashlib
from dicecup.net import pake, x25519
from dicecup.net.sha512 import sha512
h = bytes.fromhex

def seq(seed):
    st = [hashlib.sha256(seed).digest()]
    def rnd(n):
        out = st[0][:n]
        st[0] = hashlib.sha256(st[0]).digest()
        return out
    return rnd

ci = h("0b415f696e69746961746f720b425f726573706f6e646572")
sid = h("7e4b4791d6a8ef019b936c79fb7f2c57")
print(pake.calculate_generator(b"Password", ci, sid).hex())
ya = h("21b4f4bd9e64ed355c3eb676a28ebedaf6d8f17bdc365995b319097153044080")
yb = h("848b0779ff415f0af4ea14df9dd1d3c29ac41d836c7808896c4eba19c51ac40a")
a = pake.Cpace(b"Password", sid, ci, True, lambda n: ya, b"ADa")
b = pake.Cpace(b"Password", sid, ci, False, lambda n: yb, b"ADb")
ma, mb = a.message(), b.message()
print(ma.hex(), mb.hex(), a.finish(mb).hex(), b.finish(ma).hex())
print(a.confirm_tag().hex(), b.check_confirm(a.confirm_tag()), a.check_confirm(b.confirm_tag()))
for i, (pa, pb) in enumerate(((b"4321", b"4321"), (b"0000", b"9999"), (b"1234", b"1234"))):
    a = pake.Cpace(pa, b"s%d" % i, b"\x02t1\x02m2", True, seq(b"a%d" % i), b"j")
    b = pake.Cpace(pb, b"s%d" % i, b"\x02t1\x02m2", False, seq(b"b%d" % i))
    ma, mb = a.message(), b.message()
    ka, kb = a.finish(mb), b.finish(ma)
    ta, tb = a.confirm_tag(), b.confirm_tag()
    print(i, ma.hex(), mb.hex(), ka.hex(), kb.hex(), ta.hex(), tb.hex(),
          b.check_confirm(ta), a.check_confirm(tb))
for u in ("00" * 32, "01" + "00" * 31, "ec" + "ff" * 30 + "7f"):
    a = pake.Cpace(b"4321", b"", b"", True, seq(b"low"))
    try:
        a.finish(h(u))
        print("accepted")
    except pake.PakeError as e:
        print(e.code, isinstance(e, ValueError))
    try:
        a.message()
    except pake.PakeError as e:
        print(e.code)
k = seq(b"k")(32)
print(x25519.scalarmult(k, h("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c")).hex())
data = bytes(range(256)) * 2
for n in (0, 111, 112, 127, 128, 129, 300):
    print(n, sha512(data[:n]).hexdigest())
"""


def cpython_lines():
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(EXCHANGE, {"__name__": "exchange"})
    return out.getvalue().splitlines()


def test_exchange_script_on_cpython_gives_the_draft_values():
    lines = cpython_lines()
    assert lines[0] == V["g"].hex()
    assert lines[1].split() == [(V["Ya"] + b"ADa").hex(), (V["Yb"] + b"ADb").hex(),
                                V["ISK_IR"].hex(), V["ISK_IR"].hex()]
    assert lines[2].split()[1:] == ["True", "True"]
    same, wrong, again = (line.split() for line in lines[3:6])
    assert same[3] == same[4] and same[-2:] == ["True", "True"]
    assert wrong[3] != wrong[4] and wrong[-2:] == ["False", "False"]
    assert lines[6:12] == ["bad-point True", "wrong-state"] * 3
    for line in lines[13:]:
        n, digest = line.split()
        assert digest == hashlib.sha512((bytes(range(256)) * 2)[:int(n)]).hexdigest()


def test_micropython_runs_the_same_exchange(upy):
    res = upy(EXCHANGE)
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.decode().splitlines() == cpython_lines()


@heavy
def test_fw32_runs_the_same_exchange(fw32):
    res = fw32.run_code(EXCHANGE)
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.decode().splitlines() == cpython_lines()


@heavy
def test_fw32_pake_cost(fw32):
    """One scalarmult, one generator and one session side inside the 32-bit frozen
    build, 110 KB heap (host/dicecup_host/upy/pakecost.py); the figures are printed."""
    from dicecup_host import mpy
    res = fw32.run([mpy.ROOT / "host" / "dicecup_host" / "upy" / "pakecost.py"], timeout=300)
    assert res.returncode == 0, res.stderr.decode()
    out = res.stdout.decode()
    print(out)
    rows = {}
    for line in out.splitlines()[:3]:
        name, *fields = line.split()
        rows[name] = dict(f.split("=") for f in fields)
    assert set(rows) == {"scalarmult", "generator", "session"}
    for name, row in rows.items():
        assert 0 < float(row["ms"]) < 1000, out
        assert 0 < int(row["peak"]) < 30 * 1024, out      # a few KB of the cup's heap
    before, after = (int(x.split("=")[1]) for x in out.splitlines()[3].split()[1:])
    assert abs(before - after) < 1024, out
