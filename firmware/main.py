# The cup's entry point: safe mode first (hold the safe button at power-on: the
# self-test runs, the game never starts, the REPL stays free), then the game
# (dicecup/appboot.py: the radio, the table protocol, the screen).
import sys

# A frozen build's modules before the filesystem's: MicroPython's sys.path is
# ['', '.frozen', '/lib'], and '' is the root, where the cup's settings folder /dicecup
# (net/store.py) would hide the frozen `dicecup` package (and copied .mpy files would be
# loaded into the heap instead of run from flash). Without a frozen package nothing changes.
if ".frozen" in sys.path:
    sys.path.remove(".frozen")
    sys.path.insert(0, ".frozen")

from dicecup import appboot  # noqa: E402

appboot.boot()
