"""Who may talk to this cup: member keys, sequence numbers, the replay window.

Frames out get the next sequence number and their tags: the pairwise key of each
receiver (net/keyring.py; one tag for a unicast frame, a vector for a broadcast), or
the join session's key for a WELCOME. Frames in are decoded, their tag checked with
the key shared with the header's sender (so the sender byte is authenticated), and
refused if already seen. All refusals are `wire.FrameError` with a stable code,
counted by the cup.

Sequence numbers never repeat across reboots: each boot starts a new epoch (kept in
flash) in the top bits, and a long boot moves to the next epoch when its 2**18
numbers run out. The replay window is per (sender, radio address).
"""
from . import wire
from .keyring import Keyring


class Keys:
    def __init__(self, flash, boot, random_bytes):
        self.flash = flash
        self.epoch = boot & 0xFFF
        self.seq = self.epoch << 18
        self.tid = None
        self.code = None
        self.me = None      # my member id (None until welcomed)
        self.jkey = None    # the join session's welcome key, while a join awaits its welcome
        self.ring = Keyring(flash, random_bytes)
        self.window = wire.Window()

    def use(self, tid, code, me=None, roster=None):
        """Take table `tid` (me None: not a member yet, while joining)."""
        self.tid = tid
        self.code = code
        self.me = me
        self.ring.use(tid, roster if roster is not None else ({} if me is None else None))

    def member(self):
        """Whether this cup holds member keys (welcomed, or restored from flash)."""
        return self.me is not None

    def restore(self):
        """The table kept in flash; returns the member id, or None for no table."""
        t = self.flash.table()
        if t is None:
            return None
        tid, me, code = t
        self.use(tid, code, me)
        return me

    def next_seq(self):
        self.seq += 1
        if self.seq & 0x3FFFF == 0:   # this epoch's numbers are used up: the next one
            self.epoch = (self.epoch + 1) & 0xFFF
            self.seq = self.epoch << 18 | 1
            self.flash.put_epoch(self.epoch)
        return self.seq

    def frame(self, ftype, sender, ver, body, dest, key):
        """A frame to `dest` (an address or BROADCAST). `key`: the session key of a kind-1
        frame; kind-2 frames get the member keys of their receivers."""
        kind = wire.key_kind(ftype)
        if kind == 2:
            key = self.ring.receivers(self.me, dest)
        return wire.encode(ftype, self.tid or 0, sender, self.next_seq(), ver, body, key)

    def accept(self, src, data):
        """The decoded frame, or FrameError (foreign, bad tag, forged sender, replayed...)."""
        f = wire.decode(data, self.tid)
        kind = wire.key_kind(f.type)
        if kind == 1:
            if self.jkey is None:
                raise wire.FrameError("bad-tag", "no join under way")
            wire.check(f, self.jkey)
        elif kind == 2:
            if self.me is None:
                raise wire.FrameError("not-for-me", "not a member yet")
            if not wire.covers(f, self.me):
                raise wire.FrameError("not-for-me")
            wire.check(f, self.ring.pair(self.me, f.sender), self.me)
        if kind and not self.window.accept(f.sender, src, f.seq):
            raise wire.FrameError("replay")
        return f
