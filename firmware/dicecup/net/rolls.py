"""Witnessed rolls: a roll nobody can steer, not even the one who rolls.

A Dix mille roll is public, and a Bluff reroll's fresh dice are hidden; both are
rolled by shaking and both use a witness. The roller commits first (a digest of its
fresh root, drawn at the shake); then a cup with no dice in that roll adds a fresh
nonce w; the dice are seeded by the round seed or the game's seed, and w. The roller
could not steer (its secrets were fixed before w), the witness could not (it never
saw the secrets before they count). A Dix mille roller reveals its root once it has w
(ROLLR); the master's op carries root and nonce so every replica re-derives the faces.

    roller (a cup)     ROLLC(rid, seat, digest) ->  master (witness)
                       <- WITNESS(rid, w)
                       ROLLR(rid, seat, root)   ->  op roll(seat, digest, w, root)

For a roll the master makes (its own seat, a bot's) the witness is the first present
peer, waited for however slow it is (the roll does not depend on timing, so a lossy
table rolls what a lossless one would); if it goes away the next present peer is
asked. The master's own nonce stands in only when no cup but itself is at the table
(nobody there to cheat).
"""
from ..engine import BANK_OR_ROLL, ROLL
from ..engine.actions import faces_of
from . import fair
from . import table as tbl
from . import vouch
from . import wire
from .timing import RETX_MS


def reroll_extra(table, seat, action, root, new_root):
    """The extras of a Bluff reroll for `seat`, whose hidden dice come from `root` (of
    the seat's current generation): which hidden dice are set aside, with their
    secrets (they are now face up), the commitments of every hidden die (so every cup
    can check those secrets against the seat's digest) and the digest of the fresh
    dice under the cup, from `new_root`. The witness nonce goes in front, from the master."""
    g = table.game
    gen = table.gens[seat]
    n = g.hidden(seat)
    secrets = [fair.secret(root, gen, i) for i in range(n)]
    seed = table.dice_seed(seat)
    faces = [fair.face(x, seed) for x in secrets]
    aside = []
    for f in faces_of(action):
        for i in range(n):
            if faces[i] == f and i not in aside:
                aside.append(i)
                break
        else:
            raise tbl.OpError("not-your-dice")
    new = fair.seat_digest(new_root, gen + 1, n - len(aside))
    return (new + bytes((len(aside),)) + b"".join(bytes((i,)) + secrets[i] for i in aside)
            + b"".join(fair.commit(x) for x in secrets))


