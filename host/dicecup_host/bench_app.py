"""`make bench`, the app part: the whole app's RAM and the time from a press to the
updated screen, measured inside MicroPython on an emulated cup (upy/appram.py,
upy/presstime.py), side by side on three runtimes:

* fw32   the 32-bit unix build with the firmware frozen in (fw32.py): an ESP32 without
         PSRAM (110 KB heap, 32-bit objects, code in flash);
* wheel  the 64-bit unix wheel, firmware as .mpy (mpy.py): the peer;
* wasm   the 32-bit WebAssembly port from npm, firmware as .mpy: what a board with
         PSRAM running the copied files keeps in its heap (32-bit objects, code in the
         heap). Its heap is not capped, so only the figures, no fit, come from it.

The Adafruit drivers are .mpy files everywhere (neither manifest freezes them).
"""
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import bundle, emu, mpy

UPY = Path(__file__).parent / "upy"
ROOT = mpy.ROOT
BOARD = "esp32-devkitc"
WASM_PKG = "@micropython/micropython-webassembly-pyscript"
WASM_VERSION = "1.27.0"
WASM_DIR = ROOT / "build" / "wasm"
WASM_RUN = Path(__file__).parent / "wasmrun.mjs"
ESP32_HEAP_KB = 110
ESP32_X = 20          # an ESP32 at 240 MHz runs this MicroPython code ~20x slower than the fw32 build here
LINK_MS = 5
GOAL_LOCAL_MS = 10
GOAL_CHAIN_MS = 30
GOAL_PEAK_KB = 60
PUSH_GAP_MS = 20      # the app's screen task pushes at most this often (dicecup/app_tasks.py)


class RuntimeMissing(RuntimeError):
    """A runtime cannot run here (its one-line reason)."""


def board_path(name=BOARD):
    return bundle.BOARDS / (name + ".json")


def i2c_hz(name=BOARD):
    return json.loads(board_path(name).read_text())["i2c"]["freq"]


def wire_ms(nbytes, transfers, hz):
    """Time on the I2C wire: 9 clocks a byte (8 bits and the ACK), each transfer's
    address byte too, and about 2 clocks for its START and STOP."""
    return ((nbytes + transfers) * 9 + transfers * 2) * 1000.0 / hz


# --- the runtimes ---------------------------------------------------------------------

def wasm_package():
    """The installed WebAssembly port's folder, or None."""
    p = WASM_DIR / "node_modules" / WASM_PKG
    return p if (p / "micropython.mjs").exists() else None


def wasm_check():
    """None when the wasm port can run, else a one-line reason."""
    if not shutil.which("node"):
        return "node is not installed"
    if wasm_package() is None:
        return ("%s@%s is not installed (make bench runs npm install --prefix build/wasm; "
                "was npm unreachable?)" % (WASM_PKG, WASM_VERSION))
    return None


def _asyncio_dir():
    """extmod/asyncio of the MicroPython source fw32 builds from (the wasm port's own
    asyncio runs on JS timers: no emulated clock)."""
    from . import fw32
    found = sorted(fw32.SRC_DIR.glob("**/extmod/asyncio/core.py"))
    if found:
        return found[0].parent
    src = fw32.source()
    if src is None or not Path(src).exists():
        raise RuntimeMissing("no MicroPython source for asyncio (the one fw32 builds from)")
    if Path(src).is_dir():
        return fw32._tree_of(Path(src)) / "extmod" / "asyncio"
    import tarfile
    out = ROOT / "build" / "wasm" / "src"
    with tarfile.open(src) as tar:
        members = [m for m in tar.getmembers() if "/extmod/asyncio/" in m.name and m.name.endswith(".py")]
        tar.extractall(out, members=members)
    return sorted(out.glob("**/extmod/asyncio/core.py"))[0].parent


