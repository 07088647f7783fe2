"""The strong player: bidstrong.py for the bidding games, dixstrong.py for Dix mille
(written separately; until it lands a Dix mille seat says so instead of playing)."""


def _mod(view):
    if view.rules == "dixmille":
        try:
            from . import dixstrong
        except ImportError:
            raise ImportError("strong Dix mille player not built yet (players/dixstrong.py); "
                              "seat 'normal' or 'easy' for dixmille") from None
        return dixstrong
    from . import bidstrong
    return bidstrong


def act(view, rng):
    return _mod(view).act(view, rng)


def reroll(view, bid, rng):
    return _mod(view).reroll(view, bid, rng)
