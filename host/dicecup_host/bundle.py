"""The flash bundle: everything a cup's filesystem needs, as a folder to copy over.

    build_bundle(out_dir, board_name) ->
        out_dir/board.json                 hardware/boards/<board_name>.json (without
                                           its "mechanical" section: the enclosure's
                                           data, which the cup never reads)
        out_dir/main.py                    firmware/main.py (MicroPython runs main.py
                                           as source; everything else is .mpy)
        out_dir/digitalio.mpy              firmware/*.py other than main/boot
        out_dir/dicecup/**.mpy             the firmware package
        out_dir/lib/adafruit_ssd1306.mpy   the pinned Adafruit drivers (drivers.txt),
        out_dir/lib/adafruit_lis3dh.mpy    taken from the installed packages and
        out_dir/lib/adafruit_bus_device/   compiled with mpy-cross
    `lib/` is on MicroPython's default sys.path on the ESP32. `adafruit_framebuf` is
left out: on MicroPython the SSD1306 driver uses the built-in `framebuf`.

Nothing is fetched: the drivers come from this environment (`make install` put the
pinned versions there) and their versions are checked against drivers.txt.
"""
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path

from dicecup_host import mpy

BOARDS = mpy.ROOT / "hardware" / "boards"
DRIVERS_TXT = mpy.ROOT / "drivers.txt"
# module -> distribution whose pinned version must be installed
DRIVER_MODULES = (
    ("adafruit_ssd1306", "adafruit-circuitpython-ssd1306"),
    ("adafruit_lis3dh", "adafruit-circuitpython-lis3dh"),
    ("adafruit_bus_device", "adafruit-circuitpython-busdevice"),
)
SOURCE_FILES = ("main.py", "boot.py")
DEFAULT_BOARD = "esp32-devkitc"


class BundleError(RuntimeError):
    pass


def boards():
    """Names of the board files in hardware/boards/."""
    return sorted(p.stem for p in BOARDS.glob("*.json"))


def pins():
    """{distribution: version} pinned in drivers.txt."""
    out = {}
    for line in DRIVERS_TXT.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, ver = line.split("==", 1)
            out[name.strip().lower()] = ver.strip()
    return out


def driver_sources():
    """[(path relative to lib/, source file)] for the driver modules, version-checked."""
    pinned = pins()
    out = []
    for module, dist in DRIVER_MODULES:
        want = pinned.get(dist)
        try:
            have = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            raise BundleError("%s is not installed: run `make install`" % dist)
        if want and have != want:
            raise BundleError("%s %s is installed but drivers.txt pins %s: run `make install`"
                              % (dist, have, want))
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            raise BundleError("%s not importable" % module)
        origin = Path(spec.origin)
        if spec.submodule_search_locations:  # a package
            for f in sorted(origin.parent.glob("*.py")):
                out.append((Path(module) / f.name, f))
        else:
            out.append((Path(origin.name), origin))
    return out


def _cross(src, dst, name, arch=None):
    try:
        mpy.cross(src, dst, name, arch)
    except subprocess.CalledProcessError as e:
        raise BundleError("mpy-cross failed on %s: %s" % (src, (e.stderr or "").strip()))


def compile_drivers(out, arch=None):
    """The drivers as .mpy under `out` (no lib/ prefix); returns out. Skips up-to-date."""
    out = Path(out)
    for rel, src in driver_sources():
        dst = out / rel.with_suffix(".mpy")
        if dst.exists() and dst.stat().st_mtime >= src.stat().st_mtime and not arch:
            continue
        _cross(src, dst, str(rel), arch)
    return out


def drivers_mpy_dir():
    """build/mpy-drivers: the drivers compiled for the host's MicroPython tests."""
    return compile_drivers(mpy.ROOT / "build" / "mpy-drivers")


def board_file(board=None):
    """The board file a person named: a name from hardware/boards (None: DEFAULT_BOARD)
    or a path to their own .json; checked (dicecup.hw.board). BundleError, one line,
    when there is no such board or the file is not a valid board file."""
    import json
    from dicecup.hw import board as fw_board
    from dicecup.hw.errors import BoardError
    board = board or DEFAULT_BOARD
    path = Path(board)
    if path.suffix != ".json" and os.sep not in board and not path.is_file():
        path = BOARDS / (board + ".json")
        if not path.exists():
            raise BundleError("no board %s (known: %s; or give a board file's path)" % (board, ", ".join(boards())))
    try:
        data = json.loads(path.read_text())
    except OSError as e:
        raise BundleError("cannot read board file %s: %s" % (board, e.strerror or e))
    except ValueError as e:
        raise BundleError("board file %s is not valid JSON: %s" % (board, e))
    try:
        fw_board.from_dict(data, str(path), None)
    except BoardError as e:
        raise BundleError("board file %s: %s" % (board, e))
    return path.resolve()


def write_cup_board(src, dst):
    """The board file as the cup gets it: the same, less the enclosure's `mechanical`
    and the wiring's `power` sections (parsing them would cost the cup heap at boot for
    nothing)."""
    raw = Path(src).read_bytes()
    data = json.loads(raw)
    if isinstance(data, dict) and ("mechanical" in data or "power" in data):
        data.pop("mechanical", None)
        data.pop("power", None)      # the wiring's parts: the host's too
        raw = (json.dumps(data, separators=(",", ":")) + "\n").encode()
    Path(dst).write_bytes(raw)


def build_bundle(out_dir, board_name=None, arch=None):
    """Write the bundle for `board_name` (a name or a board file's path; None:
    DEFAULT_BOARD) into `out_dir` (emptied first). Returns the folder (a Path);
    `files(folder)` lists what is in it."""
    src_board = board_file(board_name)
    out = Path(out_dir)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    write_cup_board(src_board, out / "board.json")
    cached = None if arch else mpy.build()  # the same mpy-cross output, kept up to date
    for rel in mpy.sources():
        src = mpy.FIRMWARE / rel
        if len(rel.parts) == 1 and rel.name in SOURCE_FILES:
            shutil.copyfile(src, out / rel.name)
            continue
        dst = out / rel.with_suffix(".mpy")
        if cached is not None:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cached / rel.with_suffix(".mpy"), dst)
        else:
            _cross(src, dst, str(rel), arch)
    compile_drivers(out / "lib", arch)
    return out


def files(folder):
    """{path relative to folder: size in bytes} of a built bundle."""
    folder = Path(folder)
    return {str(p.relative_to(folder)): p.stat().st_size for p in sorted(folder.rglob("*")) if p.is_file()}
