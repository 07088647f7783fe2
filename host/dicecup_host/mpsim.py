"""`dicecup sim --headless --micropython`: every simulated cup's whole app inside its
own 32-bit MicroPython process (firmware frozen in, the heap of an ESP32 without
PSRAM), over the simulated medium on the host, in lock-step with the host's clock.

    summary = mpsim.run_batch(cups=3, rules="liars", games=1, seed=1)
    summary["peak_heap_bytes"]      # one figure per cup: the app's most live heap

Each process runs host/dicecup_host/emu/cupproc.py (frozen into the build by
firmware/manifest_sim.py): the emulated chips, the app from `appboot.make_app`, a
radio whose frames cross stdin/stdout, a player. The host keeps `dicecup.net.sim`'s
Clock and Medium (loss, duplication, reordering, latency) and steps the processes:

    lock-step. Nothing can happen before M, the earliest of every cup's next wake and
    the medium's next landing; a frame sent at t >= M lands at t + latency >= M +
    latency. So the host runs every cup that has something to do up to T = M +
    latency - 1 (giving it the frames landing until then, with their times), collects
    what each sent (with send times), puts those frames on the medium at their send
    times, and goes on. No frame lands in a cup's past, idle stretches cost nothing,
    and a cup that waits on nothing before T is not even asked.

The heap: cupproc's docstring says how the app's figure is read (gc.collect() and
gc.mem_alloc() at each event the cup emits, the emulation's own share measured before
the app is imported and left out) and how the app gets exactly `cap` bytes (a ballast
takes the rest). Every game is played at 110 KB and then again at 60 KB: the runs are
not bit-for-bit repeatable (the C task queue stamps tasks with real ticks, so ties
between tasks due at once may break differently), so the second cap is a second run.
"""
import json
import os
import selectors
import shutil
import subprocess
import sys
import tempfile
import time

from dicecup.net.sim import Clock, Medium

from . import batchrun, bundle, checker, fw32, tally

CAP = 110 * 1024        # an ESP32 without PSRAM: the app's heap
CHECK_CAP = 60 * 1024   # ...and the tighter one every game must also complete in
EMU_ROOM = 64 * 1024    # heap given on top of the cap for the emulation (the ballast takes what is left)
LATENCY_MS = 5          # the medium's latency (as dicecup_host/cluster.py)
GAME_LIMIT_MS = 30 * 60 * 1000   # simulated: a 3-cup Dix mille takes about 9 minutes
REPLY_S = 120.0         # real seconds a cup may take to answer one step before it counts as hung
NAMES = ("ana", "ben", "cy", "dee", "eli", "fay")
DRIVES = ("engine", "buttons")
ENTRY = "from dicecup_host.emu import cupproc; cupproc.main()"


class MpsimError(RuntimeError):
    """The batch cannot run (the runtime is missing, a cup does not start)."""


def unavailable():
    """None when the 32-bit MicroPython can be built here, else a one-line reason."""
    return fw32.check()


def drive_unavailable(drive):
    """None when `drive` can run inside MicroPython, else a one-line reason."""
    if drive not in DRIVES:
        return "--drive %s: one of %s" % (drive, ", ".join(DRIVES))
    return None


