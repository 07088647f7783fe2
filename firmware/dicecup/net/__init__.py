"""The table network: how separate cups become one table.

`cup.py` is the facade a cup (or the simulator) drives, over one module per concern:
keys, flash, lobby, sync (replication), election, hidden (the round's dice), rolls
(witnessed rolls), turns, seat (this cup's player), budget (the frame ceiling), with
`table.py` (the replicated state), `wire.py` (frames) and `fair.py` (commit-reveal)
below them and `pump.py`, the one step that drives a cup on the device and in the
simulator alike.

Transports (one cup's radio, behind the small interface in `transport.py`):
`espnow.py` (ESP-NOW, the cups' normal radio), `ble.py` (Bluetooth LE, a smaller
star-shaped table), and `sim.py` (an in-memory medium on a simulated clock, for
host tests and the batch runner). The table protocol never touches a radio API itself.
"""
