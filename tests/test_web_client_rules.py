"""The browser client knows no rule and no variant name (issue 10 item 2): the server sends
what each move scored, the count, the sides, the kind of scoring, the direction of play and
the words for options and values.  These tests read the shipped JavaScript and fail on any
variant name or rule option id in its logic."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from bonepile.engine.variant import OPTION_SPECS, VARIANT_NAMES
from bonepile.web import messages

STATIC = Path(messages.__file__).parent / "static"
JS = sorted(STATIC.rglob("*.js"))

#: variant names that are no English word: not even a comment may name them
RARE = [n for n in VARIANT_NAMES if n not in ("draw", "block", "passing")]
OPTION_IDS = sorted({k for specs in OPTION_SPECS.values() for k in specs})


def protocol_words() -> set[str]:
    """Every key and every literal value of the typed messages: words of the protocol (a move
    kind "draw", the replay's "deal"), not of the rules."""
    words: set[str] = set()

    def literals(tp: object) -> None:
        if typing.get_origin(tp) is typing.Literal:
            words.update(str(a) for a in typing.get_args(tp))
        for a in typing.get_args(tp):
            literals(a)

    for obj in vars(messages).values():
        if isinstance(obj, type) and typing.is_typeddict(obj):
            hints = typing.get_type_hints(obj)
            words.update(hints)
            for tp in hints.values():
                literals(tp)
        else:
            literals(obj)
    return words


def _code(text: str) -> str:
    """The text without comments."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(?<![:\w\"'`\\])//.*$", "", text, flags=re.M)


def _strings(code: str) -> list[str]:
    """The string literals of the code (template literals split at their ${...} parts)."""
    out = []
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`', code):
        if m.group(3) is not None:
            out.extend(re.split(r"\$\{[^}]*\}", m.group(3)))
        else:
            out.append(m.group(1) if m.group(1) is not None else m.group(2))
    return out


def test_the_client_is_shipped_as_modules():
    assert len(JS) >= 10 and (STATIC / "table" / "state.js").is_file()


def test_no_variant_name_anywhere_in_the_client():
    bad = [(p.name, n) for p in JS for n in RARE if n.lower() in p.read_text().lower()]
    assert bad == []


def test_no_variant_name_or_option_id_in_the_client_logic():
    allowed = protocol_words()
    assert "draw" in allowed and "deal" in allowed  # a move kind, a replay field
    names = set(VARIANT_NAMES) | set(OPTION_IDS)
    bad = []
    for p in JS:
        code = _code(p.read_text())
        for s in _strings(code):
            word = s.strip()
            if word in names and word not in allowed:
                bad.append((p.name, word))
            bad += [(p.name, f"opt-{x}") for x in OPTION_IDS if f"opt-{x}" in s]
        bad += [
            (p.name, m.group(0)) for m in re.finditer(r"\.variant\s*[!=]==?|[!=]==?\s*\w+\.variant\b", code)
        ]
        bad += [(p.name, w) for w in ("fivesCount", "movePoints", "% 5") if w in code]
    assert bad == []


def test_the_checker_catches_a_variant_test():
    code = _code(
        'const teams = ["quinientos", "cinque"].includes(v?.name); // cinque\n'
        'if (view.variant === "x") f(document.getElementById("opt-teams"));'
    )
    strings = _strings(code)
    assert "quinientos" in strings and "opt-teams" in strings and "// cinque" not in code
    assert re.search(r"\.variant\s*[!=]==?", code)
