"""CPace (draft-irtf-cfrg-cpace-21), suite CPACE-X25519-SHA512, initiator-responder
mode: a password-authenticated key exchange from the table's 4-digit code.

    a = Cpace(code, sid, ci, initiator=True)      # the joiner
    b = Cpace(code, sid, ci, initiator=False)     # the master
    isk = a.finish(b.message())  ==  b.finish(a.message())   # same code: same 64 bytes
    b.check_confirm(a.confirm_tag()) and a.check_confirm(b.confirm_tag())

What it gives. Each side sends one 32-byte share Y = y * g, where the generator g is
hashed from the code (PRS), the channel identifier CI and the session id sid; the
key K = y * Y' and the ISK hash the whole transcript. Y is a uniformly random point
whatever the code, so a recording of a session gives no offline test of a guess: to
check a code an attacker needs the discrete log of a share. An active attacker who
runs the exchange with one guessed code learns whether that one guess was right
(the confirmation tag fails otherwise), and nothing about any other code: exactly
one guess per session. With 10,000 codes the protocol must therefore limit sessions
(at 3 failed joins a minute, trying half the codes takes over a day) and should
change the code after repeated failures. Learning the code later does not give a
recorded session's key either: that still needs one of the two ephemeral scalars.

Inputs, as the draft advises: CI should name both parties with their roles (the
table id and the joiner's identity, initiator first) and sid should be fresh per
session (the master's beacon nonce with the joiner's nonce, for instance; the
responder may construct its Cpace only once it has the initiator's message, which
can carry the joiner's nonce in its associated data `ad`, sent in clear).
A session is used once: one fresh scalar, one peer message; a refused share or a
wrong tag ends it. Shares are u-coordinates only: any 32 bytes are a point on the
curve or its twist, and both are accepted as RFC 7748 and the draft say (the twist
is secure too); what is refused is a share that makes K the identity (low order).

The ISK must not be trusted before `check_confirm` returns True, and is best fed
through a KDF before use. Key confirmation follows the draft's section on it:
mac_key = SHA-512(b"CPaceMac" || sid || ISK), each side tagging its own share and
associated data, lv_cat(Y, AD); the MAC is HMAC-SHA256 (the cups have sha256 in C;
the draft leaves the MAC to the application).

Hashing uses hashlib.sha512 where it exists (CPython) and sha512.py elsewhere
(MicroPython). Refusals are PakeError(code): "bad-length" (a message or tag of the
wrong size; the session goes on), "bad-point" (the peer's share is a low-order point,
K would be the identity: the session is dead), "wrong-state" (a call out of order or
on a dead session), "bad-input" (a parameter of the wrong type or size),
"bad-random" (random_bytes gave the wrong number of bytes).
"""
from micropython import const
import hashlib

from . import x25519

try:
    from hashlib import sha512 as _sha512
except ImportError:
    from .sha512 import sha512 as _sha512

_DSI = const(b"CPace255")
_DSI_ISK = const(b"CPace255_ISK")
_S_IN_BYTES = const(128)          # SHA-512's input block
_Y_LEN = const(32)
_ISK_LEN = const(64)
_TAG_LEN = const(32)
MAX_AD = 96               # a message is at most 128 bytes: it fits a radio frame
_ZERO = bytes(32)         # G.I, the identity's encoding

_NEW = const(0)                   # states
_SENT = const(1)
_DONE = const(2)
_CONFIRMED = const(3)
_DEAD = const(4)


class PakeError(ValueError):
    """A refused input or call; `code` is stable, the message is for people."""

    def __init__(self, code, message=""):
        super().__init__(message or code)
        self.code = code


def prepend_len(data):
    """LEB128 length, then the data."""
    n = len(data)
    out = bytearray()
    while True:
        if n < 128:
            out.append(n)
            break
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    return bytes(out) + data


def lv_cat(*args):
    return b"".join([prepend_len(a) for a in args])


def generator_string(prs, ci, sid, dsi=_DSI, s_in_bytes=_S_IN_BYTES):
    """lv_cat(DSI, PRS, zero padding, CI, sid): the padding makes DSI and PRS fill
    the first hash block whatever the password's length."""
    zpad = max(0, s_in_bytes - 1 - len(prepend_len(prs)) - len(prepend_len(dsi)))
    return lv_cat(dsi, prs, bytes(zpad), ci, sid)


def calculate_generator(prs, ci, sid):
    """G_X25519.calculate_generator: the first 32 bytes of SHA-512 of the generator
    string, as a u-coordinate (bit 255 cleared), through Elligator 2."""
    return x25519.elligator2(_sha512(generator_string(prs, ci, sid)).digest()[:32])


def transcript_ir(ya, ada, yb, adb):
    return lv_cat(ya, ada) + lv_cat(yb, adb)


