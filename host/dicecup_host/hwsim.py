"""The cup's self-test on emulated hardware, inside the heap-capped MicroPython.

`selftest(board_name, seconds)` wires an emulated cup as the board file says, brings the
hardware up with the firmware's own `hardware.open`, and steps `SelfTest` through
`seconds` of simulated time at the accelerometer's rate while a script plays on the
outside: the cup rests, each button is pressed in turn, two at once, then the cup is
shaken and set down. Returns the serial lines and the final screen (an emulated
SSD1306, as text rows and as PNG bytes).
"""
import binascii

from dicecup_host import bundle, emu, mpy

HEAP = "160K"  # the ESP32's 110 KB plus what the emulation itself takes (see tests/hw): 150K
# left too little room once the emulation gained the app's modules (vtime): one
# allocation of a framebuffer copy failed, depending on the length of the temp paths

SCRIPT = r"""
import math, rig, world, lis3dh
from dicecup.hw import board, hardware
from dicecup.hw.selftest import SelfTest
b = board.load(%(board)r)
w, acc, oled = rig.build(b, battery_v=3.92)
pins = [s.pin for s in b.buttons]

def felt(t):
    if 2000 <= t < 3200:  # a 4 Hz shake, then the cup set down
        s = math.sin(2 * math.pi * 4 * t / 1000)
        return lis3dh.to_sensor((1.6 * s, 0.4 * s, 1.0 + 0.5 * math.sin(t / 30)), b.mount)
    return lis3dh.to_sensor((0.01, -0.02, 1.0), b.mount)

acc.set_function(felt)
hw = hardware.open(%(board)r, clock=w.now)
st = SelfTest(hw, clock=w.now)
st.start()
period = 1000 // b.rate_hz
plan = {}
for i in range(len(pins)):
    plan[300 + 200 * i] = (pins[i], True)
    plan[380 + 200 * i] = (pins[i], False)
plan[1200] = (pins[0], True)
plan[1230] = (pins[-1], True)
plan[1400] = (pins[0], False)
plan[1410] = (pins[-1], False)
t = 0
while t < %(ms)d:
    if t in plan:
        pin, down = plan[t]
        if down:
            w.bounce(pin, edges=3, gap_ms=0)
        else:
            w.release(pin)
    w.advance(period)
    t += period
    st.step(w.now())
print(st.status())
print("--screen--")
import binascii
for p in range(8):
    print(binascii.hexlify(oled.ram[128 * p:128 * p + 128]).decode())
print(int(oled.on), int(oled.remap), int(oled.com_flip), int(oled.invert), oled.start_line, oled.offset, oled.mux)
"""


def selftest(board_name, seconds=5.0, heap=HEAP):
    """Run the self-test on an emulated `board_name`; returns (serial lines, Ssd1306)."""
    from dicecup_host.emu import ssd1306, world
    path = bundle.board_file(board_name)
    code = SCRIPT % {"board": str(path), "ms": int(seconds * 1000)}
    r = mpy.run_code(code, heap=heap, extra_path=[emu.build_mpy(), bundle.drivers_mpy_dir()])
    out = r.stdout.decode().splitlines()
    if r.returncode or "--screen--" not in out:
        raise RuntimeError("self-test run failed:\n%s\n%s" % ("\n".join(out), r.stderr.decode()))
    i = out.index("--screen--")
    screen = ssd1306.Ssd1306(world.World())
    screen.ram[:] = binascii.unhexlify("".join(out[i + 1:i + 9]))
    flags = [int(v) for v in out[i + 9].split()]
    screen.on, screen.remap, screen.com_flip, screen.invert = (bool(v) for v in flags[:4])
    screen.start_line, screen.offset, screen.mux = flags[4:7]
    return out[:i], screen
