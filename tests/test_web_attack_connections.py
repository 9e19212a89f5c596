"""Issue 13, findings 6 and 10: idle and slow-header connections are closed, seat tokens do
not reach the log at --log-level info, and every answer carries security headers (a CSP with
no inline script and no framing by other sites)."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from webutil import Child, Sock, run


@pytest.fixture(scope="module")
def child(tmp_path_factory):
    db = tmp_path_factory.mktemp("conns") / "db"
    with Child(f"sqlite:///{db}", "--header-timeout", "1", "--log-level", "info") as c:
        yield c


def _closed_by_server(s: socket.socket) -> bool:
    try:
        return s.recv(1024) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


@pytest.mark.slow
def test_idle_and_slow_header_connections_are_closed(child):
    conns = []
    for i in range(40):
        s = socket.create_connection(("127.0.0.1", child.port), timeout=5)
        if i % 2:  # half send the start of a request and never finish its headers
            s.sendall(b"GET /api/variants HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        conns.append(s)
    time.sleep(0.5)
    for s in conns[1::2]:  # a byte now and then does not keep it open
        s.sendall(b"a")
    time.sleep(2.5)
    for s in conns:
        s.settimeout(0.5)
    still = [i for i, s in enumerate(conns) if not _closed_by_server(s)]
    for s in conns:
        s.close()
    assert not still, f"{len(still)} of {len(conns)} idle or slow connections still open after 3 s"
    assert child.get("/api/variants").status_code == 200  # a normal request is answered


def test_security_headers_on_pages_api_and_errors(child):
    for path in ["/", "/t/abc", "/replay", "/static/lobby.js", "/api/tables", "/api/tables/nosuch"]:
        r = child.get(path)
        csp = r.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, (path, csp)
        assert "unsafe-inline" not in csp.split("script-src", 1)[1].split(";")[0]
        assert r.headers.get("x-frame-options") == "DENY"
        assert r.headers.get("x-content-type-options") == "nosniff"


@pytest.mark.slow
def test_seat_tokens_do_not_reach_the_log(tmp_path):
    with Child(f"sqlite:///{tmp_path}/db", "--log-level", "info") as c:
        made = c.create({"variant": "block", "players": 2})

        async def go():
            s = await Sock.open(c.ws, made["id"], made["token"])
            await s.state()
            await s.send({"type": "ping"})
            await s.expect(lambda m: m["type"] == "pong")
            await s.close()
            await asyncio.sleep(0.5)

        run(go(), 60)
        c.kill()
        out = c.proc.stdout.read().decode(errors="replace")
    assert "WebSocket" in out  # the socket was logged ...
    assert made["token"] not in out  # ... without its token
