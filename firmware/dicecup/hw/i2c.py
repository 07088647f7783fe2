"""MicroPython's `machine.I2C` dressed as CircuitPython's `busio.I2C`.

The Adafruit drivers (through `adafruit_bus_device.I2CDevice`) lock the bus around
each transfer, pass `start=`/`end=` slices as keywords and probe an address by writing
zero bytes. `machine.I2C` has no lock, takes its optional `stop` flag positionally only
and slices nothing, so each call is translated here. Slices go through a memoryview:
no copy of the data. On the ESP32 a device that does not ACK raises OSError(ENODEV),
which is what the drivers expect from busio too. The slice bounds are plain parameters
here, not keyword-only: keyword-only defaults cost a dict per function in RAM (a
function is 64 bytes with them on a 32-bit build, 32 with positional defaults); the
drivers' keywords still name them.
"""


class I2C:
    """`I2C(machine_i2c)`: the busio.I2C methods the Adafruit drivers call."""

    def __init__(self, bus, sda, scl):
        self.bus = bus
        self.sda = sda  # pin numbers, only for messages
        self.scl = scl
        self._locked = False

    def try_lock(self):
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def scan(self):
        return self.bus.scan()

    def writeto(self, address, buffer, start=0, end=None):
        if end is None:
            end = len(buffer)
        if start == 0 and end == len(buffer):
            self.bus.writeto(address, buffer)
        else:
            self.bus.writeto(address, memoryview(buffer)[start:end])

    def readfrom_into(self, address, buffer, start=0, end=None):
        if end is None:
            end = len(buffer)
        if start == 0 and end == len(buffer):
            self.bus.readfrom_into(address, buffer)
        else:
            self.bus.readfrom_into(address, memoryview(buffer)[start:end])

    def writeto_then_readfrom(self, address, buffer_out, buffer_in, out_start, out_end, in_start, in_end):
        """Write, then read after a repeated START (no STOP in between); the driver
        passes every bound."""
        if out_end is None:
            out_end = len(buffer_out)
        if in_end is None:
            in_end = len(buffer_in)
        self.bus.writeto(address, memoryview(buffer_out)[out_start:out_end], False)
        self.bus.readfrom_into(address, memoryview(buffer_in)[in_start:in_end])

    def deinit(self):
        self._locked = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
        return False

    def where(self):
        return "SDA=%s SCL=%s" % (self.sda, self.scl)


def open_bus(board):
    """The board's hardware I2C bus, wrapped. Imports `machine` only when called.
    On CircuitPython: its own busio.I2C (dicecup.hw.cp), no adapter."""
    from dicecup.hw import circuitpython
    if circuitpython():
        from dicecup.hw.cp import open_bus as cp_open
        return cp_open(board)
    import machine
    bus = machine.I2C(board.i2c_id, scl=machine.Pin(board.scl), sda=machine.Pin(board.sda),
                      freq=board.freq)
    return I2C(bus, board.sda, board.scl)


def scan(bus):
    """Addresses that answer on `bus` (this adapter or a busio.I2C, which only scans
    while locked)."""
    while not bus.try_lock():
        pass
    try:
        return bus.scan()
    finally:
        bus.unlock()
