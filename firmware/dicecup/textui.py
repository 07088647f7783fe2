"""TextUi: the smallest real UI behind the app's seam (dicecup/app.py), so a cup is
playable end to end before the real screens (dicecup/ui/) land.

Eight rows of 16 characters in the built-in 8x8 font (MicroPython's framebuf; under
CPython adafruit_framebuf, which draws text only with its font5x8.bin, so host tests
read `rows` instead). Row 0 is an inverted title, row 7 the status or the last
happening. Buttons (any board: left, ok, right; back where there is one):

    left / right   move the cursor over what can be done now (a menu, the legal moves)
    ok             do it
    long ok        peek: my dice on the screen, until the next long ok
    back, long left  cancel the code being typed
    both left+right  exact (when legal now, in turn or not)

Alone: "new <rules>" for each rule set, "join <table>" for each table heard (then the
4-digit code: left/right change the digit, ok the next). Master in the lobby: start, add
a bot. In a game, on my turn: the legal moves (bids from the lowest raise up,
challenge, exact, keep, bank...). Game over: the master starts again.

`rows` (8 strings), `mode` and `items` (what the cursor moves over) / `cursor` are
plain attributes, which a test's scripted player reads like a person reads the screen.
"""
from .engine import RULES
from .engine.actions import EXACT, describe
from .engine.need import BANK_OR_ROLL, BID, KEEP, OVER
from .hw.buttons import BOTH, LONG, PRESS

COLS = 16
_DECIDE = (BID, KEEP, BANK_OR_ROLL)


