"""The table socket ``/ws/tables/{id}``: a seat's (with its token) or a spectator's.  Each
message read is handed to ``play.handlers``; what the table sends goes out through the
socket's ``Connection``.  docs/PROTOCOL.md."""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .. import validate
from ..play.connection import REFUSED, Connection
from ..play.handlers import dispatch
from ..store.writer import StorageError
from ..validate import RequestError

if TYPE_CHECKING:
    from ..server import Server

log = logging.getLogger("bonepile.serve")


def _coded(e: RequestError) -> dict[str, Any]:
    """A refusal's code and numbers for an error message (nothing if it has no code)."""
    body = e.body()
    body.pop("error")
    return body


def router(server: Server) -> APIRouter:
    r = APIRouter()

    @r.websocket("/ws/tables/{table_id}")
    async def socket(websocket: WebSocket, table_id: str):
        await websocket.accept()
        if server.cluster is not None and await server.cluster.relay(websocket, table_id):
            return  # relayed to the worker playing the table (``cluster``)
        over = False  # a finished table no longer in memory (after a restart): its end only
        try:
            try:
                t = server.get(table_id)  # 404, or 503 for a damaged table
            except RequestError as e:
                if e.code != "no_table":
                    raise
                t = await server.finished(table_id)  # 404 if it was never stored
                if t.status != "over":
                    raise e from None
                over = True
            # no seat token: a spectator, who sees what everybody at the table sees
            token = websocket.query_params.get("token")
            seat = None if token is None else server.seat_of(t, token)
            if seat is None:  # a private table is watched only with its invite link's secret
                validate.invite(websocket.query_params.get("invite"), t.invite_hash)
                server.tournaments.refuse_if_embargoed(table_id)  # its round's deals are in play
            if seat is not None:  # the chat of the seats its profile muted is not sent to it
                with suppress(StorageError):  # logged already: its mutes are read next time
                    await server.mutes.load(t.seats[seat].profile)
            if server.cluster is not None:  # a relayed socket: the client's address, as relayed
                host = server.cluster.client_host(websocket)
            else:
                host = websocket.client.host if websocket.client else ""
            address = server.socket_opened(t, seat, host)
        except RequestError as e:
            await websocket.send_text(json.dumps({"type": "error", "message": e.message, **_coded(e)}))
            await websocket.close(code=4000 + e.status)
            return
        if over:
            await _the_end(websocket, t, seat)
            server.socket_closed(address, watching=seat is None)
            return
        conn = Connection(
            t,
            seat,
            websocket.send_text,
            rate=server.settings.rate,
            close=lambda code, reason: websocket.close(code=code, reason=reason),
        )
        sender = asyncio.get_running_loop().create_task(_sending(conn))
        t.attach(conn)
        try:
            while True:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                data = conn.read(msg.get("text"), msg.get("bytes"))
                if data is REFUSED:
                    continue
                mid = data.get("id") if isinstance(data, dict) else None
                try:
                    await dispatch(t, conn, data)
                except RequestError as e:
                    conn.error(e.message, mid, with_id=True, code=e.code, params=e.params)
                except Exception:  # e.g. storage failed: the action was not applied
                    log.exception("table %s: an intent failed", t.id)
                    conn.error(
                        "the server could not handle this (nothing was changed); try again",
                        mid,
                        with_id=True,
                        code="server_fault",
                    )
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()
            t.detach(conn)
            server.socket_closed(address, watching=seat is None)

    async def _the_end(websocket: WebSocket, t: Any, seat: int | None) -> None:
        """A finished table's socket: its last state and chat, as the seat (or a spectator)
        saw them, then nothing more to do: what the client sends is left unanswered until it
        closes (a refusal would make it show an error on a table that is simply over)."""
        try:
            if t.chat:
                await websocket.send_text(json.dumps(t.chat_for(seat)))
            await websocket.send_text(t.state_text(seat))
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass
        except (WebSocketDisconnect, RuntimeError):
            pass

    async def _sending(conn: Connection) -> None:
        try:
            await conn.sender()
        except Exception as e:  # the socket closed under us: the receive loop ends it
            if (
                not isinstance(e, (WebSocketDisconnect, RuntimeError))
                and "close" not in type(e).__name__.lower()
            ):
                log.exception("sending to table %s seat %s failed", conn.table.id, conn.seat)
            conn.close()

    return r
