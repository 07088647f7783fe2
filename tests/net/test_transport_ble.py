"""The BLE transport (master as central, a star of GATT links) against the fake
`bluetooth` (tests/fakes/bluetooth.py): the same checks (tests/fakes/checks_ble.py)
on CPython and inside the unix MicroPython. Not verified on hardware."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fakes"))
import harness  # noqa: E402  (tests/fakes/harness.py: CPython-only helpers)

sys.path.pop(0)

CHECKS = harness.check_names("checks_ble")


def test_there_are_checks():
    assert len(CHECKS) > 15


@pytest.mark.parametrize("name", CHECKS)
def test_ble_on_cpython(name):
    harness.run_check("checks_ble", name)


def test_ble_inside_micropython(upy):
    # Several simulated cups and the fakes (compiled from source) in one process.
    proc = upy(harness.mpy_script("checks_ble"), heap="1M", extra_path=harness.MPY_PATH)
    results, out = harness.mpy_results(proc)
    assert sorted(results) == CHECKS, out
    assert all(results.values()), out


HEAP_SCRIPT = """
import gc
import fakeair, bluetooth, asyncio
import dicecup.net.transport
fakeair.use(b"\\x02\\x00\\x00\\x00\\x00\\x01")
gc.collect(); m0 = gc.mem_alloc()
import dicecup.net.ble as bl
gc.collect(); m1 = gc.mem_alloc()
t = bl.BLETransport()
gc.collect(); m2 = gc.mem_alloc()
print("HEAP", m1 - m0, m2 - m1)
"""


def test_heap_of_one_cups_transport(upy):
    """What the BLE transport costs a cup (module from .mpy, one transport with its
    reassembly buffer); allocation deltas, the fakes need a larger heap to load."""
    proc = upy(HEAP_SCRIPT, heap="1M", extra_path=harness.MPY_PATH)
    out = proc.stdout.decode()
    assert "HEAP" in out, out + proc.stderr.decode()
    module, obj = map(int, out.split("HEAP")[1].split())
    print("ble transport heap: module %d B, transport %d B" % (module, obj))
    assert module < 10000 and obj < 4000
