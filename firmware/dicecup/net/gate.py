"""The master's limit on join sessions: every CPace session it answers is one online
guess of the table code, so sessions are rationed.

A session counts against the table from the moment the master answers it until its
joiner confirms (a right code): an attacker who never confirms (it checks the master's
confirmation itself) is counted as much as one who confirms wrongly.

    RATE        at most 3 unconfirmed sessions started in any WINDOW_MS (60 s): more
                joins are refused "busy" (the joiner tries again until it gives up)
    LOCK_AFTER  10 failed sessions (a wrong confirmation, a session left SESSION_MS
                unconfirmed, or replaced by a new one) lock the table out ...
    LOCK_MS     ... for 10 minutes: every join is refused "locked" (the joiner's
                join_failed reason), and the failure count starts again after it

So one radio neighbour tries at most 10 codes in ~13 minutes: half of the 10,000
codes takes over 4 days. The counts are RAM only (a master that reboots starts again:
an attacker cannot reboot it).

`Session` is one session the master answers (net/lobby.py's `sessions`).
"""
from . import wire

RATE = 3
WINDOW_MS = 60000
LOCK_AFTER = 10
LOCK_MS = 600000


class Gate:
    RATE = RATE
    WINDOW_MS = WINDOW_MS
    LOCK_AFTER = LOCK_AFTER
    LOCK_MS = LOCK_MS

    def __init__(self, count):
        self.count = count          # count(code): the cup's error counter
        self.started = []           # start times of sessions not (yet) confirmed
        self.failures = 0
        self.locked_until = None

    def admit(self, now):
        """None when a new session may start now, else why not: 'locked' or 'busy'."""
        if self.locked_until is not None:
            if now < self.locked_until:
                return "locked"
            self.locked_until = None
        self.started = [t for t in self.started if now - t < self.WINDOW_MS]
        if len(self.started) >= self.RATE:
            return "busy"
        return None

    def start(self, now):
        self.started.append(now)
        return now

    def confirmed(self, token):
        """A session started at `token` got the right code: it is no guess to count."""
        if token in self.started:
            self.started.remove(token)

    def failed(self, now, code):
        self.count(code)
        self.failures += 1
        if self.failures >= self.LOCK_AFTER:
            self.failures = 0
            self.locked_until = now + self.LOCK_MS
            self.count("join-lockout")

    def locked(self, now):
        return self.locked_until is not None and now < self.locked_until


class Session:
    """The master's side of one join session (net/lobby.py keeps them, by joiner
    address): here, with the ration, so a cup that never hears a join never holds the
    class in RAM."""

    def __init__(self, nonce, cp, isk, token, now, pk, name, challenge):
        self.nonce = nonce
        self.cp = cp
        self.wkey = wire.session_key(isk, b"welcome")
        self.token = token
        self.at = now
        self.pk = pk
        self.name = name
        self.challenge = challenge
        self.mid = None        # set once confirmed and admitted
        self.tag = None        # the joiner's confirmation once checked (cp is then dropped)
