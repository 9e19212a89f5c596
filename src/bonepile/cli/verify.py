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

#: exit status: every record verified / a deal or the commitment differs, or nothing to check
#: (no commitment, or the seed not yet revealed) / a record that cannot be read or is invalid
OK, NOT_VERIFIED, BAD_RECORD = 0, 1, 2


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
    return (OK if verdict.ok else NOT_VERIFIED), {"file": file, **verdict.as_json()}, verdict.lines()


def verify_cmd(
    files: Annotated[list[str], typer.Argument(help="Game records (RECORD.md); - for standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the findings as JSON.")] = False,
) -> None:
    """Re-deal every hand from the record's revealed seed; check the deals and the commitment."""
    status = OK
    docs = []
    for file in files:
        code, doc, lines = _check(file)
        status = max(status, code)
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
