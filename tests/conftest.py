"""Shared fixtures: the firmware compiled by mpy-cross and run in real MicroPython."""
import pytest

from dicecup_host import mpy


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
