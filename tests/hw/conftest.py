"""Fixtures for the hardware layer: emulated chips on CPython and inside MicroPython.
Plain helpers and constants are in hwhelpers.py."""
import pytest

from dicecup_host import bundle, emu, mpy


@pytest.fixture(scope="session")
def hw_path():
    """MICROPYPATH entries for firmware tests on emulated hardware: the emulation (the
    fake machine ahead of the built-in one) and the Adafruit drivers as .mpy."""
    return [str(emu.build_mpy()), str(bundle.drivers_mpy_dir())]


@pytest.fixture
def upy_hw(upy, hw_path):
    """Run code in the heap-capped MicroPython with the emulated hardware importable;
    returns stdout as text, failing the test (with stderr) on a non-zero exit."""
    def run(code, heap=mpy.ESP32_HEAP, timeout=120):
        r = upy(code, heap=heap, extra_path=hw_path, timeout=timeout)
        out = r.stdout.decode()
        if r.returncode:
            pytest.fail("MicroPython failed (%d):\n%s\n%s" % (r.returncode, out, r.stderr.decode()))
        return out
    return run


@pytest.fixture
def fake_machine():
    """CPython: `import machine`/`esp32`/`network` give the fakes; a fresh world."""
    from dicecup_host.emu import world
    emu.install()
    w = world.reset()
    yield w
    emu.uninstall()

