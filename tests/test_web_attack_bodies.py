"""Issue 27, item 6: request bodies have a deadline.  300 POSTs announcing 100,000 bytes and
sending one byte every 5 s were all still open after 30 s, and their end was 4,078
``ClientDisconnect`` tracebacks.  Now a body that does not arrive within ``BODY_TIMEOUT`` is
answered 408, one address may have ``SLOW_BODIES`` bodies arriving at once (429 past it), and
a client that goes away while sending is one line in the log."""

from __future__ import annotations

import json
import logging
import socket
import time

import pytest

from bonepile.web import validate
from webutil import InProcess, wait_until


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("bodies") / "db"
    with InProcess(f"sqlite:///{db}") as s:
        yield s


def slow_post(srv, path: str = "/api/tables", announced: int = 100_000) -> socket.socket:
    """A connection that sends a POST's headers and the first byte of its body, no more."""
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
    s.sendall(
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {announced}\r\n\r\n{{".encode()
    )
    return s


def answer(s: socket.socket) -> tuple[int, dict]:
    """The status and JSON body of the answer on ``s``."""
    data = b""
    while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _length(data):
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    return int(head.split()[1]), json.loads(body[: _length(data)])


def _length(data: bytes) -> int:
    for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":")[1])
    return 1 << 30


def test_a_body_that_does_not_arrive_in_time_is_answered_408(srv, monkeypatch):
    monkeypatch.setattr(validate, "BODY_TIMEOUT", 0.5)
    for path in ("/api/tables", "/api/profiles", "/api/replay"):
        s = slow_post(srv, path, 1000)
        try:
            status, body = answer(s)
        finally:
            s.close()
        assert status == 408, (path, body)
        assert body["code"] == "body_slow" and body["params"] == {"s": 0.5}
    wait_until(lambda: not validate._arriving, 10, "the bodies' count to go back to none")


def test_one_address_has_at_most_slow_bodies_arriving_at_once(srv, monkeypatch):
    monkeypatch.setattr(validate, "BODY_TIMEOUT", 4.0)
    monkeypatch.setattr(validate, "SLOW_AFTER", 60.0)
    held = [slow_post(srv) for _ in range(validate.SLOW_BODIES)]
    try:
        wait_until(lambda: sum(validate._arriving.values()) == validate.SLOW_BODIES, 10, "all arriving")
        # quick requests of the same address beside bodies not yet slow: answered
        assert srv.post("/api/profiles", {"name": "Quick"}).status_code == 200
        monkeypatch.setattr(validate, "SLOW_AFTER", 0.0)  # now the held ones are slow
        extra = slow_post(srv)
        status, body = answer(extra)
        extra.close()
        assert status == 429 and body["code"] == "bodies_busy", body
        assert body["params"] == {"n": validate.SLOW_BODIES}
        # every held one gets its 408 at its deadline, and then the address may send again
        assert [answer(s)[0] for s in held] == [408] * validate.SLOW_BODIES
    finally:
        for s in held:
            s.close()
    wait_until(lambda: not validate._arriving, 10, "the bodies' count to go back to none")
    r = srv.post("/api/tables", {"variant": "block", "players": 2})
    assert r.status_code == 200, r.text


def test_a_client_that_goes_away_while_sending_is_one_line_in_the_log(srv, caplog, monkeypatch):
    monkeypatch.setattr(validate, "BODY_TIMEOUT", 30.0)
    caplog.set_level(logging.INFO)
    conns = [slow_post(srv) for _ in range(3)]
    wait_until(lambda: sum(validate._arriving.values()) == 3, 10, "three arriving")
    for s in conns:
        s.close()
    wait_until(lambda: not validate._arriving, 10, "the bodies' count to go back to none")
    time.sleep(0.2)
    gone = [r for r in caplog.records if "went away while sending" in r.getMessage()]
    assert len(gone) == 3
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
