"""Quick match and who is here: ``POST /api/match`` (queue, with a profile),
``GET /api/match/{ticket}`` (poll: waiting, or the table, seat and token),
``DELETE /api/match/{ticket}`` (leave the queue) and ``GET /api/online`` (the people with a
profile at this server's tables or in its queue, and what they play; with a profile's key,
who invites it).  The queue itself is
``play.quickmatch``; the pairing ``play.matchmaking``."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ...arena.skill import game_key
from ..messages import Invitation, OnlineList, OnlinePerson
from ..validate import RequestError, body_json

if TYPE_CHECKING:
    from ..server import Server

ONLINE_LISTED = 100  # people in the list (the count counts everyone)
ONLINE_FRESH = 1.0  # seconds the list of people is kept: every lobby asks every 5 s


class Online:
    """Who is here: each profile in the quick-match queue, and each profile whose browser is
    connected to a table not over (the table's id only when it is public); with ``me`` (a
    profile id), the invitations waiting for it.  The people are listed once a second at
    most, however many lobbies ask."""

    def __init__(self, server: Server):
        self.server = server
        self.made: tuple[float, list[OnlinePerson], int, dict[str, int]] | None = None

    def __call__(self, me: str | None = None) -> OnlineList:
        now = time.monotonic()
        if self.made is None or now - self.made[0] >= ONLINE_FRESH:
            self.made = (now, *_people(self.server))
        _at, people, count, queued = self.made
        return {"people": people, "count": count, "queued": queued, "invites": _invites(self.server, me)}


def _people(server: Server) -> tuple[list[OnlinePerson], int, dict[str, int]]:
    people: list[OnlinePerson] = []
    queued: dict[str, int] = {}
    seen: set[str] = set()
    for pid, name, (variant, players, _options) in server.quick.queued():
        key = game_key(variant, players)
        queued[key] = queued.get(key, 0) + 1
        if pid not in seen:
            seen.add(pid)
            people.append(
                {
                    "profile": pid,
                    "name": name,
                    "game": key,
                    "variant": variant,
                    "players": players,
                    "doing": "queued",
                    "table": None,
                }
            )
    for t in list(server.tables.values()):
        if t.status == "over":
            continue
        for s in t.seats:
            if s.kind != "human" or not s.profile or not s.conns or s.profile in seen:
                continue
            seen.add(s.profile)
            people.append(
                {
                    "profile": s.profile,
                    "name": s.name,
                    "game": game_key(t.variant_name, t.variant.players),
                    "variant": t.variant_name,
                    "players": t.variant.players,
                    "doing": "waiting" if t.status == "waiting" else "playing",
                    "table": None if t.invite_hash is not None else t.id,
                }
            )
    return people[:ONLINE_LISTED], len(people), queued


def _invites(server: Server, me: str | None) -> list[Invitation]:
    invites: list[Invitation] = []
    if me is not None:
        for pid, name, (variant, players, options) in server.quick.invites_for(me):
            invites.append(
                {
                    "profile": pid,
                    "name": name,
                    "game": game_key(variant, players),
                    "variant": variant,
                    "players": players,
                    "options": {k: v for k, v in json.loads(options).items() if k != "players"},
                }
            )
    return invites


def router(server: Server) -> APIRouter:
    r = APIRouter()
    online = Online(server)

    @r.post("/api/match")
    async def join(request: Request):  # a MatchState
        body = await body_json(request)
        profile = await server.profiles.of_request(request.headers.get("authorization"))
        return await server.quick.join(body, request.client.host if request.client else "", profile)

    @r.get("/api/match/{ticket}")
    async def poll(ticket: str):  # a MatchState
        return server.quick.poll(ticket)

    @r.delete("/api/match/{ticket}")
    async def leave(ticket: str) -> Response:
        server.quick.leave(ticket)
        return Response(status_code=204)

    @r.get("/api/online")
    async def who(request: Request):  # an OnlineList
        me = None
        if request.headers.get("authorization"):
            try:
                found = await server.profiles.of_request(request.headers.get("authorization"))
                me = found["id"] if found else None
            except RequestError:  # a wrong key: the list without invitations
                me = None
        return online(me)

    return r
