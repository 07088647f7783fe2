"""The radio frame: a compact, versioned binary codec with per-member authentication tags.

    0  B   version (0xD2)          5  I   sequence number (per sender)
    1  B   frame type              9  H   state version it refers to (low 16 bits)
    2  H   table id               11  ... body (by type, below)
    4  B   sender (member id;         ... the tags, by the type's key kind:
           0xFF before joining)

Key kinds (the TYPES column):
    0  none: beacons, and the join's CPace messages (JOIN, CHALLENGE, CONFIRM, REFUSE),
       whose shares and confirmation tags are their own authentication (net/pake.py)
    1  the join session's key, from CPace's ISK (WELCOME): an 8-byte tag
       HMAC-SHA256(key, everything before)[:8]
    2  pairwise member keys (everything else): a tag vector
           ... body | tag(6) for each covered member, by member id | mask(1)
       mask has bit j for each receiver j covered; receiver j's tag is
       HMAC-SHA256(k_ij, header | body | mask)[:6], k_ij the key sender i and j share
       (net/keyring.py). A unicast frame covers its one receiver (7 bytes of tags), a
       broadcast every other member with a key (at most 5: 31 bytes). The receiver
       checks its own entry with the key of the header's sender, so the sender byte is
       authenticated: no member can send as another member, the leader included.

Why 6-byte tags: a broadcast must stay under ESP-NOW's 250 bytes with five entries;
48 bits leave an online forger 2**-48 per frame, far beyond what a radio can try.

Every frame fits ESP-NOW's 250 bytes. Anything else — truncated, oversized, unknown
version or type, a body that does not parse, another table, a tag that does not check —
raises FrameError with a stable `code`, never anything else, so a cup drops it and
goes on. MicroPython has no `hmac`, so HMAC is built here from hashlib.sha256.
"""
from micropython import const
import hashlib
import struct

VERSION = 0xD2
MTU = 250
HEADER = 11
_TAG_LEN = const(8)       # a kind-1 (join session) tag
_VTAG = const(6)          # one entry of a kind-2 tag vector
_MAX_MEMBERS = const(6)
NOBODY = 0xFF

BEACON = 1
JOIN = 2
WELCOME = 3
HELLO = 4
UPDATE = 5
ACK = 6
NEED = 7
SNAP = 8
ACTION = 9
REJECT = 10
COMMIT = 11
REVEAL = 12
HEART = 13
ROLLC = 14
WITNESS = 15
ROLLR = 16
LEAVE = 17
AUTO = 18
VOTE_REQ = 19
VOTE = 20
CHALLENGE = 21
CONFIRM = 22
REFUSE = 23
ATTEST = 24
CONTRIB = 25

