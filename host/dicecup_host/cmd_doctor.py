"""`dicecup doctor`: bring-up over serial -- why does this freshly soldered cup not work?

    dicecup doctor --port PORT [--board B] [--timeout S] [--no-wait] [--listen S]

It stops whatever the cup runs (Ctrl-C), enters MicroPython's raw REPL (mpremote's
serial transport) and checks, step by step, each step with its own time limit
(STEP_S for the cup's own work, --timeout for what waits on you) and a PASS / FAIL /
SKIP line (a FAIL says what to check): the firmware version and board
file; the I2C scan (the OLED and the LIS3DH at the board file's addresses, else the
pins to check); the buttons (one held at the start is stuck; then "press left" ... as
you press them); the accelerometer at rest and the shake detector's states as you shake
the cup and set it down; the battery voltage; the radio and the cups it hears. At the
end the cup is soft-reset: its game runs again. The cup-side code is
upy/doctorprobe.py, the verdicts doctor.py.

--no-wait skips what needs hands (presses, the shake): for scripts, and for a cup on a
bench. Exit 0 when nothing failed, 1 when something did (each diagnosis named in the
last line), 2 for a bad argument or a port that is not there.
"""
import json
import sys
import time
from pathlib import Path

from dicecup import VERSION

from . import cli, doctor, ports
from .cmd_hw import board_arg

PROBE = Path(__file__).resolve().parent / "upy" / "doctorprobe.py"
BANNER = b"raw REPL; CTRL-B to exit\r\n"
STEP_S = 10.0     # the limit of a step that waits on the cup alone (--timeout: on you)


class CupGone(Exception):
    """The cup stopped answering (the message says when)."""


class Link:
    """The raw REPL over mpremote's SerialTransport, with an overall deadline on each
    exchange (mpremote's own timeouts are between characters)."""

    def __init__(self, port):
        from mpremote.transport_serial import SerialTransport
        self.t = SerialTransport(port, timeout=3)
        self.ser = self.t.serial
        self.paste = True       # raw-paste until the cup says it has none

    def close(self):
        try:
            self.t.close()
        except Exception:  # noqa: BLE001 - a pty has no DTR/RTS; gone is gone
            pass

    def _read_until(self, end, seconds, each=None):
        """Bytes until `end` (True, data) or the deadline (False, data)."""
        data = b""
        stop = time.monotonic() + seconds
        while not data.endswith(end):
            if time.monotonic() >= stop:
                return False, data
            n = self.ser.in_waiting
            if not n:
                time.sleep(0.005)
                continue
            chunk = self.ser.read(1 if len(end) else n)
            data += chunk
            if each is not None:
                each(chunk)
        return True, data

    def enter(self, seconds):
        """Ctrl-C whatever runs, Ctrl-A: the raw REPL. False if it never answered."""
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            self.ser.write(b"\r\x03")
            time.sleep(0.15)
            self.ser.write(b"\x03")
            time.sleep(0.3)
            self.ser.reset_input_buffer()
            self.ser.write(b"\r\x01")
            ok, _ = self._read_until(BANNER + b">", min(3.0, max(0.1, stop - time.monotonic())))
            if ok:
                self.t.in_raw_repl = True
                return True
        return False

    def run(self, code, seconds, on_line=None):
        """Run `code`; each line it prints goes to `on_line` as it comes. Returns the
        traceback text ('' when none). TimeoutError after `seconds` (the code is
        interrupted and the prompt waited for), CupGone when it does not come back."""
        from mpremote.transport import TransportError
        try:
            self._send(code.encode())
        except (TransportError, OSError, ValueError) as e:
            raise CupGone("the cup stopped answering while the doctor sent its code (%s)" % e)
        part = bytearray()

        def each(chunk):
            for c in chunk:
                if c == 10:
                    if on_line is not None:
                        on_line(part.decode(errors="replace").rstrip("\r"))
                    del part[:]
                elif c != 4:
                    part.append(c)
        ok, _ = self._read_until(b"\x04", seconds, each)
        if not ok:
            self.ser.write(b"\x03")
            ok1, _ = self._read_until(b"\x04", 5)
            ok2, _ = self._read_until(b"\x04>", 5) if ok1 else (False, b"")
            if not ok2:
                raise CupGone("the cup did not come back after a step timed out")
            raise TimeoutError()
        ok, err = self._read_until(b"\x04>", 10)
        if not ok:
            raise CupGone("the cup stopped answering after a step")
        return err[:-2].decode(errors="replace")

    def _send(self, data):
        """Raw-paste when the cup has it (flow-controlled: mpremote's writer), else the
        plain raw REPL (MicroPython before 1.14), as mpremote falls back."""
        from mpremote.transport import TransportError
        if self.paste:
            self.ser.write(b"\x05A\x01")
            answer = self.ser.read(2)
            if answer == b"R\x01":
                self.t.raw_paste_write(data)
                return
            self.paste = False
            if answer != b"R\x00":     # it took the bytes as code and Ctrl-A: the prompt again
                ok, _ = self._read_until(BANNER + b">", 3)
                if not ok:
                    raise TransportError("no raw REPL prompt")
        for i in range(0, len(data), 256):
            self.ser.write(data[i:i + 256])
            time.sleep(0.01)
        self.ser.write(b"\x04")
        if self.ser.read(2) != b"OK":
            raise TransportError("the cup did not take the code")

    def restart(self):
        """Back to the friendly REPL and a soft reset: main.py, the game, runs again."""
        self.ser.write(b"\r\x02")
        time.sleep(0.2)
        self.ser.write(b"\x04")
        self.ser.flush()


