"""The replicated table: lobby, game and round secrets' public side, changed only by ops.

The master turns each input it accepts into an *op* (a few bytes); every cup applies
the same ops in version order to its own `Table`, so all replicas hold the same state
and see the same events. Applying an op is pure and deterministic; a bad op raises
OpError and changes nothing (the op is checked before anything is touched, and the
engine itself refuses illegal actions without changing). Ops never carry a hidden die:
dice stay behind their commitments until the settle op publishes the roots.

`apply` returns the op's public events as tuples in the field order of
`dicecup.events.KINDS` (the engine's own, plus the table's: joined, left, away, back,
autoplay, seats, rules, start, open, master), so every replica emits the same events.
The table asks the engine what must happen now (`need()`), never which rule set it is.
"""
from micropython import const
import struct

from ..engine import BANK_OR_ROLL, BID, OVER, REVEAL, ROLL, RULES, SHAKE, IllegalAction, loads, new_game, options_of
from ..engine.actions import kind as action_kind, pack, roll as roll_action
from . import fair

LOBBY = 0
PLAYING = 1
DONE = 2
PHASE_NAMES = ("lobby", "playing", "done")

# member flags
BOT = 1     # a bot seat hosted by the master (no cup behind it)
AWAY = 2    # the cup is silent: a bot on the master plays its seat until it is back
LEFT = 4    # the player left: a bot plays the seat for good
AUTO = 8    # the player is not acting: the cup's own bot plays its seat (the cup holds the dice)
_LEVEL = const(0x30)    # a bot seat's level: players.KINDS[(flags & LEVEL) >> 4] (0: easy, the stand-in's)
LEVEL_SHIFT = 4
HINTS = 0x80    # OP_RULES option bit 7: the cups show hints (odds); a table option, never the engine's

_OP_JOIN = const(1)
_OP_FLAGS = const(2)
_OP_SEATS = const(3)
OP_RULES = 4
_OP_START = const(5)
_OP_ROUND = const(6)
_OP_SEED = const(7)
OP_ACT = 8
OP_SETTLE = 9
OP_RESTART = 10
OP_MASTER = 11
OP_ROLL = 12
_OP_ANTE = const(13)
OP_NAMES = ("", "join", "flags", "seats", "rules", "start", "round", "seed", "act", "settle",
            "restart", "master", "roll", "ante")

# the method that applies each op, by op kind (OP_JOIN = 1 ...): names in a constant
# tuple, inlined where used (a private const: defined before its first use), looked up
# per op, rather than a dict built in RAM
_APPLY = const((None, "_join", "_flags", "_seats", "_rules", "_start", "_round", "_seed", "_act", "_settle",
                "_restart", "_master", "_roll", "_ante"))

# all zero, written out: constants (flash when frozen), not bytes made in RAM at import
NO_DIGEST = b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
NO_ROOT = b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
_NAME_LEN = const(8)

# why a round is played again (op restart)
RESTART_FAILOVER = 2   # a new leader: the round's contribution died with the old one
RESTART_COMMIT = 3     # a cup holding dice never committed them (attested by a majority)


def text(raw):
    """A player's name from the radio: printable ASCII only, at most 8 characters."""
    return "".join(chr(b) if 32 <= b < 127 else "?" for b in raw[:_NAME_LEN])


class OpError(ValueError):
    """An op this replica cannot apply (corrupt, out of order, fails a check)."""


class Member:
    def __init__(self, addr, name, flags, pk):
        self.addr = addr
        self.name = name
        self.flags = flags
        self.pk = pk        # the cup's X25519 public key (net/keyring.py); None for a bot

    def present(self):
        """A cup that answers (not a bot, not away, not gone)."""
        return not self.flags & (BOT | AWAY | LEFT)

    def level(self):
        """The level the master's bot plays this seat at (a cup away or gone: easy)."""
        from ..players import KINDS
        return KINDS[(self.flags & _LEVEL) >> LEVEL_SHIFT]