def _wasm_files():
    """(wasm path, host path) of every module the app needs, as .mpy: the firmware, the
    emulation, the drivers, and asyncio (compiled here)."""
    files = []
    fw = mpy.build()
    for p in sorted(fw.rglob("*.mpy")):
        files.append(("/lib2/" + p.relative_to(fw).as_posix(), str(p)))
    for d in (emu.build_mpy(), bundle.drivers_mpy_dir()):
        for p in sorted(d.rglob("*.mpy")):
            files.append(("/lib2/" + p.relative_to(d).as_posix(), str(p)))
    src = _asyncio_dir()
    out = ROOT / "build" / "wasm" / "asyncio"
    out.mkdir(parents=True, exist_ok=True)
    cross = mpy._tool("mpy-cross")
    for name in ("__init__", "core", "event", "funcs", "lock", "stream"):
        s = src / (name + ".py")
        d = out / (name + ".mpy")
        if not d.exists() or d.stat().st_mtime < s.stat().st_mtime:
            subprocess.run([cross, "-o", str(d), "-s", "asyncio/%s.py" % name, str(s)], check=True,
                           capture_output=True)
        files.append(("/lib2/asyncio/%s.mpy" % name, str(d)))
    return files


def run(runtime, script, args, heap=None, timeout=1800, steps=False):
    """Run upy/`script` with `args` on `runtime`; returns (returncode, stdout, stderr).
    `steps`: the script has a step() the wasm port calls from JavaScript (appram.py)."""
    script = UPY / script
    args = [str(a) for a in args]
    if runtime == "fw32":
        from . import fw32
        why = fw32.check()
        if why:
            raise RuntimeMissing(why)
        r = fw32.run([script] + args + [str(bundle.drivers_mpy_dir())], heap=heap or fw32.ESP32_HEAP,
                     timeout=timeout)
    elif runtime == "wheel":
        r = mpy.run([str(script)] + args, heap=heap or "1024K", timeout=timeout,
                    extra_path=[emu.build_mpy(), bundle.drivers_mpy_dir()])
    elif runtime == "wasm":
        why = wasm_check()
        if why:
            raise RuntimeMissing(why)
        files = _wasm_files()
        for i, a in enumerate(args):      # a host file named in args: copied in, named there
            if Path(a).is_file():
                files.append(("/host/" + Path(a).name, a))
                args[i] = "/host/" + Path(a).name
        with tempfile.TemporaryDirectory() as tmp:
            spec = Path(tmp) / "spec.json"
            spec.write_text(json.dumps({"files": files, "path": ["/lib2"], "dirs": ["/store"],
                                        "argv": args, "script": str(script), "steps": steps}))
            r = subprocess.run(["node", str(WASM_RUN), str(wasm_package()), str(spec)],
                               capture_output=True, timeout=timeout)
    else:
        raise ValueError("unknown runtime %r" % runtime)
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")


def _pairs(line):
    return dict((k, int(v)) for k, v in re.findall(r"(\w+)=(-?\d+)", line))


def _mem_info(out):
    from . import fw32
    try:
        return fw32.mem_info(out)
    except ValueError:
        return {}


# --- RAM ------------------------------------------------------------------------------

def app_ram(runtime, games=1, limit_ms=1800000, heap=None, rules="perudo", seats=6, timeout=3600,
            stop_on_error=False):
    """upy/appram.py on `runtime`: its figures (bytes), with `ok` (games all finished, no
    internal error), `max_free` (largest free block at the end, where mem_info says) and
    `error` (the last line of stderr when it failed)."""
    with tempfile.TemporaryDirectory() as store:
        store_arg = store if runtime != "wasm" else "/store"
        rc, out, err = run(runtime, "appram.py", [board_path(), store_arg, rules, seats, games, limit_ms,
                                            "stop" if stop_on_error else "go"],
                           heap=heap, timeout=timeout, steps=True)
    lines = [ln for ln in out.splitlines() if ln.startswith("--appram-- ")]
    figs = _pairs(lines[-1]) if lines else {}
    figs["rc"] = rc
    figs["ok"] = bool(rc == 0 and figs and figs.get("internal") == 0 and figs.get("crash") == 0
                      and figs.get("games") == games)
    mi = _mem_info(out)
    if "max_free" in mi:
        figs["max_free"] = mi["max_free"]
    if rc:
        figs["error"] = (err.strip().splitlines() or ["exit %d" % rc])[-1]
    return figs


