"""Seeded games between player kinds: the engine and the players alone, no radio
simulation, over a process pool, so thousands of games take minutes.

Game i of a run seats the kinds rotated by i: seat s holds entrant (s + i) % n, so over
any multiple of n games every kind sits in every seat equally (`seating`). Each game
draws its dice, its opener and every player's choices from one generator seeded with
(seed, i) alone, so a run gives the same games for any worker count.

How a game is driven (what a table of bots does, minus the radio):
* bidding games: each round the generator rolls every seat's hidden dice; the seat on
  turn gets `g.view(seat, hand)` and acts. While a bid stands, every other seat that may
  call exact out of turn (Menteur's tout pile, Perudo with calza_anyone) is asked first,
  in turn order from the seat after the one on turn; the first that calls, calls. The
  cup's master asks only the seat on turn (net/turns.py `master_tick`), so there is no
  seam to reuse for this. Bluff with the reroll option: after the bot's own bid its
  `reroll(view, bid, rng)` is asked with the view it bid from (as the master does); the
  dice it sets aside leave its hand and the rest are rolled again. `settle(hands)`.
* Dix mille: the generator rolls the dice whenever a roll is due (a player's ROLL_ANY
  is "roll on"); a turn is counted each time a seat starts one.
* a player that answers on its turn with nothing, with an action the engine refuses,
  or with an exception forfeits: the game stops there, a loss for that seat (with two
  seats the other seat wins; with more nobody wins that game). The forfeit names the
  seat, its kind, the action and why.
* a game still going after ROUND_CAP rounds (TURN_CAP turns a seat at Dix mille) is
  called off as unfinished: a stuck pair of players, not a normal game.
"""
import os
import random

from dicecup import players
from dicecup.engine import IllegalAction, new_game
from dicecup.engine.actions import EXACT, ROLL_ANY, describe, roll, unpack

ROUND_CAP = 1000  # a bidding game loses about a die a round: 30 dice end in < 100 rounds
TURN_CAP = 2000   # Dix mille turns per seat (the baseline needs ~30 to reach 10,000)


class Forfeit(Exception):
    def __init__(self, seat, kind, action, why):
        super().__init__("seat %d (%s) forfeits: %s: %s" % (seat, kind, action, why))
        self.record = (seat, kind, action, why)


def seating(kinds, i):
    """The seat kinds of game i: the entrants rotated by i."""
    n = len(kinds)
    return [kinds[(s + i) % n] for s in range(n)]


def game_rng(seed, i):
    # a str seed hashes the same in every process (no PYTHONHASHSEED involved)
    return random.Random("tournament %d %d" % (seed, i))


def _text(a):
    return describe(a) if type(a) is int else repr(a)


def _act(mod, kind, view, rng):
    try:
        return mod.act(view, rng)
    except Exception as e:
        raise Forfeit(view.seat, kind, "act() raised", "%s: %s" % (type(e).__name__, e))


def _apply(g, seat, kind, a):
    if a is None:
        raise Forfeit(seat, kind, "None", "no action on its turn")
    try:
        g.apply(seat, a)
    except IllegalAction as e:
        raise Forfeit(seat, kind, _text(a), "%s (%s)" % (e.message, e.code))


def play(rules, kinds, options=None, rng=None):
    """One game, kinds[s] in seat s, every random draw from `rng`.
    Returns (winner seat or None, turns, forfeit record or None, capped)."""
    mods = [players.get(k) for k in kinds]
    g = new_game(rules, len(kinds), options or None, rng=rng)
    turns = [0]
    try:
        if rules == "dixmille":
            done = _dixmille(g, kinds, mods, rng, turns)
        else:
            done = _bidding(g, kinds, mods, rng, turns)
    except Forfeit as f:
        seat = f.record[0]
        other = 1 - seat if len(kinds) == 2 else None
        return other, turns[0], f.record, False
    return g.winner(), turns[0], None, not done


def _bidding(g, kinds, mods, rng, turns):
    n = g.n
    reroll_on = g.name == "bluff" and g.option("reroll")
    rounds = 0
    while g.winner() is None:
        rounds += 1
        if rounds > ROUND_CAP:
            return False
        hands = [[rng.randrange(6) + 1 for _ in range(g.dice[s])] for s in range(n)]
        g.start_round()
        while g.need() == "bid":
            t = g.to_act()
            if g.bid and _out_of_turn(g, t, kinds, mods, rng, hands):
                break
            turns[0] += 1
            v = g.view(t, hands[t])
            a = _act(mods[t], kinds[t], v, rng)
            r = None
            if reroll_on and type(a) is int and 8 <= a < 0x10000:
                try:
                    r = mods[t].reroll(v, a, rng)
                except Exception as e:
                    raise Forfeit(t, kinds[t], "reroll() raised", "%s: %s" % (type(e).__name__, e))
            _apply(g, t, kinds[t], a)
            if r is not None:
                if r not in g.legal_run(t, hands[t]):
                    raise Forfeit(t, kinds[t], _text(r), "not a reroll of its hand %r" % (hands[t],))
                _apply(g, t, kinds[t], r)
                h = hands[t]
                for f in unpack(r & 0x7FFF):  # set aside face up: no longer under the cup
                    h.remove(f)
                hands[t] = [rng.randrange(6) + 1 for _ in h]
        g.settle(hands)
    return True