def _u8(data, pos):
    if pos >= len(data):
        raise OpError("op truncated")
    return data[pos], pos + 1


def _bytes(data, pos, n):
    if pos + n > len(data):
        raise OpError("op truncated")
    return bytes(data[pos:pos + n]), pos + n


def _pk(data, pos):
    """A public key with its length byte: 0 (none) or 32."""
    n, pos = _u8(data, pos)
    if n == 0:
        return None, pos
    if n != 32:
        raise OpError("a public key is 32 bytes")
    return _bytes(data, pos, 32)


def _pk_bytes(pk):
    return b"\x00" if pk is None else b"\x20" + pk


class Table:
    """One replica of the table's shared state."""

    def __init__(self):
        self.version = 0
        self.term = 0
        self.master = 0
        self.members = []
        self.seats = []
        self.rules = RULES[0]      # until the lobby's rules op (the table never plays on it)
        self.opts = 0
        self.phase = LOBBY
        self.game = None
        self.game_no = 0
        self.gseed = NO_ROOT       # the game's public seed (opener draw, roll bases)
        self.ante = NO_DIGEST      # before a game: the master's commitment to its part of that seed,
        self.ante_mask = 0         # the members (bits) who must add theirs,
        self.ante_term = 0         # and the term it was made in
        # the round's commitments (bluffing games)
        self.mc = NO_DIGEST        # master's commitment to its contribution
        self.holders = []          # per seat: member id holding the dice this round
        self.digests = []          # per seat: digest of its hidden dice's commitments
        self.gens = []             # per seat: generation of its hidden dice (k = after k rerolls)
        self.witness = []          # per seat: the witness nonce of each of its rerolls (a tuple:
                                   # most seats never reroll, and () takes no RAM where [] takes 32 B)
        self.seed = NO_ROOT        # the round seed R (zero until the seed op)
        self.held = 0              # seats (bits) whose dice the master committed in the round op (its
                                   # own, the bots', away cups')
        self.rterm = 0             # the term the round was opened in (a failover replays it)

    # ----- questions ---------------------------------------------------------------
    def seat_of(self, member):
        seats = self.seats
        return seats.index(member) if member in seats else -1

    def member_of(self, seat):
        return self.members[self.seats[seat]]

    def bot_plays(self, seat):
        """Whether the master's bot acts for this seat now (a bot seat, or a cup that is
        away or left)."""
        return not self.member_of(seat).present()

    def dice_seed(self, seat):
        """The seed a seat's hidden dice of its current generation use."""
        gen = self.gens[seat]
        return self.seed if gen == 0 else fair.roll_seed(self.seed, self.witness[seat][gen - 1])

    def voters(self):
        """Members with a cup behind them (not bots, not gone): they decide."""
        return [i for i in range(len(self.members)) if not self.members[i].flags & (BOT | LEFT)]

    def attested(self, mask, missing):
        """Raise OpError unless `mask` names enough cups, besides the master, to make a
        majority of the voters with it, none of them the holder of a missing seat."""
        voters = self.voters()
        n = 0
        for m in range(8):
            if mask >> m & 1:
                if m not in voters or m == self.master:
                    raise OpError("attested by a cup that cannot attest")
                n += 1
        for s in range(len(self.seats)):
            if missing >> s & 1 and mask >> self.holders[s] & 1:
                raise OpError("a cup attests its own silence")
        if n + 1 < len(voters) // 2 + 1:
            raise OpError("not attested by a majority")

    def name_of(self, seat):
        return self.member_of(seat).name

    def digest_of(self):
        """Short fingerprint of the whole replica (cups compare it after every op): the
        snapshot's pieces fed to the hash as they come, the snapshot never built whole
        -- that 160-300 byte block, made at every commit, was the allocation a cup's
        fragmented heap could no longer give."""
        import hashlib
        h = hashlib.sha256(b"table")
        self._put(h.update)
        return h.digest()[:8]

    # ----- ops ---------------------------------------------------------------------
    def apply(self, op):
        """Apply one op (bytes); returns (name, events, info) where info is a small
        dict of op details for the log. Raises OpError (nothing changed)."""
        if not op:
            raise OpError("empty op")
        kind = op[0]
        if not 0 < kind < len(_APPLY):
            raise OpError("unknown op %d" % kind)
        try:
            events, info = getattr(self, _APPLY[kind])(op)
        except IllegalAction as e:
            raise OpError("engine refused: %s" % e.code)
        except (IndexError, ValueError, KeyError, TypeError) as e:
            if isinstance(e, OpError):
                raise
            raise OpError("bad op: %s" % e)
        self.version += 1
        return OP_NAMES[kind], events, info

    def _join(self, op):
        mid, pos = _u8(op, 1)
        addr, pos = _bytes(op, pos, 6)
        flags, pos = _u8(op, pos)
        n, pos = _u8(op, pos)
        name, pos = _bytes(op, pos, n)
        pk, pos = _pk(op, pos)
        if mid != len(self.members) or mid >= 6 or self.phase != LOBBY:
            raise OpError("join out of order")
        if (pk is None) != bool(flags & BOT) or pos != len(op):
            raise OpError("a cup joins with its key, a bot without")
        if flags & _LEVEL and not flags & BOT:
            raise OpError("only a bot seat has a level")
        m = Member(addr, text(name), flags, pk)
        self.members.append(m)
        self.seats.append(mid)
        lv = m.level() if flags & BOT else None
        return ([("joined", mid, m.name, bool(flags & BOT), lv)],
                {"member": mid, "name": m.name, "bot": bool(flags & BOT), "level": lv})

    def _flags(self, op):
        mid, pos = _u8(op, 1)
        flags, pos = _u8(op, pos)
        if mid >= len(self.members):
            raise OpError("no member %d" % mid)
        old = self.members[mid].flags
        self.members[mid].flags = flags
        if self.phase == LOBBY and flags & LEFT:
            self.seats = [m for m in self.seats if m != mid]
        events = []
        if flags & LEFT and not old & LEFT:
            events.append(("left", mid))
        if flags & AWAY and not old & AWAY:
            events.append(("away", mid))
        if old & AWAY and not flags & AWAY:
            events.append(("back", mid))
        if flags & AUTO != old & AUTO:
            events.append(("autoplay", mid, bool(flags & AUTO)))
        return events, {"member": mid, "flags": flags}

    def _seats(self, op):
        n, pos = _u8(op, 1)
        order, pos = _bytes(op, pos, n)
        order = list(order)
        if self.phase != LOBBY or sorted(order) != sorted(self.seats):
            raise OpError("seat order must be the same members")
        self.seats = order
        return [("seats", list(order))], {"seats": order}

    def _rules(self, op):
        code, pos = _u8(op, 1)
        opts, pos = _u8(op, pos)
        if self.phase != LOBBY or not 1 <= code <= len(RULES):
            raise OpError("rules only in the lobby")
        if (opts & ~HINTS) >> len(options_of(RULES[code - 1])):
            raise OpError("unknown option bits")
        self.rules = RULES[code - 1]
        self.opts = opts
        opts_list = [[k, v] for k, v in self.table_options()]
        return [("rules", self.rules, opts_list)], {"rules": self.rules, "options": opts_list}

    def table_options(self):
        """options(), then ("hints", True) when the table shows hints (bit 7): what the
        `rules` event and the lobby carry. Off, exactly options() (old peers' view)."""
        out = self.options()
        if self.opts & HINTS:
            out.append(("hints", True))
        return out

    def options(self):
        """The engine's options (RULES.md names): the rule set's low bits only, so the
        HINTS bit never reaches a game."""
        known = options_of(self.rules)   # (the rule set itself is loaded when its game starts)
        out = []
        for i in range(len(known)):
            name, choices = known[i]
            out.append((name, choices[1] if self.opts >> i & 1 else choices[0]))
        return out

    def _ante(self, op):
        """Before a game: the master commits to its part m of the game's seed and names
        the cups that must add a nonce of theirs. One ante per term, unless a cup it
        named has since left (else a master could ante again until it liked the seed:
        who is away is the master's word, who left is the player's)."""
        mc, pos = _bytes(op, 1, 12)
        mask, pos = _u8(op, pos)
        if pos != len(op):
            raise OpError("trailing bytes")
        if self.phase == PLAYING:
            raise OpError("a game is on")
        voters = self.voters()
        for m in range(8):
            if mask >> m & 1 and (m not in voters or m == self.master):
                raise OpError("only the table's cups add to the seed")
        if self.ante != NO_DIGEST and self.ante_term == self.term:
            gone = [m for m in range(len(self.members)) if self.ante_mask >> m & 1 and self.members[m].flags & LEFT]
            if not gone:
                raise OpError("one ante per term")
            if mc != self.ante:
                raise OpError("an ante again keeps the master's part")   # no second draw of m
        self.ante = mc
        self.ante_mask = mask
        self.ante_term = self.term
        return [], {"mc": mc, "mask": mask}

    def _start(self, op):
        """The game starts with the seed H(m, every named cup's nonce): the first opener
        and Bluff's roll-off come from it, so no cup chose them, the master included."""
        m, pos = _bytes(op, 1, 16)
        if self.phase == PLAYING:
            raise OpError("a game is on")
        if self.ante == NO_DIGEST or fair.master_commit(m) != self.ante:
            raise OpError("the master's part does not match its ante")
        nonces = []
        for i in range(8):
            if self.ante_mask >> i & 1:
                w, pos = _bytes(op, pos, 16)
                nonces.append(w)
        if pos != len(op):
            raise OpError("trailing bytes")
        seed = fair.game_seed(m, nonces)
        self.ante = NO_DIGEST
        self.ante_mask = 0
        n = len(self.seats)
        self.game = new_game(self.rules, n, dict(self.options()), rng=fair.HashRng(seed))   # (no HINTS)
        self.game_no += 1
        self.gseed = seed
        self.phase = PLAYING
        self._clear_round()
        return [("start", self.game_no, n)] + list(self.game.opening), {"rules": self.rules, "seats": n, "seed": seed}

    def _clear_round(self):
        n = len(self.seats)
        self.held = 0
        self.mc = NO_DIGEST
        self.holders = [0xFF] * n
        self.digests = [NO_DIGEST] * n
        self.gens = [0] * n
        self.witness = [()] * n
        self.seed = NO_ROOT

    def _round(self, op):
        """A round opens: the master commits to its contribution, names who holds each
        seat's dice, and commits to the dice it holds for seats without a cup (bots,
        away); `mask` marks those seats, whose digests follow."""
        g = self.game
        if g is None or g.need() != SHAKE:
            raise OpError("no round to open")
        if len(op) < 3:
            raise OpError("op truncated")
        rno = op[1] << 8 | op[2]
        mc, pos = _bytes(op, 3, 12)
        n = len(self.seats)
        holders, pos = _bytes(op, pos, n)
        mask, pos = _u8(op, pos)
        if rno != g.round & 0xFFFF:
            raise OpError("round number")
        digests = [NO_DIGEST] * n
        for s in range(n):
            if mask >> s & 1:
                if holders[s] != self.master or not g.dice[s]:
                    raise OpError("a committed seat the master does not hold")
                digests[s], pos = _bytes(op, pos, 12)
        if pos != len(op):
            raise OpError("trailing bytes")
        self.mc = mc
        self.holders = list(holders)
        self.digests = digests
        self.gens = [0] * n
        self.witness = [()] * n
        self.seed = NO_ROOT
        self.held = mask
        self.rterm = self.term
        return [("open", g.round)], {"round": g.round, "mc": mc, "holders": list(holders)}

    def _seed(self, op):
        g = self.game
        m, pos = _bytes(op, 1, 16)
        n = len(self.seats)
        if g is None or g.need() != SHAKE or self.mc == NO_DIGEST:
            raise OpError("no round open")
        if fair.master_commit(m) != self.mc:
            raise OpError("master contribution does not match its commitment")
        digests = []
        for s in range(n):
            d, pos = _bytes(op, pos, 12)
            if self.held >> s & 1 and self.digests[s] != d:
                raise OpError("master-held digest changed")
            digests.append(d if g.dice[s] else NO_DIGEST)
        ev = g.start_round()
        self.digests = digests
        self.seed = fair.round_seed(g.round, m, digests)
        return ev, {"round": g.round, "m": m, "digests": digests, "seed": self.seed}

    def _act(self, op):
        g = self.game
        seat, pos = _u8(op, 1)
        if pos + 4 > len(op):
            raise OpError("op truncated")
        action = struct.unpack(">I", op[pos:pos + 4])[0]
        pos += 4
        n, pos = _u8(op, pos)
        vouch, pos = _bytes(op, pos, n)
        if g is None:
            raise OpError("no game")
        info = {"seat": seat, "action": action, "vouch": vouch}
        reroll = action_kind(action) == "reroll"
        if reroll:  # bluff reroll: who witnessed it, then verify the set-aside dice, bind the new ones
            _, pos = _bytes(op, pos, 1)   # the witness (net/watch.py checks its vouch)
            n, pos = _u8(op, pos)
            _, pos = _bytes(op, pos, n)
            info.update(self._reroll_extra(seat, action, op, pos))
        elif pos != len(op):
            raise OpError("trailing bytes")
        ev = g.apply(seat, action)
        if reroll:
            self.gens[seat] += 1
            self.witness[seat] += (info["w"],)
            self.digests[seat] = info["new"]
        if g.winner() is not None:
            self.phase = DONE
        return ev, info

    def _reroll_extra(self, seat, action, op, pos):
        """Reroll extras: w(16), new digest(12), k(1), k x (die index, secret(12)),
        then the commitments (12 each) of every die still hidden before the reroll.
        Checks that the set-aside dice are the committed ones and show those faces."""
        w, pos = _bytes(op, pos, 16)
        new, pos = _bytes(op, pos, 12)
        k, pos = _u8(op, pos)
        aside = []
        secrets = []
        for _ in range(k):
            i, pos = _u8(op, pos)
            sec, pos = _bytes(op, pos, 12)
            aside.append(i)
            secrets.append(sec)
        hidden = self.game.hidden(seat)
        commits = []
        for _ in range(hidden):
            c, pos = _bytes(op, pos, 12)
            commits.append(c)
        if pos != len(op):
            raise OpError("trailing bytes")
        if fair.digest(commits) != self.digests[seat]:
            raise OpError("commitments do not match the seat's digest")
        faces = []
        seed = self.dice_seed(seat)
        for j in range(k):
            i = aside[j]
            if not 0 <= i < hidden or aside.count(i) > 1 or fair.commit(secrets[j]) != commits[i]:
                raise OpError("set-aside die does not match its commitment")
            faces.append(fair.face(secrets[j], seed))
        if pack(faces) != action & 0x7FFF:
            raise OpError("set-aside faces are not what the dice show")
        return {"w": w, "new": new, "aside": aside, "secrets": secrets, "faces": faces}

    def hands(self, roots):
        """Each seat's hidden faces from its revealed root; None where the root does
        not match the seat's committed digest (a cheat, or a wrong reveal)."""
        out = []
        for s in range(len(self.seats)):
            n = self.game.hidden(s)
            if not n:
                out.append([])
                continue
            gen = self.gens[s]
            if fair.seat_digest(roots[s], gen, n) != self.digests[s]:
                out.append(None)
            else:
                out.append(fair.faces(roots[s], gen, n, self.dice_seed(s)))
        return out

    def _settle(self, op):
        """The reveal: every root, or none for cups that never revealed (`mask`: the cups
        that attest it, a majority with the master); those lose the round, uncounted."""
        g = self.game
        n = len(self.seats)
        if g is None or g.need() != REVEAL:
            raise OpError("no call to settle")
        mask, pos = _u8(op, 1)
        roots = []
        for s in range(n):
            r, pos = _bytes(op, pos, 16)
            roots.append(r)
        if pos != len(op):
            raise OpError("trailing bytes")
        withheld = [s for s in range(n) if g.hidden(s) and roots[s] == NO_ROOT]
        if withheld:
            for s in withheld:
                if self.holders[s] == self.master:
                    raise OpError("the master withholds dice it holds")
            self.attested(mask, sum(1 << s for s in withheld))
            events = g.withheld(withheld)
            self._clear_round()
            if g.winner() is not None:
                self.phase = DONE
            return events, {"roots": roots, "hands": [], "cheats": [], "withheld": withheld, "attested": mask}
        hands = self.hands(roots)
        for s in range(n):  # settle() checks every hand before it changes anything
            if hands[s] is not None:
                g.check_hand(s, hands[s])
        events = []
        for s in range(n):
            if hands[s] is None:
                events += g.forfeit(s)
                hands[s] = []
                if g.need() == OVER:
                    break
        if g.need() != OVER:
            for e in g.settle(hands):  # the reveal shows every cup's dice
                events.append(e + (hands,) if e[0] == "reveal" else e)
        self._clear_round()
        if g.winner() is not None:
            self.phase = DONE
        return events, {"roots": roots, "hands": hands, "cheats": [e[1] for e in events if e[0] == "forfeit"]}

    def _restart(self, op):
        """A round played again, for a reason every replica checks: a new leader since
        the round opened, or a cup that never committed (a majority attests, `mask`);
        never after a call (a new leader settles it)."""
        g = self.game
        reason, pos = _u8(op, 1)
        mask, pos = _u8(op, pos)
        missing, pos = _u8(op, pos)
        if g is None:
            raise OpError("no game")
        if pos != len(op):
            raise OpError("trailing bytes")
        if reason == RESTART_FAILOVER:
            if self.mc != NO_DIGEST and self.rterm >= self.term:
                raise OpError("no new leader since the round opened")
            if g.need() == REVEAL:
                raise OpError("a call is settled, never replayed")
        elif reason == RESTART_COMMIT:
            if g.need() != SHAKE or self.mc == NO_DIGEST or not missing:
                raise OpError("no round waiting for commitments")
            for s in range(len(self.seats)):
                if missing >> s & 1 and (s >= len(self.seats) or not g.dice[s] or self.held >> s & 1):
                    raise OpError("a seat that owes no commitment")
            self.attested(mask, missing)
        else:
            raise OpError("unknown restart reason %d" % reason)
        if g.need() in (BID, REVEAL):
            ev = [e + (reason,) for e in g.restart_round()]
        else:   # not yet rolled: the round opens again, with the same opener
            ev = [("replay", g.round, g.to_act(), reason)]
        self._clear_round()
        return ev, {"reason": reason}

    def _master(self, op):
        mid, pos = _u8(op, 1)
        if pos + 2 > len(op):
            raise OpError("op truncated")
        term = op[pos] << 8 | op[pos + 1]
        pos += 2
        voted, pos = _u8(op, pos)
        if pos != len(op):
            raise OpError("trailing bytes")
        if mid >= len(self.members) or term <= self.term:
            raise OpError("a master op must name a member and raise the term")
        voters = self.voters()
        n = 0
        for m in range(8):
            if voted >> m & 1:
                if m not in voters:
                    raise OpError("a vote from a cup that cannot vote")
                n += 1
        if not voted >> mid & 1 or n < len(voters) // 2 + 1:
            raise OpError("a master op names the majority that elected it")
        old = self.master
        self.master = mid
        self.term = term
        return [("master", mid, old, term)], {"master": mid, "term": term, "old": old}

    def _roll(self, op):
        """Dix mille: a public roll, committed by the roller, witnessed, revealed."""
        g = self.game
        seat, pos = _u8(op, 1)
        d, pos = _bytes(op, pos, 12)
        w, pos = _bytes(op, pos, 16)
        root, pos = _bytes(op, pos, 16)
        _, pos = _bytes(op, pos, 5)        # roll id, witness (net/watch.py checks them)
        n, pos = _u8(op, pos)
        _, pos = _bytes(op, pos, n)        # the roller's vouch
        n, pos = _u8(op, pos)
        _, pos = _bytes(op, pos, n)        # the witness's vouch
        if pos != len(op):
            raise OpError("trailing bytes")
        if g is None or g.need() not in (ROLL, BANK_OR_ROLL) or g.to_act() != seat:
            raise OpError("no public roll now")
        n = g.roll_size(seat)
        if fair.seat_digest(root, 0, n) != d:
            raise OpError("roll does not match its commitment")
        base = self.gseed + struct.pack(">I", self.version)
        faces = fair.faces(root, 0, n, fair.roll_seed(base, w))
        ev = g.apply(seat, roll_action(faces))
        if g.winner() is not None:
            self.phase = DONE
        return ev, {"seat": seat, "faces": faces, "root": root, "w": w}

    # ----- snapshot ----------------------------------------------------------------
    def snapshot(self):
        """The whole replica as bytes (sent in parts to a cup that fell behind)."""
        out = bytearray()
        self._put(out.extend)
        return bytes(out)

    def _put(self, w):
        """Write the snapshot's bytes through `w`, piece by piece (digest_of hashes
        them, snapshot collects them)."""
        w(struct.pack(">IHBBBBBB", self.version, self.term, self.master, self.phase, self.game_no & 0xFF,
                      RULES.index(self.rules) + 1, self.opts, len(self.members)))
        for m in self.members:
            nm = m.name.encode()
            w(m.addr)
            w(bytes((m.flags, len(nm))))
            w(nm)
            w(_pk_bytes(m.pk))
        w(bytes((len(self.seats),)))
        w(bytes(self.seats))
        w(self.gseed)
        w(self.ante)
        w(bytes((self.ante_mask, self.ante_term >> 8 & 0xFF, self.ante_term & 0xFF)))
        if self.game is not None:
            st = self.game.dumps()
            w(bytes((len(st),)))
            w(st)
            w(self.mc)
            w(self.seed)
            w(struct.pack(">H", self.rterm))
            w(bytes(self.holders))
            w(bytes((self.held,)))
            for d in self.digests:
                w(d)
            for s in range(len(self.seats)):
                w(bytes((self.gens[s], len(self.witness[s]))))
                for x in self.witness[s]:
                    w(x)
        else:
            w(b"\x00")

    @staticmethod
    def from_snapshot(data):
        t = Table()
        try:
            t._load(data)
        except (IndexError, ValueError, KeyError, TypeError) as e:
            raise OpError("bad snapshot: %s" % e)
        return t

    def _load(self, data):
        if len(data) < 10:
            raise OpError("snapshot truncated")
        self.version, self.term, self.master, self.phase, self.game_no, rc = struct.unpack(">IHBBBB", data[:10])
        pos = 10
        if not 1 <= rc <= len(RULES) or self.phase > DONE:
            raise OpError("bad snapshot header")
        self.rules = RULES[rc - 1]
        self.opts, pos = _u8(data, pos)
        nm, pos = _u8(data, pos)
        self.members = []
        for _ in range(nm):
            addr, pos = _bytes(data, pos, 6)
            flags, pos = _u8(data, pos)
            ln, pos = _u8(data, pos)
            name, pos = _bytes(data, pos, ln)
            pk, pos = _pk(data, pos)
            self.members.append(Member(addr, text(name), flags, pk))
        ns, pos = _u8(data, pos)
        seats, pos = _bytes(data, pos, ns)
        self.seats = list(seats)
        self.gseed, pos = _bytes(data, pos, 16)
        self.ante, pos = _bytes(data, pos, 12)
        a, pos = _bytes(data, pos, 3)
        self.ante_mask = a[0]
        self.ante_term = a[1] << 8 | a[2]
        ln, pos = _u8(data, pos)
        if ln:
            st, pos = _bytes(data, pos, ln)
            self.game = loads(st)
            self.mc, pos = _bytes(data, pos, 12)
            self.seed, pos = _bytes(data, pos, 16)
            rt, pos = _bytes(data, pos, 2)
            self.rterm = rt[0] << 8 | rt[1]
            h, pos = _bytes(data, pos, ns)
            self.holders = list(h)
            self.held, pos = _u8(data, pos)
            self.digests = []
            for _ in range(ns):
                d, pos = _bytes(data, pos, 12)
                self.digests.append(d)
            self.gens = []
            self.witness = []
            for _ in range(ns):
                gen, pos = _u8(data, pos)
                k, pos = _u8(data, pos)
                ws = ()
                for _ in range(k):
                    w, pos = _bytes(data, pos, 16)
                    ws += (w,)
                self.gens.append(gen)
                self.witness.append(ws)
        else:
            self.game = None
        if pos != len(data):
            raise OpError("trailing bytes in snapshot")



