"""Helpers of the app tests (a unique module name, unlike conftest)."""
import json

BOARDS = ("esp32-devkitc", "esp32-s3-devkitc-1", "xiao-esp32c3")
PRIVATE = ("dice", "committed")


def events(cup):
    """The JSON events of one AppCup's serial log."""
    return [json.loads(line) for line in cup.serial]


def kinds(cup):
    return [e["k"] for e in events(cup)]
