"""``bonepile verify RECORD...``: re-deal every hand of a record from its revealed seed and check
the deals and the commitment (RECORD.md, "Extensions")."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from ..engine import RecordError
from ..engine import record as rec
from ..engine.verify import verify

#: exit status: every record verified / a deal or the commitment differs / a record that cannot
#: be read or is invalid / nothing to check: a valid record that is not sealed (no commitment) or
#: whose seed is not revealed yet (the game not over)
OK, NOT_VERIFIED, BAD_RECORD, NOTHING = 0, 1, 2, 3
#: with several records, the status of the worst: an unreadable one, then a mismatch, then one
#: with nothing to check
_WORST = (OK, NOTHING, NOT_VERIFIED, BAD_RECORD)


_NOTHING_WORDS = {
    "none": "the record is valid, only not sealed: no deals were promised before the game, so none can be checked",
    "sealed": "the record is valid; its deals can be checked once the game is over and the seed revealed",
}


def _check(file: str) -> tuple[int, dict[str, Any], list[str]]:
    try:
        if file == "-":
            doc = rec.loads(sys.stdin.buffer.read())
        else:
            try:
                with open(file, "rb") as f:
                    doc = rec.loads(f.read())
            except OSError as e:
                raise RecordError(f"cannot read {file}: {e.strerror}") from None
        verdict = verify(doc)
    except RecordError as e:
        return (
            BAD_RECORD,
            {"file": file, "status": "error", "ok": False, "error": e.as_json()},
            [f"record error: {e}"],
        )
    lines = verdict.lines()
    if verdict.status in ("none", "sealed"):
        # not wrong, merely unsealed (or sealed and not over): the record itself replays
        lines.append(_NOTHING_WORDS[verdict.status])
        return NOTHING, {"file": file, **verdict.as_json()}, lines
    return (OK if verdict.ok else NOT_VERIFIED), {"file": file, **verdict.as_json()}, lines


def verify_cmd(
    files: Annotated[list[str], typer.Argument(help="Game records (RECORD.md); - for standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as JSON.")] = False,
) -> None:
    """Re-deal every hand from the record's revealed seed; check the deals and the commitment.

    Exit status: 0 verified, the deals are the ones committed to;
    1 NOT verified: a deal, the seed or the salt differs (the record was changed);
    2 a file that cannot be read or is not a valid record;
    3 nothing to verify: a valid record that is not sealed, or whose seed is not revealed yet.
    With several records, the worst status: 2, then 1, then 3.
    """
    status = OK
    docs = []
    for file in files:
        code, doc, lines = _check(file)
        status = max(status, code, key=_WORST.index)
        docs.append(doc)
        if not as_json:
            if len(files) > 1:
                typer.echo(f"{file}:")
            stream = code == BAD_RECORD
            for line in lines:
                typer.echo(("  " if len(files) > 1 else "") + line, err=stream)
    if as_json:
        typer.echo(json.dumps(docs[0] if len(docs) == 1 else docs))
    raise typer.Exit(status)
