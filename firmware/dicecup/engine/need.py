"""What must happen now, the same words for all five rule sets (`g.need()`).

Plain strings, so screens, logs and wire code can compare or print them as they are.
"""

SHAKE = "shake"                # bluffing games: every seat holding dice rolls its hidden dice
BID = "bid"                    # bluffing games: the seat on turn bids or calls
REVEAL = "reveal"              # bluffing games: a call stands, the cups reveal
ROLL = "roll"                  # dixmille: the seat on turn rolls the public dice
KEEP = "keep"                  # dixmille: the seat on turn keeps scoring dice from the roll
BANK_OR_ROLL = "bank-or-roll"  # dixmille: bank, or roll the dice not kept (unopened under 500: roll)
OVER = "over"                  # the game has a winner

BIDDING = (SHAKE, BID, REVEAL, OVER)      # by bidding.py's phase number
DIXMILLE = (ROLL, KEEP, BANK_OR_ROLL, OVER)  # by dixmille.py's phase number


def counting(face, wild):
    """The faces that count for a bid on `face` when `wild` (or None) is wild: a bid on
    the wild face itself counts only that face."""
    return (face,) if wild is None or wild == face else (face, wild)
