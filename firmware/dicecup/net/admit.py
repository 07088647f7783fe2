"""The master's side of a join (the flow and the frames are in net/lobby.py's docstring;
the joiner's side is net/joining.py): a JOIN answered with a CHALLENGE (a CPace
session, rationed by net/gate.py) or a REFUSE, a CONFIRM checked and the joiner
welcomed with its member id.

A module of its own, imported by `Lobby.on_join` / `on_confirm` on the master and
unloaded with CPace (lobby.JOIN_MODULES) once no session needs it: a cup in a game
holds none of this code in RAM.
"""
from micropython import const
from . import table as tbl
from . import wire
from .lobby import REASONS, _ci, _sid

_SESSIONS = const(4)     # join sessions the master holds at most


def _known(t, pk):
    """The member id whose static key is `pk`, or None."""
    for i in range(len(t.members)):
        if t.members[i].pk == pk:
            return i
    return None


def _refuse(cup, src, nonce, why):
    cup.count("join-" + why)
    cup.send(src, wire.REFUSE, (nonce, REASONS.index(why)), resend=True)


def on_join(lobby, src, f):
    """A JOIN heard by the master: a CHALLENGE (a new session), or a REFUSE."""
    cup = lobby.cup
    sessions = lobby.sessions
    nonce, share, pk, name = f.body
    s = sessions.get(src)
    if s is not None and s.nonce == nonce:
        if s.mid is None:   # our challenge was lost
            cup.send(src, wire.CHALLENGE, s.challenge)
        return
    t = cup.table
    if _known(t, pk) is None and (t.phase != tbl.LOBBY or lobby.seats_left() <= 0):
        _refuse(cup, src, nonce, "full" if t.phase == tbl.LOBBY else "closed")
        return
    if lobby.gate is None:       # (here: a cup that never hears a join never loads it)
        from .gate import Gate
        lobby.gate = Gate(cup.count)
    gate = lobby.gate
    why = gate.admit(cup.now)
    if why is not None:
        _refuse(cup, src, nonce, why)
        return
    keys = cup.keys
    mine = bytes((cup.me,)) + keys.ring.public()
    from .pake import Cpace, PakeError
    cp = Cpace(keys.code.encode(), _sid(keys.tid, nonce), _ci(keys.tid, src, cup.addr), False,
               cup.random_bytes, mine)
    try:
        isk = cp.finish(share + pk + name)
    except PakeError as e:
        cup.count("join-" + e.code)   # a low-order share: no guess was made
        lobby._settle()
        return
    if s is not None and s.mid is None:
        gate.failed(cup.now, "join-abandoned")   # its joiner started again
    body = (nonce, cp.message()[:32], mine, cp.confirm_tag())
    while len(sessions) >= _SESSIONS:     # room for it: the oldest session goes
        old = min(sessions, key=lambda a: sessions[a].at)
        if sessions.pop(old).mid is None:
            gate.failed(cup.now, "join-abandoned")
    from .gate import Session      # (with the Gate: a cup that never hears a join never loads it)
    sessions[src] = Session(nonce, cp, isk, gate.start(cup.now), cup.now, pk, name, body)
    cup.send(src, wire.CHALLENGE, body)


def on_confirm(lobby, src, f):
    """A CONFIRM heard by the master: a right code commits the join op and welcomes the
    joiner; a wrong one counts against the table (net/gate.py)."""
    cup = lobby.cup
    sessions = lobby.sessions
    nonce, tag = f.body
    s = sessions.get(src)
    if s is None or s.nonce != nonce:
        return
    if s.mid is not None:   # our welcome was lost: the same (checked) tag again
        if tag == s.tag:
            welcome(cup, src, s)
        return
    if not s.cp.check_confirm(tag):
        del sessions[src]
        lobby.gate.failed(cup.now, "join-bad-code")
        lobby._settle()
        return
    lobby.gate.confirmed(s.token)
    s.tag = tag
    s.cp = None
    lobby._settle()
    t = cup.table
    mid = _known(t, s.pk)
    if mid is None:
        if t.phase != tbl.LOBBY or lobby.seats_left() <= 0:
            del sessions[src]
            _refuse(cup, src, nonce, "full" if t.phase == tbl.LOBBY else "closed")
            return
        mid = len(t.members)
        cup.sync.commit(tbl.op_join(mid, src, tbl.text(s.name), 0, s.pk))
    s.mid = mid
    s.at = cup.now
    s.challenge = s.pk = s.name = None   # admitted: only the welcome (mid, nonce, wkey) is resent
    welcome(cup, src, s)


def welcome(cup, src, s):
    cup.send(src, wire.WELCOME, (s.mid, s.nonce), key=s.wkey)
    cup.sync.acks[s.mid] = 0
    cup.election.seen[s.mid] = cup.now
