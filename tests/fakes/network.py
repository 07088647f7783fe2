"""Fake of MicroPython's `network` module, only what ESP-NOW needs: WLAN interfaces
that can be made active (ESP-NOW sends and receives only on an active one) and
report their MAC. Belongs to the current fakeair board (see fakeair.py)."""
import fakeair

STA_IF = 0
AP_IF = 1


class WLAN:
    IF_STA = 0
    IF_AP = 1

    def __init__(self, *args):
        if len(args) > 1:
            raise TypeError("WLAN takes one positional argument")
        iface = args[0] if args else STA_IF
        if iface not in (STA_IF, AP_IF):
            raise ValueError("invalid WLAN interface identifier")
        self._board = fakeair.AIR.current_board()
        self._if = iface

    def active(self, *args):
        b = self._board
        if args:
            if self._if == STA_IF:
                b.sta_active = bool(args[0])
            else:
                b.ap_active = bool(args[0])
        return b.sta_active if self._if == STA_IF else b.ap_active

    def config(self, *args, **kw):
        b = self._board
        if args and kw:
            raise TypeError("either query one parameter or set by keyword")
        if args:
            if len(args) != 1:
                raise TypeError("query one parameter at a time")
            name = args[0]
            if name == "mac":
                if self._if == STA_IF:
                    return b.mac
                return b.mac[:5] + bytes(((b.mac[5] + 1) & 0xFF,))
            if name == "channel":
                return b.channel
            raise ValueError("unknown config param")
        for k in kw:
            if k == "channel":
                if not 0 <= kw[k] <= 14:
                    raise ValueError("invalid channel")
                b.channel = kw[k]
            elif k not in ("pm", "txpower", "reconnects"):
                raise ValueError("unknown config param")
        return None

    def disconnect(self):
        return None

    def isconnected(self):
        return False
