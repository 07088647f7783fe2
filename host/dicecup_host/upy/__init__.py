"""Scripts that run inside MicroPython on the host (benchmarks, probes); never flashed."""
