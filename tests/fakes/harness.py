"""Host-side (CPython) helpers to run code against the fake radio modules.

On CPython the fakes must not leak into other tests (code that probes
`import espnow` to tell a cup from the host would be fooled), so `fake_modules()`
puts this folder on sys.path only for the duration of a `with` block and removes
every module it imported. Inside MicroPython the folder is simply added to the
path (`MPY_PATH`, `MPY_PATH_CIRCUITPYTHON`), with `.frozen` so asyncio imports.
"""
import contextlib
import importlib
import sys
from pathlib import Path

FAKES = Path(__file__).resolve().parent
CIRCUITPYTHON = FAKES / "circuitpython"

# extra_path for the `upy` fixture: fakes first, then the frozen modules (asyncio),
# which MICROPYPATH would otherwise hide.
MPY_PATH = (FAKES, ".frozen")
MPY_PATH_CIRCUITPYTHON = (CIRCUITPYTHON, FAKES, ".frozen")

_FAKE_NAMES = ("fakeair", "network", "espnow", "aioespnow", "bluetooth", "wifi")
_USERS = ("dicecup.net.espnow", "dicecup.net.ble")
_CHECKS = ("checks_espnow", "checks_circuitpython", "checks_ble")


@contextlib.contextmanager
def fake_modules(circuitpython=False):
    """Within the block, `import espnow` etc. give the fakes (CircuitPython's
    espnow/wifi when asked) and dicecup's transports are imported afresh against
    them. Yields the fakeair module."""
    names = _FAKE_NAMES + _USERS + _CHECKS
    saved = {n: sys.modules.pop(n) for n in names if n in sys.modules}
    paths = [str(FAKES)] + ([str(CIRCUITPYTHON)] if circuitpython else [])
    for p in paths:
        sys.path.insert(0, p)
    try:
        yield importlib.import_module("fakeair")
    finally:
        for p in paths:
            sys.path.remove(p)
        for n in names:
            sys.modules.pop(n, None)
        net = sys.modules.get("dicecup.net")
        for n in _USERS:
            if net is not None and hasattr(net, n.rsplit(".", 1)[1]):
                delattr(net, n.rsplit(".", 1)[1])
        sys.modules.update(saved)


def check_names(module_name, circuitpython=False):
    """The names of the check_* functions of a checks module (for parametrize)."""
    with fake_modules(circuitpython):
        mod = importlib.import_module(module_name)
        return sorted(n for n in dir(mod) if n.startswith("check_"))


def run_check(module_name, name, circuitpython=False):
    """Run one check function of a checks module on CPython, with the fakes."""
    with fake_modules(circuitpython):
        mod = importlib.import_module(module_name)
        getattr(mod, name)()


def mpy_script(module_name):
    """MicroPython source that runs every check_* of a checks module and prints
    'PASS name' per check, or the traceback and 'FAIL name'."""
    return (
        "import sys\n"
        "import %s as m\n"
        "names = sorted(n for n in dir(m) if n.startswith('check_'))\n"
        "for n in names:\n"
        "    try:\n"
        "        getattr(m, n)()\n"
        "        print('PASS', n)\n"
        "    except Exception as e:\n"
        "        sys.print_exception(e)\n"
        "        print('FAIL', n)\n" % module_name
    )


def mpy_results(proc):
    """{check name: passed?} from the output of mpy_script, plus the raw text."""
    out = proc.stdout.decode(errors="replace")
    res = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("PASS", "FAIL"):
            res[parts[1]] = parts[0] == "PASS"
    return res, out + proc.stderr.decode(errors="replace")
