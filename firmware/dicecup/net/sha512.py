"""SHA-512 (FIPS 180-4) in pure Python, for CPace on MicroPython, whose hashlib has
sha256 only. CPython's own hashlib.sha512 gives the same digests (the tests check);
pake.py uses that one where it exists.

Words are plain ints masked to 64 bits. On a 32-bit MicroPython every word is a
heap big int, so a 128-byte block costs a few thousand short-lived allocations
(the GC reclaims them; nothing is kept between blocks but the state). A rotation
is one shift of the word doubled to 128 bits, which halves the operations.
"""
import struct

_M = 0xFFFFFFFFFFFFFFFF

_K = (
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
    0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
    0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
    0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
    0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
)

_H0 = (
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
)

def _compress(h, block):
    """The eight state words after one 128-byte block; the message schedule is
    kept as a ring of 16 words, not 80."""
    w = list(struct.unpack(">16Q", block))
    a, b, c, d, e, f, g, hh = h
    m = _M
    k = _K
    for t in range(80):
        if t < 16:
            x = w[t]
        else:
            x = w[(t - 15) & 15]
            xx = x | (x << 64)
            y = w[(t - 2) & 15]
            yy = y | (y << 64)
            x = (w[t & 15] + (((xx >> 1) ^ (xx >> 8)) & m ^ (x >> 7)) + w[(t - 7) & 15]
                 + (((yy >> 19) ^ (yy >> 61)) & m ^ (y >> 6))) & m
            w[t & 15] = x
        ee = e | (e << 64)
        t1 = hh + (((ee >> 14) ^ (ee >> 18) ^ (ee >> 41)) & m) + (g ^ (e & (f ^ g))) + k[t] + x
        aa = a | (a << 64)
        t2 = (((aa >> 28) ^ (aa >> 34) ^ (aa >> 39)) & m) + ((a & b) | (c & (a | b)))
        hh = g
        g = f
        f = e
        e = (d + t1) & m
        d = c
        c = b
        b = a
        a = (t1 + t2) & m
    return ((h[0] + a) & m, (h[1] + b) & m, (h[2] + c) & m, (h[3] + d) & m,
            (h[4] + e) & m, (h[5] + f) & m, (h[6] + g) & m, (h[7] + hh) & m)


class sha512:
    """The hashlib interface: sha512(data=b""), update(data), digest() (which may be
    called more than once), digest_size, block_size."""
    digest_size = 64
    block_size = 128

    def __init__(self, data=b""):
        self._h = _H0
        self._buf = b""
        self._n = 0
        if data:
            self.update(data)

    def update(self, data):
        # no copy of buf + data: a block at most at a time (a join hashes ~160 B
        # pieces on a heap with few blocks that size to spare)
        self._n += len(data)
        i = 0
        if self._buf:
            i = 128 - len(self._buf)
            buf = self._buf + bytes(data[:i])
            if len(buf) < 128:
                self._buf = buf
                return
            self._h = _compress(self._h, buf)
        end = len(data) - 127
        while i < end:
            self._h = _compress(self._h, bytes(data[i:i + 128]))
            i += 128
        self._buf = bytes(data[i:])

    def digest(self):
        n = self._n
        tail = self._buf + b"\x80" + bytes((111 - n) & 127) + struct.pack(">QQ", n >> 61, (n << 3) & _M)
        h = self._h
        for i in range(0, len(tail), 128):
            h = _compress(h, tail[i:i + 128])
        return struct.pack(">8Q", *h)

    def hexdigest(self):
        return "".join("%02x" % b for b in self.digest())
