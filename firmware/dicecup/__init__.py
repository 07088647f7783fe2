"""Smart dice cups: the code every cup runs (and the host imports unchanged)."""

VERSION = "0.1.0"


def unload(*names):
    """Forget modules a cup uses only at times (joining: net/pake.py, x25519, sha512),
    so on MicroPython their function and class objects -- which stay in RAM even when
    the code is frozen in flash -- are freed once nothing else holds them; the next
    import runs the frozen module again (cheap). A no-op on CPython, where a module is
    not worth the memory and a second copy would break class identity in tests."""
    import sys
    if sys.implementation.name != "micropython":
        return
    for name in names:
        if sys.modules.pop(name, None) is None:
            continue
        pkg, _, leaf = name.rpartition(".")
        parent = sys.modules.get(pkg)
        if parent is not None and leaf in parent.__dict__:
            delattr(parent, leaf)
