"""A cup vouches for its own moves, so that every cup can check them -- the leader cannot
make a move for another cup.

Frame tags (net/wire.py) prove who sent a frame to whom, but an action reaches the
other cups inside the leader's op, so they would have to trust the leader that the seat
made it. So a cup's action also carries a *vouch*: a tag for every other member, each
with the key the two share (net/keyring.py), over a canonical message naming the table,
the seat, the version the action was made on, the action and its extra bytes:

    vouch = mask(1) | tag(4) for each member j in mask, by member id
    tag_j = HMAC-SHA256(k_ij, "act" | tid | seat | base version | action | extra)[:4]

Four bytes a tag (frames have six): a leader that forges a vouch is caught by every cup
it tried it on and is not followed again (net/watch.py), so it gets one try at 2**-32,
and the largest op (a Bluff reroll at six cups) still fits a 250-byte frame.

The leader copies the vouch into the op; every replica checks its own entry before it
applies the op (net/watch.py `vet`) and refuses an op whose vouch does not check. The
base version binds a move to its place in the history: it cannot be replayed later.
Seats no cup plays (bots, away cups) are the leader's to play, with no vouch.
"""
from micropython import const
import struct

from . import wire
from .transport import BROADCAST

_VTAG = const(4)   # a forged vouch costs the leader its place (net/election.py): one try per lead


def act_message(tid, seat, base, action, extra):
    return b"act" + struct.pack(">HBII", tid & 0xFFFF, seat, base & 0xFFFFFFFF, action) + extra


def roll_message(tid, rid, seat, digest):
    """A Dix mille roller's commitment (its roll id is the version it was made on)."""
    return b"rollc" + struct.pack(">HIB", tid & 0xFFFF, rid & 0xFFFFFFFF, seat) + digest


def witness_message(tid, digest, w):
    """A witness's nonce for the roll committed to with `digest` (a fresh root's: one roll)."""
    return b"wit" + struct.pack(">H", tid & 0xFFFF) + digest + w


def make(cup, msg):
    """This cup's vouch for `msg`: a tag for every other member with a key."""
    ring = cup.keys.ring
    mask = 0
    tags = []
    for mid, key in ring.receivers(cup.me, BROADCAST):
        mask |= 1 << mid
        tags.append(key.tag(msg)[:_VTAG])
    return bytes((mask,)) + b"".join(tags)


def check(cup, member, msg, vouch):
    """None when member's vouch for msg holds for this cup, else why not. (A move of
    our own seat has no tag for us: `net/turns.py` knows which moves we made.)"""
    if member == cup.me:
        return "a move of this cup's seat it never made"
    if len(vouch) < 1:
        return "no vouch from member %d" % member
    mask = vouch[0]
    if not mask >> cup.me & 1:
        return "member %d's vouch has no tag for this cup" % member
    n = 0
    for b in range(8):
        if mask >> b & 1:
            n += 1
    if len(vouch) != 1 + _VTAG * n:
        return "a vouch of the wrong length"
    before = 0
    for b in range(cup.me):
        if mask >> b & 1:
            before += 1
    try:
        key = cup.keys.ring.pair(cup.me, member)
    except wire.FrameError:
        return "no key for member %d" % member
    want = key.tag(msg)[:_VTAG]
    got = vouch[1 + _VTAG * before:1 + _VTAG * (before + 1)]
    diff = 0
    for a, b in zip(want, got):
        diff |= a ^ b
    return "member %d's vouch does not check" % member if diff else None


def split(data):
    """(vouch, rest) from bytes that start with a length-prefixed vouch (FrameError-free:
    a short block gives an empty vouch, which does not check)."""
    if not data:
        return b"", b""
    n = data[0]
    return bytes(data[1:1 + n]), bytes(data[1 + n:])


def pack(vouch):
    return bytes((len(vouch),)) + vouch