# ----- op builders (the master's side) ------------------------------------------------
def op_join(mid, addr, name, flags=0, pk=None):
    """A member joins: a cup with its public key `pk`, a bot (flags BOT) without."""
    nm = name.encode()[:_NAME_LEN]
    return bytes((_OP_JOIN, mid)) + addr + bytes((flags, len(nm))) + nm + _pk_bytes(pk)


def op_flags(mid, flags):
    return bytes((_OP_FLAGS, mid, flags))


def op_seats(order):
    return bytes((_OP_SEATS, len(order))) + bytes(order)


def op_rules(rules, opts):
    return bytes((OP_RULES, RULES.index(rules) + 1, opts))


def op_ante(mc, mask):
    return bytes((_OP_ANTE,)) + mc + bytes((mask,))


def op_start(m, nonces=()):
    """m: the master's part (its ante's preimage); nonces: the named cups', in member order."""
    return bytes((_OP_START,)) + m + b"".join(nonces)


def op_round(round_no, mc, holders, held):
    """held: {seat: digest} of the dice the master holds (bots' and away cups')."""
    mask = 0
    digests = b""
    for s in sorted(held):
        mask |= 1 << s
        digests += held[s]
    return bytes((_OP_ROUND, round_no >> 8 & 0xFF, round_no & 0xFF)) + mc + bytes(holders) + bytes((mask,)) + digests


