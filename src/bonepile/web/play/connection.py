"""One open socket of a seat (or of a spectator: no seat): its size and rate limits, and
its sending.

State messages are coalesced: the sender builds the latest state when it gets to send, so a
slow client never makes the server queue old states."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import orjson

from ..messages import ErrorMessage, ServerMessage

MAX_MESSAGE = 4096  # bytes of one client message
MAX_QUEUED = 32  # messages other than states waiting to be sent
#: the close code of a socket that fell MAX_QUEUED messages behind: outside 4000-4999, so the
#: client reconnects, and gets the table's state and chat afresh (1013: try again later)
BEHIND_CODE = 1013
REFUSED = object()  # what ``Connection.read`` returns for a frame it refused


def dumps(obj: Any) -> str:
    """JSON text (orjson: the state messages are most of the server's work)."""
    return orjson.dumps(obj).decode()


class StateSource(Protocol):
    """What a connection asks its table for: the state message of a seat (None: of a
    spectator)."""

    id: str

    def state_text(self, seat: int | None, ack: Any = None) -> str: ...


class Connection:
    def __init__(
        self,
        table: StateSource,
        seat: int | None,
        send: Callable[[str], Awaitable[Any]],
        *,
        rate: float,  # client messages a second, on average (bursts of twice as many)
        clock: Callable[[], float] = time.monotonic,
        close: Callable[[int, str], Awaitable[Any]] | None = None,
    ):
        self.table = table
        self._close = close  # closes the socket (code, reason): when it fell too far behind
        self.behind = False  # more than MAX_QUEUED messages were waiting: closed, to resync
        self.seat = seat
        self._send = send
        self.rate = rate
        self.state_due = False
        self.ack: Any = None
        self.extra: list[ServerMessage] = []
        self.wake = asyncio.Event()
        self.closed = False
        self.clock = clock  # the rate limit's clock (a test may set its own)
        self.tokens = 2 * rate
        self.last = clock()

    @property
    def watching(self) -> bool:
        """A spectator's socket: it sees what everybody at the table sees and cannot act."""
        return self.seat is None

    # ------------------------------------------------------------------ receiving
    def allow(self) -> bool:
        """A token bucket: ``rate`` messages a second, bursts of twice as many."""
        now = self.clock()
        rate = self.rate
        self.tokens = min(2 * rate, self.tokens + (now - self.last) * rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def read(self, text: str | None, raw: bytes | None) -> Any:
        """A received frame as JSON, or REFUSED (too long, too many, not JSON): the refusal
        is queued as an ``error`` message."""
        if text is None:
            raw = raw or b""
            text = raw.decode("utf-8", "replace")
        else:
            raw = text.encode("utf-8", "replace")
        if len(raw) > MAX_MESSAGE:
            self.error(
                f"message too long (at most {MAX_MESSAGE} bytes)", code="too_long", params={"n": MAX_MESSAGE}
            )
            return REFUSED
        if not self.allow():
            self.error("too many messages: slow down", code="slow_down")
            return REFUSED
        try:
            return orjson.loads(text)
        except ValueError as e:
            self.error(f"not JSON: {e}", code="not_json")
            return REFUSED

    # ------------------------------------------------------------------ sending
    def error(
        self,
        message: str,
        mid: Any = None,
        *,
        with_id: bool = False,
        code: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        msg: ErrorMessage = {"type": "error", "message": message}
        if code:
            msg["code"] = code
            if params:
                msg["params"] = params
        if with_id:
            msg["id"] = mid
        self.push(msg)

    def push_state(self) -> None:
        self.state_due = True
        self.wake.set()

    def push(self, msg: ServerMessage) -> None:
        """Queue a message; one past MAX_QUEUED waiting is never dropped silently: the socket
        is closed with BEHIND_CODE, and the client, reconnecting, is sent everything afresh."""
        if len(self.extra) < MAX_QUEUED:
            self.extra.append(msg)
        elif not self.closed:
            self.behind = True
            self.extra.clear()
            self.closed = True
        self.wake.set()

    def close(self) -> None:
        self.closed = True
        self.wake.set()

    async def sender(self) -> None:
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            while self.extra:
                msg = self.extra.pop(0)
                await self._send(dumps(msg))
            if self.state_due:
                self.state_due = False
                ack, self.ack = self.ack, None
                await self._send(self.table.state_text(self.seat, ack))
        if self.behind and self._close is not None:
            await self._close(BEHIND_CODE, "too many messages waiting: reconnect for the table afresh")
