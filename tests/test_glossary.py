"""One word per idea in each language (issue 26: Spanish mixed premio/bono and punta/extremo,
Indonesian babak/ronde and lewat/pas, Danish wrote "Ratet spil").  Each language has a
glossary (``web/words/glossary/<lang>.json``): for each idea the word people read, and the
words that must not stand for it.  Every word the client shows in that language is checked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bonepile.web.words.i18n import LANGUAGES, catalogue

GLOSSARY = Path(__file__).resolve().parents[1] / "src" / "bonepile" / "web" / "words" / "glossary"


def _glossary(lang: str) -> list[dict]:
    return json.loads((GLOSSARY / f"{lang}.json").read_text(encoding="utf-8"))["ideas"]


def _found(phrase: str, text: str) -> bool:
    return re.search(r"(?<![\w{])" + re.escape(phrase.lower()) + r"(?![\w}])", text.lower()) is not None


def test_every_language_has_a_glossary():
    assert sorted(p.stem for p in GLOSSARY.glob("*.json")) == sorted(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_word_per_idea(lang):
    words = catalogue(lang)
    ideas = _glossary(lang)
    assert ideas
    wrong = []
    for idea in ideas:
        used = [k for k, text in words.items() if _found(idea["word"], text)]
        assert used, f"{lang}: the glossary's word {idea['word']!r} for {idea['idea']} is used nowhere"
        for avoid in idea["avoid"]:
            wrong += [(idea["idea"], avoid, k) for k, text in words.items() if _found(avoid, text)]
    assert not wrong, f"{lang}: words that should be the glossary's: {wrong}"


def test_the_check_finds_a_mixed_word():
    assert _found("premio", "más un premio en las primeras manos")
    assert not _found("pas", "kamu lewat, pasang kartu")
    assert _found("por el lado {arm}", "juega {tile} por el lado {arm}")
