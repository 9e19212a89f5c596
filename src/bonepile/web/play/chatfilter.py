"""The server-wide chat word filter (``bonepile serve --chat-filter FILE``): the words and
phrases of a list are masked in every chat line (``f***``), for everybody at the table.

Matching is on whole words, whatever the case or the accents (``Ça`` is ``ca``), and sees
through the usual disguises: a letter said again and again (``fuuuck``), single letters
spelled out with a separator or two between each (``f.u.c.k``, ``f u c k``, ``f-u-c-k``),
digits and signs standing for letters (``4ss``, ``$m3g``, ``k1ll``) and Cyrillic or Greek
letters that look like Latin ones (``аss`` with a Cyrillic ``а``).  A phrase's words may be
separated by any spaces or punctuation.

The cost of a line is bounded whatever its characters: each character folds, through a
table built once per character, into at most ``FOLD_MAX`` letters (a character that would
fold into more, as U+FDFA into 18, counts as a space), so a line of ``CHAT_MAX`` characters
is at most ``FOLD_MAX`` times as long once folded, and runs of a letter are matched without
going back.  No I/O here but ``load``: the rest is pure and tested on its own."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from ..validate import LOOKALIKE

#: what may stand between the spelled-out letters of a word (one to three of them)
SEPARATORS = r"[\s.\-_*+~·,'\"/\\|]{1,3}"

#: the most letters one character folds into (``ß`` is ``ss``, ``ﬃ`` is ``ffi``); a character
#: that would fold into more (U+FDFA, a phrase in one character) is a space
FOLD_MAX = 3

#: the digits and signs that stand for a letter (``4ss``, ``$m3g``, ``k1ll``)
LEET = {
    "a": "4@",
    "b": "8",
    "e": "3€",
    "g": "9",
    "i": "1!|",
    "l": "1|",
    "o": "0",
    "s": "5$",
    "t": "7+",
    "z": "2",
}

_SIGNS = frozenset("".join(LEET.values()))  # what stands for a letter, masked as a letter is
_folded: dict[str, str] = {}  # each character met so far, folded (bounded by FOLD_CACHE)
FOLD_CACHE = 65536


class ChatFilterError(ValueError):
    """A word list that cannot be used (unreadable, not UTF-8, no word in it)."""


def fold_char(ch: str) -> str:
    """One character without case or accents, a look-alike as its Latin letter: at most
    ``FOLD_MAX`` characters (a character that folds into more is a space)."""
    out = _folded.get(ch)
    if out is None:
        parts = "".join(p for p in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(p))
        out = parts.casefold().translate(LOOKALIKE)
        if len(out) > FOLD_MAX:
            out = " "
        if len(_folded) < FOLD_CACHE:
            _folded[ch] = out
    return out


def fold(text: str) -> tuple[str, list[int]]:
    """``text`` without case or accents, and for each character of the result the index of the
    character of ``text`` it comes from (a letter may fold into two, as ``ß`` into ``ss``)."""
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        f = _folded.get(ch)
        if f is None:
            f = fold_char(ch)
        out.append(f)
        if len(f) == 1:
            origin.append(i)
        else:
            origin.extend([i] * len(f))
    return "".join(out), origin


def _letter(c: str) -> str:
    """A pattern for one folded letter and what stands for it."""
    return f"[{re.escape(c + LEET[c])}]" if c in LEET else re.escape(c)


def _run(c: str, n: int, then: str | None) -> str:
    """The letter ``c`` said ``n`` or more times; possessive (never given back) when the next
    letter cannot be matched by the same character, which keeps the matching linear."""
    alike = set(c + LEET.get(c, ""))
    give_back = then is not None and bool(alike & set(then + LEET.get(then, "")))
    return f"{_letter(c)}{{{n},}}" + ("" if give_back else "+")


def _word_pattern(word: str) -> str:
    """One word as a pattern: as written (each letter one or more times, no fewer than the
    word has in a row), or spelled out with a separator between every letter."""
    runs: list[tuple[str, int]] = []
    for ch in word:
        if runs and runs[-1][0] == ch:
            runs[-1] = (ch, runs[-1][1] + 1)
        else:
            runs.append((ch, 1))
    joined = "".join(
        _run(c, n, runs[k + 1][0] if k + 1 < len(runs) else None) for k, (c, n) in enumerate(runs)
    )
    if len(word) < 2:
        return joined
    spelled = SEPARATORS.join(f"{_letter(c)}+" for c in word)
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
            f"(?={_letter(c)})(?:{'|'.join(sorted(ps, key=len, reverse=True))})" for c, ps in by_first.items()
        )
        # whole words: no letter or digit just before or just after
        first = "".join(sorted({c for f in by_first for c in f + LEET.get(f, "")}))
        self._re = re.compile(r"(?<![^\W_])(?=[" + re.escape(first) + "])(?:" + groups + r")(?![^\W_])")

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
                if chars[i].isalnum() or chars[i] in _SIGNS:
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
