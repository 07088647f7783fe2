"""`dicecup scenario FILE [--micropython]`: replay a rule scenario and print the state."""
import sys

from . import mpy


def run(path, micropython=False):
    """Replay `path`; returns the exit code, output already written to stdout/stderr."""
    if micropython:
        res = mpy.run(["-m", "dicecup.scenario", str(path)])
        sys.stdout.buffer.write(res.stdout)  # the MicroPython text, unchanged
        sys.stdout.flush()
        sys.stderr.buffer.write(res.stderr)
        sys.stderr.flush()
        return res.returncode
    from dicecup import scenario
    return scenario.main([str(path)])