class TextUi:
    def __init__(self, names=("left", "ok", "right", "back")):
        self.names = list(names)
        self.lobby = None
        self.view = None
        self.link = True
        self.quorum = True
        self.battery_pct = None
        self.low_battery = False
        self.lang = "en"
        self.peeking = False
        self.shake_for = None      # what the cup asked a shake for, not had yet
        self.note = ""             # the last happening worth a line
        self.mode = "boot"         # alone, code, joining, lobby, master, game, over
        self.items = []            # (label, request or None) the cursor moves over
        self.cursor = 0
        self.code = None           # the code being typed: list of digits
        self.code_for = None       # ... for this table id
        self.rows = [""] * 8
        self._dirty = True
        self._fb = None
        self._buf = None
        self._text = True

    # ----- the seam -----------------------------------------------------------------------
    def on_event(self, ev):
        k = ev.kind
        note = None
        if k == "bid":
            note = "s%d bids %dx%d" % (ev.values[0], ev.values[1], ev.values[2])
        elif k in ("challenge", "exact"):
            note = "s%d: %s!" % (ev.values[0], k)
        elif k == "lose":
            note = "s%d loses %d" % (ev.values[0], ev.values[1])
        elif k == "gain":
            note = "s%d gains %d" % (ev.values[0], ev.values[1])
        elif k == "win":
            note = "s%d wins!" % ev.values[0]
        elif k == "rejected":
            note = "no: %s" % ev.values[1]
        elif k == "join_failed":
            note = "join: %s" % ev.values[1]
        elif k == "joined":
            note = "%s joined" % ev.values[1]
        elif k == "remind":
            note = "your move!" if ev.values[0] == "act" else "shake!"
        if k == "shake":
            self.shake_for = ev.values[0]   # the cup waits for a shake: round, reroll, roll
        elif k == "committed" or k == "win":
            self.shake_for = None      # shaken (by the player or the cup's own bot)
        if note is not None:
            self.note = note
        self._dirty = True

    def on_view(self, view):
        self.view = view
        self._compose_items()

    def on_lobby(self, lobby):
        self.lobby = lobby
        self._compose_items()

    def status(self, link=True, quorum=True, battery_pct=None, low_battery=False):
        self.link = link
        self.quorum = quorum
        self.battery_pct = battery_pct
        self.low_battery = low_battery
        self._dirty = True

    def on_setting(self, name, value):
        if name == "lang":
            self.lang = value

    def on_buttons(self, kind, mask):
        name = self._name(mask)
        if kind == BOTH:
            if self.view is not None and EXACT in self.view.legal:
                return [("act", EXACT)]
            return None
        if kind == LONG and name == "ok":
            self.peeking = not self.peeking
            self._dirty = True
            return [("peek", self.peeking)]
        if self.mode == "code":
            return self._code_key(kind, name)
        if kind != PRESS or not self.items:
            return None
        if name == "left":
            self.cursor = (self.cursor - 1) % len(self.items)
        elif name == "right":
            self.cursor = (self.cursor + 1) % len(self.items)
        elif name == "ok":
            req = self.items[self.cursor][1]
            if req is not None and req[0] == "code":
                self.mode = "code"
                self.code = [0]
                self.code_for = req[1]
                self._dirty = True
                return None
            return [req] if req is not None else None
        self._dirty = True
        return None

    def tick(self, now_ms):
        if not self._dirty:
            return False
        self._dirty = False
        rows = self._compose()
        if rows == self.rows:
            return False
        self.rows = rows
        return True

    def draw(self, buf):
        fb = self._framebuffer(buf)
        if fb is None:
            return
        fb.fill(0)
        fb.fill_rect(0, 0, 128, 8, 1)
        rows = self.rows
        for i in range(8):
            if rows[i] and self._text:
                try:
                    fb.text(rows[i], 0, 8 * i, 0 if i == 0 else 1)
                except OSError:   # adafruit_framebuf without its font file
                    self._text = False

    # ----- inside -------------------------------------------------------------------------
    def _name(self, mask):
        for i in range(len(self.names)):
            if mask == 1 << i:
                return self.names[i]
        return None

    def _framebuffer(self, buf):
        if self._buf is not buf:
            self._buf = buf
            try:
                import framebuf
                self._fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
            except ImportError:
                try:
                    import adafruit_framebuf
                    self._fb = adafruit_framebuf.FrameBuffer(buf, 128, 64, adafruit_framebuf.MVLSB)
                except ImportError:
                    self._fb = None
        return self._fb

    def _code_key(self, kind, name):
        if (kind == PRESS and name == "back") or (kind == LONG and name == "left"):
            self.mode = "alone"
            self.code = None
            self._compose_items()
            return None
        if kind != PRESS:
            return None
        c = self.code
        if name == "left":
            c[-1] = (c[-1] + 9) % 10
        elif name == "right":
            c[-1] = (c[-1] + 1) % 10
        elif name == "ok":
            if len(c) < 4:
                c.append(0)
            else:
                code = "".join([str(d) for d in c])
                tid = self.code_for
                self.code = None
                self.mode = "joining"
                self._dirty = True
                return [("join", code, tid)]
        self._dirty = True
        return None

    def _compose_items(self):
        """What the cursor moves over now; the cursor is kept where it still fits."""
        lob = self.lobby
        v = self.view
        items = []
        if v is not None and lob is not None and lob.phase == "playing":
            mode = "game"
            if v.mine and v.need in _DECIDE:
                for a in v.legal:
                    items.append((describe(a), ("act", a)))
        elif lob is None or lob.role == "alone":
            mode = "code" if self.mode == "code" else "alone"
            for r in RULES:
                items.append(("new " + r, ("create", r, None)))
            if lob is not None:
                for t in lob.tables:
                    items.append(("join " + t[1], ("code", t[0])))
        elif lob.role == "joining":
            mode = "joining"
        elif lob.phase == "done":
            mode = "over"
            if lob.role == "master":
                items.append(("play again", ("start",)))
        elif lob.role == "master":
            mode = "master"
            items.append(("start", ("start",)))
            items.append(("add a bot", ("bot", "bot%d" % len(lob.members))))
        else:
            mode = "lobby"
        same = [x[0] for x in items] == [x[0] for x in self.items]
        if mode != self.mode or not same:
            self.cursor = 0
        self.mode = mode
        self.items = items
        self._dirty = True

    def _compose(self):
        rows = [""] * 8
        lob = self.lobby
        v = self.view
        m = self.mode
        if m in ("game", "over") and v is not None:
            self._game_rows(rows, v)
        elif m == "code":
            rows[0] = "JOIN %04x" % (self.code_for or 0)
            rows[2] = "code " + "".join([str(d) for d in self.code]) + "_" * (4 - len(self.code))
            rows[4] = "< > digit  ok"
        elif m == "alone":
            rows[0] = "DICE CUP"
            rows[2] = "tables heard %d" % (len(lob.tables) if lob is not None else 0)
        elif m == "joining":
            rows[0] = "JOINING"
            rows[2] = "table %04x" % (lob.tid or 0) if lob is not None and lob.tid else ""
        else:
            rows[0] = "LOBBY " + (lob.rules or "")
            if lob.code:
                rows[1] = "code %s" % lob.code
            rows[2] = "players %d" % len(lob.members)
            if m == "lobby":
                rows[4] = "wait for start"
            if m == "over":
                rows[4] = "game over"
        if self.items and m != "game":
            rows[5] = "> " + self.items[self.cursor][0]
        rows[7] = self._status_row()
        for i in range(8):
            rows[i] = rows[i][:COLS]
        return rows

    def _game_rows(self, rows, v):
        rows[0] = v.rules.upper() if v.round is None else "%s r%d" % (v.rules.upper(), v.round)
        if v.need == OVER:
            rows[2] = "you win!" if v.winner == v.seat else "s%d wins" % v.winner
            if self.items:
                rows[5] = "> " + self.items[self.cursor][0]
        elif v.dice is not None:
            rows[1] = "dice " + " ".join([str(d) for d in v.dice])
            rows[2] = "bid %dx%d" % v.bid if v.bid else "no bid"
        else:
            rows[1] = "score %d" % v.scores[v.seat]
            rows[2] = "turn %d" % (v.turn_total or 0)
        if v.need != OVER:
            if self.shaking(v) and v.need == BANK_OR_ROLL:
                rows[3] = "bank, or shake"
            elif self.shaking(v):
                rows[3] = "SHAKE!"
            elif v.mine:
                rows[3] = "your turn"
            elif v.turn is not None:
                rows[3] = "turn: s%d" % v.turn
            if self.items:
                rows[4] = "< %s >" % self.items[self.cursor][0]
        if self.peeking and v.hand:
            rows[6] = "mine " + " ".join([str(d) for d in v.hand])

    def shaking(self, v=None):
        """Whether the screen asks for a shake now: the cup asked (a `shake` event) and
        the game still waits for it (a round's dice; my roll on my turn -- banked or
        bust, it is gone; a reroll until it is committed)."""
        w = self.shake_for
        v = v or self.view
        if w is None or v is None:
            return False
        if w == "round":
            return v.need == "shake"
        if w == "roll":
            return v.mine and v.need in ("roll", BANK_OR_ROLL)
        return True

    def _status_row(self):
        if not self.link:
            return "no link"
        if not self.quorum:
            return "wait for table"
        if self.low_battery:
            return "LOW BATTERY"
        return self.note
