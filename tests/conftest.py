"""Shared fixtures: the firmware compiled by mpy-cross and run in real MicroPython."""
import os

import pytest

from dicecup_host import mpy


def pytest_xdist_auto_num_workers(config):
    """`-n auto`: two workers per core. Half the suite's wall time is spent waiting on
    real things -- a virtual board's serial port, mpremote, a cup playing in real time,
    tmux -- so a second worker per core fills those waits (measured: see README, Tests)."""
    return 2 * (os.cpu_count() or 1)


@pytest.fixture(scope="session")
def mpy_dir():
    """The firmware compiled to .mpy (the form a cup runs), built once per session."""
    return mpy.build()


@pytest.fixture
def upy(mpy_dir):
    """Run Python source inside MicroPython with the ESP32's 110 KB heap cap;
    returns the CompletedProcess (stdout/stderr bytes)."""
    def run(code, heap=mpy.ESP32_HEAP, extra_path=(), timeout=120):
        return mpy.run_code(code, heap=heap, path=mpy_dir, extra_path=extra_path, timeout=timeout)
    return run


@pytest.fixture(scope="session")
def fw32():
    """The 32-bit MicroPython with the firmware frozen in (host/dicecup_host/fw32.py),
    built once per session: `.run(args, heap=, input=, timeout=)`, `.run_code(code, ...)`,
    `.mem_info(stdout)`, `.mem_after(code, ...)`, `.binary`. Skips when it cannot be
    built here (no source, no `gcc -m32`, no make), saying why; fails instead when
    DICECUP_REQUIRE_FW32 is set (CI)."""
    import os
    import types

    from dicecup_host import fw32 as fw
    try:
        binary = fw.build()
    except fw.Fw32Unavailable as e:
        if os.environ.get("DICECUP_REQUIRE_FW32", "") not in ("", "0"):
            pytest.fail("fw32 required (DICECUP_REQUIRE_FW32) but unavailable: %s" % e)
        pytest.skip("32-bit MicroPython unavailable: %s" % e)
    return types.SimpleNamespace(binary=binary, run=fw.run, run_code=fw.run_code,
                                 mem_info=fw.mem_info, mem_after=fw.mem_after)
