"""Engine events as sentences a table player would say."""

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


def sentence(rules, ev, names):
    """One line for one event tuple."""
    k = ev[0]
    who = names[ev[1]] if len(ev) > 1 and isinstance(ev[1], int) and 0 <= ev[1] < len(names) else "?"
    if k == "rolloff":
        return "%s rolls %s for the opening (%d)" % (who, dice_text(ev[2]), sum(ev[2]))
    if k == "roll" and rules != "dixmille":
        return "-- round %d: everyone shakes; %s opens" % (ev[1], names[ev[2]])
    if k == "bid":
        return "%s bids %d x %s" % (who, ev[2], face_name(rules, ev[3]))
    if k == "challenge":
        return "%s challenges!" % who
    if k == "exact":
        return "%s calls exact!" % who
    if k == "reroll":
        return "%s sets aside %s and rerolls %d" % (who, dice_text(ev[2]), ev[3])
    if k == "reveal":
        return "   %d x %s bid, %d on the table" % (ev[1], face_name(rules, ev[2]), ev[3])
    if k == "lose":
        return "   %s loses %d %s" % (who, ev[2], "die" if ev[2] == 1 else "dice")
    if k == "gain":
        return "   %s gains %d die" % (who, ev[2])
    if k == "out":
        return "   %s is out" % who
    if k == "win":
        return "== %s wins!" % who
    if k == "round":
        extra = " (%s)" % ev[3] if ev[3] else ""
        return "   next: round %d, %s opens%s" % (ev[1], names[ev[2]], extra)
    if k == "roll":
        return "%s rolls %s" % (who, dice_text(ev[2]))
    if k == "keep":
        return "   keeps %s: +%d, turn total %d" % (dice_text(ev[2]), ev[3], ev[4])
    if k == "hot":
        return "   hot dice! all five roll again"
    if k == "bust":
        return "   bust (loses %d)" % ev[2]
    if k == "cross":
        return "   %s gets cross %d" % (who, ev[2])
    if k == "penalty":
        return "   %s pays %d: score %d" % (who, ev[2], ev[3])
    if k == "bank":
        return "   banks %d: score %d" % (ev[2], ev[3])
    if k == "overshoot":
        return "   over 10,000: the turn scores nothing"
    if k == "turn":
        return None
    return "%s %s" % (k, ev[1:])
