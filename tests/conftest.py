"""The suite's markers (registered in pyproject.toml), given by what a test uses:

* ``browser``: drives Chromium through Playwright; every test using the ``browser`` fixture of
  ``test_web_browser`` gets it here, the few that launch their own browser are marked by hand;
* ``cluster``: needs several processes or services: a throwaway PostgreSQL cluster (every test
  using the ``pg_url`` fixture gets it here), Ray, or ``bonepile serve`` workers;
* ``slow``: takes seconds of work of its own (long searches, many games, restarts).

``pytest -m "not browser and not cluster and not slow"`` is the quick loop.

``web_server``: one ``bonepile serve`` (a child process, bots without delay) per test process,
for the browser modules whose tests each make their own tables and look only at those
(``test_web_browser.server`` hands it on); a module that needs other settings or a fresh
server starts its own."""

from __future__ import annotations

import pytest

#: fixture -> the marker every test using it gets
MARKED_BY_FIXTURE = {"browser": "browser", "pg_url": "cluster"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for fixture in getattr(item, "fixturenames", ()):
            marker = MARKED_BY_FIXTURE.get(fixture)
            if marker is not None:
                item.add_marker(marker)


@pytest.fixture(scope="session")
def web_server(tmp_path_factory):
    """The address of a ``bonepile serve`` shared by the browser modules (starting one took
    about three seconds a module).  The limits per client address are lifted, as for
    ``webutil.InProcess``: every test comes from 127.0.0.1, and the counts add up over a run."""
    from webutil import logged_server

    args = (
        *("--bot-delay", "0", "--create-rate", "100000", "--profile-rate", "100000"),
        *("--watch-rate", "100000", "--address-bot-tables", "100000"),
    )
    with logged_server(tmp_path_factory.mktemp("serve"), *args) as base:
        yield base
