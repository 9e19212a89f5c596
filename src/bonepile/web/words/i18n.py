"""The web client's words per language: the files under ``static/i18n/<lang>/`` (flat JSON
objects, key to text) merged into the one object ``GET /i18n/<lang>.json`` answers.  The text
is written in the project for each language; ``tests/test_i18n.py`` checks that every language
has every key, with the same placeholders."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

ROOT = Path(__file__).parents[1] / "static" / "i18n"
LANGUAGES = ("en", "es", "it", "da", "nl", "id")


@cache
def strings(lang: str) -> bytes:
    """The merged catalogue of lang as JSON bytes (KeyError for a language we do not have)."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    return json.dumps(catalogue(lang), ensure_ascii=False, sort_keys=True).encode()


def catalogue(lang: str) -> dict[str, str]:
    """Key to text for lang, merged over its files in name order; a key twice is an error."""
    out: dict[str, str] = {}
    for path in sorted((ROOT / lang).glob("*.json")):
        part = json.loads(path.read_text(encoding="utf-8"))
        for key, text in part.items():
            if key in out:
                raise ValueError(f"{lang}: the key {key!r} is in two files ({path.name})")
            out[key] = text
    return out
