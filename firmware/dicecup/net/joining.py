"""The joiner's side of a join (net/lobby.py has the master's): one CPace session with
the table's master at a time, resent until its welcome, a refusal or 20 s without one
(a "join_failed" event). The flow and the frames are in net/lobby.py's docstring.

A module of its own, imported by `Lobby.join` and unloaded once the join is over
(dicecup.unload, as CPace): while it lasts the session is `cup.joining`, a part the
cup hands the joiner's frames to (CHALLENGE, REFUSE, WELCOME); a cup in a game holds
none of this code in RAM.
"""
from micropython import const
from .. import unload
from . import timing, wire

_JOIN_FOR_MS = const(20000)  # a join that gets no welcome this long gives up (a "join_failed" event)


class Joining:
    """One join under way (`cup.joining`)."""

    def __init__(self, lobby, tid, code, maddr, now):
        self.lobby = lobby
        self.tid = tid
        self.code = code
        self.maddr = maddr
        self.first = now
        self.last = now
        self.stage = 0         # 0: JOIN sent, 1: confirmed, waiting for the welcome
        self.busy = False      # the master said "busy" at least once
        self.master = None     # (master id, its public key), from the challenge
        self.nonce = None
        self.cp = None
        self.confirm = None
        self.body = None       # our JOIN body (resent as it is)

    def start(self):
        """A fresh session with the master we know of (JOIN sent)."""
        from .lobby import _ci, _sid
        from .pake import Cpace
        cup = self.lobby.cup
        self.nonce = cup.random_bytes(8)
        self.stage = 0
        pk = cup.keys.ring.public()
        name = cup.name.encode()[:8]
        self.cp = Cpace(self.code.encode(), _sid(self.tid, self.nonce), _ci(self.tid, cup.addr, self.maddr), True,
                        cup.random_bytes, pk + name)
        self.body = (self.nonce, self.cp.message()[:32], pk, name)
        self.send()

    def send(self):
        cup = self.lobby.cup
        self.last = cup.now
        if self.stage == 0:
            cup.send(self.maddr, wire.JOIN, self.body, resend=True)
        else:
            cup.send(self.maddr, wire.CONFIRM, (self.nonce, self.confirm), resend=True)

    def _end(self):
        """The join is over: the cup forgets it, and this module leaves RAM."""
        self.lobby.cup.joining = None
        self.lobby._settle()
        unload("dicecup.net.joining")

    def failed(self, why):
        cup = self.lobby.cup
        self._end()
        cup.keys.jkey = None
        cup.emit_local("join_failed", (self.tid, why))

    def _mine(self, src, f):
        return src == self.maddr and f.body[0] == self.nonce

    def on_challenge(self, src, f):
        cup = self.lobby.cup
        if not self._mine(src, f) or self.stage != 0:
            return
        nonce, share, theirs, tag = f.body
        from .pake import PakeError
        try:
            isk = self.cp.finish(share + theirs)
        except PakeError as e:
            cup.count("join-" + e.code)
            self.failed("bad-share")
            return
        self.confirm = self.cp.confirm_tag()
        ok = self.cp.check_confirm(tag)
        self.cp = None          # the session is spent: resends carry self.confirm
        self.lobby._settle()
        self.stage = 1
        self.send()   # our confirmation, right or wrong: the master counts it at once
        if not ok:
            cup.count("join-bad-code")
            self.failed("wrong-code")
            return
        self.master = (theirs[0], theirs[1:])
        cup.keys.jkey = wire.session_key(isk, b"welcome")

    def on_refuse(self, src, f):
        if not self._mine(src, f):
            return
        from .lobby import REASONS
        why = REASONS[f.body[1]] if 0 < f.body[1] < len(REASONS) else "closed"
        if why == "busy":
            self.busy = True   # try again (the tick) until the join gives up
        else:
            self.failed(why)

    def on_welcome(self, src, f):
        lobby = self.lobby
        cup = lobby.cup
        if self.stage != 1 or src != self.maddr:
            return
        mid, nonce = f.body
        mmid, mpk = self.master
        if nonce != self.nonce or mid >= 6 or mid == mmid or f.sender != mmid:
            return
        self._end()
        cup.me = mid
        cup.keys.jkey = None
        cup.keys.use(self.tid, self.code, mid, {mmid: (src, mpk)})
        cup.flash.put_table(self.tid, mid, self.code)
        cup.hidden.kept.clear()
        cup.flash.forget_roll()
        cup.election.new_table()
        cup.table = None
        lobby.master_hint = src
        lobby.hello(src)

    def tick(self, now):
        if now - self.first >= _JOIN_FOR_MS:
            # no welcome: the master busy with other joins, or no radio contact
            self.failed("busy" if self.busy else "no-answer")
            return now + 1000
        if now - self.last >= timing.JOIN_MS:
            heard = self.lobby.heard.get(self.tid)
            if self.stage == 0 and heard is not None and heard[0] != self.maddr:
                self.maddr = heard[0]   # the table's master now: a session with it
                self.start()
            else:
                self.send()
        return self.last + timing.JOIN_MS
