"""The levels decide inside the 32-bit MicroPython with the firmware frozen, as the
bench measures them (host/dicecup_host/bench_players.py): whole 6-cup games, every
seat the level, and the heap one decision needs at its peak (found by filling the
heap with ballast until the decision no longer runs) stays inside the issue's 8 KB."""
import pytest

from dicecup_host import bench_players


@pytest.mark.parametrize("level", ["normal", "strong", "baseline"])
def test_a_level_plays_whole_games_on_a_32bit_cup(fw32, level):
    f = bench_players.decide(level, "perudo", '{"calza_anyone": true}', seats=6, games=1)
    assert "error" not in f, f
    assert f["n"] > 50            # a whole 6-cup game's decisions
    assert 0 < f["peak"] <= 8 * 1024


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_every_bidding_game_decides_within_8_kb_of_heap(fw32, level):
    for rules, options, seats in bench_players.TABLES[:4]:
        f = bench_players.decide(level, rules, options, seats, games=1)
        assert "error" not in f and 0 < f["peak"] <= 8 * 1024, (rules, f)
