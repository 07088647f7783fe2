"""A fake `network` module: Wi-Fi interfaces whose on/off state the world records,
so tests can check the radio is off before the cup sleeps."""
try:
    from dicecup_host.emu import world as _world
except ImportError:
    import world as _world

STA_IF = 0
AP_IF = 1


class WLAN:
    def __init__(self, iface=STA_IF):
        self.iface = iface

    def active(self, *v):
        w = _world.current()
        if v:
            w.radio[self.iface] = bool(v[0])
            return None
        return w.radio.get(self.iface, False)

    def disconnect(self):
        pass
