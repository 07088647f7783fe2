"""`make bench`'s app section (host/dicecup_host/bench_app.py) in its short form: the
app's RAM readings and the press -> screen timings come out of the real runtimes.
What is asserted is what the figures rest on (the cup booted to the lobby, every
timed press changed the OLED's RAM and left it equal to the framebuffer, a cursor move
pushed only its changed pages, and so did a peek, a press redrawn in part gave a
whole draw's frame, the bid reached every cup), not the figures.
About 10 s (fw32 and the 64-bit wheel; the wasm column runs only in `make bench`)."""
from dicecup_host import bench_app


def test_the_app_section_runs_short_on_fw32_and_the_wheel(fw32, capsys):
    out = {}
    res = bench_app.app_section(out, quick=True, runtimes=("fw32", "wheel"), play_ms=3000)
    text = capsys.readouterr().out
    assert out["app"] is res
    for rt in ("fw32", "wheel"):
        f = res["ram"][rt]
        assert f["rc"] == 0 and f["lobby"] == 1, f          # the Ui's menu drawn after boot
        assert 0 < f["lobby_kb"] <= f["peak_kb"], f
        assert f["shakes"] >= 1, f                          # the game was on: a roll was shaken
        cases = res["press"][rt]
        for case in ("cursor", "peek", "lobby"):
            assert cases[case]["changed"] == 10, (rt, case, cases[case])   # each press: a new screen
        for case in ("cursor", "peek", "lobby", "redraw", "same"):
            assert cases[case]["same_ram"] == 10, (rt, case, cases[case])  # the OLED holds the frame
            assert cases[case]["whole"] == 10, (rt, case, cases[case])     # ... a whole draw's frame
        assert cases["redraw"]["changed"] == 0 and cases["same"]["changed"] == 0
        # a whole frame is 1,037 bytes in 7 transfers; a cursor move only its changed pages
        assert cases["redraw"]["bytes"] == 1037 and cases["redraw"]["transfers"] == 7
        assert 0 < cases["cursor"]["bytes"] < 1037 // 4 and cases["same"]["bytes"] == 0
        assert 0 < cases["peek"]["bytes"] < 1037 // 4         # a peek turns my dice only
        chain = cases["chain"]
        assert chain["hops"] >= 2 and chain["span"] == chain["hops"] * bench_app.LINK_MS, chain
        assert 0 < chain["pbytes"] < 1037, chain
    # a 32-bit build holds less than the 64-bit one
    assert res["ram"]["fw32"]["lobby_kb"] < res["ram"]["wheel"]["lobby_kb"]
    assert "32-bit frozen (fw32)" in text and "bid confirmed through the master" in text
    assert "goal <= 30 ms" in text and "goal <= 10 ms" in text


def test_wire_time_of_a_full_screen_at_400_khz():
    # 1,025 data bytes and six 2-byte commands, 7 address bytes: 9 clocks a byte
    assert abs(bench_app.wire_ms(1037, 7, 400000) - 23.525) < 0.01
