"""The HTTP routes of a profile's mutes (``play.moderation.Mutes``): the profiles whose table chat
it is not shown, and muting or unmuting one by its id (a seat is muted at the table, through
the socket; these serve a profile page and any other client)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import APIRouter, Request

if TYPE_CHECKING:
    from ..server import Server


def router(server: Server) -> APIRouter:
    r = APIRouter()  # the answers are messages.MuteList

    async def me(request: Request):
        return await server.profiles.me(request.headers.get("authorization"))

    @r.get("/api/profiles/me/mutes")
    async def listed(request: Request):
        return await server.mutes.listed(await me(request))

    @r.put("/api/profiles/me/mutes/{other}")
    async def mute(other: str, request: Request):
        return await server.mutes.change(await me(request), other, True)

    @r.delete("/api/profiles/me/mutes/{other}")
    async def unmute(other: str, request: Request):
        return await server.mutes.change(await me(request), other, False)

    return r
