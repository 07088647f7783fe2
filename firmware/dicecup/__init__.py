"""Smart dice cups: the code every cup runs (and the host imports unchanged)."""

VERSION = "0.1.0"
