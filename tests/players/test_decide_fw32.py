"""The levels decide inside the 32-bit MicroPython with the firmware frozen, as the
bench measures them (host/dicecup_host/bench_players.py): whole 6-cup games, every
seat the level, and the heap one decision asks for stays small on a cup."""
import pytest

from dicecup_host import bench_players


@pytest.mark.parametrize("level", ["normal", "strong", "baseline"])
def test_a_level_plays_whole_games_on_a_32bit_cup(fw32, level):
    f = bench_players.decide(level, "perudo", '{"calza_anyone": true}', seats=6, games=1)
    assert "error" not in f, f
    assert f["n"] > 50            # a whole 6-cup game's decisions
    # the heap allocated by the largest decision (GC off): well inside a cup's free heap
    assert f["max_alloc"] < 40 * 1024


def test_strong_needs_under_16_kb_per_decision_in_every_bidding_game(fw32):
    for rules, options, seats in bench_players.TABLES[:4]:
        f = bench_players.decide("strong", rules, options, seats, games=1)
        assert "error" not in f and f["max_alloc"] < 16 * 1024, (rules, f)
