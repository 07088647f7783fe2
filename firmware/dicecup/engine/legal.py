"""The actions a seat may take, kept small: what a View holds as `legal`.

A bidding round's legal bids are a run of the round's bid ladder (every bid up to the
dice on the table, lowest rank first, one byte each, shared by the game and never
changed): at a 30-dice table that is up to 180 bids, a 1 KB list built afresh for every
View -- on an ESP32 without PSRAM, a 1 KB block is what a fragmented heap no longer has.
`Legal` is the run (ladder, start, stop) and the few other actions (challenge, exact,
Bluff's rerolls) in `extra`: it reads like the list (`len`, `in`, iteration in order,
indexing, `==` with a list) without one.
"""


class Legal:
    def __init__(self, ladder, start, stop, extra, index=None):
        self.ladder = ladder       # bytes: bid actions (quantity << 3 | face), by rank
        self.start = start
        self.stop = stop
        self.extra = extra         # a list of the other actions, after the bids
        self.index = index         # by bid (_table): its place in the ladder + 1 (0: none)

    def __len__(self):
        return self.stop - self.start + len(self.extra)

    def __bool__(self):
        return self.stop > self.start or bool(self.extra)

    def __getitem__(self, i):
        n = self.stop - self.start
        if i < 0:
            i += n + len(self.extra)
        if 0 <= i < n:
            return self.ladder[self.start + i]
        if i < 0:
            raise IndexError("legal index out of range")
        return self.extra[i - n]

    def __iter__(self):
        lad = self.ladder
        for i in range(self.start, self.stop):
            yield lad[i]
        for a in self.extra:
            yield a

    def __contains__(self, a):
        if type(a) is int and 8 <= a and self.index is not None and a < len(self.index):
            i = self.index[a]
            if self.start < i <= self.stop:
                return True
        elif self.index is None and self.stop > self.start:
            for i in range(self.start, self.stop):
                if self.ladder[i] == a:
                    return True
        return a in self.extra

    def __eq__(self, other):
        if len(self) != len(other):
            return False
        i = 0
        for a in self:
            if a != other[i]:
                return False
            i += 1
        return True

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "Legal(%r)" % (list(self),)
