"""The one error an engine call raises for an action the rules forbid.

`code` is stable (tools, wire frames and scenario output compare it); `message` is for
people. The state is never changed when this is raised.
"""

# Stable codes. Keep in step with README "Error codes".
CODES = (
    "not-your-turn",     # a seat acted while another must act
    "wrong-phase",       # a step out of order: bid before the roll, roll mid-round...
    "game-over",         # the game already has a winner
    "eliminated",        # the seat holds no dice any more
    "no-bid",            # challenge / exact with no bid standing
    "bad-quantity",      # quantity below 1 or above the most dice a table can hold
    "bad-face",          # face outside 1..6 (or not allowed in this rule set)
    "bid-too-low",       # does not outrank the standing bid
    "aces-opening",      # perudo: a normal round may not open on aces
    "palifico-face",     # perudo palifico: the face may not change
    "exact-not-allowed", # this rule set / option has no exact call, or not for this seat now
    "own-bid",           # the bidder may not call exact on their own bid
    "reroll-not-allowed",# bluff: no reroll option, not the bettor, or already rerolled
    "reroll-count",      # bluff: set aside at least one die and keep one under the cup
    "dice-count",        # a roll or reveal with the wrong number of dice
    "not-your-dice",     # set aside / kept faces that are not among the dice
    "keep-not-scoring",  # dixmille: a kept die is not part of a scoring combination
    "keep-first",        # dixmille: keep a scoring die before rolling again or banking
    "not-open",          # dixmille: an unopened player banks under 500
    "unknown-action",    # not an action of this rule set
)


class IllegalAction(Exception):
    """An action the rules reject: `code` (stable), `seat` (or -1), `message`."""

    def __init__(self, code, message, seat=-1):
        super().__init__(message)
        self.code = code
        self.message = message
        self.seat = seat

    def __repr__(self):
        return "IllegalAction(%r, %r, seat=%d)" % (self.code, self.message, self.seat)
