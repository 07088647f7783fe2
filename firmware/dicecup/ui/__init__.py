"""The cup's user interface: screens on the 128x64 display and the buttons' input model."""
