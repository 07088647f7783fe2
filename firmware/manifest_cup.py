# The one list of the modules a cup runs, frozen by both manifests: manifest.py (a real
# cup, ports/esp32) and manifest_sim.py (the 32-bit unix stand-in, whose tests prove the
# list complete). A manifest fragment, run by micropython/tools/manifestfile.py from
# this folder: `include("manifest_cup.py")`; `include("manifest_cup.py", sim=True)` adds
# what only a simulated cup runs.
#
# The list is the whole `dicecup` package and the top-level `digitalio` (the Adafruit
# LIS3DH driver imports it) less the names below, so a new module is frozen unless it
# is named here. tests/flash/test_firmware_build.py checks that every module main.py's
# app imports is in it, that none below is, and that what it freezes beyond the app's
# imports is ON_DEMAND.
options.defaults(sim=False)

import os

# Only a simulation runs these: the simulated radio medium (a cup's radio is ESP-NOW or
# BLE), its flash (a cup's is net/store.py's FileStore), scenario replay (host-driven
# rule scripts) and the seeded PRNG the host's scripted players use (net/sim.py
# re-exports it).
SIM_ONLY = ("net/sim.py", "net/memstore.py", "rng.py", "scenario.py")
# CircuitPython's side of the hardware layer: imported only where
# dicecup.hw.circuitpython() is true, never on MicroPython.
OTHER_RUNTIME = ("hw/cp.py", "hw/cpbuttons.py", "hw/cppower.py")
# Cup modules the app never imports, frozen all the same: the accelerometer recorder
# `dicecup shake-record` starts over the REPL, and the bare radio loop (link.run).
ON_DEMAND = ("hw/record.py", "net/link.py")


def _package_files(pkg):
    out = []
    for top, dirs, names in os.walk(pkg):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            if name.endswith(".py"):
                out.append(os.path.relpath(os.path.join(top, name), pkg).replace(os.sep, "/"))
    return sorted(out)


CUP = [f for f in _package_files("dicecup") if f not in SIM_ONLY + OTHER_RUNTIME]
package("dicecup", files=CUP + list(SIM_ONLY) if options.sim else CUP, base_path=".")
module("digitalio.py", base_path=".")
