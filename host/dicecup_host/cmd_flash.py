"""`dicecup flash` (`make flash`): MicroPython (optional) and the cup firmware on a board.

Everything the person typed is checked first, in one line each and exit 2: the port
(given, or the one ESP32 board attached: ports.py), the board file (a name or a path),
the chip (the board file's; --chip only overrides and must agree), the MicroPython
image (espimage.py: it exists and is a whole-flash image for that chip), the cup's
settings. Then the steps, each with a timeout and a truthful word on failure about the
state the board was left in:

    1 compile    the firmware and drivers to .mpy (mpy-cross) in a temporary folder
    2 esptool    with --firmware: reach the bootloader, erase, write at the chip's offset
    3 probe      the port answers as MicroPython (a port that does not fails in seconds)
    4 copy       `mpremote fs cp -r`: files whose sha256 already matches are skipped;
                 onto an image with the firmware frozen in (`make firmware`), only main.py
                 and the board file, and the .mpy files of an earlier flash are removed
                 (an image frozen from another version is refused: its modules would win)
    5 settings   the cup's name, language and `play` written where they differ
    6 reset      the cup boots the new firmware

Nothing is fetched from the internet; the temporary folder is always removed.
"""
import argparse
import json
import os
import re
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dicecup.engine import RULES

from . import espimage, ports
from .cmd_hw import board_arg

OFFSETS = {chip: "0x%X" % off for chip, off in espimage.OFFSETS.items()}
PROBE_S = 15           # a MicroPython board answers mpremote in well under this
RESET_S = 15
ESPTOOL_PROBE_S = 30   # esptool's own connect attempts (2) fit in this
ERASE_S = 120          # a 16 MB flash erases in about a minute
WRITE_S = 300
BOOT_S = 20            # after esptool's reset, MicroPython's REPL comes up within this
NAME = re.compile(r"^[A-Za-z0-9_-]{1,12}$")
LANGS = ("en", "fr", "de", "it", "es")


class FlashError(Exception):
    """A step failed; the message says what happened and what state the board is in."""


def esptool_commands(port, chip, firmware, baud=460800):
    """The esptool runs (reach the bootloader, erase, write) as argument lists."""
    base = [sys.executable, "-m", "esptool", "--chip", chip, "--port", port, "--connect-attempts", "2"]
    return [base + ["flash-id"], base + ["erase-flash"],
            base + ["--baud", str(baud), "write-flash", OFFSETS[chip], str(firmware)]]


def stage(out, board=None):
    """The folder to copy to the board's filesystem root (bundle.py: the firmware and
    drivers as .mpy, main.py, the board file; None: the default board). BundleError."""
    from . import bundle
    return Path(bundle.build_bundle(out, board))


def mpremote(port, *args):
    return [sys.executable, "-m", "mpremote", "connect", port] + list(args)


# What the board runs: MicroPython, its machine, and the cup firmware frozen into its
# image if any (the version of `dicecup` found in '.frozen' alone, else '-').
PROBE = """import os, sys
def _frozen():
    p = sys.path[:]
    sys.modules.pop('dicecup', None)
    try:
        sys.path[:] = ['.frozen']
        import dicecup
        return dicecup.VERSION
    except Exception:
        return '-'
    finally:
        sys.path[:] = p
        sys.modules.pop('dicecup', None)
print(sys.implementation.name, '|', os.uname().machine, '|', _frozen())
"""
# With the firmware frozen in, only these go onto the filesystem (main.py puts '.frozen'
# first, so copied .mpy files would never run); what an earlier flash copied is removed.
FROZEN_KEEP = ("main.py", "boot.py", "board.json")
# MicroPython on the cup: remove the .mpy files an earlier `make flash` copied (the
# package under /dicecup, the drivers under /lib, top-level modules), never the cup's
# settings (plain files under /dicecup). Prints how many went.
UNCOPY = """import os
n = 0
def _walk(d):
    global n
    try:
        names = os.listdir(d)
    except OSError:
        return
    for x in names:
        q = d + '/' + x
        if os.stat(q)[0] & 0x4000:
            _walk(q)
            try:
                os.rmdir(q)
            except OSError:
                pass
        elif x.endswith('.mpy'):
            os.remove(q)
            n += 1
for d in ('/dicecup', '/lib'):
    _walk(d)
for x in os.listdir('/'):
    if x.endswith('.mpy'):
        os.remove('/' + x)
        n += 1
print(n)
"""


