"""The frozen firmware for a real board: what firmware/manifest.py freezes (read by
MicroPython's own tools/manifestfile.py) and what `make firmware` / `dicecup firmware`
do with and without ESP-IDF and a MicroPython checkout."""
import ast
import importlib.util
import os
import stat
import subprocess
import sys
import tarfile

import pytest

from dicecup_host import cli, fw32, fwbuild, mpy

FIRMWARE = mpy.FIRMWARE
ROOT = mpy.ROOT


# --- what the manifests freeze ------------------------------------------------------

@pytest.fixture(scope="session")
def mpy_tree(tmp_path_factory):
    """A MicroPython tree with what reading a manifest needs (tools/manifestfile.py,
    extmod/asyncio): the source fw32 builds from, the tarball's members extracted."""
    src = fw32.source()
    if src is None or not src.exists():
        if os.environ.get("DICECUP_REQUIRE_FW32", "") not in ("", "0"):
            pytest.fail("no MicroPython source for manifestfile.py")
        pytest.skip("no MicroPython source: %s" % fw32.check())
    if src.is_dir():
        return fw32._tree_of(src)
    out = tmp_path_factory.mktemp("mpsrc")
    with tarfile.open(src) as tar:
        members = [m for m in tar.getmembers()
                   if "/tools/manifestfile.py" in m.name or "/extmod/asyncio/" in m.name]
        tar.extractall(out, members=members, filter="data")
    return next(out.glob("*/tools")).parent


def frozen(tree, manifest, tmp_path):
    """{target path in the image: source path} that `manifest` freezes, read by
    MicroPython's manifestfile.py in freeze mode. $(PORT_DIR) is a stand-in port
    whose boards/manifest.py freezes asyncio, as ports/esp32's does."""
    spec = importlib.util.spec_from_file_location("manifestfile", tree / "tools" / "manifestfile.py")
    mf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mf)
    port = tmp_path / "port"
    (port / "boards").mkdir(parents=True)
    (port / "boards" / "manifest.py").write_text('include("$(MPY_DIR)/extmod/asyncio")\n')
    m = mf.ManifestFile(mf.MODE_FREEZE, {"MPY_DIR": str(tree), "PORT_DIR": str(port), "BOARD_DIR": str(port)})
    cwd = os.getcwd()
    try:
        m.execute(str(manifest))
    finally:
        os.chdir(cwd)
    out = {}
    for f in m.files():
        assert f.target_path not in out, "%s frozen twice" % f.target_path
        out[f.target_path] = f.full_path
    return out