def kb(n):
    return n / 1024.0


def above(figs, key):
    """Bytes the cup holds at `key`: the reading less the emulation's share."""
    return figs[key] - figs["emu"]


def smallest_heap(emu_bytes, lo_kb, hi_kb, step_kb=2, limit_ms=600000):
    """Smallest fw32 heap (KB above the emulation's share) in which one 6-seat game
    completes with no internal error, to `step_kb`; None if not even hi_kb does. A run
    ends at its first internal error."""
    extra = -(-emu_bytes // 1024)

    def fits(k):
        return app_ram("fw32", heap="%dK" % (k + extra), limit_ms=limit_ms, stop_on_error=True)["ok"]
    if not fits(hi_kb):
        return None
    lo, hi = lo_kb, hi_kb          # hi works; find the lowest that does
    while hi - lo > step_kb:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid
    return hi


# --- press -> screen ------------------------------------------------------------------

def press_times(runtime, repeats):
    """upy/presstime.py on `runtime`: {case: figures} (microseconds, counts)."""
    # six Apps in one process: the 64-bit wheel needs room (timings, not RAM, are read here)
    rc, out, err = run(runtime, "presstime.py", [board_path(), repeats],
                       heap="1024K" if runtime == "fw32" else "4096K", timeout=900)
    if rc:
        raise RuntimeError("presstime.py failed on %s: %s" % (
            runtime, ((err.strip() or out.strip()).splitlines() or ["?"])[-1]))
    cases = {}
    for ln in out.splitlines():
        m = re.match(r"--press-- case=(\w+) (.*)", ln)
        if m:
            cases[m.group(1)] = _pairs(m.group(2))
    return cases


def local_ms(c):
    """CPU of one local press -> screen (ms): the Ui and the app, tick + draw, the
    push's own CPU (the emulated chip's share taken out)."""
    return (c["ui"] + c["draw"] + c["show"]) / 1000.0


def case_wire_ms(c, hz):
    """The wire time of what a case pushed (ms)."""
    return wire_ms(c["bytes"], c["transfers"], hz)


def chain_ms(c):
    """CPU on the critical path of a bid confirmed through the master (ms): the
    bidder's press and send, the slowest cup on every hop, the last peer's draw and
    the push of its screen change."""
    hops = sum(c["hop%d" % i] for i in range(c["hops"]))
    return (c["press"] + hops + c["draw"] + c.get("push", 0)) / 1000.0


# --- the section ------------------------------------------------------------------------

def six_cups(seed=1):
    """Each cup's peak in a real 6-cup Perudo game, every cup's app in its own 32-bit
    frozen MicroPython at 110 KB (dicecup sim --headless --micropython, mpsim.py)."""
    from . import fw32, mpsim
    why = fw32.check()
    if why:
        print("  each cup's peak in a real 6-cup game: not measured: %s" % why)
        return None
    t = mpsim.run_batch(6, "perudo", games=1, seed=seed)
    peaks = t["peak_heap_bytes"]
    print("  each cup's peak in a real 6-cup Perudo game (sim --micropython, one process per cup, 110 KB):"
          " %s KB (master first); %d of 1 finished consistently, %d MemoryErrors survived, at 60 KB %d"
          % (" / ".join("%.1f" % kb(p) for p in peaks), t["consistent"], t["memory_errors"],
             t["completed_at_60k"]))
    return {"peak_kb": [round(kb(p), 1) for p in peaks], "finished": t["consistent"],
            "memory_errors": t["memory_errors"], "completed_at_60k": t["completed_at_60k"]}


def app_section(out, quick=False, runtimes=("fw32", "wheel", "wasm"), play_ms=None):
    """Print the section; its figures go to out["app"]. quick: the first 20 s of play
    (`play_ms` to change it), one game in the long run, no smallest-heap search."""
    print("== The app on an emulated cup (appboot.make_app with the real Ui; asyncio on the emulated clock)")
    res = {}
    limit = play_ms or (20000 if quick else 1800000)
    what = "the first %d s of a 6-seat Perudo game" % (limit // 1000) if limit < 1800000 else "a 6-seat Perudo game"
    print("  RAM the cup holds (gc.mem_alloc after gc.collect, the emulation's share taken out), %s"
          " at one master cup (5 bots, no radio):" % what)
    ram = {}
    for rt in runtimes:
        label = {"fw32": "32-bit frozen (fw32)", "wheel": "64-bit unix wheel, .mpy",
                 "wasm": "32-bit wasm port, .mpy"}[rt]
        try:
            f = app_ram(rt, limit_ms=limit, heap="256K" if rt == "fw32" else None)
        except RuntimeMissing as e:
            print("  %-26s not measured: %s" % (label, e))
            ram[rt] = None
            continue
        if "boot" not in f:
            print("  %-26s failed: %s" % (label, f.get("error")))
            ram[rt] = f
            continue
        ram[rt] = f
        f["lobby_kb"] = round(kb(above(f, "boot")), 1)
        f["peak_kb"] = round(kb(f["peak"] - f["emu"]), 1)
        end = "game1" if "game1" in f else "end"
        print("  %-26s after boot (lobby) %6.1f KB; peak in play %6.1f KB; after %s %6.1f KB"
              " (drivers %.1f, hardware %.1f, app made %.1f, first 0.5 s %.1f; emulation %.1f KB apart)" % (
                  label, f["lobby_kb"], f["peak_kb"], "the game" if end == "game1" else "the run",
                  kb(above(f, end)), kb(f["drivers"] - f["emu"]), kb(f["hardware"] - f["drivers"]),
                  kb(f["app"] - f["hardware"]), kb(f["boot"] - f["app"]), kb(f["emu"])))
    res["ram"] = ram
    f = ram.get("fw32")
    if f and "boot" in f:
        print("  goal: peak under %d KB of the %d KB heap on fw32 -> %s (%.1f KB)" % (
            GOAL_PEAK_KB, ESP32_HEAP_KB, "met" if f["peak_kb"] < GOAL_PEAK_KB else "MISSED", f["peak_kb"]))
        emu_bytes = f["emu"]
        heap = "%dK" % (ESP32_HEAP_KB + -(-emu_bytes // 1024))
        games = 1 if quick else 10
        long = app_ram("fw32", games=games, heap=heap, limit_ms=limit)
        res["long"] = long
        if "boot" in long:
            print("  %d game%s in a row at %d KB (+ the emulation's %.1f KB): %d finished, %s; peak %.1f KB,"
                  " after the last %.1f KB, largest free block at the end %s B" % (
                      games, "s" if games > 1 else "", ESP32_HEAP_KB, kb(emu_bytes), long["games"],
                      "no MemoryError or other internal error" if long["internal"] == 0 and not long["crash"]
                      else "%d internal errors in the app's tasks%s" % (
                          long["internal"], ", the player's script failed" if long["crash"] else ""),
                      kb(long["peak"] - long["emu"]), kb(above(long, "end")), long.get("max_free", "?")))
        else:
            print("  %d games in a row at %d KB: failed (%s)" % (games, ESP32_HEAP_KB, long.get("error")))
        if not quick:
            low = smallest_heap(emu_bytes, 64, ESP32_HEAP_KB + 30)
            res["smallest_heap_kb"] = low
            print("  smallest heap a 6-seat game completes in (fw32, above the emulation): %s" % (
                "%d KB (to 2 KB)" % low if low else "more than %d KB" % (ESP32_HEAP_KB + 30)))
    if quick:
        print("  each cup's peak in a real 6-cup game: not run in the short form")
        res["six_cup_sim"] = None
    else:
        res["six_cup_sim"] = six_cups()

    hz = i2c_hz()
    reps = 10 if quick else 40
    print("  Press -> updated screen, CPU measured with ticks_us inside MicroPython (median of %d);"
          " the I2C wire time is computed from the bytes the driver sent at %d kHz (the board file's):" % (
              reps, hz // 1000))
    times = {}
    for rt in runtimes:
        if rt == "wasm":
            continue      # its clock runs on JS timers; the peer is the wheel
        try:
            times[rt] = press_times(rt, reps)
        except RuntimeMissing as e:
            print("  %s: not measured: %s" % (rt, e))
    res["press"] = times
    if not times:
        out["app"] = res
        return res
    names = list(times)
    print("  %-34s %s" % ("", "  ".join("%-44s" % n for n in names)))
    for case, label in (("cursor", "cursor move (press right, my turn)"), ("peek", "peek (long ok: my dice)"),
                        ("redraw", "full-screen redraw (draw + show())"),
                        ("same", "redraw, nothing changed (push)"), ("lobby", "lobby menu (press right)")):
        cells = []
        for n in names:
            c = times[n][case]
            cells.append("%5.2f ms (ui %d, draw %d, push %d us; %d B in %d transfers)" % (
                local_ms(c), c["ui"], c["draw"], c["show"], c["bytes"], c["transfers"]))
        print("  %-34s %s" % (label, "  ".join(cells)))
    f32 = times.get("fw32")
    if f32:
        full = f32["redraw"]
        res["show_wire_ms"] = round(case_wire_ms(full, hz), 2)
        print("  a whole frame (show()) is %d bytes in %d transfers: %.1f ms on the wire at %d kHz (%.1f ms at"
              " 1 MHz); push() sends the changed pages only: the window (7 bytes) and the changed columns of"
              " each, or the whole frame when that is shorter; heap it takes on fw32 (CRC ints, slices):"
              " cursor %d B, peek %d B, nothing changed %d B" % (
                  full["bytes"], full["transfers"], case_wire_ms(full, hz), hz // 1000,
                  wire_ms(full["bytes"], full["transfers"], 1000000), f32["cursor"]["alloc"],
                  f32["peek"]["alloc"], f32["same"]["alloc"]))
        worst = 0.0
        for case in ("cursor", "peek"):
            c = f32[case]
            cpu = local_ms(c)
            wire = case_wire_ms(c, hz)
            est = cpu * ESP32_X + wire
            worst = max(worst, est)
            res["%s_esp32_ms" % case] = round(est, 1)
            print("  %s, goal <= %d ms: CPU %.2f ms on fw32 (ESP32 estimate x%d: %.1f ms) + the wire %.1f ms"
                  " (%d B, %d transfers) = %.1f ms (ESP32 ~%.1f ms) -> %s" % (
                      case, GOAL_LOCAL_MS, cpu, ESP32_X, cpu * ESP32_X, wire, c["bytes"], c["transfers"],
                      cpu + wire, est, "met" if est <= GOAL_LOCAL_MS else
                      "MISSED (the wire alone is %.1f ms)" % wire if wire > GOAL_LOCAL_MS else "MISSED"))
        print("  the app's screen task draws as soon as the Ui is handed the press (App.nudge); it waits only"
              " when its last push was less than %d ms before" % PUSH_GAP_MS)
    for n in names:
        c = times[n]["chain"]
        if c.get("hops", -1) < 0:
            print("  %s: the bid was not applied on every cup" % n)
            continue
        cpu = chain_ms(c)
        hops = ", ".join("%d ms: %d us" % (c["at%d" % i], c["hop%d" % i]) for i in range(c["hops"]))
        links = c["hops"] * LINK_MS
        print("  bid confirmed through the master, shown on all 6 cups (%s): press + send %d us; hops (sim time:"
              " slowest cup's pump) %s; last peer's draw %d us and push %d us (%d B in %d transfers);"
              " CPU %.2f ms" % (n, c["press"], hops, c["draw"], c["push"], c["pbytes"], c["ptransfers"], cpu))
        if n == "fw32":
            wire = wire_ms(c["pbytes"], c["ptransfers"], hz)
            total = links + cpu + wire
            est = links + cpu * ESP32_X + wire
            res["chain_model_ms"] = round(total, 1)
            res["chain_esp32_ms"] = round(est, 1)
            print("  model: %d hops x %d ms links (the op is shown once a majority holds it: bidder -> master ->"
                  " peers -> master -> peers; %d ms in the simulation) + the CPU above + the wire %.1f ms"
                  " = %.1f ms on fw32, ESP32 estimate %.1f ms; goal <= %d ms -> %s" % (
                      c["hops"], LINK_MS, c["span"], wire, total, est, GOAL_CHAIN_MS,
                      "met" if est <= GOAL_CHAIN_MS else "MISSED on the ESP32 estimate" if total <= GOAL_CHAIN_MS
                      else "MISSED"))
    out["app"] = res
    return res


# --- what each module costs ---------------------------------------------------------------

def firmware_modules():
    """{module name: set of dicecup modules it imports at its top level} for every
    module of firmware/dicecup (read with ast, nothing run). A package's modules
    import the package first, so it counts as an import too."""
    import ast
    fw = ROOT / "firmware"
    mods = {}
    for p in sorted((fw / "dicecup").rglob("*.py")):
        rel = p.relative_to(fw).with_suffix("")
        parts = list(rel.parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        name = ".".join(parts)
        pkg = parts if is_pkg else parts[:-1]
        deps = set(".".join(pkg[:i]) for i in range(1, len(pkg) + 1))
        for node in ast.parse(p.read_text()).body:
            for n in _top_imports(node):
                if isinstance(n, ast.Import):
                    deps.update(a.name for a in n.names)
                    continue
                base = pkg[:len(pkg) - n.level + 1] if n.level else []
                mod = ".".join(base + (n.module.split(".") if n.module else []))
                deps.add(mod)
                deps.update(mod + "." + a.name for a in n.names)
        mods[name] = deps
    for name, deps in mods.items():
        deps.intersection_update(mods)
        deps.discard(name)
    return mods


def _top_imports(node):
    """The import statements run when a module's top level runs (inside if/try too,
    not inside functions or classes)."""
    import ast
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    elif isinstance(node, (ast.If, ast.Try)):
        for field in ("body", "orelse", "finalbody"):
            for sub in getattr(node, field, []):
                yield from _top_imports(sub)
        for h in getattr(node, "handlers", []):
            for sub in h.body:
                yield from _top_imports(sub)


def import_order(mods):
    """The module names, each after every module it imports (depth first)."""
    order, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        for d in sorted(mods[name]):
            visit(d)
        order.append(name)
    for name in sorted(mods):
        visit(name)
    return order


def import_costs(heap="1024K"):
    """Heap each firmware module costs on fw32 when imported (its own share: its
    imports come first), largest first: a list of (name, bytes, held) where `held`
    says whether a booted cup (make_app) holds it; bytes is -1 for a module that
    cannot be imported on fw32 (another runtime's or radio's)."""
    costs, held = {}, set()
    for names in ([], import_order(firmware_modules())):     # the boot alone, then the imports
        with tempfile.TemporaryDirectory() as store:
            rc, out, err = run("fw32", "importcost.py", [board_path(), store] + names, heap=heap, timeout=300)
        if rc:
            raise RuntimeError("importcost.py failed: %s" % (
                (err.strip() or out.strip()).splitlines() or ["?"])[-1])
        for ln in out.splitlines():
            parts = ln.split()
            if parts[:1] == ["--cost--"]:
                costs[parts[1]] = int(parts[2])
            elif parts[:1] == ["--held--"] and not names:
                held.add(parts[1])
    return sorted(((n, c, n in held) for n, c in costs.items()), key=lambda t: (-t[1], t[0]))
