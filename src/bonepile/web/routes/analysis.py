"""The HTTP routes of post-game analysis (``jobs.analyses``): start the analysis of a
finished table or of an uploaded record, then poll its progress until the answer carries the
analysis.  docs/PROTOCOL.md, "Analysis"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ...engine import BonepileError
from ...engine import record as rec
from ..jobs.analyses import Analyses, record_key
from ..jobs.replays import MAX_RECORD
from ..validate import RequestError, read_body

if TYPE_CHECKING:
    from ..server import Server

IN_PLAY = "analysis is offered once the game is over"


def _json(status: int, body: bytes) -> Response:
    return Response(body, status_code=status, media_type="application/json")


def router(server: Server, analyses: Analyses) -> APIRouter:
    r = APIRouter()

    async def over(table_id: str):
        server.tournaments.refuse_if_embargoed(table_id)  # its round's deals are still in play
        t = await server.finished(table_id)  # 404 for no such table
        if t.status != "over":
            raise RequestError(IN_PLAY, 409, code="in_play")
        return t

    @r.post("/api/tables/{table_id}/analysis")
    async def start_table(table_id: str, request: Request):
        t = await over(table_id)
        job = await analyses.start(f"table:{t.id}", t.record(), server.address_of(request))
        return _status(job)

    @r.get("/api/tables/{table_id}/analysis")
    async def table_analysis(table_id: str):
        t = await over(table_id)
        return _json(*await analyses.answer(f"table:{t.id}"))

    @r.post("/api/analysis")
    async def start_record(request: Request):
        data = await read_body(request, MAX_RECORD)
        try:
            rec.loads(data)
        except BonepileError as e:
            raise RequestError(f"the record is not valid: {e}", 400, code="record_invalid") from None
        job = await analyses.start(record_key(data), data, server.address_of(request))
        return _status(job)

    @r.get("/api/analysis/{job}")
    async def record_analysis(job: str):
        if not re.fullmatch(r"[0-9a-f]{64}", job):
            raise RequestError(f"no analysis {job!r}", 404, code="no_analysis")
        return _json(*await analyses.answer(f"record:{job}"))

    return r


def _status(job: dict) -> Response:
    import orjson

    return _json(200 if job["status"] == "done" else 202, orjson.dumps(job))
