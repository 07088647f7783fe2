"""The cup's hardware layer: board file, I2C adapter, display, accelerometer, buttons,
power and the self-test. `hardware.open()` brings it all up at boot."""
