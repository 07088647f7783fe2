"""What a cup keeps across a reboot (its flash): table keys, membership, sequence
epoch, and the round secrets it must still be able to reveal.

A killed cup loses its RAM; on boot it has only this. Values are small bytes under
short keys. `FileStore` writes one file per key on the cup's filesystem (written to a
temporary name then renamed, so a power cut never leaves half a value); net/memstore.py's
`MemStore` is the host simulation's flash (a module of its own, frozen only into the
simulated build: a cup never holds the class in RAM).
"""
import os


class FileStore:
    def __init__(self, root):
        self.root = root
        try:
            os.mkdir(root)
        except OSError:
            pass  # already there

    def _path(self, key):
        return self.root + "/" + key

    def get(self, key):
        try:
            with open(self._path(key), "rb") as f:
                return f.read()
        except OSError:
            return None

    def put(self, key, value):
        tmp = self._path(key) + ".new"
        with open(tmp, "wb") as f:
            f.write(value)
        os.rename(tmp, self._path(key))

    def delete(self, key):
        try:
            os.remove(self._path(key))
        except OSError:
            pass
