"""`dicecup shake-test` and `dicecup shake-record`: the firmware's shake detector over
motion traces, and capturing real traces from a cup over serial.

A trace is classified correctly when it rolls exactly once, no earlier than EARLY_MS
before `settled_at_ms` and no later than LATE_MS after it (expect roll), or never
rolls (expect none).
"""
import argparse
import json
import sys
import time
from pathlib import Path

from . import outpath, traces

LATE_MS = 150     # every shake must roll within this of the cup settling
EARLY_MS = 100    # a roll this long before the cup settled is a roll mid-air: wrong


def run_trace(trace, settings=None, states=False):
    """Feed a trace to the firmware's ShakeDetector (on CPython). Returns
    {"rolls": [ms, ...], "states": [(ms, state), ...] (changes, when asked)}."""
    from dicecup.hw.motion import ShakeDetector
    det = ShakeDetector(trace.rate_hz, settings)
    rolls = []
    changes = []
    last = None
    for i, (x, y, z) in enumerate(trace.samples):
        if det.feed(x, y, z) == "roll":
            rolls.append(trace.time_ms(i))
        if states and det.state != last:
            last = det.state
            changes.append((trace.time_ms(i), last))
    out = {"rolls": rolls, "entropy": det.entropy().hex() if rolls else None}
    if states:
        out["states"] = changes
    return out


# MicroPython side of run_traces_micropython: reads trace files itself (header lines,
# then samples) and prints the sample index of each roll.
_UPY_RUNNER = """
import sys
from dicecup.hw.motion import ShakeDetector
for path in PATHS:
    rate = 100
    det = None
    i = 0
    rolls = []
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line or line[0] == "#":
                continue
            c = line[0]
            if c == "-" or c == "+" or c == "." or ("0" <= c <= "9"):
                if det is None:
                    det = ShakeDetector(rate)
                p = line.split()
                if det.feed(float(p[0]), float(p[1]), float(p[2])) == "roll":
                    rolls.append(i)
                i += 1
            elif line.startswith("rate_hz "):
                rate = int(line[8:])
    print("ROLLS", " ".join(str(r) for r in rolls))
"""


def run_traces_micropython(paths, heap=None):
    """Run the same detector inside the heap-capped MicroPython over trace files.
    Returns [[roll sample index, ...] per path]."""
    from . import mpy
    code = "PATHS = %r\n" % [str(Path(p).resolve()) for p in paths] + _UPY_RUNNER
    res = mpy.run_code(code, heap=heap or mpy.ESP32_HEAP)
    if res.returncode != 0:
        raise RuntimeError("MicroPython failed: %s" % res.stderr.decode(errors="replace")[-2000:])
    out = []
    for line in res.stdout.decode().splitlines():
        if line.startswith("ROLLS"):
            out.append([int(v) for v in line.split()[1:]])
    if len(out) != len(paths):
        raise RuntimeError("MicroPython printed %d results for %d traces" % (len(out), len(paths)))
    return out


def judge(trace, rolls):
    """(detected, correct, latency_ms or None, why) for a trace and its roll times."""
    detected = "roll" if rolls else "none"
    if trace.expect == "none":
        if rolls:
            return detected, False, None, "rolled at %s ms" % ", ".join("%.0f" % r for r in rolls)
        return detected, True, None, ""
    if not rolls:
        return detected, False, None, "never rolled"
    lat = rolls[0] - trace.settled_at_ms
    if len(rolls) > 1:
        return detected, False, lat, "rolled %d times" % len(rolls)
    if lat > LATE_MS:
        return detected, False, lat, "late (> %d ms)" % LATE_MS
    if lat < -EARLY_MS:
        return detected, False, lat, "early (before the cup settled)"
    return detected, True, lat, ""


