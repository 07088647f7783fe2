"""Bad invocations of log, replay and stats: one line on stderr, exit 2, nothing
started (the port and --out are checked before a byte is read)."""
import os

import pytest

from dicecup_host import cli


@pytest.fixture
def files(tmp_path):
    (tmp_path / "text.txt").write_text("just some words\nand more\n")
    (tmp_path / "bin.dat").write_bytes(os.urandom(3000))
    (tmp_path / "fakedb").mkdir()
    (tmp_path / "fakedb" / "games.db").write_text("not a database at all, " * 50)
    (tmp_path / "afile").write_text("x")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    return tmp_path


BAD = [
    ["log"],
    ["log", "--port", "/no/such/tty"],
    ["log", "--port", "{t}/text.txt", "--baud", "0"],
    ["log", "--port", "/dev/null", "--baud", "fast"],
    ["log", "--port", "/dev/null", "--baud", "12345"],
    ["log", "--port", "/dev/null", "--out", "{t}/afile"],
    ["log", "--port", "/dev/null", "--out", "{t}/afile/sub"],
    ["log", "--port", "/dev/null", "--out", "{t}/ro/games"],
    ["replay"],
    ["replay", "/no/such/game.jsonl"],
    ["replay", "{t}"],
    ["replay", "{t}/text.txt"],
    ["replay", "{t}/bin.dat"],
    ["replay", "{t}/text.txt", "--trace"],
    ["stats", "/no/such/dir"],
    ["stats", "{t}/fakedb"],
    ["stats", "{t}", "--out", "{t}/afile"],
    ["stats", "{t}/fakedb", "--out", "{t}/ro/plots"],
    ["stats", "a", "b"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) for a in BAD])
def test_a_bad_invocation_is_one_line_and_exit_2(argv, files, capsys):
    if os.geteuid() == 0 and any("/ro/" in a for a in argv):
        pytest.skip("root writes anywhere")
    argv = [a.replace("{t}", str(files)) for a in argv]
    try:
        rc = cli.main(argv)
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    assert rc == 2, (rc, out, err)
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and "usage:" not in err
    assert out == "", out
