"""The table's events as sentences a player would say: a listener, not a log parser.

    cup.listen(Narrator(cup, print))

Each public event (dicecup/events.py) becomes at most one line, read from its named
fields; the names of the seats come from the cup's own replica of the table.
"""

STAR = "*"


def face_name(rules, f):
    if rules == "bluff" and f == 6:
        return STAR
    if rules == "menteur" and f == 1:
        return "joker"
    if rules == "perudo" and f == 1:
        return "aces"
    return str(f)


def dice_text(faces):
    return " ".join(str(f) for f in faces)


class Narrator:
    """Says each event of one cup's table through `say(line)`, with the simulated time."""

    QUIET = ("op", "snapshot", "open", "start", "joined", "rules", "seats", "turn", "shake", "link",
             "remind", "rejected", "internal", "dice", "committed")

    def __init__(self, cup, say=print, clock=None):
        self.cup = cup
        self.say = say
        self.clock = clock

    def names(self):
        t = self.cup.table
        return [t.name_of(s) for s in range(len(t.seats))] if t is not None else []

    def member(self, mid):
        t = self.cup.table
        return t.members[mid].name if t is not None and 0 <= mid < len(t.members) else "?"

    def __call__(self, ev):
        if ev.kind in self.QUIET or self.cup.table is None:
            return
        line = self.sentence(ev)
        if line:
            self.say("%7.1fs %s" % (ev.t / 1000, line))

    def sentence(self, ev):
        t = self.cup.table
        rules = t.rules
        names = self.names()
        k = ev.kind

        def who(field="seat"):
            s = ev.get(field)
            return names[s] if s is not None and 0 <= s < len(names) else "?"

        if k == "rolloff":
            return "%s rolls %s for the opening (%d)" % (who(), " ".join(face_name(rules, f) for f in ev["faces"]), sum(ev["faces"]))
        if k == "rolled":
            return "-- round %d: everyone has shaken; %s opens" % (ev["round"], who("opener"))
        if k == "bid":
            return "%s bids %d x %s" % (who(), ev["quantity"], face_name(rules, ev["face"]))
        if k == "challenge":
            return "%s challenges!" % who()
        if k == "exact":
            return "%s calls exact!" % who()
        if k == "reroll":
            return "%s sets aside %s and rerolls %d" % (who(), dice_text(ev["aside"]), ev["rerolled"])
        if k == "reveal":
            shown = ", ".join("%s %s" % (names[s], dice_text(sorted(h))) for s, h in enumerate(ev["hands"]) if h)
            return "   %s; %d x %s bid, %d on the table" % (shown, ev["quantity"], face_name(rules, ev["face"]),
                                                         ev["count"])
        if k == "lose":
            return "   %s loses %d %s" % (who(), ev["dice"], "die" if ev["dice"] == 1 else "dice")
        if k == "gain":
            return "   %s gains %d die" % (who(), ev["dice"])
        if k == "forfeit":
            return "   %s's reveal does not match its commitment: all %d dice lost" % (who(), ev["dice"])
        if k == "withheld":
            return "   %s's cup never revealed its dice: it loses the round" % who()
        if k == "out":
            return "   %s is out" % who()
        if k == "win":
            return "== %s wins!" % who()
        if k == "round":
            extra = " (%s)" % ev["special"] if ev["special"] else ""
            return "   next: round %d, %s opens%s" % (ev["round"], who("opener"), extra)
        if k == "replay":
            return "   round %d is played again (%s)" % (ev["round"], REASONS.get(ev["reason"], ev["reason"]))
        if k == "roll":
            return "%s rolls %s" % (who(), dice_text(ev["faces"]))
        if k == "keep":
            return "   keeps %s: +%d, turn total %d" % (dice_text(ev["faces"]), ev["points"], ev["total"])
        if k == "hot":
            return "   hot dice! all five roll again"
        if k == "bust":
            return "   bust (loses %d)" % ev["lost"]
        if k == "cross":
            return "   %s gets cross %d" % (who(), ev["crosses"])
        if k == "penalty":
            return "   %s pays %d: score %d" % (who(), ev["points"], ev["score"])
        if k == "bank":
            return "   banks %d: score %d" % (ev["points"], ev["score"])
        if k == "overshoot":
            return "   over 10,000: the turn scores nothing"
        if k == "master":
            return "** %s is the table master now" % self.member(ev["member"])
        if k == "away":
            return "** %s's cup is silent: the master's bot plays for them" % self.member(ev["member"])
        if k == "back":
            return "** %s's cup is back" % self.member(ev["member"])
        if k == "left":
            return "** %s left the table: a bot plays the seat" % self.member(ev["member"])
        if k == "autoplay":
            return "** %s %s" % (self.member(ev["member"]),
                                 "is away from the buttons: their cup's bot plays" if ev["on"] else "plays again")
        return "%s %s" % (k, list(ev.values))


REASONS = {1: "a reveal never came", 2: "the master changed", 3: "a cup never committed its dice (a majority attests)",
           4: "a cup went away before it shook"}