def cmd_test(args):
    paths = [Path(p) for p in args.traces] if args.traces else traces.library()
    if not paths:
        print("no traces found (expected %s/lib and heldout)" % traces.library_dir(), file=sys.stderr)
        return 2
    rows = []
    bad = 0
    loaded = []
    for p in paths:
        try:
            loaded.append((p, traces.load(p)))
        except (OSError, traces.TraceError) as e:
            print("dicecup shake-test: %s: %s" % (p, e), file=sys.stderr)
            bad += 1
    if bad and not loaded:
        return 2        # nothing could be read: nothing to judge
    if args.micropython:
        got = run_traces_micropython([p for p, _ in loaded])
        all_rolls = [[tr.time_ms(i) for i in idx] for (_, tr), idx in zip(loaded, got)]
    else:
        all_rolls = [run_trace(tr)["rolls"] for _, tr in loaded]
    for (p, tr), rolls in zip(loaded, all_rolls):
        rows.append((p, tr) + judge(tr, rolls))
    matrix = {(e, d): 0 for e in traces.EXPECTS for d in traces.EXPECTS}
    lats = []
    correct = 0
    if not args.json or args.verbose:
        print("%-34s %-6s %-6s %9s  %s" % ("trace", "expect", "got", "latency", ""))
    for p, tr, det, ok, lat, why in rows:
        matrix[(tr.expect, det)] += 1
        correct += ok
        if lat is not None and ok:
            lats.append(lat)
        if not args.json or args.verbose:
            name = p.name if p.parent.name not in ("lib", "heldout") else "%s/%s" % (p.parent.name, p.name)
            print("%-34s %-6s %-6s %9s  %s" % (name, tr.expect, det, "" if lat is None else "%+.0f ms" % lat,
                                               "ok" if ok else "WRONG: " + why))
    worst = max(lats) if lats else None
    mean = sum(lats) / len(lats) if lats else None
    if not args.json or args.verbose:
        print()
        print("confusion (rows: expected, columns: detected)")
        print("          %6s %6s" % traces.EXPECTS)
        for e in traces.EXPECTS:
            print("  %-7s %6d %6d" % (e, matrix[(e, "roll")], matrix[(e, "none")]))
        print("%d/%d traces correct; latency from settling to roll: max %s, mean %s"
              % (correct, len(rows), "-" if worst is None else "%.0f ms" % worst,
                 "-" if mean is None else "%.0f ms" % mean))
    if args.json:
        print(json.dumps({"traces": len(rows) + bad, "correct": correct,
                          "max_latency_ms": None if worst is None else round(worst, 1),
                          "mean_latency_ms": None if mean is None else round(mean, 1),
                          "confusion": {e: {d: matrix[(e, d)] for d in traces.EXPECTS} for e in traces.EXPECTS},
                          "unreadable": bad}))
    return 2 if bad else 0 if correct == len(rows) else 1   # an unreadable trace is a bad argument


# --- shake-record ----------------------------------------------------------------------
START = "# dicecup-record start"      # the cup side: firmware/dicecup/hw/record.py
STOP = "# dicecup-record stop"
RECORD_SETTLE_TOL_G = 0.05            # noise included (the library's 0.03 g is noise-free)


class RecordError(RuntimeError):
    pass


def capture(ser, seconds=None, start=True, wait_s=10.0, out=None):
    """Read one recording from an open serial port. With `start`, first interrupt
    whatever runs and start `dicecup.hw.record.main(seconds)` through the REPL.
    `wait_s`: how long to wait for the start marker, and then for each next line.
    Returns (rate_hz, range_g, samples, stop_line). Ctrl-C here stops the cup."""
    out = out or sys.stderr
    if start:
        ser.write(b"\x03\x03")
        time.sleep(0.1)
        ser.reset_input_buffer()
        arg = "" if seconds is None else repr(float(seconds))
        ser.write(("import dicecup.hw.record as _r; _r.main(%s)\r" % arg).encode())
    buf = b""
    lines = []
    started = False
    rate = rng = None
    samples = []
    deadline = time.monotonic() + wait_s
    stop_line = None
    interrupted = False
    while stop_line is None:
        try:
            chunk = ser.read(4096)
        except KeyboardInterrupt:
            if interrupted or not started:
                raise
            interrupted = True
            print("stopping the cup...", file=out)
            ser.write(b"\x03")
            deadline = time.monotonic() + 3.0
            continue
        if chunk:
            buf += chunk
            *done, buf = buf.split(b"\n")
            lines.extend(ln.decode("ascii", "replace").strip("\r ") for ln in done)
        elif time.monotonic() > deadline:
            if not started:
                raise RecordError("no recording started within %.0f s (is the firmware on the cup, "
                                  "and nothing else holding the port?)" % wait_s)
            raise RecordError("the cup stopped sending before the end marker (%d samples)" % len(samples))
        while lines:
            ln = lines.pop(0)
            if not started:
                if ln == START:
                    started = True
                    deadline = time.monotonic() + wait_s
                continue
            deadline = time.monotonic() + (wait_s if not interrupted else 3.0)
            if ln.startswith(STOP):
                stop_line = ln
                break
            if ln.startswith("rate_hz "):
                rate = int(ln.split()[1])
            elif ln.startswith("range_g "):
                rng = int(ln.split()[1])
            elif ln.startswith("#") or not ln:
                continue
            else:
                try:
                    x, y, z = (float(v) for v in ln.split())
                except ValueError:
                    raise RecordError("not a sample line from the cup: %r" % ln) from None
                samples.append((x, y, z))
    if rate is None:
        raise RecordError("the recording has no rate_hz line")
    return rate, rng, samples, stop_line


def _ask(prompt, inp, out):
    out.write(prompt)
    out.flush()
    ans = inp.readline()
    if not ans:
        raise RecordError("no answer (stdin closed): give --expect and --settled-at-ms")
    return ans.strip().lower()


def label(samples, rate, expect=None, settled_at_ms=None, yes=False, inp=None, out=None):
    """(expect, settled_at_ms) from the flags, else asked on inp/out; a roll's settle
    point is found in the data (`traces.find_settle`) and confirmed."""
    inp = inp or sys.stdin
    out = out or sys.stderr
    while expect is None:
        a = _ask("Was this a roll (a shake, then the cup set down)? [y/n] ", inp, out)
        expect = {"y": "roll", "yes": "roll", "n": "none", "no": "none"}.get(a)
    if expect == "none":
        return expect, None
    if settled_at_ms is None:
        found = traces.find_settle(samples, rate, tol_g=RECORD_SETTLE_TOL_G)
        if found is None:
            print("the recording does not end with the cup at rest (keep recording a second "
                  "after setting it down)", file=out)
        if yes and found is not None:
            return expect, found
        while settled_at_ms is None:
            q = ("The cup came to rest at %d ms by the data. Right? [Y/n or the ms] " % found
                 if found is not None else "When did the cup come to rest (ms)? ")
            a = _ask(q, inp, out)
            if found is not None and a in ("", "y", "yes"):
                settled_at_ms = found
            elif a.isdigit():
                settled_at_ms = int(a)
    return expect, settled_at_ms