def settings_code(name=None, lang=None, play=None):
    """MicroPython run on the cup: the store keys (net/store.py FileStore under /dicecup)
    written only where they differ; `play` removed when not asked for. Prints JSON of
    what changed."""
    want = {"name": name, "lang": lang}
    return """import os, json
try:
    os.mkdir('/dicecup')
except OSError:
    pass
def get(k):
    try:
        with open('/dicecup/' + k, 'rb') as f:
            return f.read().decode()
    except OSError:
        return None
changed = []
for k, v in %s:
    if v is not None and get(k) != v:
        with open('/dicecup/' + k + '.new', 'wb') as f:
            f.write(v.encode())
        os.rename('/dicecup/' + k + '.new', '/dicecup/' + k)
        changed.append(k)
if %r is None and get('play') is not None:
    os.remove('/dicecup/play')
    changed.append('play')
print(json.dumps(changed))
""" % (repr(sorted(list(want.items()) + [("play", play)])), play)


def run_step(cmd, timeout, cwd=None, on_line=None):
    """Run `cmd`, handing each output line to on_line; kill it after `timeout` seconds.
    Returns (exit status or None on timeout, output text)."""
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    end = time.monotonic() + timeout
    out = bytearray()
    part = b""
    try:
        while True:
            left = end - time.monotonic()
            if left <= 0:
                proc.kill()
                proc.wait()
                return None, out.decode(errors="replace")
            if not sel.select(min(left, 0.5)):
                continue
            data = os.read(proc.stdout.fileno(), 65536)
            if not data:
                break
            out += data
            part += data
            while b"\n" in part:
                line, part = part.split(b"\n", 1)
                if on_line:
                    on_line(line.decode(errors="replace").rstrip("\r"))
        return proc.wait(), out.decode(errors="replace")
    finally:
        sel.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()


