"""Browser pages at the sizes the tests play at (a pytest plugin: ``pytest_plugins =
["pages"]``).  ``sized`` needs a ``browser`` fixture from the test module using it."""

from __future__ import annotations

import json

import pytest

#: the window sizes of the browser tests
SIZES = {"phone": (390, 844), "phone-landscape": (844, 390), "laptop": (1366, 768), "small-phone": (360, 640)}


@pytest.fixture
def sized(browser):
    """A page factory: sized("phone") -> a touch page of that size, under no CSP (the harness
    evaluates strings and injects scripts), closed after the test, which fails on any
    JavaScript error the page raised.  Each page is a browser of its own (another person);
    ``profile``: the profile id that browser remembers."""
    made = []

    def make(size: str, profile: str | None = None):
        w, h = SIZES[size]
        ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=True, bypass_csp=True)
        if profile:
            mine = json.dumps({"id": profile, "key": "not-needed-to-read"})
            ctx.add_init_script(f"localStorage.setItem('bonepile:profile', {json.dumps(mine)})")
        pg = ctx.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.set_default_timeout(15000)
        made.append((ctx, errors))
        return pg

    yield make
    for ctx, errors in made:
        ctx.close()
        assert not errors, f"JavaScript errors on the page: {errors}"
