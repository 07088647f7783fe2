"""X25519 (RFC 7748) and the Elligator 2 map to Curve25519 (RFC 9380), in plain ints,
for the PAKE of the join (pake.py).

Field elements are ints mod P = 2**255 - 19; MicroPython's big ints and its
three-argument pow() (in C) do the work. The Montgomery ladder has a constant
structure: the same field operations run for every scalar bit, and the conditional
swap is an index into a pair, not a branch. That is not constant time: big-int
arithmetic in MicroPython (and CPython) takes time that depends on the values, and
the GC runs when it likes. A radio neighbour timing a cup's join is not the threat
this design stops; an offline dictionary attack on the 4-digit code is.

    scalarmult(k, u)      X25519(k, u): 32-byte scalar (clamped here), 32-byte u
    scalarmult_base(k)    X25519(k, 9)
    public_key(private)   the same, named for Diffie-Hellman
    elligator2(b)         32 bytes (decodeUCoordinate) -> the u of a curve point

Low-order inputs give 32 zero bytes (RFC 7748 section 6.1): callers check.
"""
P = 2 ** 255 - 19
A = 486662
_A24 = 121665                     # (A - 2) / 4, as RFC 7748's ladder uses it
_U_MASK = (1 << 255) - 1          # decodeUCoordinate ignores bit 255
_CLAMP = (1 << 254) - 8           # clear bits 0-2 and 255 (and 254, set next)
_BIT254 = 1 << 254
_HALF = (P - 1) // 2              # Euler's criterion exponent
BASE = b"\x09" + bytes(31)


def _check32(b, what):
    if len(b) != 32:
        raise ValueError("%s: 32 bytes, not %d" % (what, len(b)))


def clamp(k):
    """decodeScalar25519: the scalar as an int, a multiple of the cofactor 8 with
    bit 254 set."""
    _check32(k, "scalar")
    return (int.from_bytes(k, "little") & _CLAMP) | _BIT254


def decode_u(u):
    """decodeUCoordinate(u, 255): bit 255 ignored. Values >= P (non-canonical) are
    kept as they are; the arithmetic below reduces them."""
    _check32(u, "u")
    return int.from_bytes(u, "little") & _U_MASK


def encode(x):
    """encodeUCoordinate: the canonical 32 little-endian bytes of x mod P."""
    return (x % P).to_bytes(32, "little")


def inverse(x):
    """1/x mod P (Fermat); 0 for 0, which is what the ladder's last step needs."""
    return pow(x, P - 2, P)


def is_square(x):
    """Euler's criterion; 0 counts as a square (RFC 9380)."""
    return pow(x, _HALF, P) != P - 1


def _ladder(k, u):
    """k * (u, .) in x-only projective coordinates, RFC 7748 section 5."""
    p = P
    x1 = u
    x2, z2, x3, z3 = 1, 0, u, 1
    swap = 0
    for t in range(254, -1, -1):
        bit = (k >> t) & 1
        s = swap ^ bit
        swap = bit
        pair = (x2, x3)
        x2, x3 = pair[s], pair[s ^ 1]
        pair = (z2, z3)
        z2, z3 = pair[s], pair[s ^ 1]
        a = x2 + z2
        b = x2 - z2
        aa = a * a % p
        bb = b * b % p
        e = aa - bb
        da = (x3 - z3) * a % p
        cb = (x3 + z3) * b % p
        x3 = da + cb
        x3 = x3 * x3 % p
        z3 = da - cb
        z3 = x1 * (z3 * z3 % p) % p
        x2 = aa * bb % p
        z2 = e * (aa + _A24 * e) % p
    pair = (x2, x3)
    x2 = pair[swap]
    pair = (z2, z3)
    z2 = pair[swap]
    return x2 * inverse(z2) % p


def scalarmult(k, u):
    """X25519(k, u) as 32 bytes; all zeros when u is a low-order point."""
    return encode(_ladder(clamp(k), decode_u(u)))


def scalarmult_base(k):
    return scalarmult(k, BASE)


def public_key(private):
    """The Diffie-Hellman public key of a 32-byte private key."""
    return scalarmult(private, BASE)


def map_to_curve_elligator2(r):
    """The u-coordinate of a point on Curve25519 for field element r (RFC 9380
    section 6.7.1 with Z = 2, B = 1; the v-coordinate is not needed, as CPace's
    draft says). Both candidates are computed and one is picked by index."""
    p = P
    v = -A * inverse(1 + 2 * r * r) % p      # 1 + 2r^2 is never 0: -1/2 is no square
    gv = v * (v * (v + A) % p + 1) % p       # v^3 + A v^2 + v
    pair = (v, -v - A)
    return pair[(pow(gv, _HALF, p) + 1) // p] % p   # index 1 when gv is no square


def elligator2(b):
    """32 bytes, read as decodeUCoordinate(b, 255), mapped: the encoded u."""
    return encode(map_to_curve_elligator2(decode_u(b)))
