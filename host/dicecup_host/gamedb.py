"""Where `dicecup log` keeps what it recorded: one JSON Lines file per game and one
SQLite database, `DIR/games.db` (stdlib sqlite3), with four tables:

    games    one row per game file: table id, game number, rules, options, seats,
             first and last event time (cup ms), winner seat, rounds, gaps, file
    players  per game and seat: the member id, the name, whether a bot played it
    rounds   per bluffing round: opener, bids, the call (challenge / exact), caller,
             bidder, the bid called, the dice counted, how many of the round's bids
             were true, who lost or gained dice
    events   every record once (`key` is its identity, gamelog.key), in order, with
             its kind, version, time and the line as written to the game file

A game file starts with what re-checks it standalone: the table's first op, or a
snapshot of the table (the cup's, or the logger's own after the previous game's win),
and ends with the op that made the winner. `rounds_of(records)` is the pure part.
"""
import json
import os
import sqlite3
import time

from dicecup.net import table as tbl

COMMIT_S = 0.5

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, file TEXT UNIQUE, tb INTEGER, game_no INTEGER,
    rules TEXT, options TEXT, seats INTEGER, started_t INTEGER, ended_t INTEGER, winner INTEGER,
    rounds INTEGER DEFAULT 0, gaps INTEGER DEFAULT 0, logged_at TEXT);
CREATE TABLE IF NOT EXISTS players (game_id INTEGER, seat INTEGER, member INTEGER, name TEXT, bot INTEGER,
    PRIMARY KEY (game_id, seat));
CREATE TABLE IF NOT EXISTS rounds (game_id INTEGER, round INTEGER, opener INTEGER, bids INTEGER, call TEXT,
    caller INTEGER, bidder INTEGER, quantity INTEGER, face INTEGER, count INTEGER, true_bids INTEGER,
    loser INTEGER, lost INTEGER, gainer INTEGER, PRIMARY KEY (game_id, round));
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, game_id INTEGER, key TEXT UNIQUE, k TEXT,
    v INTEGER, t INTEGER, line TEXT);
