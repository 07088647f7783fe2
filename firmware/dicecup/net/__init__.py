"""The table network: how separate cups become one table.

Transports (one cup's radio, behind the small interface in `transport.py`):
`espnow.py` (ESP-NOW, the cups' normal radio), `ble.py` (Bluetooth LE, a smaller
star-shaped table), and `sim.py` (an in-memory medium on a simulated clock, for
host tests and the batch runner). The table protocol is built on top of them and
never touches a radio API itself.
"""
