"""A 32-bit unix MicroPython with the firmware frozen in: the closest stand-in for an
ESP32 without PSRAM this machine has (32-bit objects, code in "flash", 110 KB heap).

    path = fw32.build()                       # build/fw32/micropython-fw32, rebuilt only when needed
    res = fw32.run_code("import dicecup.engine")   # MICROPYPATH=.frozen, -X heapsize=110K
    fw32.mem_after("import dicecup.engine")   # {'free': ..., 'max_free': ..., ...} in bytes

The source is a MicroPython 1.29 tree (`source()`: env DICECUP_MPY_SRC, else the
trimmed tarball in ../shared/vendor/ or /work/shared/vendor/), extracted once into
build/fw32/src/. The frozen modules are listed by firmware/manifest_sim.py. Building
needs make and a C compiler that makes 32-bit programs (`gcc -m32`: gcc-multilib on
Debian); `check()` says what is missing, in one line.

Note on the recipe: this MicroPython ignores `MICROPY_FORCE_32BIT=1` (the unix Makefile
only warns "no longer affecting builds"), so -m32 is passed as CFLAGS_EXTRA and
LDFLAGS_EXTRA; the binary is checked to be 32-bit (sys.maxsize == 2**31 - 1) by the tests.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import mpy

ROOT = mpy.ROOT
FIRMWARE = mpy.FIRMWARE
EMU = ROOT / "host" / "dicecup_host" / "emu"
MANIFEST = FIRMWARE / "manifest_sim.py"
BUILD = ROOT / "build" / "fw32"
SRC_DIR = BUILD / "src"               # where a tarball is extracted
BINARY = BUILD / "micropython-fw32"
STAMP = BUILD / "stamp"
DRIVERS = BUILD / "drivers"           # the drivers' sources, frozen too (manifest_sim.py)
ESP32_HEAP = mpy.ESP32_HEAP           # "110K"
PROG = "micropython-fw32"
TARBALL = "micropython-*.tar.gz"
VENDOR_DIRS = (ROOT.parent / "shared" / "vendor", Path("/work/shared/vendor"))

# The port's build options. -m32 replaces MICROPY_FORCE_32BIT (ignored by this version).
MAKE_VARS = (
    ("MICROPY_PY_FFI", "0"),
    ("MICROPY_SSL_AXTLS", "0"),
    ("MICROPY_SSL_MBEDTLS", "0"),
    ("MICROPY_PY_SSL", "0"),
    ("MICROPY_PY_BTREE", "0"),
    ("CFLAGS_EXTRA", "-m32"),
    ("LDFLAGS_EXTRA", "-m32"),
    ("BUILD", "build-" + "fw32"),
    ("PROG", PROG),
)

# GC block: MICROPY_BYTES_PER_GC_BLOCK = 4 * MP_BYTES_PER_OBJ_WORD (py/mpconfig.h; the
# unix port does not override it), so 16 bytes with 32-bit words. mem_info() prints
# "max free sz" and "max blk sz" in blocks.
BLOCK_BYTES = 16


class Fw32Unavailable(RuntimeError):
    """The 32-bit build cannot be made here (no source, no 32-bit compiler, no make)."""


class Fw32BuildFailed(RuntimeError):
    """make failed; the message ends with the tail of its output."""


# --- where the source is, and whether a build is possible ---------------------------

def _candidates():
    """Where a source is looked for, in order: (description, path or None)."""
    env = os.environ.get("DICECUP_MPY_SRC")
    if env:
        return [("DICECUP_MPY_SRC=%s" % env, Path(env))]
    out = []
    for d in VENDOR_DIRS:
        found = sorted(d.glob(TARBALL)) if d.is_dir() else []
        out.append((str(d / TARBALL), found[-1] if found else None))
    return out


def _tree_of(path):
    """The micropython directory inside an extracted source `path`, or None."""
    for d in (path, path / "micropython"):
        if (d / "ports" / "unix" / "Makefile").is_file() and (d / "py").is_dir():
            return d
    return None


def source():
    """The MicroPython source to build from: a tarball or a `micropython` directory.
    DICECUP_MPY_SRC when set (returned even if missing: `check()` reports it), else the
    newest micropython-*.tar.gz in <repo>/../shared/vendor/, then /work/shared/vendor/;
    None when there is none."""
    for _, path in _candidates():
        if path is not None:
            return path
    return None


def _probe_m32():
    """None when `gcc -m32` compiles and links a trivial program, else why not."""
    gcc = shutil.which("gcc")
    if not gcc:
        return "no C compiler: gcc not found (install gcc and gcc-multilib)"
    with tempfile.TemporaryDirectory() as tmp:
        c = Path(tmp) / "t.c"
        c.write_text("int main(void) { return 0; }\n")
        r = subprocess.run([gcc, "-m32", str(c), "-o", str(Path(tmp) / "t")], capture_output=True)
    if r.returncode:
        return "no 32-bit C compiler: `gcc -m32` cannot build a program (install gcc-multilib)"
    return None


_m32_ok = False


def check():
    """None when a build is possible, else a one-line reason."""
    global _m32_ok
    src = source()
    if src is None:
        tried = ", ".join(desc for desc, _ in _candidates())
        return "no MicroPython source: tried %s (set DICECUP_MPY_SRC to a tarball or source directory)" % tried
    if not src.exists():
        return "no MicroPython source: %s does not exist (DICECUP_MPY_SRC sets another path)" % src
    if src.is_dir() and _tree_of(src) is None:
        return "no MicroPython source: %s has no ports/unix/Makefile (DICECUP_MPY_SRC sets another path)" % src
    if not _m32_ok:
        reason = _probe_m32()
        if reason:
            return reason
        _m32_ok = True
    if not shutil.which("make"):
        return "no make: install make"
    return None


# --- what the build depends on ------------------------------------------------------

def _source_id(src):
    """Identifies the source cheaply: a tarball by name, size and mtime; a directory by
    its path and the stat of two files that change with its version."""
    src = Path(src)
    if src.is_file():
        st = src.stat()
        return "tar:%s:%d:%d" % (src.name, st.st_size, int(st.st_mtime))
    tree = _tree_of(src) or src
    parts = ["dir:%s" % tree.resolve()]
    for rel in ("py/mpconfig.h", "ports/unix/Makefile"):
        p = tree / rel
        if p.exists():
            st = p.stat()
            parts.append("%s:%d:%d" % (rel, st.st_size, int(st.st_mtime)))
    return ":".join(parts)


def frozen_inputs(firmware=None, emu=None):
    """The files the frozen build reads, as sorted (label, path): every .py under
    firmware/ (so the manifest too), the emulated-hardware modules and the drivers."""
    firmware = Path(firmware or FIRMWARE)
    emu = Path(emu or EMU)
    out = []
    for base, label in ((firmware, "firmware"), (emu, "emu")):
        for p in sorted(base.rglob("*.py")):
            rel = p.relative_to(base)
            if "__pycache__" not in rel.parts:
                out.append(("%s/%s" % (label, rel.as_posix()), p))
    for rel, p in _drivers():
        out.append(("drivers/%s" % rel.as_posix(), p))
    return out


def _drivers():
    """The Adafruit drivers' pinned sources (bundle.driver_sources), none when they are
    not installed (then the build says so: the manifest names them)."""
    from . import bundle
    try:
        return bundle.driver_sources()
    except bundle.BundleError:
        return []


def _copy_drivers():
    """The drivers' sources into build/fw32/drivers/, where manifest_sim.py freezes them."""
    out = DRIVERS
    shutil.rmtree(out, ignore_errors=True)
    for rel, p in _drivers():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, out / rel)


