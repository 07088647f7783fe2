"""Shake to roll on a real cup: the motion detector's roll is the cup's shake.

    roller = ShakeToRoll(cup, ShakeDetector(rate_hz=board.rate_hz))
    roller.feed_mg(x, y, z)      # every accelerometer sample, in milli-g

When the detector reports a roll (a real shake, then the cup set down: hw/motion.py)
and the cup is waiting for one -- a round's dice, a Bluff reroll, a Dix mille roll --
the cup draws the roll's secret from the hardware RNG (os.urandom) mixed with the
shake's own entropy (net/fair.py shaken_root) and commits to it. A roll the cup was
not waiting for changes nothing: picking the cup up, carrying it, bumping the table
never roll (the detector's contract), and shaking it between rounds does nothing.
"""


class ShakeToRoll:
    def __init__(self, cup, detector):
        self.cup = cup
        self.detector = detector
        self.rolls = 0      # rolls the detector reported
        self.used = 0       # ...of which the cup was waiting for

    def feed_mg(self, x, y, z):
        """One sample; True when it made the cup roll."""
        if self.detector.feed_mg(x, y, z) != "roll":
            return False
        self.rolls += 1
        if self.cup.wants_shake() is None:
            return False
        if self.cup.shake(self.detector.entropy()):
            self.used += 1
            return True
        return False