class Doctor:
    def __init__(self, link, args, out=print):
        self.link = link
        self.args = args
        self.out = out
        self.verdicts = []

    def say(self, text):
        self.out(text)
        sys.stdout.flush()

    def verdict(self, v):
        self.verdicts.append(v)
        for line in v.lines():
            self.say(line)
        return v

    def ask(self, call, seconds, on_answer=None):
        """One call into the probe: its DOC answers as dicts (the last one returned).
        Lines that are not answers are the cup talking: shown, indented."""
        got = []

        def line(text):
            if text.startswith("DOC "):
                try:
                    d = json.loads(text[4:])
                except ValueError:
                    self.say("      cup: " + text)
                    return
                got.append(d)
                if on_answer is not None:
                    on_answer(d)
            elif text.strip():
                self.say("      cup: " + text)
        err = self.link.run(call, seconds, line)
        if err.strip():
            raise ProbeError(err.strip().splitlines()[-1])
        if not got:
            raise ProbeError("no answer from the cup")
        return got[-1]

    def step(self, name, call, seconds, on_answer=None):
        """ask(), a timeout or a probe error becoming this step's FAIL (None then)."""
        try:
            return self.ask(call, seconds, on_answer)
        except TimeoutError:
            self.verdict(doctor.Verdict(name, doctor.FAIL, "no answer within %g s" % seconds,
                                        "%s timed out" % name))
        except ProbeError as e:
            self.verdict(doctor.Verdict(name, doctor.FAIL, "the cup's code failed: %s" % e, "%s failed" % name))
        return None

    def load(self):
        """The probe's functions into the cup's REPL."""
        try:
            err = self.link.run(PROBE.read_text(), STEP_S)
        except TimeoutError:
            err = "no answer within %g s" % STEP_S
        if err.strip():
            self.verdict(doctor.Verdict("connect", doctor.FAIL, "the doctor's code does not run on the cup: %s"
                                        % err.strip().splitlines()[-1], "probe failed"))
            return False
        return True

    # ----- the steps -----------------------------------------------------------------
    def run(self):
        a = self.args
        limit = STEP_S
        ident = self.step("firmware", "ident()", limit)
        if ident is None:
            return
        v = self.verdict(doctor.firmware(ident, VERSION, a.want_board))
        if "board" not in ident:
            return
        board = ident["board"]
        probe = self.step("I2C bus", "bus()", limit)
        if probe is None:
            return
        for v in doctor.i2c(board, probe):
            self.verdict(v)
        for e in probe["errors"]:
            if "not found" not in e:          # (a missing chip is said above)
                self.verdict(doctor.Verdict("bring-up", doctor.FAIL, e, "bring-up error"))
        if probe["buttons"]:
            self.buttons(board, a.timeout)
        if probe["accel"]:
            self.motion(a.timeout)
        else:
            self.verdict(doctor.Verdict("shake detector", doctor.SKIP, "no accelerometer (see above)"))
        volts = self.step("battery", "battery()", limit)
        if volts is not None:
            self.verdict(doctor.battery(board, volts["volts"]))
        listen = a.listen
        self.say("      listening %g s for other cups' radios..." % listen)
        r = self.step("radio", "radio(%d)" % int(listen * 1000), listen + limit)
        if r is not None:
            self.verdict(doctor.radio(r, doctor.virtual(ident), listen))

    def buttons(self, board, limit):
        h = self.step("buttons", "held()", STEP_S)
        if h is None:
            return
        held = h["held"]
        for v in doctor.stuck(board, held):
            self.verdict(v)
        if self.args.no_wait:
            rest = [b[0] for i, b in enumerate(board["buttons"]) if i not in held]
            if rest:
                self.verdict(doctor.Verdict("buttons", doctor.PASS,
                                            "%s not held (presses not tested: --no-wait)" % ", ".join(rest)))
            return
        for i, b in enumerate(board["buttons"]):
            if i in held:
                continue
            self.say("      press %s (%s), within %g s" % (b[0], doctor.gpio(b[1]), limit))
            p = self.step("button %s" % b[0], "press(%d, %r)" % (int(limit * 1000), held), limit + 5)
            if p is not None:
                self.verdict(doctor.press(board, i, p, limit))

    def motion(self, limit):
        g = self.step("accel at rest", "sample()", STEP_S)
        if g is None:
            return
        self.verdict(doctor.rest(g["g"]))
        if self.args.no_wait:
            self.verdict(doctor.Verdict("shake detector", doctor.SKIP, "not tested (--no-wait)"))
            return
        states = []
        rolled = []

        def seen(d):
            if "state" in d and (not states or states[-1] != d["state"]):
                states.append(d["state"])
                self.say("      motion: %s" % d["state"])
            if d.get("roll"):
                rolled.append(True)
        self.say("      leave the cup standing still, mouth down, on the table")
        r = self.step("shake detector", "motion('still', %d)" % int(STEP_S * 1000), STEP_S + 5, seen)
        if r is None:
            return
        if r.get("reached") != "still":
            self.verdict(doctor.Verdict("shake detector", doctor.FAIL, "never still in %g s (last: %s)"
                                        % (STEP_S, r.get("last")), "cup never still",
                                        ["stand the cup mouth-down on a table and leave it"]))
            return
        self.say("      shake the cup, then set it down")
        r = self.step("shake detector", "motion('rolled', %d)" % int(limit * 1000), limit + 5, seen)
        if r is not None:
            self.verdict(doctor.motion(states, bool(rolled), limit))


