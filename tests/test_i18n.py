"""The client's words: every language has every key of English, with the same placeholders,
and the server answers each language's catalogue (and a clear error for an unknown one)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from bonepile.web.app import create_app
from bonepile.web.i18n import LANGUAGES, catalogue

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _forms(cat: dict[str, str]) -> set[str]:
    """Keys without their plural suffix (languages differ in which plural forms they need)."""
    return {re.sub(r"\.(zero|one|two|few|many|other)$", "", k) for k in cat}


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_every_key_in_every_language(lang: str) -> None:
    en, other = catalogue("en"), catalogue(lang)
    assert sorted(_forms(en) - _forms(other)) == [], f"{lang} lacks these keys"
    assert sorted(_forms(other) - _forms(en)) == [], f"{lang} has keys English does not"
    for key, text in other.items():
        assert text.strip(), f"{lang}: {key} is empty"
        base = re.sub(r"\.(zero|one|two|few|many|other)$", "", key)
        english = en.get(key) or en.get(base + ".other") or en.get(base, "")
        assert set(PLACEHOLDER.findall(text)) <= set(PLACEHOLDER.findall(english)) | {"n"}, (lang, key)


def test_the_server_answers_each_catalogue(tmp_path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite'}")) as client:
        for lang in LANGUAGES:
            res = client.get(f"/i18n/{lang}.json")
            assert res.status_code == 200
            assert res.json() == catalogue(lang)
        res = client.get("/i18n/xx.json")
        assert res.status_code == 404
        assert "xx" in res.json()["error"]
