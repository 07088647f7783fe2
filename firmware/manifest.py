# Freeze the cup firmware into a MicroPython build (code runs from flash; the heap keeps
# only objects). An ESP32 without PSRAM needs this: loaded as .mpy the engine and the
# table protocol alone take about 93 KB of a 64-bit heap (less on the ESP32's 32-bit
# one, still most of its 110 KB). Build it with ESP-IDF installed, from micropython/:
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=$PWD/../dicecup/firmware/manifest.py
# then `make flash FIRMWARE=.../firmware.bin` (the .mpy copy is skipped for frozen modules
# by import order: frozen first). Not yet built here: no ESP-IDF on this machine.
include("$(PORT_DIR)/boards/manifest.py")
package("dicecup")
module("digitalio.py")
