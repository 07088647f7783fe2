"""Dix mille solitaire solved by value iteration: the policy *strong* plays, as a table.

    python -m dicecup_host.dixpolicy                 solves from 0, writes the table and the values
    python -m dicecup_host.dixpolicy --check         checks the checked-in values are the fixed point
                                                     (one sweep) and the table is their policy
    python -m dicecup_host.dixpolicy --check --from-zero   solves again from 0 and compares both

Value = expected number of turns to reach exactly 10,000 alone, under the rules as the
engine builds them (engine/dixmille.py): opening at 500, a bust gives an opened player a
cross, the third cross in a row costs 1000, an overshoot ends the turn with nothing and
leaves the crosses alone, hot dice roll all five again.

Between turns the state is (score, crosses) for an opened player, plus the one unopened
state (score 0). Scores are multiples of 50; they can go negative through crosses: the
table stops at FLOOR, and a third cross that lands under it is valued by extending the
values linearly (V(FLOOR - d) = V(FLOOR) + d/1000 * (V(FLOOR) - V(FLOOR + 1000)), so a
cross never comes free; a score under the floor plays as the floor. Reaching it from 0
takes at least nine crosses without a bank in between; the floor moved from -2500 to
-3000 changes the expectation from 0 by about 1e-8. Within a turn the state is the absolute
score reached (score + turn total) and the dice left; the keep and the bank-or-roll are
solved exactly by backward induction over that score (every keep adds points) given the
between-turn values of the previous sweep; the sweeps repeat until no value moves by more
than TOL turns (Jacobi value iteration from 0, which rises monotonically to the fixed point).

The table (players/dixtable.py, one bytes literal, frozen into flash on a cup):
  header     b"DX", FLOOR//-50, NA (absolute-score slots FLOOR..9950), S (states) as 2 bytes
  groups     per dice count n = 1..5: the distinct option sets a scoring roll can offer,
             an option being (points//50, dice kept) - any two keeps with the same pair
             lead to the same future; each group is k, then k pairs of bytes, sorted
  keep       a nibble per (n, absolute slot, group): the index of the option most states
             choose there ...
  exceptions ... and the runs of states that choose otherwise: (cell, first state,
             last state, option), 7 bytes each, sorted for a binary search
  roll       per state and dice left m = 1..5 whether to roll on (else bank), run-length
             coded along the absolute slot: an offset per state, then per m a byte
             (first bit << 7 | switches) and the slots where the bit flips
State index: crosses * NA + slot for opened scores, 3 * NA for the unopened state.
"""
import argparse
import itertools
import sys
from pathlib import Path

STEP = 50
GOAL = 10000
OPENING = 500
PENALTY = 1000
FLOOR = -2500
TOL = 1e-9
NA = (GOAL - STEP - FLOOR) // STEP + 1
S = 3 * NA + 1
U = 3 * NA
TABLE = Path(__file__).resolve().parent.parent.parent / "firmware" / "dicecup" / "players" / "dixtable.py"
VALUES = Path(__file__).resolve().parent / "dixvalues.py"


