"""What a cup must still reveal survives a reboot: its own roots and the seats it
rolled for as the master, for the newest two rounds, and nothing from an old game."""
from dicecup.net.flash import Flash
from dicecup.net.kept import Kept
from dicecup.net.memstore import MemStore

R1, R2, R3 = bytes(range(16)), bytes(range(1, 17)), bytes(range(2, 18))


def test_roots_survive_a_reboot_for_the_newest_two_rounds():
    store = MemStore()
    k = Kept(Flash(store))
    k.keep(4, [(0, R1)])
    k.keep(4, [(0, R1), (1, R2)])          # a reroll's fresh root next to the current one
    k.keep_held(4, {2: R3})
    k.keep(5, [(0, R2)])                   # the player shook for the next round
    again = Kept(Flash(store))             # a reboot: only flash is left
    assert again.root(4, 1) == R2 and again.root(5, 0) == R2
    assert again.held_of(4) == {2: R3}
    again.keep(6, [(0, R3)])
    assert again.roots(4) == [] and again.roots(5) and again.roots(6)


def test_a_replayed_round_and_a_new_game_forget_their_roots():
    store = MemStore()
    k = Kept(Flash(store))
    k.keep(1, [(0, R1)])
    k.keep_held(1, {0: R2, 3: R3})
    k.forget(1)
    assert k.roots(1) == [] and k.held_of(1) == {}
    k.keep(2, [(0, R1)])
    k.clear()
    assert Kept(Flash(store)).roots(2) == []


def test_a_torn_flash_record_reads_as_nothing_kept():
    store = MemStore()
    Flash(store).put_secrets([(7, [(0, R1)])])
    store.put("secret", store.get("secret")[:-3])
    assert Kept(Flash(store)).roots(7) == []
