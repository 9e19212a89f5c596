"""The HTTP routes of tables: the variants to choose from, making a table, joining it,
starting it with bots in the free seats, its info, its record and its replay (and the replay
of an uploaded record).  docs/PROTOCOL.md."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ...engine import RecordError
from ...engine import record as rec
from ...engine.verify import verify
from ..jobs.replays import MAX_RECORD
from ..messages import DealsCheck
from ..validate import RequestError, body_json, read_body
from ..words.catalog import catalogue

if TYPE_CHECKING:
    from ..server import Server


def _json(status: int, body: bytes) -> Response:
    """A JSON answer already encoded (replay frames)."""
    return Response(body, status_code=status, media_type="application/json")


def hand_number(text: str) -> int:
    """A replay's hand asked for by its place (1 for the first hand shown), or a refusal."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 9999:
        raise RequestError(
            f"the hand to replay must be a number from 1, not {text[:20]!r}", 400, code="replay_bad_hand"
        )
    return int(text)


#: how many finished tables' deal checks are kept (each a few hundred bytes)
CHECKS_KEPT = 512


def unchecked(status: str, commitment: str | None) -> DealsCheck:
    """The answer about a table whose deals cannot be checked: "sealed" (the game is not over,
    nothing is revealed) or "none" (a table made before deals were sealed)."""
    return {
        "status": status,  # type: ignore[typeddict-item]
        "commitment": commitment,
        "seed": None,
        "salt": None,
        "commitment_ok": None,
        "hands": 0,
        "hands_ok": 0,
        "findings": [],
    }


def deals_check(doc: dict[str, Any]) -> DealsCheck:
    """The check ``bonepile verify`` makes, on a table's record (before the game is over the
    record holds the commitment alone: "sealed", nothing revealed)."""
    v = verify(doc)
    seal = doc.get("deals") or {}
    return {
        "status": v.status,  # type: ignore[typeddict-item]
        "commitment": v.commitment,
        "seed": None if v.seed is None else str(v.seed),
        "salt": seal.get("salt") if v.seed is not None else None,
        "commitment_ok": v.commitment_ok,
        "hands": v.hands,
        "hands_ok": v.hands_ok,
        "findings": [
            {
                "hand": f.hand,
                "number": f.number,
                "seat": f.seat,
                "position": f.position,
                "recorded": f.recorded,
                "dealt": f.dealt,
                "message": f.message,
            }
            for f in v.findings
        ],
    }


def router(server: Server) -> APIRouter:
    r = APIRouter()

    @r.get("/api/variants")
    async def variants():
        return catalogue()

    @r.post("/api/tables")
    async def create(request: Request):
        body = await body_json(request)
        profile = await server.profiles.of_request(request.headers.get("authorization"))
        return await server.create(body, request.client.host if request.client else "", profile)

    @r.get("/api/tables/{table_id}")
    async def table(table_id: str):
        return (await server.finished(table_id)).info()

    @r.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request):
        body = await body_json(request)
        profile = await server.profiles.of_request(request.headers.get("authorization"))
        return await server.join(table_id, body, profile)

    @r.post("/api/tables/{table_id}/start")
    async def start(table_id: str, request: Request):
        return await server.start_table(table_id, await body_json(request))

    @r.get("/api/tables/{table_id}/record")
    async def record(table_id: str):
        server.tournaments.refuse_if_embargoed(table_id)
        t = await server.finished(table_id)
        text = rec.dumps(t.record())
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="bonepile-{t.id}.record.json"'},
        )

    @r.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str, request: Request):
        server.tournaments.refuse_if_embargoed(table_id)
        if table_id in server.replay_cache:  # a finished table's, built once
            return _json(200, server.replay_cache[table_id])
        t = await server.finished(table_id)
        over = t.status == "over"
        key = t.id if over else None
        return _json(
            *await server.replay(t.record(), finished_only=True, key=key, address=server.address_of(request))
        )

    @r.get("/api/tables/{table_id}/replay/{hand}")
    async def table_replay_hand(table_id: str, hand: str, request: Request):
        server.tournaments.refuse_if_embargoed(table_id)
        n = hand_number(hand)
        if f"{table_id}/{n}" in server.replay_cache:
            return _json(200, server.replay_cache[f"{table_id}/{n}"])
        t = await server.finished(table_id)
        key = t.id if t.status == "over" else None
        return _json(
            *await server.replay(
                t.record(), finished_only=True, key=key, address=server.address_of(request), hand=n
            )
        )

    checked: OrderedDict[str, DealsCheck] = OrderedDict()  # finished tables' checks, built once

    @r.get("/api/tables/{table_id}/verify")
    async def verify_deals(table_id: str):
        server.tournaments.refuse_if_embargoed(table_id)
        if table_id in checked:
            return checked[table_id]
        t = await server.finished(table_id)
        seal = t.game.seal
        if seal is None or not t.game.over:  # nothing to check yet: no replay is run
            return unchecked("none" if seal is None else "sealed", None if seal is None else seal.commitment)
        try:
            answer = await asyncio.to_thread(deals_check, t.record())
        except RecordError as e:  # never for a table this server played: its stored actions
            raise RequestError(f"the table's record cannot be checked: {e}", 503, code="damaged") from None
        checked[table_id] = answer
        while len(checked) > CHECKS_KEPT:
            checked.popitem(last=False)
        return answer

    @r.post("/api/replay")
    async def replay(request: Request):
        data = await read_body(request, MAX_RECORD)
        asked = request.query_params.get("hand")
        n = None if asked is None else hand_number(asked)
        return _json(
            *await server.replay(data, finished_only=False, address=server.address_of(request), hand=n)
        )

    return r
