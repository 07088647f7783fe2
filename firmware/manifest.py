# The frozen build of a real cup (ports/esp32): the firmware in flash, so the heap keeps
# only objects. An ESP32 or ESP32-C3 without PSRAM needs it: loaded as .mpy the app
# takes ~290 KB after boot on a 32-bit port, frozen ~59 KB of its ~110 KB heap (README,
# "Firmware for every board"). Build it with `make firmware BOARD=<board file>`
# (host/dicecup_host/fwbuild.py: it needs ESP-IDF and a MicroPython checkout, and
# copies the drivers below first), which runs
#   make -C $MICROPYTHON_DIR/ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=<this file>
# then `make flash FIRMWARE=.../firmware.bin` (a copied .mpy of a frozen module is
# never loaded: main.py puts '.frozen' before '', the filesystem's root).
#
# It freezes:
#   * the port's own modules ($(PORT_DIR)/boards/manifest.py: asyncio, aioespnow, ...);
#   * the cup's modules, the list manifest_sim.py freezes too (manifest_cup.py: no
#     simulator, scenario replay or CircuitPython modules);
#   * the Adafruit drivers (ssd1306, lis3dh, bus_device): the pinned sources
#     (drivers.txt) that fwbuild.py copies into build/firmware/drivers/.
# Relative paths are taken from this folder (manifestfile.py runs a manifest there).
include("$(PORT_DIR)/boards/manifest.py")
include("manifest_cup.py")

import os

DRIVERS = "../build/firmware/drivers"
if not os.path.isdir(DRIVERS):
    raise Exception("no drivers in %s: build with `make firmware BOARD=...`, which copies them there"
                    % os.path.abspath(DRIVERS))
package("adafruit_bus_device", base_path=DRIVERS)
module("adafruit_ssd1306.py", base_path=DRIVERS)
module("adafruit_lis3dh.py", base_path=DRIVERS)
