"""Who may talk to this cup: the table's keys, sequence numbers, the replay window.

Frames out get the next sequence number and the right tag; frames in are decoded,
their tag checked with the key their type needs, and refused if already seen. All
refusals are `wire.FrameError` with a stable code, counted by the cup.

Sequence numbers never repeat across reboots: each boot starts a new epoch (kept in
flash) in the top bits, and a long boot moves to the next epoch when its 2**18
numbers run out.
"""
from . import wire


class Keys:
    def __init__(self, flash, boot):
        self.flash = flash
        self.epoch = boot & 0xFFF
        self.seq = self.epoch << 18
        self.tid = None
        self.code = None
        self.salt = None
        self.key = None     # the table key (after the join)
        self.jkey = None    # the join key (from the code)
        self.window = wire.Window()

    def use(self, tid, code, salt=None):
        """Take the keys of table `tid` (salt None: only the join key, while joining)."""
        self.tid = tid
        self.code = code
        self.jkey = wire.join_key(tid, code)
        self.salt = salt
        self.key = wire.table_key(tid, code, salt) if salt is not None else None

    def restore(self):
        """The keys kept in flash; returns the member id, or None for no table."""
        t = self.flash.table()
        if t is None:
            return None
        tid, me, salt, code = t
        self.use(tid, code, salt)
        return me

    def next_seq(self):
        self.seq += 1
        if self.seq & 0x3FFFF == 0:   # this epoch's numbers are used up: the next one
            self.epoch = (self.epoch + 1) & 0xFFF
            self.seq = self.epoch << 18 | 1
            self.flash.put_epoch(self.epoch)
        return self.seq

    def frame(self, ftype, sender, ver, body, key=None):
        return wire.encode(ftype, self.tid or 0, sender, self.next_seq(), ver, body, key or self.key)

    def accept(self, src, data):
        """The decoded frame, or FrameError (foreign, bad tag, replayed, malformed...)."""
        f = wire.decode(data, self.tid if (self.key or self.jkey) else None)
        kind = wire.key_kind(f.type)
        if kind == 1:
            if self.jkey is None:
                raise wire.FrameError("foreign-table")
            wire.check(f, self.jkey)
        elif kind == 2:
            if self.key is None:
                raise wire.FrameError("bad-tag", "not a member yet")
            wire.check(f, self.key)
        if kind and not self.window.accept((f.sender, src), f.seq):
            raise wire.FrameError("replay")
        return f
