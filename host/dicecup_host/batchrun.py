"""A batch of games as a person watching it expects: a progress bar on stderr (only on
a terminal, so logs and pipes stay clean) and Ctrl-C that ends the batch with the
summary of the games finished so far, never a traceback or a half-counted game.

    batch = Batch(range(games))
    with batch:
        for i in batch:
            facts = play(i)              # Ctrl-C here: this game is dropped
            with batch.counting():       # Ctrl-C here waits until the game is counted
                add(total, facts)
    total["interrupted"] = batch.interrupted
"""
import signal
import sys
import threading
from contextlib import contextmanager


class Batch:
    def __init__(self, indices, what="games", stream=None):
        self.indices = list(indices)
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        self.interrupted = False
        self.done = 0
        self._progress = None
        self._task = None

    def _tty(self):
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def __enter__(self):
        if len(self.indices) > 1 and self._tty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
            out_tty = sys.stdout.isatty()
            self._progress = Progress(TextColumn("[bold]%s" % self.what), BarColumn(), MofNCompleteColumn(),
                                      TimeRemainingColumn(), console=Console(file=self.stream),
                                      transient=True, redirect_stdout=out_tty, redirect_stderr=False)
            self._progress.start()
            self._task = self._progress.add_task(self.what, total=len(self.indices))
        return self

    def __iter__(self):
        for i in self.indices:
            yield i
            self.done += 1
            if self._progress is not None:
                self._progress.advance(self._task)

    @contextmanager
    def counting(self):
        """Ctrl-C is held back while a finished game is added to the summary."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        held = []
        old = signal.signal(signal.SIGINT, lambda *_: held.append(1))
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, old)
        if held:
            raise KeyboardInterrupt

    def __exit__(self, kind, value, tb):
        if self._progress is not None:
            self._progress.stop()
        if kind is KeyboardInterrupt:
            self.interrupted = True
            print("interrupted: %d of %d %s finished, the summary holds those" % (
                self.done, len(self.indices), self.what), file=sys.stderr)
            return True
        return False
