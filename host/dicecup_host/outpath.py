"""Outputs checked before the work: a file or a folder the command will write, found
unwritable in the first second rather than after minutes of play (and nothing lost).

Each check raises OutputError (a ValueError) with the one line to print; `arg_file` and
`arg_folder` are the same checks as argparse types."""
import argparse
import os


class OutputError(ValueError):
    pass


def file(path, flag):
    """A file we can create or overwrite."""
    path = os.path.abspath(os.path.expanduser(path))
    folder = os.path.dirname(path)
    if os.path.isdir(path):
        raise OutputError("%s %s is a folder: give a file name" % (flag, path))
    if not os.path.isdir(folder):
        raise OutputError("%s %s: no folder %s" % (flag, path, folder))
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise OutputError("%s %s: not writable" % (flag, path))
    return path


def folder(path, flag):
    """A folder that exists and is writable, or that we can make (its nearest existing
    parent is a writable folder)."""
    path = os.path.abspath(os.path.expanduser(path))
    probe = path
    while not os.path.exists(probe):
        probe = os.path.dirname(probe)
    if not os.path.isdir(probe):
        raise OutputError("%s %s: %s is a file, not a folder" % (flag, path, probe))
    if not os.access(probe, os.W_OK):
        raise OutputError("%s %s: %s is not writable" % (flag, path, probe))
    return path


def _argtype(check, flag):
    def parse(text):
        try:
            return check(text, flag)
        except OutputError as e:
            raise argparse.ArgumentTypeError(str(e).replace(flag + " ", "", 1))
    return parse


def arg_file(flag):
    return _argtype(file, flag)


def arg_folder(flag):
    return _argtype(folder, flag)