# TYPES[type]: (name, body fields, key), a constant tuple indexed by type (BEACON = 1 ...;
# in flash when frozen, where a dict would be built in RAM). Fields: B u8, H u16, I u32, sN N bytes,
# p bytes with a u8 length, r the rest. Keys: 0 none, 1 join session key, 2 member keys.
# Terms are 16 bits: a table never sees 65,536 masters.
TYPES = (
    None,
    ("beacon", ("B", "B", "B", "p"), 0),        # BEACON: rules, members, flags, master name
    ("join", ("s8", "s32", "s32", "p"), 0),       # JOIN: joiner nonce, CPace share, static key, name
    ("welcome", ("B", "s8"), 1),               # WELCOME: member id, joiner nonce
    ("hello", ("I",), 2),                        # HELLO: a member is (back) here, at version
    ("update", ("H", "I", "H", "H", "I", "r"), 2),  # UPDATE: leader's term, version, the op's term,
                                                            # the term of version-1, committed, op
    ("ack", ("H", "I", "H"), 2),                   # ACK: term and version held, the sender's election term
    ("need", ("I",), 2),                          # NEED: first version missing
    ("snap", ("H", "I", "B", "B", "r"), 2),       # SNAP: term, version, part, parts, chunk
    ("action", ("B", "I", "I", "r"), 2),        # ACTION: seat, action, base version, extra
    ("reject", ("I", "p"), 2),                  # REJECT: base version, error code
    ("commit", ("H", "B", "s12"), 2),           # COMMIT: round, seat, digest
    ("reveal", ("H", "B", "s16"), 2),           # REVEAL: round, seat, root
    ("heart", ("H", "I", "I", "B"), 2),          # HEART: term, version, committed, master id
    ("rollc", ("I", "B", "s12", "r"), 2),        # ROLLC: roll id, seat, digest, the roller's vouch
    ("witness", ("I", "s16", "r"), 2),         # WITNESS: roll id, nonce, the witness's vouch
    ("rollr", ("I", "B", "s16"), 2),             # ROLLR: roll id, seat, root
    ("leave", ("B",), 2),                        # LEAVE: member id
    ("auto", ("B", "B"), 2),                      # AUTO: member id, 1: its cup's bot plays, 0: the player again
    ("votereq", ("H", "I", "H", "B"), 2),     # VOTE_REQ: term, last version, last term, 1: a pre-vote
    ("vote", ("H", "B", "B"), 2),                 # VOTE: term, granted, 1: a pre-vote
    ("challenge", ("s8", "s32", "s33", "s32"), 0),  # CHALLENGE: joiner nonce, master's share,
                                                        # master id + static key, master's confirmation
    ("confirm", ("s8", "s32"), 0),             # CONFIRM: joiner nonce, joiner's confirmation
    ("refuse", ("s8", "B"), 0),                 # REFUSE: joiner nonce, why (lobby.REASONS)
    ("attest", ("H", "B", "B"), 2),             # ATTEST: round, 1 commitments / 2 reveals, seats never heard
    ("contrib", ("I", "s16"), 2),              # CONTRIB: the ante's version, this cup's nonce for the game seed
)


class FrameError(ValueError):
    """A frame a cup must drop. `code`: truncated, oversized, version, type, malformed,
    foreign-table, bad-tag, not-for-me (no tag for this receiver), unknown-sender (no
    key for the header's sender), replay (the last from the receiver's window)."""

    def __init__(self, code, message=""):
        super().__init__(message or code)
        self.code = code


class Frame:
    """A decoded frame: header fields plus `body`, a tuple in the type's field order."""

    def __init__(self, ftype, table, sender, seq, ver, body, raw=b""):
        self.type = ftype
        self.table = table
        self.sender = sender
        self.seq = seq
        self.ver = ver
        self.body = body
        self.raw = raw
        self.mask = 0        # kind 2: the receivers covered (bits)
        self.end = len(raw)  # where the body ends (the tags start)

    def name(self):
        return TYPES[self.type][0]

    def __repr__(self):
        return "<%s from %d seq %d v%d %r>" % (self.name(), self.sender, self.seq, self.ver, self.body)


