"""What a cup keeps across a reboot, and nothing else: its table credentials, its
sequence epoch, and the secrets it must still be able to reveal.

A killed cup loses its RAM; on boot it has only this. Everything goes through one
`Flash` over a key-value `store` (net/store.py), so what is kept, and its format, is
in one place:

    epoch     2 bytes   bumped on every boot: sequence numbers never repeat
    table     tid(2) member(1) code   the table this cup belongs to (the code: to welcome
              joiners should this cup become the master)
    ident     private(32) public(32)  this cup's X25519 key pair (net/keyring.py)
    roster    (member(1) addr(6) public key(32)) x n   the table's members with a key:
              the pairwise keys again right after a reboot
    secret    (round(2) k(1) (gen(1) root(16)) x k) x rounds   its own seat's hidden dice,
              for the newest two rounds (net/kept.py)
    held      (round(2) k(1) (seat(1) root(16)) x k) x rounds   the seats it rolled for
              as the master (bots', away cups'), the same way
    roll      roll id(4) root(16)     a Dix mille roll committed but not yet revealed
    vote      term(2) voted for(1)    the election term this cup is in, and its vote in it
              (0xFF: none): a cup that reboots never votes twice in one term
"""


def _u16(b, i):
    return b[i] << 8 | b[i + 1]


class Flash:
    def __init__(self, store):
        self.store = store

    # ----- the boot counter -------------------------------------------------------
    def boot(self):
        """Count this boot; returns its number (1 on a fresh cup)."""
        e = self.store.get("epoch")
        n = (_u16(e, 0) + 1) & 0xFFFF if e else 1
        self.put_epoch(n)
        return n

    def put_epoch(self, n):
        self.store.put("epoch", bytes((n >> 8 & 0xFF, n & 0xFF)))

    # ----- membership -------------------------------------------------------------
    def put_table(self, tid, me, code):
        self.store.put("table", bytes((tid >> 8, tid & 0xFF, me)) + code.encode())

    def table(self):
        """(tid, member id, code) of the table this cup belongs to, or None."""
        t = self.store.get("table")
        if not t or len(t) < 4:
            return None
        try:
            return _u16(t, 0), t[2], bytes(t[3:]).decode()
        except ValueError:
            return None

    def put_ident(self, sk, pk):
        self.store.put("ident", bytes(sk) + bytes(pk))

    def ident(self):
        """(private, public) key of this cup, or None."""
        k = self.store.get("ident")
        if not k or len(k) != 64:
            return None
        return bytes(k[:32]), bytes(k[32:])

    def put_roster(self, roster):
        out = bytearray()
        for mid in sorted(roster):
            addr, pk = roster[mid]
            out.append(mid)
            out += addr + pk
        self.store.put("roster", bytes(out))

    def roster(self):
        """{member id: (addr, public key)} kept for the table; {} when none."""
        r = self.store.get("roster")
        out = {}
        if not r or len(r) % 39:
            return out
        for i in range(0, len(r), 39):
            out[r[i]] = (bytes(r[i + 1:i + 7]), bytes(r[i + 7:i + 39]))
        return out

    def put_vote(self, term, voted):
        self.store.put("vote", bytes((term >> 8 & 0xFF, term & 0xFF, 0xFF if voted is None else voted)))

    def vote(self):
        """(term, voted for or None); (0, None) on a fresh cup."""
        v = self.store.get("vote")
        if not v or len(v) != 3:
            return 0, None
        return _u16(v, 0), None if v[2] == 0xFF else v[2]

    # ----- the round's secrets (net/kept.py) ----------------------------------------
    def put_secrets(self, rounds):
        """rounds: [(round, [(gen, root)])], newest last."""
        self._put_rounds("secret", rounds)

    def secrets(self):
        return self._rounds("secret")

    def put_helds(self, rounds):
        """rounds: [(round, [(seat, root)])], newest last."""
        self._put_rounds("held", rounds)

    def helds(self):
        return self._rounds("held")

    def _put_rounds(self, key, rounds):
        if not rounds:
            self.store.delete(key)
            return
        out = bytearray()
        for rno, items in rounds:
            out += bytes((rno >> 8 & 0xFF, rno & 0xFF, len(items)))
            for k, root in items:
                out.append(k)
                out += root
        self.store.put(key, bytes(out))

    def _rounds(self, key):
        """[(round, [(byte, root)])]; [] when none or unreadable."""
        b = self.store.get(key)
        out = []
        i = 0
        while b and i + 3 <= len(b):
            n = b[i + 2]
            end = i + 3 + 17 * n
            if end > len(b):
                return []
            out.append((_u16(b, i), [(b[k], bytes(b[k + 1:k + 17])) for k in range(i + 3, end, 17)]))
            i = end
        return out if b is not None and i == len(b) else []

    def put_roll(self, rid, root):
        self.store.put("roll", bytes((rid >> 24 & 0xFF, rid >> 16 & 0xFF, rid >> 8 & 0xFF, rid & 0xFF)) + root)

    def roll(self):
        """(roll id, root) or None."""
        r = self.store.get("roll")
        if not r or len(r) != 20:
            return None
        return r[0] << 24 | r[1] << 16 | r[2] << 8 | r[3], bytes(r[4:])

    def forget_roll(self):
        self.store.delete("roll")
