# Frozen manifest of the 32-bit unix MicroPython that stands in for an ESP32 without
# PSRAM (host/dicecup_host/fw32.py builds it: `make fw32`). Not a cup's manifest (that
# is manifest.py, for ports/esp32); this one freezes what a simulated cup runs:
#   * asyncio, as every MicroPython port has it frozen;
#   * the cup's modules, the list manifest.py freezes too (manifest_cup.py), with what
#     only a simulated cup runs (sim=True: the sim transport net/sim.py, scenario
#     replay, the seeded PRNG). The tests run here are what proves that list complete.
#     Not main.py (the entry point, run as a file) nor the manifests;
#   * the Adafruit drivers (ssd1306, lis3dh, bus_device), frozen as a cup without PSRAM
#     must have them (as .mpy in its heap they take 13 KB of its 110): fw32.py copies the
#     pinned sources (drivers.txt) into build/fw32/drivers/ before it builds;
#   * the emulated chips and fakes of host/dicecup_host/emu/ (world, bus, lis3dh,
#     ssd1306, machine, esp32, network, rig, vtime), the in-cup runner of
#     `dicecup sim --headless --micropython` (cupproc: the pipe radio, the lock-step
#     clock, the player) and, once it exists, the button driver (thumb), frozen as
#     `dicecup_host.emu.<name>`, a
#     namespace package: emu/__init__.py is CPython-only (subprocess, pathlib), so it is
#     left out and nothing else of dicecup_host is frozen. Inside the binary
#     `from dicecup_host.emu import machine` gives the fake; a run that wants it as
#     `machine` sets sys.modules["machine"] (the unix port's own has no I2C or Pin).
#
# A manifest is Python run by micropython/tools/manifestfile.py with its own folder as
# the working directory (it defines no __file__): relative base paths are resolved
# from firmware/, `$(MPY_DIR)` is the MicroPython source tree.
include("$(MPY_DIR)/extmod/asyncio")

include("manifest_cup.py", sim=True)

import os

EMU = ("world", "bus", "lis3dh", "ssd1306", "machine", "esp32", "network", "rig", "vtime", "cupproc")
EMU += tuple(n for n in ("thumb",) if os.path.exists("../host/dicecup_host/emu/%s.py" % n))
package("dicecup_host/emu", files=[name + ".py" for name in EMU], base_path="../host")

DRIVERS = "../build/fw32/drivers"
package("adafruit_bus_device", base_path=DRIVERS)
module("adafruit_ssd1306.py", base_path=DRIVERS)
module("adafruit_lis3dh.py", base_path=DRIVERS)
