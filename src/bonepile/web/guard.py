"""What guards the server's connections outside the application: a deadline for a request's
headers (uvicorn closes idle keep-alive connections, but waits forever for a request that
never finishes its headers), and seat tokens kept out of the logs."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

HEADER_TIMEOUT = 10.0  # seconds a connection may take to send a request's headers
TOKEN_RE = re.compile(r"(token=)[^&\s\"']+")


def redact(text: str) -> str:
    """``text`` with every ``token=...`` value replaced (socket URLs carry the seat token)."""
    return TOKEN_RE.sub(r"\1…", text)


class HideTokens(logging.Filter):
    """Removes seat tokens from a log record (uvicorn logs every socket's URL at info)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token=" in record.msg:
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) and "token=" in a else a for a in record.args)
        return True


def hide_tokens() -> None:
    """Install the filter on the loggers that write request and socket URLs."""
    for name in ("uvicorn.error", "uvicorn.access", "uvicorn.asgi", "bonepile.serve"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideTokens) for f in logger.filters):
            logger.addFilter(HideTokens())


def http_protocol(header_timeout: float = HEADER_TIMEOUT) -> Any:
    """uvicorn's HTTP protocol class with a deadline for each request's headers: a
    connection that sends nothing, or its headers too slowly, is closed after
    ``header_timeout`` seconds (from the connection, or from the previous answer)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as Base
    except ImportError:  # pragma: no cover - httptools is part of uvicorn[standard]
        from uvicorn.protocols.http.h11_impl import H11Protocol as Base  # type: ignore[assignment]

    class TimedHttp(Base):
        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

    return TimedHttp
