"""The chat word filter (``bonepile.web.play.chatfilter``): whole listed words are masked in any
case, with or without accents, said with repeated letters or spelled out with separators;
text with no listed word is never changed; a word list without words, unreadable or not
UTF-8 is refused in words."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonepile.web.play.chatfilter import FOLD_MAX, LEET, ChatFilter, ChatFilterError, fold, load

WORDS = ChatFilter.parse("# rude words\nfrack\n\nsmeg  # a comment after a word\nson of a gun\nass\n")


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("frack you", "f**** you"),
        ("FRACK!", "F****!"),
        ("Fräck", "F****"),  # accents do not hide a word
        ("FRAAACKK", "F*******"),  # nor letters said again
        ("f.r.a.c.k off", "f.*.*.*.* off"),  # nor spelled-out letters
        ("f r a c k", "f * * * *"),
        ("f-r-a-c-k", "f-*-*-*-*"),
        ("smeg,smeg", "s***,s***"),
        ("Son-of-a gun!", "S**-**-* ***!"),
        ("son  of a   GUN", "s**  ** *   ***"),
        ("you ass", "you a**"),
    ],
)
def test_listed_words_are_masked(said, shown):
    assert WORDS.mask(said) == shown


@pytest.mark.parametrize(
    "said",
    [
        "fracking is a word of its own",  # whole words only
        "smegma",
        "class, bass and assets",  # "ass" inside other words
        "as I said",  # fewer letters than the word has in a row
        "a son of a friend",  # a phrase needs all its words
        "frac k",  # a word broken unevenly is no spelled-out word
        "",
    ],
)
def test_other_text_is_left_alone(said):
    assert WORDS.mask(said) == said


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("fr4ck", "f****"),  # digits and signs for letters
        ("fr@ck off", "f**** off"),
        ("$meg", "$***"),
        ("5m3g", "5***"),
        ("@ss", "@**"),
        ("a$$!", "a**!"),
        ("s0n 0f 4 gun", "s** ** * ***"),
        ("fr\u0430ck", "f****"),  # a Cyrillic a
        ("\u0455m\u0435g", "\u0455***"),  # Cyrillic dze and ie
        ("fr\u03b1\u03c2k", "fr\u03b1\u03c2k"),  # a Greek final sigma is no c
        ("fr\u03b1ck", "f****"),  # a Greek alpha
        ("f . r . a . c . k", "f . * . * . * . *"),  # spaced separators
        ("F R 4 C K", "F * * * *"),
    ],
)
def test_disguised_words_are_masked(said, shown):
    assert WORDS.mask(said) == shown


@pytest.mark.parametrize("said", ["4 ass3ts", "c1ass", "s3mester", "as 5 said", "fr4cking"])
def test_stand_ins_inside_other_words_are_left_alone(said):
    assert WORDS.mask(said) == said


def test_a_character_folds_into_a_bounded_number_of_letters():
    """U+FDFA folds (NFKD) into 18 characters: it counts as a space, so a line of the longest
    chat costs no more than FOLD_MAX letters a character, and words around it are still seen."""
    line = "\ufdfa" * 200
    folded, origin = fold(line)
    assert len(folded) <= FOLD_MAX * len(line)
    assert len(origin) == len(folded)
    assert WORDS.mask(line) == line
    assert WORDS.mask("\ufdfafrack\ufdfa") == "\ufdfaf****\ufdfa"
    assert fold("\ufb03")[0] == "ffi"  # a ligature of three letters is kept


def test_a_word_list_without_words_or_file_is_refused(tmp_path):
    for text in ("", "# only a comment\n\n   \n", "--- ...\n"):
        with pytest.raises(ChatFilterError, match="no word"):
            ChatFilter.parse(text)
    f = tmp_path / "words.txt"
    f.write_bytes(b"\xff\xfe rude")
    with pytest.raises(ChatFilterError, match="not UTF-8"):
        load(f)
    with pytest.raises(ChatFilterError, match="cannot read"):
        load(tmp_path / "missing.txt")
    f.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(ChatFilterError, match="no word"):
        load(f)
    f.write_text("Grüße\n", encoding="utf-8")
    assert load(f).mask("GRUSSE") == "G*****"


# ---------------------------------------------------------------------------- properties
word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)
filler = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 .,!?", max_size=40)


@settings(max_examples=200, deadline=None)
@given(word, st.lists(st.booleans(), min_size=8, max_size=8), filler, filler)
def test_a_listed_word_is_masked_in_any_case(w, upper, before, after):
    f = ChatFilter([w])
    said = "".join(c.upper() if up else c for c, up in zip(w, upper))
    line = f"{before} {said} {after}"
    out = f.mask(line)
    # its first letter kept, unless the filler spells the word too with letters around it
    # ("a aaa a" for "aaa"): then a match starting before it covers its first letter as well
    assert f"{said[0]}{'*' * (len(w) - 1)}" in out or "*" * len(w) in out
    assert len(out) == len(line)
    assert said not in out.split()


@settings(max_examples=200, deadline=None)
@given(word, filler)
def test_text_with_no_letter_of_the_words_is_never_changed(w, text):
    f = ChatFilter([w, w[::-1] + "x"])
    stand_ins = "".join(LEET.get(c, "") for c in w + "x")
    text = "".join(c for c in text if c not in w + "x" + stand_ins)
    assert f.mask(text) == text


@settings(max_examples=200, deadline=None)
@given(word, st.lists(word, max_size=6))
def test_words_that_are_not_the_listed_one_are_never_changed(w, others):
    """Words (each of two letters or more, not all one letter) that differ from the listed
    one even with their repeated letters said once are left as they are."""

    def once(s: str) -> str:
        return "".join(c for i, c in enumerate(s) if i == 0 or s[i - 1] != c)

    others = [o for o in others if once(o) != once(w) and len(set(o)) > 1]
    text = " ".join(others)
    assert ChatFilter([w]).mask(text) == text
