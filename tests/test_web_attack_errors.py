"""Issue 13, finding 9: bad requests that used to get a plain-text 500 (a traceback in the
log) get a JSON error: JSON nested very deep, a NUL byte in a file name; and (issue 27, item 10)
lone UTF-16 surrogates, NaN and Infinity in a body."""

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


# ---------------------------------------------------------------------------- issue 27, item 10
def _post_raw(srv, path: str, text: str):
    return srv.post(path, content=text.encode(), headers={"content-type": "application/json"})


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("/api/tables", '{"variant": "block", "players": "\\ud800"}'),
        (
            "/api/tables",
            '{"variant": "block", "players": 2, "seats": [{"kind": "human", "name": "a\\udfffb"}]}',
        ),
        ("/api/tables", '{"\\ud83d": 1}'),  # a key too
        ("/api/tables/abc/start", '{"token": "\\ud800"}'),
        ("/api/tables/abc/join", '{"name": "x\\ud800"}'),
        ("/api/profiles", '{"name": "\\udc00"}'),
        ("/api/tables", '{"variant": "block", "players": NaN}'),
        ("/api/tables", '{"variant": "block", "players": 2, "target": Infinity}'),
        ("/api/profiles", '{"name": -Infinity}'),
        ("/api/profiles/claim", '{"code": NaN}'),
    ],
)
def test_lone_surrogates_and_nan_are_a_400_json_error_with_a_code(srv, path, text):
    if "abc" in path:
        path = path.replace(
            "abc", srv.create({"variant": "block", "players": 2, "seats": [{"kind": "human"}] * 2})["id"]
        )
    r = _post_raw(srv, path, text)
    assert r.status_code == 400, (r.status_code, r.text[:300])
    body = r.json()
    assert body["code"] == "not_json"
    assert "surrogate" in body["error"] or "is not a JSON number" in body["error"]


def test_a_surrogate_pair_is_still_text(srv):
    """An escaped pair (an emoji past U+FFFF) is a character, not a refusal."""
    r = _post_raw(srv, "/api/profiles", '{"name": "Ana \\ud83d\\ude00"}')
    assert r.status_code == 200, r.text
    assert r.json()["name"] == "Ana \U0001f600"
