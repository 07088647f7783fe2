"""Which serial port is the cup? The one ESP32 board attached, found by its USB ids.

    find()            -> "/dev/ttyUSB0"   (PortError: none, or several)
    check("/dev/x")   -> the port, made absolute if a path (PortError: no such port)

A board shows up through its USB-to-UART bridge (Silicon Labs CP210x, WCH CH340 /
CH9102, FTDI) or, on the S3 and C3, the chip's own USB (Espressif's vendor id 0x303A).
Any pyserial URL (socket://, rfc2217://) and a pty (the virtual board) work when given.
"""
import os

ESPRESSIF = 0x303A
BRIDGES = {
    (0x10C4, 0xEA60): "Silicon Labs CP210x",
    (0x1A86, 0x7523): "WCH CH340",
    (0x1A86, 0x55D4): "WCH CH9102",
    (0x1A86, 0x55D3): "WCH CH343",
    (0x0403, 0x6001): "FTDI FT232R",
    (0x0403, 0x6010): "FTDI FT2232",
    (0x0403, 0x6015): "FTDI FT231X",
}


class PortError(ValueError):
    """No usable port (the message is the one line to print)."""


def kind(vid, pid):
    """What the USB ids say the port is, or None when it is not an ESP32 board's."""
    if vid == ESPRESSIF:
        return "Espressif native USB"
    return BRIDGES.get((vid, pid))


def boards(ports=None):
    """[(device, what)] of the attached ports that look like ESP32 boards. `ports`: what
    pyserial's list_ports.comports() returns (objects with device, vid, pid)."""
    if ports is None:
        from serial.tools import list_ports
        ports = list_ports.comports()
    out = []
    for p in ports:
        what = kind(p.vid, p.pid) if p.vid is not None else None
        if what:
            out.append((p.device, what))
    return sorted(out)


def find(ports=None):
    """The one board's port; PortError when there is none or more than one."""
    found = boards(ports)
    if not found:
        raise PortError("no board found (no USB serial port of an ESP32 board: CP210x, CH340/CH9102, FTDI "
                        "or Espressif USB): plug one in, or give PORT")
    if len(found) > 1:
        raise PortError("several boards: %s: give PORT" % ", ".join("%s (%s)" % f for f in found))
    return found[0][0]


def check(port):
    """A port the person named: a URL as it is, a path made absolute and checked."""
    if "://" in port:
        return port
    path = os.path.abspath(os.path.expanduser(port))
    if not os.path.exists(path):
        raise PortError("no such port %s" % port)
    if os.path.isdir(path) or os.path.isfile(path):
        raise PortError("%s is a %s, not a serial port" % (port, "folder" if os.path.isdir(path) else "file"))
    return path


def port(given=None, ports=None):
    """The port to use: `given` checked, else the one attached board."""
    return check(given) if given else find(ports)
