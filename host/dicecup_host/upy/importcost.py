"""Inside the 32-bit frozen MicroPython (fw32): the heap each firmware module costs
when imported, and which of them a booted cup holds.

argv: board_json store_dir module [module ...] drivers_dir, the modules in an order where each
comes after the modules it imports at its top level (the host works it out:
bench_app.import_costs), so a module's figure is its own: its module object, globals,
functions, classes and whatever its top level builds, not its imports'. Then the
emulated cup is brought up as mpsim's cups are (the drivers, the hardware, make_app)
and the dicecup modules it holds are listed (with no module named: the boot alone, the
modules a booted cup holds).

Prints `--cost-- name bytes` per module (`--cost-- name -1 Error` when it cannot be
imported here), then `--held-- name` per module held after make_app.
"""
import gc
import sys

from dicecup_host.emu import machine as _machine   # the frozen emulation
sys.modules["machine"] = _machine
from dicecup_host.emu import rig, vtime

BOARD, STORE = sys.argv[1], sys.argv[2]
NAMES = sys.argv[3:-1]     # (the last: the drivers' .mpy folder, unused: frozen here)

from dicecup.hw import board as fwb
b = fwb.load(BOARD)
w, acc, oled = rig.build(b, battery_v=3.92)
vtime.install(w)

for name in NAMES:
    if name in sys.modules:
        print("--cost-- %s 0" % name)
        continue
    gc.collect()
    a = gc.mem_alloc()
    try:
        __import__(name)
    except Exception as e:  # noqa: BLE001 - a module for another runtime or radio
        print("--cost-- %s -1 %s" % (name, type(e).__name__))
        continue
    gc.collect()
    print("--cost-- %s %d" % (name, gc.mem_alloc() - a))

import adafruit_ssd1306, adafruit_lis3dh  # noqa: E401,F401,E402
from dicecup.hw import hardware  # noqa: E402
from dicecup import appboot  # noqa: E402
from dicecup.net.noradio import NoRadio  # noqa: E402
from dicecup.net.store import FileStore  # noqa: E402
hw = hardware.open(BOARD, clock=w.now)
app = appboot.make_app(hw, NoRadio(), FileStore(STORE), w.now, out=sys.stdout.write,
                       random_bytes=lambda k: bytes(k))
for name in sorted(sys.modules):
    if name.startswith("dicecup") and not name.startswith("dicecup_host"):
        print("--held-- %s" % name)
