"""Fake of CircuitPython's `wifi`: only `wifi.radio.enabled`, kept in the emulated
world's `radio` record (key "wifi") so tests see whether the radio was off in sleep."""
try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world


class _Radio:
    @property
    def enabled(self):
        return bool(_world.current().radio.get("wifi", False))

    @enabled.setter
    def enabled(self, value):
        _world.current().radio["wifi"] = bool(value)


radio = _Radio()
