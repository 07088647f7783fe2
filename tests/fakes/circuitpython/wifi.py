"""Fake of CircuitPython's `wifi` module, only `wifi.radio.mac_address` and
`.enabled`, answered for the current fakeair board (see ../fakeair.py)."""
import fakeair


class _Radio:
    @property
    def mac_address(self):
        return fakeair.AIR.current_board().mac

    @property
    def enabled(self):
        return fakeair.AIR.current_board().sta_active

    @enabled.setter
    def enabled(self, value):
        fakeair.AIR.current_board().sta_active = bool(value)


radio = _Radio()
