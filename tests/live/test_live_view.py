"""`dicecup sim` on a real terminal (tmux): a person sits at the table, plays a round by
keys -- shake, bid, challenge -- and sees it on their cup, the table and the log."""
import os
import shutil
import subprocess
import sys
import time

import pytest

from dicecup_host import livetable, oledtext

TMUX = shutil.which("tmux")


def test_panels_render_at_full_resolution_in_half_blocks_and_braille():
    px = oledtext.blank()
    px[0][0] = px[1][0] = 1          # a column of two pixels: one full block
    px[63][127] = 1                  # the bottom-right pixel: a lower half / the last braille dot
    big, small = oledtext.halfblock(px), oledtext.braille(px)
    assert len(big) == 32 and all(len(r) == 128 for r in big)
    assert len(small) == 16 and all(len(r) == 64 for r in small)
    assert big[0][0] == "\u2588" and big[31][127] == "\u2584"
    assert small[0][0] == chr(0x2800 | 0x01 | 0x02) and small[15][63] == chr(0x2800 | 0x80)


def test_seats_are_checked():
    assert livetable.parse_seats("you,bot,bot") == ["you", "bot", "bot"]
    for bad in ("you,you", "you,robot", "", "you,bot,bot,bot,bot,bot,bot"):
        with pytest.raises(livetable.SeatsError):
            livetable.parse_seats(bad)
    with pytest.raises(livetable.SeatsError):
        livetable.parse_seats("you,bot", cups=3)


def test_every_built_bot_level_can_take_a_seat():
    from dicecup import players
    for kind in players.available():
        assert livetable.parse_seats("you," + kind) == ["you", kind]
        assert livetable.level(kind) == kind
    assert livetable.level("bot") == "easy"
    with pytest.raises(livetable.SeatsError, match="not a seat kind"):
        livetable.parse_seats("you,expert")


class Term:
    """A terminal of its own: a private tmux server (-L), so a parallel test's smaller
    terminal can never resize this one, and a checked size before anything is asserted."""

    def __init__(self, name, cols, rows, cmd):
        self.name = name
        self.tmux = [TMUX, "-L", "%s-%d" % (name, os.getpid()), "-f", os.devnull]
        env = dict(os.environ, TERM="xterm-256color")
        for var in ("TMUX", "COLUMNS", "LINES"):   # a stray COLUMNS/LINES beats the tty's size
            env.pop(var, None)
        subprocess.run(self.tmux + ["kill-server"], capture_output=True)
        subprocess.run(self.tmux + ["new-session", "-d", "-s", name, "-x", str(cols), "-y", str(rows), cmd],
                       check=True, env=env)
        subprocess.run(self.tmux + ["set-option", "-t", name, "window-size", "manual"], capture_output=True)
        subprocess.run(self.tmux + ["resize-window", "-t", name, "-x", str(cols), "-y", str(rows)],
                       capture_output=True)
        size = subprocess.run(self.tmux + ["display-message", "-p", "-t", name, "#{window_width}x#{window_height}"],
                              capture_output=True, text=True).stdout.strip()
        assert size == "%dx%d" % (cols, rows), "tmux gave a %s terminal, not %dx%d" % (size, cols, rows)

    def screen(self):
        return subprocess.run(self.tmux + ["capture-pane", "-p", "-t", self.name], capture_output=True,
                              text=True).stdout

    def keys(self, *keys):
        subprocess.run(self.tmux + ["send-keys", "-t", self.name] + list(keys), check=True)

    def resize(self, cols, rows):
        subprocess.run(self.tmux + ["resize-window", "-t", self.name, "-x", str(cols), "-y", str(rows)],
                       capture_output=True)

    def wait(self, text, timeout=60):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            s = self.screen()
            if text in s:
                return s
            time.sleep(0.3)
        raise AssertionError("%r never showed; the screen:\n%s" % (text, self.screen()))

    def close(self):
        subprocess.run(self.tmux + ["kill-server"], capture_output=True)


def _cmd(args):
    return "unset COLUMNS LINES; cd %s && %s -m dicecup_host.cli sim %s; sleep 30" % (
        os.getcwd(), sys.executable, args)


@pytest.mark.heavy
@pytest.mark.skipif(TMUX is None, reason="needs tmux")
def test_a_round_played_by_keys_in_the_live_view():
    t = Term("dicecup-live-test", 220, 56, _cmd("--rules liars --cups 3 --seed 1 --speed 2"))
    try:
        s = t.wait("your cup (1)", 90)
        if "ben's cup (2)" not in s:       # a start under load can read a stale size: nudge it
            t.resize(221, 57)
            time.sleep(0.5)
            t.resize(220, 56)
        s = t.wait("ben's cup (2)", 30)
        assert "your cup (1)" in s and "ben's cup (2)" in s and "cy's cup (3)" in s
        assert "keys:" in s and "p peek" in s                      # the key map is on screen
        t.keys("s")                                                # shake
        t.wait("everyone has shaken; ana opens", 60)
        t.keys("Enter")                                            # bid ...
        time.sleep(0.6)
        t.keys("Enter")                                            # ... the face shown ...
        time.sleep(0.6)
        t.keys("Enter")                                            # ... the lowest quantity: sent
        t.wait("ana bids", 30)
        t.wait("> you", 60)                                        # my turn again (the table panel)
        t.keys("Right")
        time.sleep(0.4)
        t.keys("Enter")                                            # the move after bid: challenge
        s = t.wait("on the table", 60)                             # the reveal, in the log
        assert "loses 1 die" in s and "4 dice" in s                # someone lost a die, as the table shows
    finally:
        t.close()


@pytest.mark.heavy
@pytest.mark.skipif(TMUX is None, reason="needs tmux")
def test_a_small_terminal_shows_one_cup_at_a_time():
    t = Term("dicecup-live-small", 80, 24, _cmd("--rules perudo --cups 2 --seed 3 --speed 2"))
    try:
        s = t.wait("your cup (1)", 60)
        assert "ben's cup" not in s
        t.keys("Tab")
        s = t.wait("ben's cup (2)", 10)
        assert "your cup (1)" not in s
    finally:
        t.close()
