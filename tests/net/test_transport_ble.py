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
