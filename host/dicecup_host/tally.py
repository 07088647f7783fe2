"""What a batch of simulated games adds up to, for the people who read its summary:
who won (games per seat), how long a game lasts in rounds and in simulated seconds.

Read from the cups' serial logs only (the public events, each once across cups), so
every batch runner -- engine-driven, button-driven, MicroPython -- tallies alike.

A *round* of the bidding games is one shake-and-bid round (an `open` event); in Dix
mille, where players take turns, one round is a turn for every seat.
"""
from . import checker

KINDS = ("start", "open", "turn", "win")


def game_facts(logs):
    """{"seats", "winner", "rounds", "game_ms"} of the last game in these serial logs
    (lists of lines, one per cup); winner and game_ms are None when nobody won."""
    seen = {}
    for lines in logs:
        for rec in checker.events(lines, KINDS):
            seen[(rec["tb"], rec["tm"], rec["v"], rec["i"])] = rec
    evs = [seen[k] for k in sorted(seen, key=lambda k: (k[2], k[3]))]
    starts = [i for i, e in enumerate(evs) if e["k"] == "start"]
    if starts:
        evs = evs[starts[-1]:]
    seats = evs[0]["seats"] if evs and evs[0]["k"] == "start" else 0
    opens = sum(1 for e in evs if e["k"] == "open")
    turns = sum(1 for e in evs if e["k"] == "turn")
    if opens:
        rounds = opens
    elif seats:
        rounds = -(-(turns + 1) // seats)     # the first turn has no `turn` event
    else:
        rounds = 0
    win = [e for e in evs if e["k"] == "win"]
    winner = win[0]["seat"] if win else None
    game_ms = win[0]["t"] - evs[0]["t"] if win and evs and evs[0]["k"] == "start" else None
    return {"seats": seats, "winner": winner, "rounds": rounds, "game_ms": game_ms}


def empty(total, seats):
    """Add the tally's keys to a batch summary."""
    total.update(winners=[0] * seats, rounds=0.0, mean_game_s=0.0)
    total["_tally"] = [0, 0, 0]     # games tallied, rounds, ms of the games won
    return total


def add(total, facts):
    """One game's facts into the summary (means kept over the games that ended)."""
    acc = total["_tally"]
    if facts["winner"] is not None and 0 <= facts["winner"] < len(total["winners"]):
        total["winners"][facts["winner"]] += 1
    if facts["game_ms"] is not None:
        acc[0] += 1
        acc[1] += facts["rounds"]
        acc[2] += facts["game_ms"]
        total["rounds"] = round(acc[1] / acc[0], 2)
        total["mean_game_s"] = round(acc[2] / acc[0] / 1000.0, 1)


def done(total):
    """The summary as printed: the running sums dropped."""
    total.pop("_tally", None)
    return total
