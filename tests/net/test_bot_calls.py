"""The master's bots call exact out of turn where the rules let anyone (Menteur's tout
pile, Perudo's calza_anyone), as a person at the table may: whole simulated games over
the radio, told by a cup's serial log."""
import json

import pytest

from dicecup_host.cluster import Cluster


def out_of_turn_calls(rules, options, seeds, seats=5):
    """Exact calls by a bot seat that was not the one on turn, over seeded games of
    2 cups and 3 bots (seat i is member i: nobody reseats)."""
    n = 0
    for seed in seeds:
        c = Cluster(2, rules, seed=seed, bots=seats - 2, options=options)
        c.play()
        evs = [json.loads(x) for x in c.cups[0].serial if x.startswith("{")]
        bots = {e["member"] for e in evs if e["k"] == "joined" and e["bot"]}
        out = set()
        bidder = None
        for e in evs:
            if e["k"] == "out":
                out.add(e["seat"])
            elif e["k"] == "bid":
                bidder = e["seat"]
            elif e["k"] == "exact":
                on_turn = (bidder + 1) % seats
                while on_turn in out:
                    on_turn = (on_turn + 1) % seats
                n += e["seat"] != on_turn and e["seat"] in bots
        assert c.cups[0].cup.table.game.winner() is not None
    return n


@pytest.mark.parametrize("rules,options", [("menteur", {}), ("perudo", {"calza_anyone": True})])
def test_bots_call_exact_out_of_turn_where_anyone_may(rules, options):
    assert out_of_turn_calls(rules, options, range(3)) > 0


def test_no_out_of_turn_call_where_only_the_seat_on_turn_may():
    assert out_of_turn_calls("perudo", {}, range(2)) == 0
