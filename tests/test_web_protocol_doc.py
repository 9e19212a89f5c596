"""docs/PROTOCOL.md mirrors the typed messages of ``bonepile.web.messages`` exactly: its
"Message types" section lists every TypedDict with its fields (``?``: may be left out) and
every Literal with its values, and nothing else."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from bonepile.web import messages

DOC = Path(__file__).resolve().parents[1] / "docs" / "PROTOCOL.md"


def _lines() -> list[str]:
    out = []
    for name, obj in vars(messages).items():
        if (
            getattr(obj, "__module__", None) != messages.__name__
            and typing.get_origin(obj) is not typing.Literal
        ):
            continue
        if isinstance(obj, type) and typing.is_typeddict(obj):
            fields = [f"{k}{'' if k in obj.__required_keys__ else '?'}" for k in typing.get_type_hints(obj)]
            out.append(f"- `{name}`: " + ", ".join(f"`{f}`" for f in fields))
        elif typing.get_origin(obj) is typing.Literal:
            out.append(f"- `{name}`: " + " | ".join(f'`"{a}"`' for a in typing.get_args(obj)))
    return out


def documented() -> list[str]:
    text = DOC.read_text()
    section = text.split("## Message types", 1)[1]
    section = re.split(r"\n## ", section, maxsplit=1)[0]
    return [line for line in section.splitlines() if line.startswith("- `")]


def test_the_protocol_document_lists_every_message_type_exactly():
    assert documented() == _lines()


if __name__ == "__main__":  # print the section's list (to paste into docs/PROTOCOL.md)
    print("\n".join(_lines()))
