"""The suite's markers (registered in pyproject.toml), given by what a test uses:

* ``browser``: drives Chromium through Playwright; every test using the ``browser`` fixture of
  ``test_web_browser`` gets it here, the few that launch their own browser are marked by hand;
* ``cluster``: needs several processes or services: a throwaway PostgreSQL cluster (every test
  using the ``pg_url`` fixture gets it here), Ray, or ``bonepile serve`` workers;
* ``slow``: takes seconds of work of its own (long searches, many games, restarts).

``pytest -m "not browser and not cluster and not slow"`` is the quick loop."""

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
