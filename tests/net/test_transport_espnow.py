"""The ESP-NOW transport against fakes of MicroPython's and CircuitPython's espnow
(tests/fakes/): the same checks (tests/fakes/checks_*.py) on CPython and inside
the unix MicroPython with the ESP32's heap. Not verified on hardware."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fakes"))
import harness  # noqa: E402  (tests/fakes/harness.py: CPython-only helpers)

sys.path.pop(0)

MP_CHECKS = harness.check_names("checks_espnow")
CP_CHECKS = harness.check_names("checks_circuitpython", circuitpython=True)


def test_there_are_checks():
    assert len(MP_CHECKS) > 15 and len(CP_CHECKS) > 8


@pytest.mark.parametrize("name", MP_CHECKS)
def test_micropython_api_on_cpython(name):
    harness.run_check("checks_espnow", name)


@pytest.mark.parametrize("name", CP_CHECKS)
def test_circuitpython_api_on_cpython(name):
    harness.run_check("checks_circuitpython", name, circuitpython=True)


def test_micropython_api_inside_micropython(upy):
    # Many simulated cups and the fakes (compiled from source) share one process:
    # more heap than one cup has. A single cup's footprint is measured below.
    proc = upy(harness.mpy_script("checks_espnow"), heap="1M", extra_path=harness.MPY_PATH)
    results, out = harness.mpy_results(proc)
    assert sorted(results) == MP_CHECKS, out
    assert all(results.values()), out


def test_circuitpython_api_inside_micropython(upy):
    proc = upy(harness.mpy_script("checks_circuitpython"), heap="1M", extra_path=harness.MPY_PATH_CIRCUITPYTHON)
    results, out = harness.mpy_results(proc)
    assert sorted(results) == CP_CHECKS, out
    assert all(results.values()), out


def test_fakes_do_not_leak_into_other_tests():
    for name in ("espnow", "network", "bluetooth", "fakeair", "wifi"):
        assert name not in sys.modules
    assert not any("fakes" in p for p in sys.path)