# ----- keys and tags -------------------------------------------------------------------
def _sha(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.digest()


class Key:
    """An HMAC-SHA256 key with its two padded blocks made once.

    MicroPython's sha256 has no copy(), so the padded key cannot be hashed once and the
    state reused; making the two 64-byte pads (a byte loop each) was most of a tag's
    cost, so they are kept per key (one bytes: inner then outer pad, 160 B on a cup
    where two would take 192) and a tag costs two short hashes."""

    def __init__(self, raw):
        raw = bytes(raw)
        if len(raw) > 64:
            raw = _sha(raw)
        raw = raw + bytes(64 - len(raw))
        self.pads = bytes(b ^ 0x36 for b in raw) + bytes(b ^ 0x5C for b in raw)

    def tag(self, msg):
        """The full 32-byte HMAC of msg."""
        p = memoryview(self.pads)
        h = hashlib.sha256(p[:64])
        h.update(msg)
        o = hashlib.sha256(p[64:])
        o.update(h.digest())
        return o.digest()


def hmac(key, msg):
    """HMAC-SHA256 (RFC 2104), since MicroPython ships no hmac module. `key`: bytes or a Key."""
    return (key if isinstance(key, Key) else Key(key)).tag(msg)


def pair_key(table, i, j, shared):
    """k_ij from the X25519 secret members i and j share: the same key either way round,
    bound to the table and to the two member ids."""
    lo, hi = (i, j) if i < j else (j, i)
    return Key(_sha(b"dicecup-pair", struct.pack(">HBB", table, lo, hi), shared))


def session_key(isk, label):
    """A key from a CPace ISK (the KDF step the draft advises): `label` names its use."""
    return Key(_sha(b"dicecup-join-kdf", label, isk))


def _bits(mask):
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


def key_kind(ftype):
    return TYPES[ftype][2] if 0 < ftype < len(TYPES) else -1


# ----- encode / decode -------------------------------------------------------------------
def _encode_body(fields, values):
    out = []
    if len(fields) != len(values):
        raise ValueError("body needs %d fields" % len(fields))
    for f, v in zip(fields, values):
        if f == "B":
            out.append(struct.pack("B", v))
        elif f == "H":
            out.append(struct.pack(">H", v))
        elif f == "I":
            out.append(struct.pack(">I", v))
        elif f == "p":
            if len(v) > 255:
                raise ValueError("field too long")
            out.append(bytes((len(v),)) + v)
        elif f == "r":
            out.append(bytes(v))
        else:  # sN
            n = int(f[1:])
            if len(v) != n:
                raise ValueError("field needs %d bytes" % n)
            out.append(bytes(v))
    return b"".join(out)


def encode(ftype, table, sender, seq, ver, body, key=None):
    """Frame bytes; ValueError for a body that does not fit the type or MTU. `key`: a
    Key for kind 1, a list of (member id, Key) for kind 2 (the receivers covered)."""
    name, fields, kind = TYPES[ftype]
    data = struct.pack(">BBHBIH", VERSION, ftype, table, sender, seq & 0xFFFFFFFF, ver & 0xFFFF)
    data += _encode_body(fields, body)
    if kind == 1:
        if key is None:
            raise ValueError("%s frames need a key" % name)
        data += key.tag(data)[:_TAG_LEN]
    elif kind == 2:
        if key is None:
            raise ValueError("%s frames need member keys" % name)
        mask = 0
        for mid, _ in key:
            if not 0 <= mid < _MAX_MEMBERS or mask >> mid & 1:
                raise ValueError("bad receiver %r" % (mid,))
            mask |= 1 << mid
        signed = data + bytes((mask,))
        tags = [k.tag(signed)[:_VTAG] for mid, k in sorted(key, key=lambda e: e[0])]
        data += b"".join(tags) + bytes((mask,))
    if len(data) > MTU:
        raise ValueError("%s frame of %d bytes > %d" % (name, len(data), MTU))
    return data


def _decode_body(fields, data, pos, end):
    out = []
    for f in fields:
        if f == "B":
            if pos + 1 > end:
                raise FrameError("malformed")
            out.append(data[pos])
            pos += 1
        elif f == "H":
            if pos + 2 > end:
                raise FrameError("malformed")
            out.append(data[pos] << 8 | data[pos + 1])
            pos += 2
        elif f == "I":
            if pos + 4 > end:
                raise FrameError("malformed")
            out.append(struct.unpack(">I", data[pos:pos + 4])[0])
            pos += 4
        elif f == "p":
            if pos + 1 > end:
                raise FrameError("malformed")
            n = data[pos]
            if pos + 1 + n > end:
                raise FrameError("malformed")
            out.append(bytes(data[pos + 1:pos + 1 + n]))
            pos += 1 + n
        elif f == "r":
            out.append(bytes(data[pos:end]))
            pos = end
        else:
            n = int(f[1:])
            if pos + n > end:
                raise FrameError("malformed")
            out.append(bytes(data[pos:pos + n]))
            pos += n
    if pos != end:
        raise FrameError("malformed", "trailing bytes")
    return tuple(out)


def decode(data, table=None):
    """Parse a frame (tag not yet checked: `check` does that with the right key).
    `table`: the table this cup belongs to; frames of others are FrameError."""
    n = len(data)
    if n > MTU:
        raise FrameError("oversized")
    if n < HEADER:
        raise FrameError("truncated")
    if data[0] != VERSION:
        raise FrameError("version", "frame version 0x%02x" % data[0])
    ftype = data[1]
    if not 0 < ftype < len(TYPES):
        raise FrameError("type", "frame type %d" % ftype)
    _, fields, kind = TYPES[ftype]
    mask = 0
    if kind == 2:
        mask = data[n - 1]
        if mask >> _MAX_MEMBERS:
            raise FrameError("malformed", "tag mask 0x%02x" % mask)
        end = n - 1 - _VTAG * _bits(mask)
    else:
        end = n - _TAG_LEN if kind else n
    if end < HEADER:
        raise FrameError("truncated")
    tid = data[2] << 8 | data[3]
    if table is not None and tid != table:
        raise FrameError("foreign-table")
    seq = struct.unpack(">I", data[5:9])[0]
    ver = data[9] << 8 | data[10]
    body = _decode_body(fields, data, HEADER, end)
    f = Frame(ftype, tid, data[4], seq, ver, body, bytes(data))
    f.mask = mask
    f.end = end
    return f


def covers(frame, me):
    """Whether a kind-2 frame carries a tag for member `me`."""
    return me is not None and 0 <= me < _MAX_MEMBERS and bool(frame.mask >> me & 1)


def check(frame, key, me=None):
    """Raise FrameError unless the frame's tag is right for `key`: for kind 2, the entry
    of receiver `me` ('not-for-me' when it has none, 'bad-tag' when it is wrong)."""
    kind = TYPES[frame.type][2]
    if not kind:
        return
    raw = frame.raw
    if kind == 1:
        want = key.tag(raw[:-_TAG_LEN])[:_TAG_LEN]
        got = raw[-_TAG_LEN:]
    else:
        if not covers(frame, me):
            raise FrameError("not-for-me")
        at = frame.end + _VTAG * _bits(frame.mask & ((1 << me) - 1))
        want = key.tag(raw[:frame.end] + raw[-1:])[:_VTAG]
        got = raw[at:at + _VTAG]
    diff = 0
    for a, b in zip(want, got):
        diff |= a ^ b
    if diff:
        raise FrameError("bad-tag")


class Window:
    """Per-sender replay window: accepts each sequence number once, and nothing older
    than 64 behind the newest seen (reordered frames within that still pass). A number
    too far ahead of the newest is refused too, so that no frame can move a sender's
    window out of reach of its real frames: a sender moves on by one epoch (2**18) per
    reboot, so JUMP allows sixteen reboots unheard."""

    SIZE = 64
    JUMP = 1 << 22

    def __init__(self):
        # per (sender, radio address) one record, all in one buffer (not a tuple, an
        # address and a long int each): sender u8, address length u8, the address,
        # the highest seq u32, then a bitmask u64 of the seqs seen below it
        self.seen = bytearray()

    def find(self, sender, src):
        """Where the record of (sender, src) starts in `seen`, or -1."""
        w = self.seen
        n = len(src)
        i = 0
        while i < len(w):
            if w[i] == sender and w[i + 1] == n and w[i + 2:i + 2 + n] == src:
                return i
            i += 14 + w[i + 1]
        return -1

    def accept(self, sender, src, seq):
        w = self.seen
        i = self.find(sender, src)
        if i < 0:
            w.extend(bytes((sender, len(src))))
            w.extend(src)
            w.extend(struct.pack(">IQ", seq, 0))
            return True
        at = i + 2 + w[i + 1]
        top, bits = struct.unpack_from(">IQ", w, at)
        if seq - top > self.JUMP:
            return False
        if seq > top:
            shift = seq - top
            bits = ((bits << shift) | (1 << (shift - 1))) & ((1 << self.SIZE) - 1) if shift <= self.SIZE else 0
            top = seq
        else:
            back = top - seq
            if back == 0 or back > self.SIZE:
                return False
            mask = 1 << (back - 1)
            if bits & mask:
                return False
            bits |= mask
        struct.pack_into(">IQ", w, at, top, bits)
        return True
