"""A table of bad invocations: each is answered by one line on stderr and exit code 2,
before any work starts -- never a traceback, never a usage block."""
import pytest

from dicecup_host import cli

BAD = [
    [],
    ["nosuch"],
    ["sim", "--cups", "7"],
    ["sim", "--cups", "0"],
    ["sim", "--rules", "liars", "--cups", "1"],
    ["sim", "--cups", "5", "--bots", "2"],
    ["sim", "--bots", "-1"],
    ["sim", "--rules", "nosuch"],
    ["sim", "--options", "[1,2]"],
    ["sim", "--options", "{bad"],
    ["sim", "--options", '{"nosuch": 1}'],
    ["sim", "--options", '{"palifico": 3}'],
    ["sim", "--loss", "1"],
    ["sim", "--loss", "-0.1"],
    ["sim", "--loss", "lots"],
    ["sim", "--seed", "x"],
    ["sim", "--shake-delay", "-5"],
    ["sim", "--headless", "--games", "0"],
    ["sim", "--headless", "--games", "-1"],
    ["sim", "--headless", "--games", "2", "--game-index", "5"],
    ["sim", "--headless", "--games", "2", "--game-index", "-1"],
    ["sim", "--headless", "--trace", "/no/such/dir/t.txt"],
    ["sim", "--headless", "--trace", "/"],
    ["sim", "--headless", "--games", "3", "--trace", "/tmp/t.txt"],
    ["sim", "--headless", "--partition", "nobody:5@1"],
    ["sim", "--headless", "--attack", "nosuch"],
    ["sim", "--attack", "all"],
    ["sim", "--drive", "buttons"],
    ["sim", "--headless", "--drive", "buttons", "--kill-master"],
    ["sim", "--headless", "--micropython", "--cup-heap", "0"],
    ["sim", "--headless", "--micropython", "--cups", "1"],
    ["sim", "--cups", "3", "extra"],
    ["sim", "--seats", "you,robot"],
    ["sim", "--seats", "you,you,bot"],
    ["sim", "--seats", "you,bot", "--cups", "3"],
    ["sim", "--speed", "0"],
    ["sim", "--lang", "nl"],
    ["scenario"],
    ["scenario", "/no/such/file.json"],
    ["scenario", "README.md"],
    ["hw"],
    ["hw", "selftest", "--board", "nosuch"],
    ["hw", "selftest", "--board", "/no/such/board.json"],
    ["hw", "selftest", "--board", "README.md"],
    ["hw", "selftest", "--seconds", "0"],
    ["hw", "selftest", "--png", "/no/such/dir/x.png"],
    ["hw", "bundle", "--board", "nosuch", "--out", "/tmp/x"],
    ["hw", "bundle", "--board", "esp32-devkitc"],
    ["hw", "power", "--mah", "0"],
    ["hw", "power", "--mah", "nan"],
    ["hw", "power", "--lit", "120"],
    ["hw", "power", "--peek", "-1"],
    ["screens"],
    ["screens", "/tmp/x", "--scale", "0"],
    ["screens", "/tmp/x", "--lang", "nl"],
    ["cards"],
    ["cards", "/tmp/x", "--lang", "nl"],
    ["cards", "/etc/passwd/cards"],
    ["shake-test", "/no/such/trace.txt"],
    ["shake-test", "README.md"],
    ["shake-record", "--port", "/dev/null", "--baud", "0"],
    ["shake-record", "--port", "/dev/null", "--out", "/no/such/dir/t.txt"],
    ["shake-record", "--port", "/dev/null", "--seconds", "-2"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) or "(nothing)" for a in BAD])
def test_a_bad_invocation_is_one_line_and_exit_2(argv, capsys):
    try:
        rc = cli.main(argv)
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    assert rc == 2, (rc, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "usage:" not in err
    assert out == "", out                          # nothing was started
