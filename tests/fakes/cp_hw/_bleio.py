"""Fake of CircuitPython's `_bleio`: only `_bleio.adapter.enabled`, kept in the
emulated world's `radio` record (key "ble")."""
try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world


class _Adapter:
    @property
    def enabled(self):
        return bool(_world.current().radio.get("ble", False))

    @enabled.setter
    def enabled(self, value):
        _world.current().radio["ble"] = bool(value)


adapter = _Adapter()
