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


HEAP_SCRIPT = """
import gc
import fakeair, network, espnow, aioespnow, asyncio
import dicecup.net.transport
fakeair.use(b"\\x02\\x00\\x00\\x00\\x00\\x01")
gc.collect(); m0 = gc.mem_alloc()
import dicecup.net.espnow as en
gc.collect(); m1 = gc.mem_alloc()
t = en.ESPNowTransport()
for i in range(20):
    t.send(en.BROADCAST, bytes(200))
    t.recv()
fakeair.AIR.frames = []  # the fake's own log of the air
gc.collect(); m2 = gc.mem_alloc()
print("HEAP", m1 - m0, m2 - m1)
"""


def test_heap_of_one_cups_transport(upy):
    """What the ESP-NOW transport costs a cup: the module loaded from .mpy (frozen
    into the firmware it would cost almost nothing) and one transport in use.
    Measured as allocation deltas; the fakes need a larger heap to load."""
    proc = upy(HEAP_SCRIPT, heap="1M", extra_path=harness.MPY_PATH)
    out = proc.stdout.decode()
    assert "HEAP" in out, out + proc.stderr.decode()
    module, obj = map(int, out.split("HEAP")[1].split())
    print("espnow transport heap: module %d B, transport %d B" % (module, obj))
    assert module < 12000 and obj < 3000
