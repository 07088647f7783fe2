"""Safe mode: hold the board's `safe_button` while the cup powers on or resets.

On the three boards shipped in hardware/boards/ that is the "back" button
(ESP32-DevKitC, ESP32-S3-DevKitC-1) or the middle "ok" button (XIAO ESP32C3).

`main()` is what `main.py` calls first. It brings the hardware up (errors are shown on
serial and screen), then:
* board file broken -> prints how to fix it and returns None: the game must not start,
  the REPL stays free for `mpremote` to copy a good board file;
* safe button held -> runs the self-test until Ctrl-C, then returns None;
* otherwise -> returns the Hardware for the game to use.
"""
from micropython import const

from dicecup.hw.clock import sleep_ms

_SAMPLES = const(5)
_GAP_MS = const(10)


def held_at_boot(hw, samples=_SAMPLES, gap_ms=_GAP_MS):
    """True if the safe button reads pressed on every one of `samples` looks."""
    if hw.board is None or hw.buttons is None:
        return False
    btn = hw.buttons.buttons[hw.board.safe_button]
    for i in range(samples):
        if not btn.read():
            return False
        if i < samples - 1:
            sleep_ms(gap_ms)
    return True


def banner(hw):
    """The first line a cup prints at boot: the firmware's one version string and the
    board (what `dicecup doctor` and a reader of the serial log look for)."""
    from dicecup import VERSION
    b = hw.board
    return "dicecup %s on %s" % (VERSION, "%s (%s)" % (b.name, b.chip) if b is not None else "an unknown board")


def main(path=None, duration_ms=None, out=print):
    from dicecup.hw import board, hardware
    said = []           # what bring-up found, printed after the banner
    hw = hardware.open(path or board.PATH, out=said.append)
    out(banner(hw))
    for line in said:
        out(line)
    if hw.board is None:
        out("dicecup: safe mode: no usable board file, the game will not start")
        return None
    if held_at_boot(hw):
        out("dicecup: safe mode (%s held): self-test, Ctrl-C for the REPL"
            % hw.board.buttons[hw.board.safe_button].name)
        run_selftest(hw, duration_ms, out)
        return None
    return hw


def run_selftest(hw, duration_ms=None, out=print):
    import asyncio
    from dicecup.hw.selftest import SelfTest
    t = SelfTest(hw, out=out)
    try:
        asyncio.run(t.run(duration_ms))
    except KeyboardInterrupt:
        out("dicecup: self-test stopped")
    return t
