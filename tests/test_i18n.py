"""The client's words: every language has every key of English, with the same placeholders,
and the server answers each language's catalogue (and a clear error for an unknown one)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from bonepile.web.app import create_app
from bonepile.web.words.i18n import LANGUAGES, catalogue

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


#: words that are the same in English and another language: the games' and the bonuses' own
#: names, the bots, the call "Domino!", a tile as two numbers; and per language the words it
#: shares with English (Dutch says "team", "partner" and "lobby" too, Danish "status"...)
SAME_EVERYWHERE = {
    "Quinientos",
    "Domino del Cinque",
    "Blind Hugie",
    "Billitonnen",
    "All Fives",
    "Muggins",
    "Fives and Threes",
    "Capicúa",
    "Pase redondo",
    "Capicú",
    "capicú",
    "Chuchazo",
    "chuchazo",
    "Domino!",
    "domino",
    "{a}-{b}",
    "{part}!",
    "Bot",
    "bot",
    "Bot {n}",
    "Bot: {level}",
    "Buchholz",  # a tie-break named after its inventor
    "{name} (bot)",
}
SAME_WORD = {
    "es": {"Total", "total {n}", "no"},
    "it": {"no"},
    "da": {"Lobby", "bonepile: lobby", "Send", "Status", "blank", "side {n}", "{n} point"},
    "nl": {
        "Lobby",
        "bonepile: lobby",
        "Bot: beginner",
        "Bot: expert",
        "L",
        "R",
        "Partner ({where})",
        "Partners",
        "partner",
        "Team {n}",
        "team {n}",
        "Teams: {text}.",
        "blank",
        "code {code}",
        "Blunder",  # the chess word, Dutch too
        "{n} blunder",
        "{n} blunders",
        "open",  # an open train: the same word in Dutch
    },
    "id": {"Status"},
}


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_no_english_left_in_another_language(lang: str) -> None:
    en, other = catalogue("en"), catalogue(lang)
    same = sorted(
        k
        for k, text in other.items()
        if en.get(k) == text
        and text not in SAME_EVERYWHERE | SAME_WORD[lang]
        and any(ch.isalpha() for ch in PLACEHOLDER.sub("", text))  # punctuation is no language
    )
    assert same == [], f"{lang}: these keys still have the English words"


def test_the_server_words_have_keys_in_the_catalogue() -> None:
    """Every game, option, value and bot level the server names comes with a key the
    catalogue has, whose English words are the ones the server sends."""
    from bonepile.web.words.catalog import catalogue as games

    en = catalogue("en")
    c = games()
    pairs = list(zip(c["bot_keys"], c["bot_labels"], strict=True))
    for v in c["variants"]:
        pairs += [(v["label_key"], v["label"]), (v["description_key"], v["description"])]
        # the words for the game at each player count (".stock" where a boneyard appears)
        assert [k for k in v["description_keys"].values() if k not in en] == [], v["name"]
        for o in v["options"]:
            pairs += [(o["label_key"], o["label"]), (o["help_key"], o["help"])]
            if o["values"] is not None:
                assert o["value_keys"] is not None and o["labels"] is not None
                pairs += [(k, w) for k, w in zip(o["value_keys"], o["labels"], strict=True) if k is not None]
                assert all(k is not None for k in o["value_keys"]), (v["name"], o["name"])
    assert len(pairs) > 100
    assert [(k, w) for k, w in pairs if en.get(k) != w] == []
    for level in ("random", "greedy", "expert", "beginner", "casual", "strong"):
        assert f"bot.level.{level}" in en
    assert en["count.multiple_of_five"] == "a multiple of five"