def _last(text):
    """The line of a tool's output that says what went wrong (else its last line)."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip() and "troubleshooting" not in ln]
    for ln in reversed(lines):
        if re.search(r"error|failed|could not|timed out|no such", ln, re.I):
            return re.sub(r"^(A fatal error occurred|mpremote|Error): ", "", ln)
    return lines[-1] if lines else "no output"


class Flash:
    """The steps, in order, told as they go (`say`)."""

    def __init__(self, args, say=print):
        self.a = args
        self.say = say
        self.n = 0
        self.total = 5 + (1 if args.firmware else 0)
        self.frozen = None       # the version of the cup firmware frozen into the image (probe)

    def step(self, text):
        self.n += 1
        self.say("[%d/%d] %s" % (self.n, self.total, text))

    def run(self, tree):
        a = self.a
        if a.firmware:
            self.esptool()
        self.probe(wait=BOOT_S if a.firmware else 0)
        self.copy(tree)
        self.settings()
        self.reset()

    def esptool(self):
        a = self.a
        probe, erase, write = esptool_commands(a.port, a.chip, a.firmware)
        self.step("esptool: the %s's bootloader on %s" % (a.chip, a.port))
        rc, out = run_step(probe, ESPTOOL_PROBE_S)
        if rc != 0:
            raise FlashError("esptool could not reach the %s bootloader on %s (%s): nothing was erased, "
                             "the board keeps what it had" % (a.chip, a.port, _last(out) if rc else "timeout"))
        self.say("      erasing the flash")
        rc, out = run_step(erase, ERASE_S)
        if rc != 0:
            raise FlashError("the erase failed part-way (%s): the flash may be partly erased and MicroPython "
                             "gone; run the same make flash FIRMWARE=... again" % (_last(out) if rc else "timeout"))
        self.say("      writing %s at %s" % (a.firmware, OFFSETS[a.chip]))
        last = [0]

        def progress(line):
            m = re.search(r"(\d+(?:\.\d+)?) ?%", line)
            if m and float(m.group(1)) >= last[0] + 25:
                last[0] = float(m.group(1))
                self.say("      %s %%" % m.group(1))
        rc, out = run_step(write, WRITE_S, on_line=progress)
        if rc != 0:
            raise FlashError("the write did not finish (%s): the flash is erased, the board has no working "
                             "MicroPython until make flash FIRMWARE=... succeeds" % (_last(out) if rc else "timeout"))
        self.say("      MicroPython written; the board resets")

    def probe(self, wait=0):
        a = self.a
        self.step("%s answers as MicroPython?" % a.port)
        end = time.monotonic() + wait
        while True:
            rc, out = run_step(mpremote(a.port, "exec", PROBE), PROBE_S)
            if rc == 0 and "micropython |" in out:
                break
            if time.monotonic() >= end:
                state = ("MicroPython was just written and does not answer: press the board's reset button "
                         "and run make flash again (without FIRMWARE)" if a.firmware else "nothing was changed on it")
                why = "no answer in %d s" % PROBE_S if rc is None else _last(out)
                raise FlashError("%s does not answer as a MicroPython board (%s): %s; a board without "
                                 "MicroPython needs FIRMWARE=...bin first" % (a.port, why, state))
            time.sleep(1)
        fields = [f.strip() for f in out.strip().splitlines()[-1].split("|")]
        machine = fields[1]
        self.frozen = fields[2] if len(fields) > 2 and fields[2] != "-" else None
        m = re.search(r"with (ESP32\S*)", machine)
        if m and m.group(1).lower().replace("-", "") != a.chip:
            raise FlashError("%s is an %s board (%s), the board file says %s: nothing was changed on it; "
                             "give the right BOARD" % (a.port, m.group(1), machine, a.chip))
        self.say("      %s" % machine)
        if self.frozen:
            from dicecup import VERSION
            if self.frozen != VERSION:
                raise FlashError("the board's MicroPython has dicecup %s frozen in and this checkout is %s: frozen "
                                 "modules come first, so copied files would never run; build an image from this "
                                 "checkout (make firmware BOARD=...) and give it as FIRMWARE=...: nothing was "
                                 "changed on the board" % (self.frozen, VERSION))
            self.say("      the cup firmware %s is frozen into its image: only main.py and the board file go on"
                     % self.frozen)

    def copy(self, tree):
        a = self.a
        if self.frozen:
            tree = self.frozen_tree(tree)
        files = [p for p in Path(tree).rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        items = sorted(p.name for p in Path(tree).iterdir())
        timeout = 60 + size / 2000.0
        self.step("copying %d files (%d KB) with mpremote; files already there are skipped" % (len(files), size // 1024))
        same = [0]

        def line(text):
            if text.startswith("Up to date:"):
                same[0] += 1
            elif text.startswith("cp "):
                self.say("      %s" % text)
        rc, out = run_step(mpremote(a.port, "resume", "fs", "cp", "-r", *(items + [":"])), timeout, cwd=tree,
                           on_line=line)
        if rc != 0:
            raise FlashError("the copy stopped part-way (%s): the board has some new files and some old ones, "
                             "MicroPython itself is untouched; run make flash again"
                             % ("no progress in %d s" % timeout if rc is None else _last(out)))
        self.copied = len(files) - same[0]
        self.say("      %d copied, %d already up to date" % (self.copied, same[0]))
        if self.frozen:
            rc, out = run_step(mpremote(a.port, "resume", "exec", UNCOPY), PROBE_S)
            if rc != 0:
                raise FlashError("removing the .mpy files of an earlier flash failed (%s): the frozen firmware runs "
                                 "all the same (it comes first), they only take flash" % (
                                     "timeout" if rc is None else _last(out)))
            gone = out.strip().splitlines()[-1] if out.strip() else "0"
            if gone != "0":
                self.say("      %s .mpy files of an earlier flash removed (the frozen modules run)" % gone)

    def frozen_tree(self, tree):
        """The staged tree less what the image has frozen in: a sibling folder."""
        small = Path(tree).with_name("frozen-tree")
        small.mkdir(exist_ok=True)
        for name in FROZEN_KEEP:
            if (Path(tree) / name).exists():
                shutil.copyfile(Path(tree) / name, small / name)
        return small

    def settings(self):
        a = self.a
        play = "%s %d" % (a.play, a.bots) if a.play else None
        self.step("settings: %s" % ", ".join("%s %s" % kv for kv in (("name", a.name), ("lang", a.lang), ("play", play))
                                             if kv[1]) if (a.name or a.lang or play) else "settings")
        rc, out = run_step(mpremote(a.port, "resume", "exec", settings_code(a.name, a.lang, play)), PROBE_S)
        if rc != 0:
            raise FlashError("writing the settings failed (%s): the firmware is copied, the cup's settings may be "
                             "the old ones; run make flash again" % ("timeout" if rc is None else _last(out)))
        try:
            changed = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            changed = []
        self.say("      %s" % ("changed: " + ", ".join(changed) if changed else "unchanged"))

    def reset(self):
        a = self.a
        self.step("reset")
        rc, out = run_step(mpremote(a.port, "resume", "reset"), RESET_S)
        if rc != 0:
            raise FlashError("the reset failed (%s): the new firmware is on the board and starts at the next "
                             "reset or power-on" % ("timeout" if rc is None else _last(out)))


def fail(message):
    print("dicecup flash: %s" % message, file=sys.stderr)
    return 2


def resolve(args):
    """Check and settle every argument before any work; a message (exit 2) or None."""
    import json as _json
    if args.bots is not None and not args.play:
        return "--bots needs --play RULES"
    if args.play:
        args.bots = 3 if args.bots is None else args.bots
        from .cmd_vboard import check_play
        try:
            check_play(args.play, args.bots)
        except ValueError as e:
            return "--play %s --bots %d: %s" % (args.play, args.bots, e)
    if args.name is not None and not NAME.match(args.name):
        return "--name %r: 1 to 12 letters, digits, - or _" % args.name
    with open(args.board) as fh:
        chip = _json.load(fh).get("chip")
    if args.chip and args.chip != chip:
        return "--chip %s, but the board file %s is for an %s: drop CHIP or give the right BOARD" % (
            args.chip, args.board, chip)
    args.chip = chip
    if chip not in OFFSETS:
        return "board file %s: chip %r cannot be flashed here (known: %s)" % (args.board, chip, ", ".join(OFFSETS))
    if args.firmware:
        path = os.path.abspath(os.path.expanduser(args.firmware))
        try:
            args.image = espimage.check(espimage.read(path), chip, args.firmware)
        except espimage.ImageError as e:
            return "--firmware: %s" % e
        args.firmware = path
    try:
        args.port = ports.port(args.port)
    except ports.PortError as e:
        return str(e)
    return None


def run(args):
    if args.which_port:
        try:
            print(ports.port(args.port))
        except ports.PortError as e:
            return fail(str(e))
        return 0
    why = resolve(args)
    if why:
        return fail(why)
    from . import bundle
    flash = Flash(args)
    tmp = tempfile.mkdtemp(prefix="dicecup-flash-")
    t0 = time.monotonic()
    try:
        flash.step("compiling the firmware and drivers for %s (mpy-cross)" % os.path.basename(args.board))
        try:
            tree = stage(Path(tmp) / "tree", args.board)
        except bundle.BundleError as e:
            print("dicecup flash: %s: nothing was changed on the board" % e, file=sys.stderr)
            return 1
        if args.firmware:
            print("      %s" % args.image)
        if args.dry_run:
            cmds = esptool_commands(args.port, args.chip, args.firmware) if args.firmware else []
            items = sorted(p.name for p in tree.iterdir())
            cmds += [mpremote(args.port, "exec", "<probe: MicroPython? machine? firmware frozen in? (then only "
                                                 "main.py and board.json are copied, an earlier flash's .mpy "
                                                 "files removed)>"), mpremote(args.port, "resume", "fs", "cp", "-r", *(items + [":"])),
                     mpremote(args.port, "resume", "exec", "<settings>"), mpremote(args.port, "resume", "reset")]
            for cmd in cmds:
                print("$ " + " ".join(cmd[2:] if cmd[0] == sys.executable else cmd))
            return 0
        try:
            flash.run(tree)
        except FlashError as e:
            print("dicecup flash: %s" % e, file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print("dicecup flash: stopped at step %d of %d: the board may be between the old firmware and the new; "
                  "run make flash again" % (flash.n, flash.total), file=sys.stderr)
            return 130
        print("done in %.1f s: the cup on %s boots the new firmware" % (time.monotonic() - t0, args.port))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def register(sub):
    from . import cli
    p = sub.add_parser("flash", help="flash MicroPython (optional) and the cup firmware to a board")
    p.add_argument("--port", help="serial port (default: the one ESP32 board attached); any pyserial URL, "
                                  "or a virtual board's pty")
    p.add_argument("--board", default="esp32-devkitc", type=board_arg,
                   help="a board name from hardware/boards or a board file's path (default esp32-devkitc)")
    p.add_argument("--chip", choices=sorted(OFFSETS), help="only to override: must agree with the board file's chip")
    p.add_argument("--firmware", help="a MicroPython firmware .bin to write first (erases the flash)")
    p.add_argument("--name", help="the cup's name (1-12 letters, digits, - _; default: kept)")
    p.add_argument("--lang", choices=LANGS, help="the cup's language (default: kept)")
    p.add_argument("--play", choices=RULES, help="boot as master of a table with --bots bots and play one game "
                                                 "(demo; without it the cup boots to its menu)")
    p.add_argument("--bots", type=int, help="with --play: bot seats (default 3)")
    p.add_argument("--dry-run", action="store_true", help="check everything and print the commands only")
    p.add_argument("--which-port", action="store_true", help="only print the port (make repl and monitor)")
    p.set_defaults(func=run)
    p.error = cli._one_line_error("dicecup flash")
