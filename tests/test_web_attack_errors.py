"""Issue 13, finding 9: bad requests that used to get a plain-text 500 (a traceback in the
log) get a JSON error: JSON nested very deep, a NUL byte in a file name."""

from __future__ import annotations

import pytest

from webutil import InProcess


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("errors") / "db"
    with InProcess(f"sqlite:///{db}") as s:
        yield s


@pytest.mark.parametrize("path", ["/api/tables", "/api/tables/abc/join", "/api/tables/abc/start"])
def test_json_nested_too_deep_is_a_json_error(srv, path):
    if path != "/api/tables":
        path = path.replace(
            "abc", srv.create({"variant": "block", "players": 2, "seats": [{"kind": "human"}] * 2})["id"]
        )
    r = srv.post(path, content=b"[" * 100_000 + b"]" * 100_000, headers={"content-type": "application/json"})
    assert r.status_code == 400, (r.status_code, r.text[:200])
    assert "nested too deeply" in r.json()["error"]


def test_a_nul_byte_in_a_file_name_is_a_json_404(srv):
    r = srv.get("/static/common.js%00.png")
    assert r.status_code == 404 and "error" in r.json()