def cup_lists():
    """SIM_ONLY, OTHER_RUNTIME, ON_DEMAND as firmware/manifest_cup.py names them."""
    tree = ast.parse((FIRMWARE / "manifest_cup.py").read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = set(ast.literal_eval(node.value))
            except ValueError:
                pass
    return out


def _module_file(name):
    p = FIRMWARE / (name.replace(".", "/") + ".py")
    if p.is_file():
        return p
    p = FIRMWARE / name.replace(".", "/") / "__init__.py"
    return p if p.is_file() else None


def app_imports(entry="main"):
    """The firmware modules reachable from `entry`, as paths relative to firmware/:
    every import statement (at the top or inside a function, whatever branch) and
    every string that names a firmware module (players/__init__.py imports its levels
    by name)."""
    seen = {}
    todo = [entry]
    while todo:
        name = todo.pop()
        path = _module_file(name)
        if name in seen or path is None:
            continue
        seen[name] = path
        pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[:len(pkg.split(".")) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module
                found.add(mod)
                found.update(mod + "." + a.name for a in node.names)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("dicecup."):
                found.add(node.value)
        for mod in found:
            parts = mod.split(".")
            todo.extend(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return {p.relative_to(FIRMWARE).as_posix() for p in seen.values()}


@pytest.fixture(scope="module")
def device(mpy_tree, tmp_path_factory):
    fwbuild.copy_drivers()   # manifest.py freezes them from build/firmware/drivers
    return frozen(mpy_tree, FIRMWARE / "manifest.py", tmp_path_factory.mktemp("dev"))


@pytest.fixture(scope="module")
def sim(mpy_tree, tmp_path_factory):
    import fcntl
    fw32.BUILD.mkdir(parents=True, exist_ok=True)
    with open(fw32.BUILD / ".lock", "w") as lock:   # not under a fw32 build reading them
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not fw32.DRIVERS.is_dir():
            fw32._copy_drivers()
    return frozen(mpy_tree, FIRMWARE / "manifest_sim.py", tmp_path_factory.mktemp("sim"))


def _cup(files):
    return {t[len("dicecup/"):] for t in files if t.startswith("dicecup/")}


def test_the_device_freezes_the_cup_the_drivers_and_asyncio_but_no_sim_module(device):
    lists = cup_lists()
    assert {"net/sim.py", "scenario.py"} <= lists["SIM_ONLY"]
    assert {"hw/cp.py", "hw/cpbuttons.py", "hw/cppower.py"} <= lists["OTHER_RUNTIME"]
    for t in ("dicecup/app.py", "dicecup/engine/perudo.py", "dicecup/net/espnow.py", "dicecup/ui/ui.py",
              "digitalio.py", "adafruit_ssd1306.py", "adafruit_lis3dh.py",
              "adafruit_bus_device/i2c_device.py", "asyncio/core.py"):
        assert t in device, t
    assert not _cup(device) & (lists["SIM_ONLY"] | lists["OTHER_RUNTIME"])
    assert "main.py" not in device and not any(t.startswith("manifest") for t in device)
    assert not any("dicecup_host" in t for t in device)


def test_every_module_the_app_imports_is_frozen_and_nothing_unexplained(device):
    """main.py -> appboot -> app ... all frozen; what the device freezes beyond that is
    what manifest_cup.py says a cup runs on demand (or CircuitPython's, left out)."""
    lists = cup_lists()
    reached = app_imports("main") - {"main.py"}
    assert "dicecup/players/strong.py" in reached and "dicecup/engine/dixmille.py" in reached
    frozen_here = {"dicecup/" + f for f in _cup(device)} | ({"digitalio.py"} & set(device))
    missing = reached - frozen_here - {"dicecup/" + f for f in lists["OTHER_RUNTIME"]}
    assert not missing, "the app imports these but manifest.py does not freeze them: %s" % sorted(missing)
    extra = {f for f in _cup(device) if "dicecup/" + f not in reached}
    assert extra == lists["ON_DEMAND"], "frozen but never imported by the app: %s" % sorted(extra)


def test_the_sim_freezes_the_same_cup_list_plus_the_sim_modules(device, sim):
    lists = cup_lists()
    assert _cup(sim) == _cup(device) | lists["SIM_ONLY"]
    assert "digitalio.py" in sim and "dicecup_host/emu/machine.py" in sim


# --- make firmware / dicecup firmware -----------------------------------------------

def _no_toolchain(monkeypatch, tmp_path):
    monkeypatch.delenv("MICROPYTHON_DIR", raising=False)
    monkeypatch.delenv("IDF_PATH", raising=False)
    bin_dir = tmp_path / "bin"        # python and make only: no idf.py
    bin_dir.mkdir()
    for tool in ("make", "sh", "env"):
        found = subprocess.run(["which", tool], capture_output=True, text=True).stdout.strip()
        if found:
            (bin_dir / tool).symlink_to(found)
    monkeypatch.setenv("PATH", str(bin_dir))


def _run(argv, capsys):
    try:
        rc = cli.main(argv)
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("board", ["esp32-devkitc", "esp32-s3-devkitc-1", "xiao-esp32c3"])
def test_without_esp_idf_or_micropython_it_says_what_is_missing_in_one_line(board, monkeypatch, tmp_path, capsys):
    _no_toolchain(monkeypatch, tmp_path)
    rc, out, err = _run(["firmware", "--board", board], capsys)
    assert rc == 2 and out == ""
    assert len(err.splitlines()) == 1
    assert "MICROPYTHON_DIR" in err and "ESP-IDF" in err and "idf.py" in err


def test_a_checkout_without_ports_esp32_is_named(monkeypatch, tmp_path, capsys):
    _no_toolchain(monkeypatch, tmp_path)
    trimmed = tmp_path / "micropython"
    (trimmed / "ports" / "unix").mkdir(parents=True)
    (trimmed / "py").mkdir()
    monkeypatch.setenv("MICROPYTHON_DIR", str(trimmed))
    monkeypatch.setenv("IDF_PATH", str(tmp_path / "esp-idf"))
    rc, out, err = _run(["firmware"], capsys)
    assert rc == 2 and len(err.splitlines()) == 1
    assert "%s is not a full MicroPython checkout (no ports/esp32/Makefile)" % trimmed in err
    assert "export.sh" in err


@pytest.mark.parametrize("board", ["nosuch", "{t}/broken.json"])
def test_a_bad_board_is_one_line_and_exit_2(board, tmp_path, capsys):
    (tmp_path / "broken.json").write_text("{not json")
    rc, out, err = _run(["firmware", "--board", board.replace("{t}", str(tmp_path))], capsys)
    assert rc == 2 and len(err.splitlines()) == 1 and "board" in err


def test_make_firmware_here_fails_with_that_line(monkeypatch, tmp_path):
    """This machine has no ESP-IDF and only the trimmed source: the target's test."""
    env = {k: v for k, v in os.environ.items() if k not in ("MICROPYTHON_DIR", "IDF_PATH")}
    monkeypatch.delenv("MICROPYTHON_DIR", raising=False)
    if fwbuild.missing() is None:
        pytest.skip("this machine has ESP-IDF and a MicroPython checkout: make firmware would build")
    r = subprocess.run(["make", "-s", "-C", str(ROOT), "firmware", "BOARD=xiao-esp32c3"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode != 0 and r.stdout == ""
    first = r.stderr.splitlines()[0]
    assert first.startswith("dicecup firmware: cannot build the firmware: ") and "MICROPYTHON_DIR" in first


FAKE_MAKE = """#!%s
import os, sys
from pathlib import Path
with open(os.environ["FAKE_MAKE_LOG"], "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
args = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)
if "FROZEN_MANIFEST" in args:
    assert Path(args["FROZEN_MANIFEST"]).is_file()
    port = Path(sys.argv[sys.argv.index("-C") + 1])
    board = args["BOARD"] + ("-" + args["BOARD_VARIANT"] if "BOARD_VARIANT" in args else "")
    out = port / ("build-" + board) / "firmware.bin"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(b"image of " + board.encode())
"""


@pytest.mark.parametrize("board,port_board", [
    ("esp32-devkitc", "BOARD=ESP32_GENERIC"),
    ("esp32-s3-devkitc-1", "BOARD=ESP32_GENERIC_S3 BOARD_VARIANT=SPIRAM_OCT"),
    ("xiao-esp32c3", "BOARD=ESP32_GENERIC_C3"),
])
def test_with_esp_idf_and_a_checkout_it_runs_the_port_build_with_the_cup_manifest(
        board, port_board, monkeypatch, tmp_path, capsys):
    checkout = tmp_path / "micropython"
    (checkout / "ports" / "esp32").mkdir(parents=True)
    (checkout / "ports" / "esp32" / "Makefile").write_text("# stand-in\n")
    (checkout / "py").mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("make", FAKE_MAKE % sys.executable), ("idf.py", "#!/bin/sh\n")):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(stat.S_IRWXU)
    log = tmp_path / "make.log"
    monkeypatch.setenv("PATH", "%s%s%s" % (bin_dir, os.pathsep, os.environ["PATH"]))
    monkeypatch.setenv("MICROPYTHON_DIR", str(checkout))
    monkeypatch.setenv("FAKE_MAKE_LOG", str(log))
    monkeypatch.setattr(fwbuild, "OUT", tmp_path / "out")
    rc, out, err = _run(["firmware", "--board", board], capsys)
    assert rc == 0, err
    port = checkout / "ports" / "esp32"
    assert log.read_text().splitlines() == [
        "-C %s" % (checkout / "mpy-cross"),
        "-C %s %s submodules" % (port, port_board),
        "-C %s %s FROZEN_MANIFEST=%s" % (port, port_board, FIRMWARE / "manifest.py"),
    ]
    image = tmp_path / "out" / board / "firmware.bin"
    assert image.read_bytes().startswith(b"image of ESP32_GENERIC")
    assert "firmware: %s" % image in out
    assert "make flash BOARD=%s FIRMWARE=%s" % (board, image) in out


def test_the_32_bit_build_holds_exactly_what_the_sim_manifest_lists(sim, fw32):
    """The binary the fw32 tests run the app in is built from that list: its frozen
    modules (help('modules')) are the manifest's, so no CircuitPython module is in it
    and the cup list it proves complete is the device's."""
    res = fw32.run_code("help('modules')")
    assert res.returncode == 0, res.stderr
    names = set(res.stdout.decode().split())
    listed = {t[:-len(".py")] for t in sim}
    assert listed <= names
    ours = ("dicecup", "adafruit", "digitalio")
    assert {n for n in names if n.startswith(ours)} == {n for n in listed if n.startswith(ours)}
    assert "dicecup/hw/cp" not in names and "dicecup/net/sim" in names


BOOT_PROBE = """import sys
sys.path[:] = ["", ".frozen", "/lib"]          # a cup's, '' being the filesystem's root
class Boot:
    def boot(self):
        import dicecup, dicecup.engine
        print(getattr(dicecup, "WHERE", "frozen" if hasattr(dicecup, "__file__") else "a bare folder"))
sys.modules["dicecup.appboot"] = Boot()
exec(open(%r).read())
"""


@pytest.mark.parametrize("on_flash", ["settings", "copied package"])
def test_main_py_runs_the_frozen_package_whatever_the_filesystem_holds(on_flash, fw32, tmp_path):
    """On a frozen cup the filesystem's /dicecup -- the settings folder net/store.py
    writes, or .mpy files `make flash` copied -- comes first on MicroPython's sys.path
    and would hide the frozen package; main.py puts '.frozen' first."""
    (tmp_path / "dicecup").mkdir()
    (tmp_path / "dicecup" / "name").write_text("vera")
    if on_flash == "copied package":
        (tmp_path / "dicecup" / "__init__.py").write_text('WHERE = "the filesystem"\n')
        (tmp_path / "dicecup" / "engine.py").write_text("")
    res = fw32.run_code(BOOT_PROBE % str(FIRMWARE / "main.py"), cwd=tmp_path)
    assert res.returncode == 0, res.stderr.decode()
    assert res.stdout.decode().split() == ["frozen"]
