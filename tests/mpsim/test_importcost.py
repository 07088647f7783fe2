"""bench_app.import_costs(): the heap each firmware module costs when imported on the
32-bit frozen build (upy/importcost.py), to find where a cup's RAM goes. Cheap: the
import order worked out from the sources. Heavy (the fw32 fixture): the figures."""
import pytest

from dicecup_host import bench_app


def test_each_module_comes_after_what_it_imports():
    mods = bench_app.firmware_modules()
    order = bench_app.import_order(mods)
    assert sorted(order) == sorted(mods)
    at = dict((n, i) for i, n in enumerate(order))

    def reaches(a, b, seen):
        if a == b:
            return True
        seen.add(a)
        return any(reaches(x, b, seen) for x in mods[a] if x not in seen)
    for name, deps in mods.items():
        for d in deps:
            if not reaches(d, name, set()):      # (a cycle, such as a package and its module: either way)
                assert at[d] < at[name], (d, name)
    # a package before its modules; a module's top-level imports found (not its functions')
    assert at["dicecup.net"] < at["dicecup.net.cup"]
    assert "dicecup.net.wire" in mods["dicecup.net.cup"] or "dicecup.net.wire" in mods["dicecup.net.table"]


@pytest.mark.heavy
def test_import_costs_on_fw32(fw32):
    costs = bench_app.import_costs()
    by = dict((n, (c, held)) for n, c, held in costs)
    assert set(by) == set(bench_app.firmware_modules())
    # every module a cup runs imports on fw32 and costs heap (its module object at least)
    assert by["dicecup.net.table"][0] > 200 and by["dicecup.net.table"][1]
    assert by["dicecup.app"][1] and by["dicecup.net.cup"][1]
    # the simulation's medium is not a cup's; CircuitPython's side does not import here
    assert not by["dicecup.net.sim"][1]
    assert by["dicecup.hw.cp"][0] == -1
    assert [c for _, c, _ in costs] == sorted((c for _, c, _ in costs), reverse=True)
    held = sum(c for _, c, h in costs if h and c > 0)
    assert 10 * 1024 < held < 60 * 1024, held
