"""Fixtures for the app's tests: whole emulated cups running dicecup/app.py."""
import pytest


@pytest.fixture
def app_table():
    """AppTable(boards, seed=...) factory (host/dicecup_host/appsim.py); closes them."""
    from dicecup_host import appsim
    made = []

    def make(boards, **kw):
        t = appsim.AppTable(boards, **kw)
        made.append(t)
        return t
    yield make
    for t in made:
        t.close()