def cmd_record(args):
    import serial
    try:
        ser = serial.serial_for_url(args.port, baudrate=args.baud, timeout=0.2)
    except (serial.SerialException, ValueError) as e:
        print("cannot open %s: %s" % (args.port, e), file=sys.stderr)
        return 2
    try:
        print("recording from %s%s..." % (args.port, "" if args.seconds is None else " for %g s" % args.seconds),
              file=sys.stderr)
        rate, rng, samples, stop = capture(ser, args.seconds, start=not args.listen, wait_s=args.wait)
    except RecordError as e:
        print("shake-record: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("shake-record: stopped before the cup sent anything", file=sys.stderr)
        return 130
    finally:
        ser.close()
    print("%d samples at %d Hz (%s)" % (len(samples), rate, stop), file=sys.stderr)
    if not samples:
        print("shake-record: nothing recorded", file=sys.stderr)
        return 1
    if " late=0" not in stop:
        print("warning: the cup fell behind its sample rate (%s)" % stop, file=sys.stderr)
    try:
        expect, settled = label(samples, rate, args.expect, args.settled_at_ms, args.yes)
    except RecordError as e:
        print("shake-record: %s" % e, file=sys.stderr)
        return 2
    meta = {"kind": args.kind, "source": "shake-record"}
    if args.note:
        meta["note"] = " ".join(args.note.split())
    try:
        tr = traces.Trace(rate, rng if rng in traces.RANGES_G else 8, expect, samples, settled, meta,
                          name=args.out)
    except traces.TraceError as e:
        print("shake-record: %s" % e, file=sys.stderr)
        return 2
    traces.save(tr, args.out, comments=("recorded with dicecup shake-record from %s" % args.port,))
    rolls = run_trace(tr)["rolls"]
    det, ok, lat, why = judge(tr, rolls)
    print("wrote %s: expect %s%s; the detector says %s%s" % (
        args.out, expect, "" if settled is None else " (settled at %d ms)" % settled, det,
        "" if lat is None else " (%+.0f ms)" % lat), file=sys.stderr)
    if not ok:
        print("  not as expected: %s -- worth keeping as a test trace" % why, file=sys.stderr)
    return 0


def _positive(kind, what, zero=False):
    def parse(text):
        try:
            v = kind(text)
        except ValueError:
            v = None
        if v is None or v != v or v < 0 or (v == 0 and not zero):
            raise argparse.ArgumentTypeError("%r: give %s, %s" % (text, what, "0 or more" if zero else "more than 0"))
        return v
    return parse


def register(sub):
    s = sub.add_parser("shake-test", help="run the cup's shake detector over motion traces")
    s.add_argument("traces", nargs="*", metavar="TRACE_FILE",
                   help="trace files (default: hardware/traces/lib and heldout)")
    s.add_argument("--json", action="store_true", help="end with one JSON line: traces, correct, max_latency_ms")
    s.add_argument("-v", "--verbose", action="store_true", help="with --json, print the table too")
    s.add_argument("--micropython", action="store_true",
                   help="run the detector inside MicroPython (heap capped at 110 KB), not CPython")
    s.set_defaults(func=cmd_test)

    s = sub.add_parser("shake-record", help="capture a motion trace from a cup over serial")
    s.add_argument("--port", required=True, help="serial port or pyserial URL (/dev/ttyUSB0, /dev/pts/3, ...)")
    s.add_argument("--baud", type=_positive(int, "a baud rate"), default=115200)
    s.add_argument("--seconds", type=_positive(float, "seconds"), help="how long the cup records (default: until Ctrl-C)")
    s.add_argument("--out", default=time.strftime("trace-%Y%m%d-%H%M%S.txt"), type=outpath.arg_file("--out"),
                   help="trace file to write")
    s.add_argument("--expect", choices=traces.EXPECTS, help="roll or none (else asked)")
    s.add_argument("--settled-at-ms", type=_positive(int, "milliseconds", zero=True), help="when the cup came to rest (else found in the data)")
    s.add_argument("--yes", action="store_true", help="accept the settle point found in the data")
    s.add_argument("--kind", default="recorded", help="what was done: shake-vigorous, peek, ... (header)")
    s.add_argument("--note", help="a free note for the header")
    s.add_argument("--listen", action="store_true",
                   help="do not start the recorder through the REPL, wait for the cup to send")
    s.add_argument("--wait", type=_positive(float, "seconds"), default=10.0, help="seconds to wait for the recording to start, and then between lines")
    s.set_defaults(func=cmd_record)