def _out_of_turn(g, t, kinds, mods, rng, hands):
    """Ask the seats not on turn that may call exact now; True when one called."""
    n = g.n
    for i in range(1, n):
        s = (t + i) % n
        if not g.dice[s] or EXACT not in g.legal_run(s):
            continue
        a = _act(mods[s], kinds[s], g.view(s, hands[s]), rng)
        if a is not None:
            _apply(g, s, kinds[s], a)
            return True
    return False


def _dixmille(g, kinds, mods, rng, turns):
    cap = TURN_CAP * g.n
    while g.winner() is None:
        s = g.to_act()
        if g.need() == "roll":  # a turn starts (hot dice roll on from bank-or-roll)
            turns[0] += 1
            if turns[0] > cap:
                return False
            g.apply(s, roll([rng.randrange(6) + 1 for _ in range(g.left)]))
            continue
        a = _act(mods[s], kinds[s], g.view(s), rng)
        if a == ROLL_ANY and g.need() == "bank-or-roll":  # roll on: the dice come from the rng
            a = roll([rng.randrange(6) + 1 for _ in range(g.left)])
        _apply(g, s, kinds[s], a)
    return True


def _job(job):
    rules, kinds, options, seed, i = job
    order = seating(kinds, i)
    try:
        res = play(rules, order, options, game_rng(seed, i))
    except Exception as e:  # the engine or the driver itself failed: say so, keep the pool
        res = (None, 0, None, "error: %s: %s" % (type(e).__name__, e))
    return (order,) + res


def run(rules, kinds, games, seed, options=None, workers=None, progress=None):
    """Game by game, (seat kinds, winner seat or None, turns, forfeit or None, capped),
    in game order and the same for any worker count. `progress(done)` is called as
    games finish."""
    jobs = [(rules, list(kinds), options, seed, i) for i in range(games)]
    workers = min(workers or os.cpu_count() or 1, games)
    if workers == 1:
        it = map(_job, jobs)
        pool = None
    else:
        import multiprocessing
        pool = multiprocessing.Pool(workers)
        it = pool.imap(_job, jobs, chunksize=max(1, min(50, games // (workers * 8))))
    out = []
    try:
        for r in it:
            out.append(r)
            if progress:
                progress(len(out))
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    return out


def summarize(kinds, results):
    """Per kind (in seat-list order): seats, seat-games and wins. A kind sitting twice
    is counted per seat: its games are seat-games (games x its seats) and its wins the
    games any of its seats won, so its win rate is per seat and 1/n is a fair share.
    Also the forfeits (game, seat, kind, action, why), unfinished games (capped or the
    driver failed), wins by seat position (whatever kind sat there) and mean turns."""
    n_games = len(results)
    table = {}
    for k in kinds:
        e = table.setdefault(k, {"seats": 0, "games": 0, "wins": 0})
        e["seats"] += 1
    for k in table:
        table[k]["games"] = table[k]["seats"] * n_games
    forfeits = []
    unfinished = []
    by_seat = [0] * len(kinds)
    turns = 0
    for i, (order, winner, t, forfeit, capped) in enumerate(results):
        turns += t
        if winner is not None:
            table[order[winner]]["wins"] += 1
            by_seat[winner] += 1
        if forfeit is not None:
            seat, kind, action, why = forfeit
            forfeits.append({"game": i, "seat": seat, "kind": kind, "action": action, "why": why})
        if capped:
            unfinished.append({"game": i, "why": capped if isinstance(capped, str) else "capped"})
    return {"kinds": table, "by_seat": by_seat, "forfeits": forfeits, "unfinished": unfinished,
            "mean_turns": turns / n_games if n_games else 0.0}


def wilson(k, n, z=1.959964):
    """The Wilson 95 % interval for k wins in n tries (good near 0 and 1 too)."""
    if not n:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    mid = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * ((p * (1 - p) / n + z2 / (4 * n * n)) ** 0.5) / (1 + z2 / n)
    return max(0.0, mid - half), min(1.0, mid + half)