class ProbeError(Exception):
    pass


def run(args):
    try:
        port = ports.port(args.port)
    except ports.PortError as e:
        print("dicecup doctor: %s" % e, file=sys.stderr)
        return 2
    args.want_board = None
    if args.board:
        from dicecup.hw import board as fwb
        args.want_board = fwb.load(args.board).name
    try:
        link = Link(port)
    except Exception as e:  # noqa: BLE001 - mpremote's TransportError, a busy or vanished port
        print("dicecup doctor: cannot open %s (%s)" % (port, e), file=sys.stderr)
        return 2
    print("dicecup doctor %s on %s (each step times out: %g s for the cup, %g s for you)"
          % (VERSION, port, STEP_S, args.timeout), flush=True)
    d = Doctor(link, args)
    try:
        if not link.enter(STEP_S):
            d.verdict(doctor.Verdict("connect", doctor.FAIL, "no MicroPython raw REPL answers on %s in %g s" % (port, STEP_S),
                                     "no REPL", ["is it the cup's port (dicecup flash finds it)? close any other program "
                                                 "reading it (dicecup log, screen)", "press the board's reset button"]))
        else:
            d.verdict(doctor.Verdict("connect", doctor.PASS, "raw REPL on %s (the cup's game is stopped meanwhile)" % port))
            if d.load():
                d.run()
            link.restart()
            print("      the cup restarts (soft reset): its game runs again", flush=True)
    except CupGone as e:
        d.verdict(doctor.Verdict("connect", doctor.FAIL, str(e), "cup stopped answering",
                                 ["press the board's reset button and run dicecup doctor again"]))
    finally:
        link.close()
    code, line = doctor.summary(d.verdicts)
    print(line, flush=True)
    return code


def _seconds(lo, hi, what):
    import argparse

    def parse(text):
        try:
            v = float(text)
        except ValueError:
            v = None
        if v is None or not lo <= v <= hi:
            raise argparse.ArgumentTypeError("%r: give %s, %g to %g seconds" % (text, what, lo, hi))
        return v
    return parse


def register(sub):
    p = sub.add_parser("doctor", help="bring-up over serial: firmware, chips, buttons, shake, battery, radio "
                                      "of a cup (or the virtual board), step by step")
    p.add_argument("--port", help="the cup's serial port (default: the one ESP32 board attached)")
    p.add_argument("--board", type=board_arg, help="the board you built (a name or a board file): the cup's "
                                                   "board file must be this one")
    p.add_argument("--timeout", type=_seconds(1, 600, "each step's time limit"), default=15.0, metavar="S",
                   help="how long a step waits for you: each press, the shake (default 15 s; the "
                        "steps that need no hands time out after %g s)" % STEP_S)
    p.add_argument("--listen", type=_seconds(0.5, 60, "how long to listen for other cups"), default=3.0,
                   metavar="S", help="how long the radio listens for other cups (default 3 s)")
    p.add_argument("--no-wait", action="store_true",
                   help="skip what needs hands (button presses, the shake): a bench or a script")
    p.set_defaults(func=run)
    p.error = cli._one_line_error("dicecup doctor")