def option_groups(n):
    """{frozenset of (points//50, dice kept): ways out of 6**n} for rolls of n dice; the
    empty set is the bust."""
    from math import factorial

    from dicecup.engine.dixmille import score_counts
    out = {}
    for r in itertools.combinations_with_replacement(range(1, 7), n):
        cnt = [0] * 7
        for f in r:
            cnt[f] += 1
        ways = factorial(n)
        for c in cnt:
            ways //= factorial(c)
        opts = set()
        for take in itertools.product(*[range(cnt[f] + 1) for f in range(1, 7)]):
            k = sum(take)
            p = score_counts([0] + list(take), k) if k else None
            if p is not None:
                opts.add((p // STEP, k))
        key = frozenset(opts)
        out[key] = out.get(key, 0) + ways
    return out


def groups():
    """Per n: the scoring groups in table order (sorted option tuples) with their ways,
    and the bust ways."""
    res = {}
    for n in range(1, 6):
        g = option_groups(n)
        keys = sorted(tuple(sorted(k)) for k in g if k)
        res[n] = ([(k, g[frozenset(k)]) for k in keys], g.get(frozenset(), 0))
    return res


class Solver:
    def __init__(self):
        import numpy as np
        self.np = np
        self.groups = groups()
        self.tabs = {}
        for n in range(1, 6):
            dp, mm, st, pr = [], [], [], []
            gs, bust = self.groups[n]
            for opts, ways in gs:
                st.append(len(dp))
                for p, u in opts:
                    dp.append(p)
                    mm.append(5 if u == n else n - u)   # all kept: hot dice, five again
                pr.append(ways / 6 ** n)
            self.tabs[n] = (np.array(dp), np.array(mm), np.array(st), np.array(pr), bust / 6 ** n)
        si = np.zeros(S, dtype=int)
        for c in range(3):
            si[c * NA:(c + 1) * NA] = np.arange(NA)
        si[U] = -FLOOR // STEP
        self.si = si
        bust = np.zeros(S, dtype=int)
        for c in range(2):
            bust[c * NA:(c + 1) * NA] = np.arange((c + 1) * NA, (c + 2) * NA)
        bust[2 * NA:3 * NA] = np.maximum(np.arange(NA) - PENALTY // STEP, 0)   # the floor
        bust[U] = U    # unopened: no cross
        self.bust = bust
        self.below = PENALTY // STEP     # third crosses that land under the floor ...
        self.excess = (self.below - np.arange(self.below)) / self.below   # ... by this many 1000s

    def sweep(self, V):
        """One Bellman step: the new between-turn values and C[slot, m, state], the value
        of standing at that absolute slot with m dice to roll, the turn's best choice made
        (bank, when allowed and no worse, or roll on)."""
        np = self.np
        bankrow = np.repeat(V[:NA, None], S, axis=1)
        bankrow[:(OPENING - FLOOR) // STEP, U] = np.inf   # unopened: no bank below 500
        C = np.empty((NA + 41, 6, S))
        C[NA] = 0           # exactly 10,000: won, no more turns
        C[NA + 1:] = V      # past it: the turn ends with nothing, same state
        W5 = np.empty((NA, S))
        B = V[self.bust]
        B[2 * NA:2 * NA + self.below] += self.excess * (V[0] - V[PENALTY // STEP])   # under the floor
        for ai in range(NA - 1, -1, -1):
            for n in range(1, 6):
                dp, mm, st, pr, pb = self.tabs[n]
                w = pr @ np.minimum.reduceat(C[ai + dp, mm], st, axis=0) + pb * B
                C[ai, n] = np.minimum(w, bankrow[ai])
                if n == 5:
                    W5[ai] = w
        return 1 + W5[self.si, np.arange(S)], C

    def solve(self, tol=TOL, log=None):
        np = self.np
        V = np.zeros(S)
        it = 0
        while True:
            it += 1
            Vn, C = self.sweep(V)
            d = float(np.max(np.abs(Vn - V)))
            V = Vn
            if log and it % 10 == 0:
                log("sweep %d: from 0 %.9f, largest change %.2e" % (it, V[U], d))
            if d < tol:
                return V, C, it


def encode(solver, V, C):
    """The compact table (format in the module docstring)."""
    np = solver.np
    out = bytearray(b"DX")
    out += bytes([-FLOOR // STEP, NA, S >> 8, S & 255])
    gs = solver.groups
    for n in range(1, 6):
        out.append(len(gs[n][0]))
        for opts, _ in gs[n][0]:
            assert len(opts) <= 15
            out.append(len(opts))
            for p, u in opts:
                out += bytes([p, u])
    si = solver.si
    cells = []      # majority nibble per cell
    exc = []
    cell = 0
    for n in range(1, 6):
        dp, mm, st, pr, pb = solver.tabs[n]
        ends = list(st[1:]) + [len(dp)]
        for ai in range(NA):
            g = C[ai + dp, mm]     # options x states
            for a0, a1 in zip(st, ends):
                ch = np.argmin(g[a0:a1], axis=0)
                ok = si <= ai
                base = int(np.bincount(ch[ok]).argmax())
                cells.append(base)
                x = S if not (ok & (ch != base)).any() else 0
                while x < S:
                    if ok[x] and ch[x] != base:
                        y = x
                        while y + 1 < S and ok[y + 1] and ch[y + 1] == ch[x] and (y + 1) % NA and y + 1 != U:
                            y += 1
                        exc.append((cell, x, y, int(ch[x])))
                        x = y + 1
                    else:
                        x += 1
                cell += 1
    out += bytes([len(cells) >> 8 & 255, len(cells) & 255])
    if len(cells) % 2:
        cells.append(0)
    for i in range(0, len(cells), 2):
        out.append(cells[i] | cells[i + 1] << 4)
    out += bytes([len(exc) >> 8, len(exc) & 255])
    for c, x, y, o in exc:
        out += bytes([c >> 8, c & 255, x >> 8, x & 255, y >> 8, y & 255, o])
    bank = V[:NA]
    rows = bytearray()
    offs = []
    for x in range(S):
        offs.append(len(rows))
        for m in range(1, 6):
            r = C[:NA, m, x] < bank - 1e-12
            if x == U:
                r[:(OPENING - FLOOR) // STEP] = True
            lo = si[x] + 1
            r = r[lo:]
            flips = [lo + i for i in range(1, len(r)) if r[i] != r[i - 1]] if len(r) else []
            assert len(flips) < 128
            rows.append((int(r[0]) << 7 if len(r) else 0) | len(flips))
            rows += bytes(flips)
    base = len(out) + 2 * S
    for o in offs:
        out += bytes([(base + o) >> 8 & 255, (base + o) & 255]) if base + o < 65536 else b"\xff\xff"
    assert base + offs[-1] < 65536
    out += rows
    return bytes(out)


def module_text(table, turns, sweeps):
    lines = ['"""The Dix mille policy strong plays (written by `python -m dicecup_host.dixpolicy`,',
             'do not edit): format in host/dicecup_host/dixpolicy.py. Solitaire, from 0: %.9f' % turns,
             'expected turns (value iteration, %d sweeps to a change under %g; scores floored at %d).' % (sweeps, TOL, FLOOR),
             '%d bytes, one bytes literal: frozen into a cup\'s flash and read in place."""' % len(table),
             "TURNS_E9 = %d" % round(turns * 1e9),
             "TABLE = ("]
    for i in range(0, len(table), 40):
        lines.append("    b'" + "".join("\\x%02x" % b for b in table[i:i + 40]) + "'")
    lines.append(")")
    return "\n".join(lines) + "\n"


def values_text(V, sweeps):
    """The between-turn values the table was encoded from, each float as repr (it reads back
    bit for bit), so a check is one sweep instead of a solve from 0."""
    lines = ['"""Dix mille solitaire: expected turns per between-turn state, the fixed point the',
             'policy in firmware/dicecup/players/dixtable.py was encoded from (written by',
             '`python -m dicecup_host.dixpolicy`, do not edit; state index in dixpolicy.py)."""',
             "SWEEPS = %d" % sweeps,
             "V = ("]
    for i in range(0, len(V), 4):
        lines.append("    " + " ".join(repr(float(v)) + "," for v in V[i:i + 4]))
    lines.append(")")
    return "\n".join(lines) + "\n"


def _stored_values(np):
    """(V, sweeps) from the checked-in values, or None when they are missing or malformed."""
    ns = {}
    try:
        exec(compile(VALUES.read_text(), str(VALUES), "exec"), ns)
        V = np.array(ns["V"], dtype=float)
        sweeps = int(ns["SWEEPS"])
    except (OSError, SyntaxError, KeyError, ValueError, TypeError):
        return None
    return (V, sweeps) if V.shape == (S,) else None


def _compare(path, text):
    old = path.read_text() if path.exists() else ""
    if old != text:
        print("the checked-in file differs from the recomputed one: %s" % path)
        return False
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m dicecup_host.dixpolicy", description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="recompute and compare with the checked-in table")
    ap.add_argument("--from-zero", action="store_true",
                    help="with --check: solve again from 0 (minutes) instead of checking one sweep")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    if a.from_zero and not a.check:
        ap.error("--from-zero goes with --check (without --check the script always solves from 0)")
    log = None if a.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    try:
        import numpy  # noqa: F401
    except ImportError:
        ap.error("numpy is needed to compute the table (pip install numpy)")
    solver = Solver()
    if a.check and not a.from_zero:
        stored = _stored_values(solver.np)
        if stored is None:
            print("no readable values in %s: run python -m dicecup_host.dixpolicy" % VALUES)
            return 1
        V, sweeps = stored
        Vn, C = solver.sweep(V)
        moved = float(solver.np.max(solver.np.abs(Vn - V)))
        print("expected turns to exactly 10,000 from 0 (solitaire, optimal): %.9f" % V[U])
        if not moved < TOL:
            print("the checked-in values are not the fixed point: one sweep moves them by %.2e" % moved)
            return 1
        if not _compare(TABLE, module_text(encode(solver, V, C), float(V[U]), sweeps)):
            return 1
        print("the checked-in table matches (%s): its values are the fixed point (one sweep moves"
              " them by %.1e < %g)" % (TABLE.name, moved, TOL))
        return 0
    V, _, sweeps = solver.solve(log=log)
    _, C = solver.sweep(V)   # C from the final V itself: a bank compares with the same values
    turns = float(V[U])
    text = module_text(encode(solver, V, C), turns, sweeps)
    vals = values_text(V, sweeps)
    print("expected turns to exactly 10,000 from 0 (solitaire, optimal): %.9f" % turns)
    if a.check:
        if not (_compare(TABLE, text) & _compare(VALUES, vals)):    # (&: both are told)
            return 1
        print("the checked-in table matches (%s), solved again from 0" % TABLE.name)
        return 0
    TABLE.write_text(text)
    VALUES.write_text(vals)
    print("wrote %s and %s" % (TABLE, VALUES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
