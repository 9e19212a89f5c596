"""The HTTP routes of profiles (``store.profiles.Profiles``): make one, read or rename yours, move
it to another device with a short code.  A profile's key travels in the Authorization header
(``Bearer <key>``), never in an address."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ..store.profiles import Profiles
from ..validate import RequestError, parse_json, read_body

MAX_PROFILE_BODY = 4096  # bytes of a profile request's body (a name or a code)


async def profile_body(request: Request) -> Any:
    """The JSON body of a profile request, at most MAX_PROFILE_BODY bytes (413 past it)."""
    try:
        data = await read_body(request, MAX_PROFILE_BODY)  # with the bodies' deadline
    except RequestError as e:
        if e.code != "too_large":
            raise
        raise RequestError(
            f"a profile request's body is at most {MAX_PROFILE_BODY} bytes",
            413,
            code="too_large",
            params={"n": MAX_PROFILE_BODY},
        ) from None
    if not data:
        return {}
    return parse_json(data)


def router(profiles: Profiles) -> APIRouter:
    r = APIRouter()  # the answers are messages.Profile*: plain dicts, no response models

    @r.post("/api/profiles")
    async def create(request: Request):
        address = request.client.host if request.client else ""
        return await profiles.create(await profile_body(request), address)

    @r.get("/api/profiles/me")
    async def me(request: Request):
        return await profiles.me(request.headers.get("authorization"))

    @r.patch("/api/profiles/me")
    async def rename(request: Request):
        body = await profile_body(request)
        return await profiles.rename(request.headers.get("authorization"), body)

    @r.get("/api/profiles/me/devices")
    async def devices(request: Request):
        return await profiles.devices(request.headers.get("authorization"))

    @r.delete("/api/profiles/me/devices/{device}")
    async def forget_device(request: Request, device: str):
        return await profiles.forget_device(request.headers.get("authorization"), device)

    @r.post("/api/profiles/me/link")
    async def link(request: Request):
        return await profiles.link(request.headers.get("authorization"))

    @r.post("/api/profiles/claim")
    async def claim(request: Request):
        address = request.client.host if request.client else ""
        return await profiles.claim(await profile_body(request), address)

    return r
