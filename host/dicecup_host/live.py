"""`dicecup sim` on a terminal: sit at a simulated table (Textual).

Your cup's OLED at full resolution in half-blocks (128 x 32 characters), the other cups
at full resolution in braille (64 x 16, a quarter of the room), the table as the
public state shows it (dice per seat, the standing bid, whose turn, scores), and the
table's events. Every panel is read off that cup's emulated SSD1306 (livetable.py):
your dice appear only while you peek, and another cup that shows its player's dice is
covered, as across a real table.

Below MIN_COLS x MIN_ROWS the view shows one cup at a time (tab cycles), in half-blocks
when it fits, else braille -- so it works on an 80 x 24 terminal too.
"""
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from . import oledtext

MIN_COLS, MIN_ROWS = 200, 50
KEYS = ("keys: \u2190 \u2192 left/right   enter ok   backspace back   p peek (long ok)   s shake   "
        "x exact (left+right)   m menu (long right)   tab next cup (small terminal)   q quit")
REFRESH_S = 0.05


def table_text(live):
    """The public state of the game, as your cup's view knows it (no hidden die)."""
    lines = []
    ref = live.cups[live.you if live.you is not None else 0]
    sc = ref.ui.sc
    v = sc.view
    lines.append("%s, seed %d, %.0fx speed   %s" % (live.rules, live.table.seed, live.speed, live.state))
    if live.error:
        lines.append("!! " + live.error)
    if v is None:
        lines.append("table: %s" % ", ".join(sc.players) if sc.players else "in the lobby")
        return "\n".join(lines)
    names = [("you" if k == v.seat and live.you is not None else (sc.names[k] if k < len(sc.names) else "?"))
             for k in range(v.seats)]
    if v.rules == "dixmille":
        for k in range(v.seats):
            lines.append("%s %-8s %5d%s%s" % (">" if v.turn == k else " ", names[k], v.scores[k],
                                              "" if v.opened[k] else "  (not open)",
                                              "  crosses %d" % v.crosses[k] if v.crosses[k] else ""))
        if v.turn_total:
            lines.append("turn so far: %d" % v.turn_total)
    else:
        lines.append("round %s%s" % (v.round, "  (%s)" % v.special if v.special else ""))
        for k in range(v.seats):
            out = k in v.eliminated
            lines.append("%s %-8s %s" % (">" if v.turn == k else " ", names[k],
                                         "out" if out else "%d dice" % v.dice[k]))
        if v.bid:
            lines.append("bid: %d x %s by %s" % (v.bid[0], v.bid[1], names[v.bidder] if v.bidder >= 0 else "?"))
    if v.winner is not None:
        lines.append("%s won" % names[v.winner])
    return "\n".join(lines)


class Cup(Static):
    """One cup's panel."""

    def __init__(self, live, i, big, **kw):
        Static.__init__(self, **kw)
        self.live = live
        self.i = i
        self.big = big
        self._last = None

    def set_cup(self, i, big):
        self.i, self.big, self._last = i, big, None

    def update_panel(self):
        px = self.live.panel(self.i)
        key = (self.i, self.big, tuple(map(tuple, px)))
        if key == self._last:
            return
        self._last = key
        rows = oledtext.halfblock(px) if self.big else oledtext.braille(px)
        self.update(Text("\n".join(rows), style="bold #8fd7ff on #050a12"))
        who = "your cup" if self.i == self.live.you else "%s's cup" % self.live.name(self.i)
        self.border_title = "%s (%d)" % (who, self.i + 1)
        kind = self.live.seats[self.i]
        if kind not in ("you", "bot"):
            self.border_subtitle = kind      # the bot's level, when the table names one


class LiveApp(App):
    CSS = """
    Screen { background: #101418; }
    Cup { border: round #3a6ea5; width: auto; height: auto; }
    #you { margin: 0 1; }
    #others { width: 70; }
    #state { border: round #6a6a6a; height: auto; padding: 0 1; margin: 0 1; }
    #log { border: round #6a6a6a; padding: 0 1; margin: 0 1; height: 1fr; }
    #keys { height: 1; padding: 0 1; color: #d0d0d0; }
    #compact-log { border: round #6a6a6a; height: 1fr; padding: 0 1; }
    """
    BINDINGS = [
        Binding("left", "hand('left')", "left"),
        Binding("right", "hand('right')", "right"),
        Binding("enter", "hand('ok')", "ok"),
        Binding("backspace", "hand('back')", "back"),
        Binding("p", "hand('peek')", "peek (long ok)"),
        Binding("s", "hand('shake')", "shake"),
        Binding("x", "hand('exact')", "exact (left+right)"),
        Binding("m", "hand('menu')", "menu (long right)"),
        Binding("tab", "cycle", "next cup", priority=True),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, live):
        App.__init__(self)
        self.live = live
        self.compact = None
        self.shown = live.you if live.you is not None else 0

    def compose(self) -> ComposeResult:
        yield Vertical(id="body")
        yield Static(KEYS, id="keys")

    def on_mount(self):
        self.title = "dicecup sim"
        self._layout()
        self.set_interval(REFRESH_S, self._tick)

    def on_resize(self, event):
        self._layout()

    def _layout(self):
        w, h = self.size
        compact = w < MIN_COLS or h < MIN_ROWS
        if compact == self.compact:
            return
        self.compact = compact
        body = self.query_one("#body")
        body.remove_children()
        live = self.live
        if compact:
            big = w >= 132 and h >= 40
            body.mount(Cup(live, self.shown, big, id="one"))
            body.mount(Static(id="state"))
            body.mount(Static(id="compact-log"))
        else:
            you = live.you if live.you is not None else 0
            others = [Cup(live, k, False) for k in range(len(live.cups)) if k != you]
            left = Vertical(Cup(live, you, True, id="you"), Static(id="state"), Static(id="log"))
            body.mount(Horizontal(left, VerticalScroll(*others, id="others")))

    def _tick(self):
        for cup in self.query(Cup):
            cup.update_panel()
        for s in self.query("#state"):
            s.update(table_text(self.live))
        for log in self.query("#log, #compact-log"):
            rows = max(3, (log.size.height or 12) - 2)
            log.update("\n".join(self.live.log[-rows:]))

    def action_hand(self, what):
        self.live.press(what)

    def action_cycle(self):
        if not self.compact:
            return
        self.shown = (self.shown + 1) % len(self.live.cups)
        w, h = self.size
        self.query_one("#one", Cup).set_cup(self.shown, w >= 132 and h >= 40)


def run(live):
    """Open the view on a started LiveTable; returns when the player quits."""
    app = LiveApp(live)
    try:
        app.run()
    finally:
        live.stop()
    return 0
