"""Issue 13, finding 10: invisible (U+3164), zalgo and impersonating names ("expert bot 1")
were accepted.  Names are now normalised (NFC, spaces) and checked, and a person's name may
not pass for a bot's or the server's."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bonepile.web.validate import NAME_MAX, RequestError, clean_name, person_name
from webutil import InProcess

PEOPLE2 = {"variant": "block", "players": 2, "seats": [{"kind": "human"}] * 2}


@pytest.mark.parametrize(
    "given_name, stored",
    [
        ("  Ann   Lee ", "Ann Lee"),
        ("Ann\u3000\u00a0Lee", "Ann Lee"),  # an ideographic and a no-break space
        ("Ann\u2028\tLee\n", "Ann Lee"),  # a line separator, a tab, a new line
        ("Jose\u0301", "Jos\u00e9"),  # e + a combining acute: composed
        ("Nguy\u1ec5n", "Nguy\u1ec5n"),
        ("Zo\u00eb \U0001f60a", "Zo\u00eb \U0001f60a"),
        ("\u2764\ufe0f Mia", "\u2764\ufe0f Mia"),  # an emoji with its variation selector
        ("\U0001f469\u200d\U0001f4bb Dev", "\U0001f469\u200d\U0001f4bb Dev"),  # a joined emoji
        ("\u0e2a\u0e21\u0e0a\u0e32\u0e22", "\u0e2a\u0e21\u0e0a\u0e32\u0e22"),  # Thai
        ("\u0645\u0631\u064a\u0645", "\u0645\u0631\u064a\u0645"),  # Arabic
        ("Robot Rick", "Robot Rick"),  # "bot" inside a word is a person's name
        ("Abbott", "Abbott"),
        ("Botond", "Botond"),
    ],
)
def test_names_are_normalised(given_name, stored):
    assert person_name(given_name, "You") == stored


@pytest.mark.parametrize(
    "bad, words",
    [
        ("\u3164", "U+3164 HANGUL FILLER"),
        ("Ann\u3164", "U+3164 HANGUL FILLER"),
        ("\u115f\u1160", "U+115F HANGUL CHOSEONG FILLER"),
        ("\uffa0", "U+FFA0 HALFWIDTH HANGUL FILLER"),
        ("\u2800", "U+2800 BRAILLE PATTERN BLANK"),
        ("An\u200bn", "U+200B ZERO WIDTH SPACE"),
        ("\u202eevil", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("\u2066Ann\u2069", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("\ufeffAnn", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("Ann\u00ad", "U+00AD SOFT HYPHEN"),
        ("A\u034fnn", "U+034F COMBINING GRAPHEME JOINER"),
        ("Ann\x07", "U+0007"),
        ("Ann\nLee\x00", "U+0000"),
        ("Ann\ue000", "U+E000"),  # private use
        ("Ann\ud800", "U+D800"),  # a lone surrogate (JSON can carry one)
        ("A\u200dnn", "U+200D ZERO WIDTH JOINER"),  # a joiner between letters shows nothing
    ],
)
def test_invisible_and_control_characters_are_refused(bad, words):
    with pytest.raises(RequestError, match="invisible or control characters") as e:
        person_name(bad, "You")
    assert words in e.value.message and e.value.status == 400


ZALGO = "Z\u0351\u0362\u0489\u0335a\u0334\u0358\u0327\u0320l\u0337\u0315\u0319\u0320g\u0336o"


@pytest.mark.parametrize("bad", [ZALGO, "a" + "\u0301" * 5, "\u0301Ann", "x" + "\u20dd" * 5])
def test_zalgo_is_refused(bad):
    with pytest.raises(RequestError, match="too many accents on one letter"):
        person_name(bad, "You")


def test_three_accents_on_a_letter_are_allowed():
    assert person_name("a\u0301\u0302\u0303", "You") == unicodedata.normalize("NFC", "a\u0301\u0302\u0303")


@pytest.mark.parametrize(
    "bad",
    [
        "bot",
        "Bot",
        "BOT",
        "expert bot 1",
        "Expert Bot 1",
        "expert  bot   2",
        "greedy bot",
        "random bot 3",
        "expert-bot",
        "Greedy_Bot_0",
        "expertbot1",
        "bots",
        "Bot Rick",
        "the bot",
        "\uff42\uff4f\uff54",  # fullwidth
        "\U0001d41b\U0001d428\U0001d42d",  # mathematical bold
        "b\u043et",  # a Cyrillic o
        "B0T",
        "b\u00f3t",  # an accent
        "bonepile",
        "Bonepile admin",
        "BonePile",
    ],
)
def test_names_passing_for_a_bot_or_the_server_are_refused(bad):
    with pytest.raises(RequestError, match="looks like a bot's or the server's"):
        person_name(bad, "You")


def test_a_bot_seat_may_be_named_like_a_bot_and_defaults_stay():
    assert clean_name("expert bot 1", "x") == "expert bot 1"
    assert person_name(None, "You") == "You" and person_name("   ", "Seat 1") == "Seat 1"


@given(st.text(max_size=40))
def test_any_text_is_a_clean_name_or_a_clear_refusal(text):
    try:
        name = person_name(text, "You")
    except RequestError as e:
        assert e.status == 400 and e.message
        return
    assert name == "You" or (
        name == name.strip()
        and "  " not in name
        and len(name) <= NAME_MAX
        and unicodedata.is_normalized("NFC", name)
        and all(unicodedata.category(c)[0] != "C" or c == "\u200d" for c in name)
    )


def test_the_api_refuses_bad_names_where_people_name_themselves(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db") as srv:
        for body in [
            {**PEOPLE2, "player": "\u3164"},
            {**PEOPLE2, "player": "expert bot 1"},
            {**PEOPLE2, "seats": [{"kind": "human", "name": ZALGO}, {"kind": "human"}]},
            {**PEOPLE2, "seats": [{"kind": "human"}, {"kind": "human", "name": "Bot"}]},
        ]:
            r = srv.post("/api/tables", body)
            assert r.status_code == 400 and "name" in r.json()["error"], r.text
        made = srv.create({**PEOPLE2, "player": "  Jose\u0301  "})
        tid = made["id"]
        assert srv.info(tid)["seats"][made["seat"]]["name"] == "Jos\u00e9"
        for bad in ["\u3164", "An\u200bn", ZALGO, "Expert Bot 1", "greedy bot", "bonepile"]:
            r = srv.post(f"/api/tables/{tid}/join", {"name": bad})
            assert r.status_code == 400 and "error" in r.json(), r.text
        assert [s["claimed"] for s in srv.info(tid)["seats"]] == [True, False]  # nothing taken
        srv.join(tid, "Ann  Lee")
        assert [s["name"] for s in srv.info(tid)["seats"]] == ["Jos\u00e9", "Ann Lee"]
        # the bots keep their names
        bots = srv.create({"variant": "block", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]})
        assert srv.info(bots["id"])["seats"][1]["name"] == "expert bot 1"


def test_the_server_says_which_names_it_gave_so_a_client_words_them(tmp_path):
    """A seat or table nobody named has the server's English name and ``named: false``; one a
    person named has ``named: true`` (the client knows no English default to recognise)."""
    with InProcess(f"sqlite:///{tmp_path}/db") as srv:
        made = srv.create(
            {
                "variant": "draw",
                "players": 3,
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "casual"}],
            }
        )
        info = srv.info(made["id"])
        assert info["name"] == "draw table" and info["named"] is False
        seats = [(s["name"], s["named"]) for s in info["seats"]]
        assert seats == [("Seat 0", False), ("Seat 1", False), ("casual bot 2", False)]
        srv.join(made["id"], "")  # a person who gives no name is still called by their seat
        assert srv.info(made["id"])["seats"][1]["named"] is False
        named = srv.create(
            {
                "variant": "draw",
                "players": 2,
                "name": "Friday",
                "player": "Ana",
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy", "name": "Robo"}],
            }
        )
        info = srv.info(named["id"])
        assert info["named"] is True
        assert [(s["name"], s["named"]) for s in info["seats"]] == [("Ana", True), ("Robo", True)]


def test_the_client_recognises_no_english_default_name():
    from pathlib import Path

    static = Path(__file__).resolve().parents[1] / "src" / "bonepile" / "web" / "static"
    for js in static.rglob("*.js"):
        text = js.read_text(encoding="utf-8")
        for english in ("bot ${", "Seat ${", "} table`"):
            assert english not in text, f"{js.name} matches the server's English name {english!r}"


def test_a_games_description_depends_on_the_player_count():
    """Only where the rules differ: Block and Muggins deal every tile to 4, and leave a stock to 2 or 3."""
    from bonepile.web.words.catalog import catalogue

    keys = {v["name"]: v["description_keys"] for v in catalogue()["variants"]}
    assert keys["block"] == {
        "2": "variant.block.description.stock",
        "3": "variant.block.description.stock",
        "4": "variant.block.description",
    }
    assert set(keys["draw"].values()) == {"variant.draw.description"}
    # Muggins' 7 tiles each leave a stock to 2 or 3 players, none to 4 (RULES.md §10)
    assert keys["muggins"] == {
        "2": "variant.muggins.description.stock",
        "3": "variant.muggins.description.stock",
        "4": "variant.muggins.description",
    }
    assert all(len(set(k.values())) == 1 for name, k in keys.items() if name not in ("block", "muggins"))