class Rolls:
    def __init__(self, cup):
        self.cup = cup
        self.rolls = {}       # roll id (the version it was made at) -> the roll under way
        self.witnessed = {}   # (roll id, term) -> (digest, the nonce this cup gave it as a witness; the same if asked again)
        self.made = []        # (roll id, digest) of the rolls this cup vouched for, the last few
        r = cup.flash.roll()
        self.kept = r         # (rid, root) of this cup's own roll, from flash after a reboot

    def busy(self):
        return bool(self.rolls)

    # ----- this cup's own Dix mille roll --------------------------------------------------
    def wants(self):
        """'roll' when this cup's player may roll by shaking now, else None."""
        cup = self.cup
        t = cup.table
        if t is None or t.game is None or t.phase != tbl.PLAYING or self.rolls:
            return None
        g = t.game
        seat = cup.seat()
        if seat < 0 or g.to_act() != seat or g.need() not in (ROLL, BANK_OR_ROLL) or t.bot_plays(seat):
            return None
        return "roll"

    def shake(self, entropy):
        cup = self.cup
        if self.wants() != "roll":
            return False
        seat = cup.seat()
        kept = self.kept
        if kept is not None and kept[0] == cup.table.version:
            root = kept[1]   # committed before a reboot: the same roll, never a second try
        else:
            root = fair.shaken_root(cup.random_bytes(16), entropy)
        self.start(seat, root, own=True)
        return True

    def start(self, seat, root, own):
        """A Dix mille roll for `seat`: commit now, reveal after the witness nonce."""
        cup = self.cup
        t = cup.table
        d = fair.seat_digest(root, 0, t.game.roll_size(seat))
        rid = t.version
        self.rolls = {rid: {"seat": seat, "root": root, "d": d, "w": None, "at": cup.now}}
        if own:
            cup.flash.put_roll(rid, root)
            self.kept = (rid, root)
            cup.emit_private("committed", ("roll", d))
        if not cup.is_master():
            cup.seat_part.send_input(wire.ROLLC, (rid, seat, d, self._vouch(rid, seat, d)))

    def _vouch(self, rid, seat, d):
        """This cup's vouch for its roll's commitment (every cup checks it in the op)."""
        cup = self.cup
        self.made = self.made[-3:] + [(rid, d)]
        return vouch.make(cup, vouch.roll_message(cup.keys.tid or 0, rid, seat, d))

    def witness_vouch(self, d, w):
        """This cup's vouch for the nonce it gives the roll committed to with d."""
        cup = self.cup
        return vouch.make(cup, vouch.witness_message(cup.keys.tid or 0, d, w))

    def peer_tick(self, now):
        """A roll committed before the table moved on (a failover): commit it again
        under the new version with the same root, so the new master can witness it."""
        cup = self.cup
        t = cup.table
        for rid in list(self.rolls):
            if rid == t.version:
                continue
            r = self.rolls.pop(rid)
            cup.seat_part.clear()
            g = t.game
            seat = cup.seat()
            if g is not None and g.to_act() == seat and g.need() in (ROLL, BANK_OR_ROLL) \
                    and fair.seat_digest(r["root"], 0, g.roll_size(seat)) == r["d"]:
                r["w"] = None
                self.rolls = {t.version: r}
                cup.flash.put_roll(t.version, r["root"])
                self.kept = (t.version, r["root"])
                cup.seat_part.send_input(wire.ROLLC, (t.version, r["seat"], r["d"],
                                                      self._vouch(t.version, r["seat"], r["d"])))
        return None

    # ----- the master -----------------------------------------------------------------
    def reroll(self, seat, action, extra, bid):
        """Master: a Bluff reroll (its own, a bot's): it waits for a witness nonce. A
        reroll made with its bid holds the bid back too, so that both go out together
        and no other player sees the bid before the reroll is made."""
        cup = self.cup
        self.rolls = {cup.table.version: {"seat": seat, "d": extra[:12], "w": None, "root": None,
                                          "at": cup.now, "reroll": (action, extra), "bid": bid}}
        self.master_tick(cup.now)

    def master_tick(self, now):
        """Master: a roll it makes needs a witness cup's nonce, then it is applied."""
        cup = self.cup
        for rid in list(self.rolls):
            r = self.rolls[rid]
            if r.get("cup"):
                continue  # a cup's own roll: it reveals after our witness nonce
            if r["w"] is None:
                peers = cup.present_peers()
                if not peers:
                    r["w"] = cup.random_bytes(16)  # nobody else at the table: our own nonce
                    r["of"] = cup.me
                    r["wv"] = self.witness_vouch(r["d"], r["w"])
                else:
                    if now - r.get("asked", -RETX_MS * 3) >= RETX_MS * 3:
                        r["asked"] = now
                        r["of"] = peers[0]
                        cup.send(cup.table.members[peers[0]].addr, wire.ROLLC, (rid, r["seat"], r["d"], b""))
                    return r["asked"] + RETX_MS * 3
            self.rolls = {}
            t = cup.table
            if t.seats[r["seat"]] != cup.me and not t.bot_plays(r["seat"]):
                return now   # its cup is back meanwhile: it rolls for itself (our bot's roll would be unvouched)
            if "reroll" in r:
                action, extra = r["reroll"]
                try:
                    if r["bid"] is not None:
                        cup.turns.commit_act(r["seat"], r["bid"], b"", b"", None, None)
                    cup.turns.commit_act(r["seat"], action, extra, r["w"], None, (r["of"], r["wv"]))
                except tbl.OpError as e:
                    cup.rejected(r["seat"], action, str(e).split(": ")[-1])
            else:
                mine = self._vouch(rid, r["seat"], r["d"]) if t.seats[r["seat"]] == cup.me else b""
                cup.sync.commit(tbl.op_roll(r["seat"], r["d"], r["w"], r["root"], rid, mine, r["of"], r["wv"]))
            return now
        return None

    def on_rollc(self, src, f):
        rid, seat, d, rv = f.body
        cup = self.cup
        t = cup.table
        if t is None:
            return
        if cup.is_master():
            # a cup commits to its roll: we witness it with a fresh nonce
            g = t.game
            if seat >= len(t.seats) or t.seats[seat] != f.sender:
                return "not-your-seat"
            if g is None or g.need() not in (ROLL, BANK_OR_ROLL) or g.to_act() != seat or rid != t.version:
                return  # not its roll now, or a late copy of a roll already made
            if vouch.check(cup, f.sender, vouch.roll_message(cup.keys.tid or 0, rid, seat, d), rv) is not None:
                return "unvouched"
            r = self.rolls.get(rid)
            if r is None or r["seat"] != seat:
                w = cup.random_bytes(16)
                r = {"seat": seat, "d": d, "w": w, "root": None, "at": cup.now, "cup": True, "rv": rv,
                     "wv": self.witness_vouch(d, w)}
                self.rolls = {rid: r}
            elif r["d"] != d:
                return  # the first commitment stands: no second try at the same roll
            cup.send(src, wire.WITNESS, (rid, r["w"], r["wv"]))
        elif f.sender != t.master:
            return "not-master"
        else:
            # the master asks us to witness one of its rolls (the same nonce if it asks again)
            key = (rid, t.term)   # a leader of a newer term may roll that turn afresh
            got = self.witnessed.get(key)
            if got is not None and got[0] != d:
                return "second-digest"   # one nonce per roll: the roller may not draw again after it
            if got is None:
                got = (d, cup.random_bytes(16))
                self.witnessed = {key: got}
            w = got[1]
            cup.send(src, wire.WITNESS, (rid, w, self.witness_vouch(d, w)))

    def on_witness(self, src, f):
        rid, w, wv = f.body
        cup = self.cup
        r = self.rolls.get(rid)
        if r is None:
            return
        if cup.is_master():
            if f.sender != r.get("of"):
                return "not-asked"   # from the cup we asked, no other
            if r["w"] is None and not r.get("cup"):
                if vouch.check(cup, f.sender, vouch.witness_message(cup.keys.tid or 0, r["d"], w), wv) is not None:
                    return "unvouched"
                r["w"] = w
                r["wv"] = wv
            return
        if src != cup.master_addr():
            return "not-master"
        r["w"] = w
        r["of"] = f.sender   # (if we lead next, the roll goes on with this witness's nonce)
        r["wv"] = wv
        cup.seat_part.send_input(wire.ROLLR, (rid, r["seat"], r["root"]))

    def on_rollr(self, src, f):
        rid, seat, root = f.body
        cup = self.cup
        r = self.rolls.get(rid)
        if not cup.is_master() or r is None or r["seat"] != seat or not r.get("cup"):
            return
        t = cup.table
        if seat >= len(t.seats) or t.seats[seat] != f.sender:
            return "not-your-seat"
        self.rolls = {}
        try:
            cup.sync.commit(tbl.op_roll(seat, r["d"], r["w"], root, rid, r["rv"], cup.me, r["wv"]))
        except tbl.OpError as e:
            cup.rejected(seat, 0x10000, str(e))

    def reset(self):
        self.rolls = {}

    def on_op(self, name, info):
        if name in ("roll", "act", "start", "master", "flags") and self.wants() == "roll":
            self.cup.emit_local("shake", ("roll",))   # my turn to roll: shaking rolls
        if name == "roll":
            self.rolls = {}
            if self.kept is not None:
                self.kept = None
                self.cup.flash.forget_roll()
        elif name in ("restart", "settle"):
            self.rolls = {}
        elif name == "act" and "w" in info:
            self.rolls = {}
