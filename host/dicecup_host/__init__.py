"""Host tools for the smart dice cups: the `dicecup` command and its helpers."""
