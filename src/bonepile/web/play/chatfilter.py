"""The server-wide chat word filter (``bonepile serve --chat-filter FILE``): the words and
phrases of a list are masked in every chat line (``f***``), for everybody at the table.

Matching is on whole words, whatever the case or the accents (``Ça`` is ``ca``), and sees
through the two usual disguises without going further: a letter said again and again
(``fuuuck``) and single letters spelled out with one separator between each (``f.u.c.k``,
``f u c k``, ``f-u-c-k``).  A phrase's words may be separated by any spaces or punctuation.
No I/O here but ``load``: the rest is pure and tested on its own."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

#: what may stand between the spelled-out letters of a word (one or two of them)
SEPARATORS = r"[\s.\-_*+~·,'\"/\\|]{1,2}"


class ChatFilterError(ValueError):
    """A word list that cannot be used (unreadable, not UTF-8, no word in it)."""


def fold(text: str) -> tuple[str, list[int]]:
    """``text`` without case or accents, and for each character of the result the index of the
    character of ``text`` it comes from (a letter may fold into two, as ``ß`` into ``ss``)."""
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        for part in unicodedata.normalize("NFKD", ch):
            if unicodedata.combining(part):
                continue
            for c in part.casefold():
                out.append(c)
                origin.append(i)
    return "".join(out), origin


def _letters(word: str) -> list[str]:
    """A folded word's letters, a run of one letter said once (``kill`` -> k, i, l)."""
    out: list[str] = []
    for ch in word:
        if not out or out[-1] != ch:
            out.append(ch)
    return out


def _word_pattern(word: str) -> str:
    """One word as a pattern: as written (each letter one or more times, no fewer than the
    word has in a row), or spelled out with a separator between every letter."""
    runs: list[tuple[str, int]] = []
    for ch in word:
        if runs and runs[-1][0] == ch:
            runs[-1] = (ch, runs[-1][1] + 1)
        else:
            runs.append((ch, 1))
    joined = "".join(f"{re.escape(c)}{{{n},}}" for c, n in runs)
    if len(word) < 2:
        return joined
    spelled = SEPARATORS.join(f"{re.escape(c)}+" for c in word)
    return f"(?:{joined}|{spelled})"


def _entry_pattern(words: list[str]) -> str:
    """A listed phrase's folded words as one pattern (any spaces or punctuation between)."""
    return r"[\W_]+".join(_word_pattern(w) for w in words)


class ChatFilter:
    """The listed words and phrases as one pattern; ``mask`` hides them in a line."""

    def __init__(self, entries: Iterable[str]):
        by_first: dict[str, set[str]] = {}  # the patterns by the letter they start with
        for e in entries:
            words = [w for w in re.split(r"[\W_]+", fold(e)[0]) if w]
            if words:
                by_first.setdefault(words[0][0], set()).add(_entry_pattern(words))
        if not by_first:
            raise ChatFilterError("the word list has no word in it")
        self.size = sum(map(len, by_first.values()))
        # one group per first letter, which a lookahead opens or skips at once (the regular
        # expression engine would otherwise try every word at every word's start)
        groups = "|".join(
            f"(?={re.escape(c)})(?:{'|'.join(sorted(ps, key=len, reverse=True))})"
            for c, ps in by_first.items()
        )
        # whole words: no letter or digit just before or just after
        self._re = re.compile(r"(?<![^\W_])(?:" + groups + r")(?![^\W_])")

    @classmethod
    def parse(cls, text: str) -> ChatFilter:
        """A word list's text: one word or phrase a line; blank lines and ``#`` comments are
        left out."""
        entries = []
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                entries.append(line)
        return cls(entries)

    def mask(self, text: str) -> str:
        """``text`` with each listed word's letters but the first made ``*`` (spaces and
        separators between spelled-out letters stay)."""
        folded, origin = fold(text)
        chars = list(text)
        changed = False
        for m in self._re.finditer(folded):
            start, end = origin[m.start()], origin[m.end() - 1] + 1
            for i in range(start + 1, end):
                if chars[i].isalnum():
                    chars[i] = "*"
                    changed = True
        return "".join(chars) if changed else text


def load(path: str | Path) -> ChatFilter:
    """The word list in the UTF-8 file ``path`` (ChatFilterError, in words, if it cannot be
    used)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ChatFilterError(f"{path} is not UTF-8 text") from None
    except OSError as e:
        raise ChatFilterError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        return ChatFilter.parse(text)
    except ChatFilterError as e:
        raise ChatFilterError(f"{path}: {e} (one word or phrase a line; # starts a comment)") from None
