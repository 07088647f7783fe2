"""The reference players to measure the others against (issue: bots and odds).

Bidding games: Neller's binomial player (players/binomial.py). Dix mille: keep every
scoring die, bank at 300 (500 until opened) (players/dixbase.py). Both are imported only
for the rule set a table plays.
"""


def act(view, rng):
    if view.rules == "dixmille":
        from . import dixbase
        return dixbase.act(view, rng)
    from . import binomial
    return binomial.act(view, rng)


def reroll(view, bid, rng):
    """The baseline never rerolls."""
    return None
