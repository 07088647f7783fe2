"""This cup's own seat: its player's inputs, the waits on them, and its own bot.

An input (an action, a roll's commitment or reveal) goes to the master and is resent
until its effect shows. While the player is waited for -- a shake, or a decision on
turn -- the cup reminds them after a while (a "remind" event the screens show) and,
after a long wait (dicecup/settings.py), plays the seat with its own bot: on this cup,
so the dice stay private. The table hears of it (the AUTO flag: an "autoplay" event
on every cup), and the player takes the seat back with their next input.
"""
from ..engine import BANK_OR_ROLL, BID, KEEP
from . import table as tbl
from . import wire
from .timing import RESEND_MS

DECIDE = (BID, KEEP, BANK_OR_ROLL)


class Seat:
    def __init__(self, cup):
        self.cup = cup
        self.sent = None        # (frame type, body, base version, at): resent until its effect shows
        self.reject = None      # the code of the last refusal
        self.rejects = 0
        self.wait = None        # (what, key, since): what the player is waited for
        self.reminded = False
        self.auto = False       # this cup's own bot plays the seat
        self.bot = None         # that bot (made when first needed)
        self.last_auto = -RESEND_MS

    def busy(self):
        return self.sent is not None

    def send_input(self, ftype, body):
        cup = self.cup
        self.sent = (ftype, body, cup.table.version, cup.now)
        cup.send(cup.master_addr(), ftype, body)

    def clear(self):
        self.sent = None

    def touched(self):
        """The player did something: they play their seat (again)."""
        self.wait = None
        self.reminded = False
        if self.auto:
            self.auto = False
            self._announce()

    def on_reject(self, src, f):
        base, code = f.body
        cup = self.cup
        if self.sent is not None and self.sent[2] == base and src == cup.master_addr():
            action = self.sent[1][1] if self.sent[0] == wire.ACTION else 0
            self.sent = None
            self.refused(action, tbl.text(code))

    def refused(self, action, code):
        self.reject = code
        self.rejects += 1
        self.cup.emit_local("rejected", (action, code))

    # ----- the clock ----------------------------------------------------------------------
    def tick(self, now):
        cup = self.cup
        t = cup.table
        due = None
        if self.sent is not None and not cup.is_master():
            ftype, body, base, at = self.sent
            if now - at >= RESEND_MS:
                if t.version == base or ftype != wire.ACTION:
                    self.sent = (ftype, body, base, now)
                    cup.send(cup.master_addr(), ftype, body)
                    cup.counts["retransmits"] += 1
                else:
                    self.sent = None
            if self.sent is not None:
                due = self.sent[3] + RESEND_MS
        if t.phase != tbl.PLAYING or cup.seat() < 0:
            self.wait = None
            return due
        d = self._waits(now)
        if d is not None and (due is None or d < due):
            due = d
        if self.auto:
            if self.bot is None:
                from ..autoplay import Autoplayer    # (here: loaded when a cup's own bot first plays)
                self.bot = Autoplayer(cup.rng, player=False)
            d = self.bot.step(cup, now)
            if d is not None and (due is None or d < due):
                due = d
        flagged = bool(t.members[cup.me].flags & tbl.AUTO)
        if flagged != self.auto and now - self.last_auto >= RESEND_MS:
            self._announce()
        return due

    def _waits(self, now):
        """Remind the player, then play for them, when they keep the table waiting."""
        cup = self.cup
        what = None
        if cup.wants_shake() is not None:
            what = "shake"
        elif cup.on_turn() and cup.need() in DECIDE and not self.busy():
            what = "act"
        if what is None:
            self.wait = None
            return None
        key = (what, cup.table.version)
        if self.wait is None or self.wait[1] != key:
            if self.wait is None or self.wait[0] != what:
                self.reminded = False
            self.wait = (what, key, now)
        since = self.wait[2]
        waits = cup.waits
        remind = since + waits["remind_shake_ms" if what == "shake" else "remind_act_ms"]
        if self.auto:
            return None
        if not self.reminded and now >= remind:
            self.reminded = True
            cup.emit_local("remind", (what,))
        if now >= since + waits["bot_ms"]:
            self.auto = True
            self._announce()
            return now
        return remind if not self.reminded else since + waits["bot_ms"]

    def _announce(self):
        """Tell the table who plays this seat (the master commits the flag itself)."""
        cup = self.cup
        t = cup.table
        self.last_auto = cup.now
        if t is None or cup.me is None or cup.me >= len(t.members):
            return
        flags = t.members[cup.me].flags
        want = flags | tbl.AUTO if self.auto else flags & ~tbl.AUTO
        if cup.is_master():
            if want != flags:
                cup.sync.commit(tbl.op_flags(cup.me, want))
        else:
            cup.send(cup.master_addr(), wire.AUTO, (cup.me, 1 if self.auto else 0))

    def on_op(self, name, info):
        if name in ("act", "roll", "settle", "restart"):
            self.sent = None