def op_seed(m, digests):
    return bytes((_OP_SEED,)) + m + b"".join(digests)


def op_act(seat, action, extra=b"", vouch=b"", witness=None):
    """vouch: the seat's cup's own tags on the move (net/vouch.py; none for the leader's
    bots). A reroll's `witness` is (member, its vouch for the nonce that starts `extra`)."""
    op = bytes((OP_ACT, seat)) + struct.pack(">I", action) + bytes((len(vouch),)) + vouch
    if witness is not None:
        wid, wv = witness
        op += bytes((wid, len(wv))) + wv
    return op + extra


def op_settle(roots, attested=0):
    """attested: the cups (bits) that attest the seats with no root never revealed."""
    return bytes((OP_SETTLE, attested)) + b"".join(roots)


def op_restart(reason, attested=0, missing=0):
    """attested: the cups (bits) that attest the `missing` seats (bits) never committed."""
    return bytes((OP_RESTART, reason, attested, missing))


def op_master(mid, term, voted):
    """voted: the cups (bits) whose votes elected `mid` for `term` (each checks its own)."""
    return bytes((OP_MASTER, mid, term >> 8 & 0xFF, term & 0xFF, voted))


def op_roll(seat, digest, w, root, rid, roller, wid, witness):
    """roller: the roller's vouch for its digest (none for the leader's bots); wid, witness:
    who gave the nonce w, and its vouch (net/vouch.py)."""
    return (bytes((OP_ROLL, seat)) + digest + w + root + struct.pack(">IB", rid & 0xFFFFFFFF, wid)
            + bytes((len(roller),)) + roller + bytes((len(witness),)) + witness)
