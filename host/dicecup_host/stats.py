"""What many recorded games add up to, from DIR/games.db (gamedb.py): pure queries,
no plotting (plots.py draws them).

    s = summary(sqlite3.connect(path))

Keys: games, by_rules, seats (per seat index: games, wins, rate), kinds (per kind of
player -- "cup", or a bot, by its level when its name carries one -- games, wins,
rate), rounds (mean, min, max, per game list), seconds (mean game length in the cup's
clock), bids (all bids judged at their round's reveal: total, true, rate), called
(the challenged or exact-called bids: total, true), challenges (total, won: the bid
was false), exacts (total, right).
"""
LEVELS = ("easy", "normal", "strong")


def _rate(a, b):
    return round(a / b, 3) if b else None


def kind_of(name, bot):
    if not bot:
        return "cup"
    low = (name or "").lower()
    for lv in LEVELS:
        if lv in low:
            return "bot " + lv
    return "bot"


def summary(db):
    games = db.execute("SELECT id, rules, winner, rounds, started_t, ended_t FROM games "
                       "WHERE rules IS NOT NULL").fetchall()
    out = {"games": len(games), "by_rules": {}}
    ids = [g[0] for g in games]
    winner = dict((g[0], g[2]) for g in games)
    for g in games:
        out["by_rules"][g[1]] = out["by_rules"].get(g[1], 0) + 1
    seats, kinds = {}, {}
    for gid, seat, name, bot in db.execute("SELECT game_id, seat, name, bot FROM players"):
        if gid not in winner or winner[gid] is None:
            continue
        won = 1 if winner[gid] == seat else 0
        for table, k in ((seats, seat), (kinds, kind_of(name, bot))):
            row = table.setdefault(k, {"games": 0, "wins": 0})
            row["games"] += 1
            row["wins"] += won
    for table in (seats, kinds):
        for row in table.values():
            row["rate"] = _rate(row["wins"], row["games"])
    out["seats"] = dict(sorted(seats.items()))
    out["kinds"] = dict(sorted(kinds.items()))
    rounds = [g[3] for g in games if g[2] is not None]
    out["rounds"] = {"mean": round(sum(rounds) / len(rounds), 2) if rounds else None,
                     "min": min(rounds) if rounds else None, "max": max(rounds) if rounds else None,
                     "per_game": rounds}
    secs = [(g[5] - g[4]) / 1000 for g in games if g[2] is not None and g[4] is not None and g[5] is not None]
    out["seconds"] = {"mean": round(sum(secs) / len(secs), 1) if secs else None, "per_game": secs}
    q = ("SELECT bids, true_bids, call, quantity, count FROM rounds WHERE game_id IN (%s)"
         % ",".join("?" * len(ids))) if ids else None
    rows = db.execute(q, ids).fetchall() if q else []
    judged = [r for r in rows if r[1] is not None]
    nb = sum(r[0] for r in judged)
    nt = sum(r[1] for r in judged)
    out["bids"] = {"total": nb, "true": nt, "rate": _rate(nt, nb)}
    called = [r for r in rows if r[3] is not None and r[4] is not None]
    ct = sum(1 for r in called if r[4] >= r[3])
    out["called"] = {"total": len(called), "true": ct, "rate": _rate(ct, len(called))}
    ch = [r for r in called if r[2] == "challenge"]
    won = sum(1 for r in ch if r[4] < r[3])
    out["challenges"] = {"total": len(ch), "won": won, "rate": _rate(won, len(ch))}
    ex = [r for r in called if r[2] == "exact"]
    right = sum(1 for r in ex if r[4] == r[3])
    out["exacts"] = {"total": len(ex), "right": right, "rate": _rate(right, len(ex))}
    return out


def text(s):
    """The summary as lines a player reads."""
    def pct(x):
        return "-" if x is None else "%.0f%%" % (100 * x)
    lines = ["%d games (%s)" % (s["games"], ", ".join("%s %d" % kv for kv in sorted(s["by_rules"].items())))]
    lines.append("wins per seat: " + ", ".join("seat %d %d/%d (%s)" % (k + 1, r["wins"], r["games"], pct(r["rate"]))
                                               for k, r in s["seats"].items()))
    lines.append("wins per player: " + ", ".join("%s %d/%d (%s)" % (k, r["wins"], r["games"], pct(r["rate"]))
                                                 for k, r in s["kinds"].items()))
    r = s["rounds"]
    if r["mean"] is not None:
        lines.append("game length: %.1f rounds on average (%d to %d)%s" % (
            r["mean"], r["min"], r["max"],
            ", %.0f s" % s["seconds"]["mean"] if s["seconds"]["mean"] is not None else ""))
    b, c = s["bids"], s["called"]
    lines.append("bids true at the reveal: %d of %d (%s); bids called: %d of %d true (%s)" % (
        b["true"], b["total"], pct(b["rate"]), c["true"], c["total"], pct(c["rate"])))
    ch, ex = s["challenges"], s["exacts"]
    lines.append("challenges won: %d of %d (%s); exact calls right: %d of %d (%s)" % (
        ch["won"], ch["total"], pct(ch["rate"]), ex["right"], ex["total"], pct(ex["rate"])))
    return lines
