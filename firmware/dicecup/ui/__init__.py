"""The cup's screens: strings, places and (later) the screens themselves."""
