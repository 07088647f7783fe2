"""The host simulation's flash (net/store.py's `FileStore` is a cup's): the same get, put
and delete over a dict. It survives a simulated reboot because the cluster keeps it
while the cup object is thrown away. Simulation only (manifest_cup.py's SIM_ONLY): a
cup never holds it in RAM.
"""


class MemStore:
    def __init__(self):
        self.data = {}
        self.writes = 0

    def get(self, key):
        return self.data.get(key)

    def put(self, key, value):
        self.data[key] = bytes(value)
        self.writes += 1

    def delete(self, key):
        self.data.pop(key, None)