"""


def rounds_of(records):
    """The bluffing rounds told by a game's records, in order: dicts with the columns
    of the `rounds` table (a round played again keeps its last telling)."""
    out = {}
    cur = None
    for r in records:
        k = r.get("k")
        if k in ("open", "rolled"):
            if cur is None or cur["round"] != r["round"]:
                cur = {"round": r["round"], "opener": r.get("opener"), "bids": [], "call": None,
                       "caller": None, "bidder": None, "quantity": None, "face": None, "count": None,
                       "true_bids": None, "loser": None, "lost": 0, "gainer": None}
            if k == "rolled":
                cur["opener"] = r["opener"]
        elif cur is None:
            continue
        elif k == "bid":
            cur["bids"].append((r["seat"], r["quantity"], r["face"]))
        elif k in ("challenge", "exact"):
            cur["call"], cur["caller"] = k, r["seat"]
            cur["bidder"] = cur["bids"][-1][0] if cur["bids"] else None
        elif k == "reveal":
            cur["quantity"], cur["face"], cur["count"] = r["quantity"], r["face"], r["count"]
            counts = r.get("counts")
            if counts:
                cur["true_bids"] = sum(1 for s, q, f in cur["bids"] if 1 <= f <= 6 and counts[f - 1] >= q)
            out[cur["round"]] = cur
        elif k in ("lose", "forfeit"):
            cur["loser"] = r["seat"] if cur["loser"] is None else cur["loser"]
            cur["lost"] += r["dice"]
        elif k == "gain":
            cur["gainer"] = r["seat"]
    return [dict(x, bids=len(x["bids"])) for _, x in sorted(out.items())]


class GameStore:
    """The game files and the database of one --out folder. `write(records, table)`
    after each batch the Recorder gave (table: its replica); `flush()`; `close()`."""

    def __init__(self, folder):
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.db = sqlite3.connect(os.path.join(folder, "games.db"))
        # WAL with synchronous=NORMAL: a commit appends to the log without waiting for the
        # disk, so a busy disk never stalls the logger's reading of the port (a cup whose
        # USB output is not read drops it). A crash of the logger still loses no commit.
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        self.fh = None
        self.path = None
        self.game_id = None
        self.records = []          # the open game's records (for its rounds)
        self.files = []            # every game file written this session
        self.written = 0
        self._ended = None         # the version of the win: the file closes after its op
        self.base = None           # the logger's snapshot after a win: the next file's first line
        self._committed = 0.0

    # ----- files ------------------------------------------------------------------
    def _open(self, rec, table):
        tb = rec.get("tb") or 0
        n = 0
        if table is not None:
            n = table.game_no + (0 if table.phase == tbl.PLAYING else 1)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = "%s-table-%04x-game-%d.jsonl" % (stamp, tb, n)
        k = 1
        while os.path.exists(os.path.join(self.folder, name)):
            k += 1
            name = "%s-table-%04x-game-%d-%d.jsonl" % (stamp, tb, n, k)
        self.path = os.path.join(self.folder, name)
        self.fh = open(self.path, "a")
        self.files.append(self.path)
        self.records = []
        cur = self.db.execute("INSERT INTO games (file, tb, game_no, logged_at) VALUES (?, ?, ?, ?)",
                              (name, tb, n, time.strftime("%Y-%m-%d %H:%M:%S")))
        self.game_id = cur.lastrowid

    def _close(self):
        if self.fh is not None:
            self.fh.close()
        self.fh = None
        self._ended = None

    def write(self, records, table):
        for rec in records:
            if rec.get("k") == "snapshot" and rec.get("by") == "logger":
                if self.fh is not None:
                    self._rounds()
                    self._close()
                self.base = rec        # opened only if another game follows
                continue
            if self.fh is None:
                self._open(rec, table)
                if self.base is not None:
                    base, self.base = self.base, None
                    self._line(base, table)
            self._line(rec, table)
        self.flush()

    def _line(self, rec, table):
        line = json.dumps(rec, separators=(",", ":"))
        self.fh.write(line + "\n")
        self.records.append(rec)
        self.written += 1
        self.db.execute("INSERT OR IGNORE INTO events (game_id, key, k, v, t, line) VALUES (?, ?, ?, ?, ?, ?)",
                        (self.game_id, _key(rec), rec["k"], rec.get("v"), rec.get("t"), line))
        self._facts(rec, table)
        if rec["k"] == "win":
            self._ended = rec["v"]
        elif rec["k"] == "op" and self._ended == rec["v"]:
            self._rounds()
            self._close()

    def _facts(self, rec, table):
        k = rec["k"]
        db, gid = self.db, self.game_id
        t = rec.get("t")
        if t is not None:
            db.execute("UPDATE games SET started_t = COALESCE(started_t, ?), ended_t = ? WHERE id = ?", (t, t, gid))
        if k == "start" and table is not None:
            db.execute("UPDATE games SET game_no = ?, rules = ?, options = ?, seats = ?, started_t = ? WHERE id = ?",
                       (rec["game"], table.rules, json.dumps(dict(table.options())), rec["seats"], t, gid))
            for s in range(min(rec["seats"], len(table.seats))):
                m = table.member_of(s)
                db.execute("INSERT OR REPLACE INTO players VALUES (?, ?, ?, ?, ?)",
                           (gid, s, table.seats[s], m.name, 1 if m.flags & tbl.BOT else 0))
        elif k == "win":
            db.execute("UPDATE games SET winner = ? WHERE id = ?", (rec["seat"], gid))
        elif k == "gap":
            db.execute("UPDATE games SET gaps = gaps + 1 WHERE id = ?", (gid,))
        elif k in ("reveal", "round", "win"):
            self._rounds()

    def _rounds(self):
        rows = rounds_of(self.records)
        for r in rows:
            self.db.execute("INSERT OR REPLACE INTO rounds VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (
                self.game_id, r["round"], r["opener"], r["bids"], r["call"], r["caller"], r["bidder"],
                r["quantity"], r["face"], r["count"], r["true_bids"], r["loser"], r["lost"], r["gainer"]))
        opens = sum(1 for x in self.records if x.get("k") == "open")
        self.db.execute("UPDATE games SET rounds = ? WHERE id = ?", (max(opens, len(rows)), self.game_id))

    def flush(self, force=False):
        """The game file at once; the database at most every COMMIT_S, and always
        when forced (a disconnect, the end)."""
        if self.fh is not None:
            self.fh.flush()
        now = time.monotonic()
        if force or now - self._committed >= COMMIT_S:
            self.db.commit()
            self._committed = now

    def close(self):
        if self.fh is not None:
            self._rounds()
        self._close()
        self.db.commit()
        self.db.close()


def _key(rec):
    from .gamelog import key
    return key(rec)