class CupProc:
    """One cup's MicroPython process and what it said."""

    def __init__(self, game, i, cfg, heap_bytes):
        self.i = i
        self.game = game
        self.err = open(os.path.join(game.tmp, "cup%d.err" % i), "w+b")
        env = dict(os.environ, MICROPYPATH=".frozen")
        self.p = subprocess.Popen([str(game.binary), "-X", "heapsize=%d" % heap_bytes, "-c", ENTRY],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                  cwd=game.tmp, env=env, bufsize=0)
        self.fd = self.p.stdout.fileno()
        os.set_blocking(self.fd, False)
        self.buf = b""
        self.serial = []        # the JSON event log
        self.console = []       # anything else it printed
        self.base = self.total = self.ballast = None
        self.peak = 0
        self.stages = {}        # boot stage -> the app's heap then
        self.errors = []        # what the player's own code raised
        self.wake = -1
        self.at = 0
        self.done = False
        self.final = None
        self.dead = None        # why it stopped answering
        self.stepped = False    # a W arrived for the current step
        self.inbox = []         # lines for its next step
        self.write(json.dumps(cfg) + "\n")

    def alive(self):
        return self.dead is None

    def write(self, data):
        try:
            self.p.stdin.write(data if type(data) is bytes else data.encode())
        except (BrokenPipeError, OSError):
            # a killed cup's pipe breaks as it exits: say it exited once it has (a
            # race with the read side's end-of-file, which says so too)
            try:
                self.p.wait(timeout=1)
            except subprocess.TimeoutExpired:
                self.die("its stdin closed")
                return
            self.die("it exited")

    def feed(self, data):
        """Bytes from its stdout; handles every complete line."""
        self.buf += data
        while True:
            k = self.buf.find(b"\n")
            if k < 0:
                return
            line = self.buf[:k].decode(errors="replace")
            self.buf = self.buf[k + 1:]
            self.line(line)

    def line(self, ln):
        k = ln.find("\x01", 1)
        if k > 0:   # a serial line cut short (the cup ran out of memory writing it)
            self.console.append("(a cut line) " + ln[:k])
            ln = ln[k:]
        if not ln.startswith("\x01"):
            (self.serial if ln.startswith("{") else self.console).append(ln)
            if ln.startswith('{"k":"internal"') and ("MemoryError" in ln or not ln.endswith("}")):
                self.game.memory_errors += 1   # a cut `internal` line: memory ran out writing it
            return
        c = ln[1]
        parts = ln[3:].split(" ")
        if c == "F":
            self.game.sent.append((int(parts[0]), self.i, bytes.fromhex(parts[1]), bytes.fromhex(parts[2])))
        elif c == "W":
            self.at, self.wake, self.done = int(parts[0]), int(parts[1]), parts[2] == "1"
            self.stepped = True
        elif c == "H":
            self.peak = max(self.peak, int(parts[0]))
        elif c == "C":
            self.game.code = (parts[0], int(parts[1]))
        elif c == "X":
            self.errors.append(ln[3:])
            if "MemoryError" in ln:
                self.game.memory_errors += 1
        elif c == "M":
            self.stages[parts[0]] = int(parts[1])
        elif c == "B":
            self.base, self.total, self.ballast = (int(x) for x in parts)
        elif c == "E":
            self.final = json.loads(ln[3:])
            self.peak = max(self.peak, self.final["peak"])
            self.stepped = True

    def die(self, why):
        if self.dead is None:
            self.dead = why
            if self.p.poll() is None:
                self.p.kill()
            self.p.wait()
            self.game.died(self)

    def stderr_text(self):
        self.err.flush()
        self.err.seek(0)
        return self.err.read().decode(errors="replace")

    def close(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()
        for f in (self.p.stdin, self.p.stdout):
            try:
                f.close()
            except OSError:
                pass
        self.err.close()


class Game:
    """One game: `n` cup processes (plus `bots` bot seats at the master) on one medium."""

    def __init__(self, binary, n, rules, options=None, seed=1, bots=0, loss=0.0, cap=CAP, drive="engine",
                 shake_ms=0, boards=None, latency_ms=LATENCY_MS, limit_ms=GAME_LIMIT_MS, log=None,
                 give_up=False):
        if latency_ms < 1:
            raise ValueError("the lock-step needs a latency of at least 1 ms")
        self.binary = binary
        self.n = n
        self.rules = rules
        self.seed = seed
        self.cap = cap
        self.latency = latency_ms
        self.limit_ms = limit_ms
        self.give_up = give_up      # stop at the first dead cup or MemoryError (the check run)
        self.memory_errors = 0
        self.log = log or (lambda s: print(s, file=sys.stderr))
        self.clock = Clock()
        dup = loss / 5 if loss else 0.0
        reorder = loss / 3 if loss else 0.0
        self.medium = Medium(self.clock, rng=seed, loss=loss, dup=dup, reorder=reorder, latency_ms=latency_ms)
        self.tmp = tempfile.mkdtemp(prefix="mpsim-")
        self.sent = []
        self.code = None
        self.coded = set()
        self.deaths = []
        self.steps = 0
        self.cups = []
        self.radios = []
        boards = boards or [bundle.DEFAULT_BOARD]
        drivers = str(bundle.drivers_mpy_dir())
        for i in range(n):
            addr = bytes((0x02, 0xD1, 0xCE, 0, 2, i + 1))
            self.radios.append(self.medium.attach(addr, on_frame=self._landed(i)))
            store = os.path.join(self.tmp, "flash%d" % i)
            cfg = {"i": i, "n": n, "bots": bots, "board": str(bundle.BOARDS / (boards[i % len(boards)] + ".json")),
                   "addr": addr.hex(), "name": NAMES[i], "rules": rules, "options": options, "seed": seed,
                   "drive": drive, "cap": cap, "store": store, "path": [drivers], "shake_ms": shake_ms}
            self.cups.append(CupProc(self, i, cfg, cap + EMU_ROOM))

    def _landed(self, i):
        def landed(addr):
            src, frame = self.radios[i].rx.get()   # straight on to the cup's own receive buffer
            # the frame's bytes follow the line as they are: the cup reads them into one
            # bytes, as a radio gives a frame (no hex line to split on its heap)
            self.cups[i].inbox.append(b"L %d %s %d\n" % (self.clock.now, src.hex().encode(), len(frame)) + bytes(frame))
        return landed

    def died(self, cp):
        self.medium.kill(self.radios[cp.i].address)
        self.deaths.append(cp.i)
        # MicroPython prints an uncaught exception's traceback on stdout: the console lines
        tail = "\n".join((cp.console + cp.stderr_text().strip().splitlines())[-25:])
        self.log("mpsim: cup %d (%s) died at %d ms with a %s heap: %s (exit %s)%s" % (
            cp.i, NAMES[cp.i], self.clock.now, _kb(self.cap), cp.dead, cp.p.returncode,
            ("\n" + tail) if tail else ""))

    # ----- the processes' answers ----------------------------------------------------
    def collect(self, cups):
        """Read until each of `cups` ended its step (a W or E line) or died."""
        waiting = [c for c in cups if c.alive()]
        for c in waiting:
            c.stepped = False
        sel = selectors.DefaultSelector()
        for c in waiting:
            sel.register(c.fd, selectors.EVENT_READ, c)
        deadline = time.monotonic() + REPLY_S
        try:
            while any(not c.stepped and c.alive() for c in waiting):
                left = deadline - time.monotonic()
                if left <= 0:
                    for c in waiting:
                        if not c.stepped:
                            c.die("no answer within %.0f s (hung)" % REPLY_S)
                    break
                for key, _ in sel.select(left):
                    c = key.data
                    try:
                        data = os.read(c.fd, 65536)
                    except BlockingIOError:
                        continue
                    if not data:
                        sel.unregister(c.fd)
                        if not c.stepped:
                            c.p.wait()
                            c.die("it exited")
                        continue
                    c.feed(data)
                    if c.stepped:
                        sel.unregister(c.fd)
        finally:
            sel.close()

    # ----- the lock-step -------------------------------------------------------------
    def live(self):
        return [c for c in self.cups if c.alive()]

    def finished(self):
        live = self.live()
        return bool(live) and all(c.done for c in live)

    def step(self):
        """One lock-step; False when nothing can happen any more."""
        live = self.live()
        wakes = [c.wake for c in live if c.wake >= 0]
        nxt = self.clock.next_time()
        if nxt is not None:
            wakes.append(nxt)
        if self.code is not None and any(c.i not in self.coded and c.i for c in live):
            wakes.append(self.clock.now + 1)
        if not wakes:
            return False
        now = self.clock.now
        until = max(min(wakes), now + 1) + self.latency - 1
        self.clock.run_until(until)
        asked = []
        for c in live:
            msg = c.inbox
            if self.code is not None and c.i and c.i not in self.coded:
                msg.append(("J %s %d\n" % self.code).encode())
                self.coded.add(c.i)
            if msg or 0 <= c.wake <= until:
                msg.append(b"R %d\n" % until)
                c.write(b"".join(msg))
                c.inbox = []
                asked.append(c)
        self.collect(asked)
        for c in live:
            if c not in asked and c.p.poll() is not None:
                c.die("it exited")        # noticed now, not when it is next asked
        clock = self.clock
        self.sent.sort(key=lambda s: (s[0], s[1]))
        for t, i, dest, frame in self.sent:
            clock.now = t                 # the frame goes on air when it was sent
            self.radios[i].send(dest, frame)
        self.sent = []
        clock.now = until
        self.steps += 1
        return True

    def start(self):
        self.collect(self.cups)          # each cup's first W: booted, at time 0
        for c in self.cups:
            if c.alive() and c.base is None:
                c.die("no heap reading at boot")

    def play(self, on_step=None):
        """Run until every live cup shows the game over (True), the limit, or nothing
        can happen; `on_step(game)` after every step (tests kill a cup there)."""
        self.start()
        while self.live() and not self.finished() and self.clock.now < self.limit_ms:
            if self.give_up and (self.deaths or self.memory_errors):
                break
            if not self.step():
                break
            if on_step is not None:
                on_step(self)
        return self.finished()

    def quit(self):
        """Every cup's final report, then the processes end."""
        live = self.live()
        for c in live:
            c.write("Q\n")
        self.collect(live)
        for c in live:
            try:
                c.p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                c.die("did not exit after Q")
            if c.final is None and c.alive():
                c.dead = "no final report"
                self.deaths.append(c.i)
                self.log("mpsim: cup %d gave no final report:\n%s" % (c.i, c.stderr_text()[-3000:]))

    def close(self):
        for c in self.cups:
            c.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


# ----- one checked game, a batch ------------------------------------------------------

def memory_errors(cp):
    """The MemoryErrors a cup survived: the app's `internal` events (a task restarted)
    and the player's own (X lines), as text."""
    out = []
    for ln in cp.serial:
        if '"internal"' not in ln:
            continue
        try:
            rec = json.loads(ln)
        except ValueError:
            if ln.startswith('{"k":"internal"'):   # cut short: memory ran out writing it
                where = ln.partition('"where":"')[2].partition('"')[0]
                out.append("%s: (its line cut short: out of memory writing it)" % where)
            continue
        if rec.get("k") == "internal" and "MemoryError" in str(rec.get("error", "")):
            out.append("%s: %s" % (rec.get("where"), rec.get("error")))
    out += ["player " + e for e in cp.errors if "MemoryError" in e]
    return out


def check(game):
    """Consistency as simrun.check_game, from what the processes logged: every live
    cup ends with the same state, each log re-checks to the state the cup reported,
    one history across the logs. Returns (ok, reasons)."""
    reasons = []
    live = [c for c in game.cups if c.alive() and c.final is not None]
    digests = [c.final["digest"] for c in live]
    if len(set(digests)) != 1 or digests[0] is None:
        reasons.append("cups disagree on the final state")
    for c in live:
        try:
            t = checker.recheck(c.serial)
        except checker.LogError as e:
            reasons.append("log of cup %d: %s" % (c.i, e))
            continue
        if t.digest_of().hex() != c.final["digest"]:
            reasons.append("log of cup %d rebuilds another state" % c.i)
    reasons += checker.crosscheck(dict((c.i, c.serial) for c in live))[:5]
    return not reasons, reasons


def _public(cups, kinds):
    out = {}
    for c in cups:
        for rec in checker.events(c.serial, kinds):
            out[(rec["tb"], rec["tm"], rec["v"], rec["i"])] = rec
    return list(out.values())


def play_one(binary, cups, rules, options, seed, loss=0.0, bots=0, cap=CAP, drive="engine", shake_ms=0,
             on_step=None, trace=None, log=None, limit_ms=GAME_LIMIT_MS, give_up=False):
    """Play and check one game; returns its facts (a dict). `give_up`: stop at the first
    cup that dies or survives a MemoryError (all a check run needs to know)."""
    t0 = time.monotonic()
    g = Game(binary, cups, rules, options, seed=seed, bots=bots, loss=loss, cap=cap, drive=drive,
             shake_ms=shake_ms, log=log, limit_ms=limit_ms, give_up=give_up)
    try:
        finished = g.play(on_step)
        sim_ms = g.clock.now
        g.quit()
        ok, reasons = check(g) if not g.deaths else (False, ["cup %d died" % i for i in g.deaths])
        mem = []
        for c in g.cups:
            errs = memory_errors(c)
            mem += [(c.i, e) for e in errs]
            for e in errs[:3]:
                g.log("mpsim: cup %d survived a MemoryError with a %s heap: %s" % (c.i, _kb(cap), e))
            if len(errs) > 3:
                g.log("mpsim: cup %d: %d more MemoryErrors" % (c.i, len(errs) - 3))
            if c.errors and c.alive():
                g.log(c.stderr_text()[-3000:])
        finals = [c.final or {} for c in g.cups]
        st = g.medium.stats
        counts = {"frames": st["frames"], "dropped": st["dropped"], "max_frame_bytes": st["max_frame_bytes"],
                  "max_frames_per_s": g.medium.max_frames_per_s(), "away": len(_public(g.cups, ("away",))),
                  "retransmits": sum(f.get("counts", {}).get("retransmits", 0) for f in finals),
                  "races": sum(f.get("counts", {}).get("races", 0) for f in finals)}
        counts["dropped"] += sum(f.get("radio", {}).get("rx_dropped", 0) for f in finals)  # full receive buffers
        leaks = checker.hidden_leaks(g.medium.trace, dict((c.i, c.serial) for c in g.cups)) if not g.deaths else []
        if trace:
            g.medium.save_trace(trace)
        return {"finished": bool(finished) and not g.deaths, "ok": ok and not mem, "reasons": reasons,
                "crashed": list(g.deaths), "memory_errors": len(mem), "leaks": leaks,
                "failovers": len(_public(g.cups, ("master",))), "counts": counts,
                "peak": [c.peak for c in g.cups], "emu": [c.base for c in g.cups],
                "rolls": [f.get("rolls", 0) for f in finals], "sim_ms": sim_ms, "steps": g.steps,
                "tally": tally.game_facts(c.serial for c in g.cups),
                "real_s": time.monotonic() - t0}
    finally:
        g.close()


def _kb(n):
    return "%d KB" % (n // 1024)


SUMMARY = ("games", "finished", "consistent", "races", "failovers", "frames", "dropped", "retransmits",
           "max_frame_bytes", "hidden_leaks", "away", "max_frames_per_s")


def run_batch(cups, rules, options=None, games=1, seed=1, loss=0.0, bots=0, game_index=None, trace=None,
              report=None, shake_ms=0, drive="engine", cap=CAP, check_cap=CHECK_CAP, log=None):
    """Play and check games, each at `cap` and again at `check_cap`; returns the
    summary: simrun's keys plus peak_heap_bytes (per cup, the largest over the games
    at `cap`), emulator_heap_bytes (per cup), completed_at_60k (games that also
    completed at `check_cap`), crashed (cup processes that died), real_s, sim_s."""
    binary = fw32.build()
    total = tally.empty(dict((k, 0) for k in SUMMARY), cups + bots)
    total.update(peak_heap_bytes=[0] * cups, emulator_heap_bytes=[0] * cups, completed_at_60k=0,
                 crashed=0, memory_errors=0, real_s=0.0, sim_s=0.0, heap_cap_bytes=cap, check_cap_bytes=check_cap)
    indices = [game_index] if game_index is not None else range(games)
    batch = batchrun.Batch(indices)
    with batch:
        for i in batch:
            s = seed + i
            f = play_one(binary, cups, rules, options, s, loss, bots, cap, drive, shake_ms,
                         trace=trace if game_index is not None else None, log=log)
            again = play_one(binary, cups, rules, options, s, loss, bots, check_cap, drive, shake_ms, log=log,
                             give_up=True)
            c = f["counts"]
            with batch.counting():
                total["games"] += 1
                total["finished"] += f["finished"]
                total["consistent"] += bool(f["ok"] and f["finished"])
                total["failovers"] += f["failovers"]
                total["hidden_leaks"] += len(f["leaks"])
                for k in ("frames", "dropped", "retransmits", "races", "away"):
                    total[k] += c[k]
                for k in ("max_frame_bytes", "max_frames_per_s"):
                    total[k] = max(total[k], c[k])
                total["peak_heap_bytes"] = [max(a, b) for a, b in zip(total["peak_heap_bytes"], f["peak"])]
                total["emulator_heap_bytes"] = [max(a, b or 0) for a, b in zip(total["emulator_heap_bytes"], f["emu"])]
                total["completed_at_60k"] += bool(again["finished"] and again["ok"])
                total["crashed"] += len(f["crashed"])
                total["memory_errors"] += f["memory_errors"]
                total["real_s"] = round(total["real_s"] + f["real_s"] + again["real_s"], 1)
                total["sim_s"] = round(total["sim_s"] + f["sim_ms"] / 1000.0, 1)
                tally.add(total, f["tally"])
            if report is not None:
                good = f["ok"] and f["finished"] and not f["leaks"]
                report("game %d (seed %d): %s, %.0f s simulated in %.0f s, %d frames, %d dropped, peak heap %s B, "
                       "at %s: %s%s" % (
                           i, s, "ok" if good else "FAIL", f["sim_ms"] / 1000.0, f["real_s"], c["frames"], c["dropped"],
                           "/".join(str(x) for x in f["peak"]), _kb(check_cap),
                           "completed" if again["finished"] and again["ok"] else "FAILED",
                           "".join("; " + r for r in f["reasons"][:3] + f["leaks"][:3])))
    total["interrupted"] = batch.interrupted
    return tally.done(total)