def _hmac_sha256(key, msg):
    """HMAC-SHA256 (RFC 2104), since MicroPython has no hmac module; key <= 64 bytes."""
    pad = bytearray(64)   # the pads made in place: a list of 64 ints is a 256 B block
    for i in range(len(key)):
        pad[i] = key[i] ^ 0x36
    for i in range(len(key), 64):
        pad[i] = 0x36
    inner = hashlib.sha256(pad)
    inner.update(msg)
    for i in range(64):
        pad[i] ^= 0x36 ^ 0x5C
    outer = hashlib.sha256(pad)
    outer.update(inner.digest())
    return outer.digest()


def _same(x, y):
    """Equal bytes of equal length, compared without an early exit."""
    d = 0
    for i in range(len(x)):
        d |= x[i] ^ y[i]
    return d == 0


def _bytes(x, what):
    if not isinstance(x, (bytes, bytearray)):
        raise PakeError("bad-input", "%s: bytes, not %s" % (what, type(x).__name__))
    return bytes(x)


class Cpace:
    """One side of one CPace session (see the module's docstring).

    message() -> bytes       my share Y (32 bytes) then my associated data; the same
                             bytes on every call, so a lost frame can be resent
    finish(peer) -> ISK      64 bytes; PakeError on a refused peer message
    confirm_tag() -> bytes   my 32-byte key confirmation tag (after finish)
    check_confirm(tag)       True when the peer had the same code (after finish);
                             False kills the session
    peer_ad                  the peer's associated data (after finish)
    """

    def __init__(self, password, sid, ci, initiator=True, random_bytes=None, ad=b""):
        self.prs = _bytes(password, "password")
        self.sid = _bytes(sid, "sid")
        self.ci = _bytes(ci, "ci")
        self.ad = _bytes(ad, "ad")
        if len(self.ad) > MAX_AD:
            raise PakeError("bad-input", "ad: at most %d bytes" % MAX_AD)
        self.initiator = bool(initiator)
        self._random = random_bytes
        self.state = _NEW
        self._y = None          # my scalar, until finish
        self._msg = None        # my message
        self._peer = None       # the peer's message
        self._mac_key = None
        self.peer_ad = None

    def _fail(self, code, message):
        self.state = _DEAD
        self._y = self._mac_key = None
        raise PakeError(code, message)

    def message(self):
        if self.state == _DEAD:
            raise PakeError("wrong-state", "the session is over")
        if self._msg is None:
            rnd = self._random
            if rnd is None:
                import os
                rnd = os.urandom
            y = rnd(32)
            if len(y) != 32:
                raise PakeError("bad-random", "random_bytes(32) gave %d bytes" % len(y))
            g = calculate_generator(self.prs, self.ci, self.sid)
            self._y = bytes(y)
            self._msg = x25519.scalarmult(self._y, g) + self.ad
            self.state = _SENT
        return self._msg

    def finish(self, peer):
        if self.state not in (_NEW, _SENT):
            raise PakeError("wrong-state", "finish: once, before confirmation")
        peer = _bytes(peer, "message")
        if not _Y_LEN <= len(peer) <= _Y_LEN + MAX_AD:
            raise PakeError("bad-length", "a message is %d to %d bytes, not %d"
                            % (_Y_LEN, _Y_LEN + MAX_AD, len(peer)))
        mine = self.message()
        k = x25519.scalarmult(self._y, peer[:_Y_LEN])
        if k == _ZERO:
            self._fail("bad-point", "the peer's share is a low-order point")
        h = _sha512(lv_cat(_DSI_ISK, self.sid, k))
        first, second = (mine, peer) if self.initiator else (peer, mine)
        for m in (first, second):   # transcript_ir's bytes, fed in pieces, never built whole
            h.update(prepend_len(m[:_Y_LEN]))
            h.update(prepend_len(m[_Y_LEN:]))
        isk = h.digest()
        self._mac_key = _sha512(b"CPaceMac" + self.sid + isk).digest()
        self._y = None
        self._peer = peer
        self.peer_ad = peer[_Y_LEN:]
        self.state = _DONE
        return isk

    def _tag(self, msg):
        return _hmac_sha256(self._mac_key, lv_cat(msg[:_Y_LEN], msg[_Y_LEN:]))

    def confirm_tag(self):
        if self.state not in (_DONE, _CONFIRMED):
            raise PakeError("wrong-state", "confirm_tag: after finish")
        return self._tag(self._msg)

    def check_confirm(self, tag):
        """True when `tag` is the peer's tag for this session. A wrong tag in a
        session not yet confirmed ends it (one guess per session); once confirmed,
        a stray wrong tag is only answered False."""
        if self.state not in (_DONE, _CONFIRMED):
            raise PakeError("wrong-state", "check_confirm: after finish")
        tag = _bytes(tag, "tag")
        if len(tag) != _TAG_LEN:
            raise PakeError("bad-length", "a tag is %d bytes, not %d" % (_TAG_LEN, len(tag)))
        ok = _same(tag, self._tag(self._peer))
        if ok:
            self.state = _CONFIRMED
        elif self.state == _DONE:
            self.state = _DEAD
            self._mac_key = None
        return ok

    @property
    def confirmed(self):
        return self.state == _CONFIRMED