def inputs_hash(firmware=None, emu=None, src=None):
    """sha256 over everything a build depends on: the content of every frozen input
    (`frozen_inputs`), the source's identity and the make variables. The stamp of a
    build holds it; a different hash means rebuild."""
    h = hashlib.sha256()
    h.update(b"fw32 v1\0")
    h.update(repr(MAKE_VARS).encode() + b"\0")
    src = src if src is not None else source()
    h.update(_source_id(src).encode() + b"\0" if src is not None else b"nosrc\0")
    for label, path in frozen_inputs(firmware, emu):
        h.update(label.encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


# --- building -----------------------------------------------------------------------

def _tree(src):
    """The micropython tree to build in: a directory source is used in place; a
    tarball is extracted into build/fw32/src/ once (again only if it changes)."""
    src = Path(src)
    if src.is_dir():
        return _tree_of(src)
    marker = SRC_DIR / ".source"
    ident = _source_id(src)
    tree = _tree_of(SRC_DIR)
    if tree is not None and marker.exists() and marker.read_text() == ident:
        return tree
    shutil.rmtree(SRC_DIR, ignore_errors=True)
    SRC_DIR.mkdir(parents=True)
    r = subprocess.run(["tar", "xzf", str(src), "-C", str(SRC_DIR)], capture_output=True, text=True)
    tree = _tree_of(SRC_DIR)
    if r.returncode or tree is None:
        raise Fw32BuildFailed("cannot extract %s: %s" % (src, (r.stderr.strip() or "no ports/unix inside")))
    marker.write_text(ident)
    return tree


def _make(args, what):
    r = subprocess.run(["make"] + args, capture_output=True, text=True)
    if r.returncode:
        tail = "\n".join((r.stdout + r.stderr).strip().splitlines()[-30:])
        raise Fw32BuildFailed("%s failed (make exit %d):\n%s" % (what, r.returncode, tail))


def _up_to_date(digest):
    return BINARY.exists() and STAMP.exists() and STAMP.read_text().strip() == digest


def build(force=False):
    """Build (if needed) the 32-bit MicroPython with the firmware frozen in; returns the
    binary's Path (build/fw32/micropython-fw32). Raises Fw32Unavailable(reason) when
    `check()` fails, Fw32BuildFailed when make does."""
    reason = check()
    if reason:
        raise Fw32Unavailable(reason)
    src = source()
    digest = inputs_hash(src=src)
    if not force and _up_to_date(digest):
        return BINARY
    BUILD.mkdir(parents=True, exist_ok=True)
    import fcntl
    with open(BUILD / ".lock", "w") as lock:  # one build at a time (parallel test runs)
        fcntl.flock(lock, fcntl.LOCK_EX)
        digest = inputs_hash(src=src)          # the tree may have changed while we waited
        if not force and _up_to_date(digest):
            return BINARY
        t0 = time.monotonic()
        print("fw32: building the 32-bit MicroPython with the firmware frozen in ...",
              file=sys.stderr, flush=True)
        tree = _tree(src)
        _copy_drivers()
        if not (tree / "mpy-cross" / "build" / "mpy-cross").exists():
            _make(["-C", str(tree / "mpy-cross"), "-j2"], "mpy-cross")
        unix = tree / "ports" / "unix"
        _make(["-C", str(unix), "-j2"] + ["%s=%s" % kv for kv in MAKE_VARS]
              + ["FROZEN_MANIFEST=%s" % MANIFEST.resolve()], "the 32-bit unix port")
        built = unix / dict(MAKE_VARS)["BUILD"] / PROG
        tmp = BINARY.with_name(BINARY.name + ".tmp")
        shutil.copy2(built, tmp)
        os.replace(tmp, BINARY)                # atomic: a running copy keeps its inode
        STAMP.write_text(digest + "\n")
        print("fw32: built %s in %.0f s" % (BINARY, time.monotonic() - t0), file=sys.stderr, flush=True)
    return BINARY


# --- running ------------------------------------------------------------------------

def _empty_dir():
    d = BUILD / "cwd"
    d.mkdir(parents=True, exist_ok=True)
    return d


def run(args, heap=ESP32_HEAP, input=None, timeout=120, cwd=None):
    """Run `micropython-fw32 -X heapsize=heap ARGS` (building it first if needed);
    returns the CompletedProcess with stdout/stderr as bytes.

    Only frozen code is importable: MICROPYPATH is `.frozen`, and the working directory
    (the '' entry of sys.path, used by `-m`) defaults to an empty folder, so give paths
    in ARGS absolute. A script's own folder is sys.path[0]: keep it free of firmware
    copies."""
    binary = build()
    env = dict(os.environ, MICROPYPATH=".frozen")
    cmd = [str(binary), "-X", "heapsize=" + str(heap)] + [str(a) for a in args]
    return subprocess.run(cmd, input=input, capture_output=True, env=env, timeout=timeout,
                          cwd=str(cwd or _empty_dir()))


def run_code(code, heap=ESP32_HEAP, **kw):
    """Run a snippet inside the 32-bit MicroPython (written alone into a temp folder)."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "snippet.py"
        script.write_text(code)
        return run([script], heap=heap, **kw)


_GC = re.compile(rb"GC: total: (\d+), used: (\d+), free: (\d+)")
_BLOCKS = re.compile(rb"No\. of 1-blocks: (\d+), 2-blocks: (\d+), max blk sz: (\d+), max free sz: (\d+)")
_MEM = re.compile(rb"mem: total=(\d+), current=(\d+), peak=(\d+)")
_STACK = re.compile(rb"stack: (\d+) out of (\d+)")


def mem_info(stdout):
    """The last `micropython.mem_info()` report in `stdout` (bytes or str), in bytes:
    total, used, free (the GC heap), max_free (largest free block), max_block (largest
    allocated block), one_blocks / two_blocks (counts), and when printed mem_total,
    mem_current, mem_peak (allocator counters), stack_used, stack_limit.
    Raises ValueError if there is no report."""
    if isinstance(stdout, str):
        stdout = stdout.encode()
    gcs = list(_GC.finditer(stdout))
    if not gcs:
        raise ValueError("no micropython.mem_info() report in the output")
    last = gcs[-1]
    total, used, free = (int(x) for x in last.groups())
    info = {"total": total, "used": used, "free": free}
    blocks = _BLOCKS.search(stdout, last.end())
    if blocks:
        one, two, max_blk, max_free = (int(x) for x in blocks.groups())
        info.update(one_blocks=one, two_blocks=two, max_block=max_blk * BLOCK_BYTES,
                    max_free=max_free * BLOCK_BYTES)
    head = stdout[:last.start()]
    mems = list(_MEM.finditer(head))
    if mems:
        info.update(zip(("mem_total", "mem_current", "mem_peak"), (int(x) for x in mems[-1].groups())))
    stacks = list(_STACK.finditer(head))
    if stacks:
        info.update(zip(("stack_used", "stack_limit"), (int(x) for x in stacks[-1].groups())))
    return info


def mem_after(code, heap=ESP32_HEAP, **kw):
    """Run `code`, then `gc.collect(); micropython.mem_info()`, and return that report
    (`mem_info`) with "stdout" (the snippet's output, bytes) added.
    Raises RuntimeError with MicroPython's stderr when the snippet fails."""
    tail = "\nimport gc as _gc, micropython as _mp\n_gc.collect()\n_mp.mem_info()\n"
    res = run_code(code + tail, heap=heap, **kw)
    if res.returncode:
        raise RuntimeError("snippet failed in micropython-fw32:\n" + res.stderr.decode(errors="replace"))
    info = mem_info(res.stdout)
    info["stdout"] = res.stdout
    return info
