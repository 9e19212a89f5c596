"""A program that plays one seat of a ``bonepile serve`` table over its socket, as a browser
would: it sees only the messages its seat is sent.  Used by the load benchmark and tests;
``choose`` picks a move from the seat's view JSON (by default: a random legal move)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from typing import Any

import orjson

Choose = Callable[[dict], str]


def random_choice(rng: random.Random) -> Choose:
    return lambda view: rng.choice(view["legal"])["move"]


class SeatClient:
    def __init__(
        self,
        base: str,
        table_id: str,
        token: str,
        *,
        choose: Choose | None = None,
        think: float = 0.0,
        seed: int = 0,
        keep: bool = False,
        next_hand: bool = True,
        retry_errors: bool = True,
    ):
        self.url = f"{base.rstrip('/')}/ws/tables/{table_id}?token={token}"
        self.rng = random.Random(seed)
        self.choose = choose or random_choice(self.rng)
        self.think = think
        self.keep = keep  # keep every message received (tests inspect them)
        self.next_hand = next_hand
        self.retry_errors = retry_errors
        self.messages: list[dict] = []
        self.texts: list[str] = []
        self.rtts: list[float] = []  # seconds from sending a move to its acknowledging state
        self.rtt_at: list[float] = []  # when each of those moves was sent
        self.errors: list[dict] = []
        self.last: dict | None = None
        self.moves = 0
        self._sent: dict[int, float] = {}
        self._next_id = 0
        self._acted_seq = -1

    async def play(
        self, *, until_over: bool = True, max_moves: int | None = None, timeout: float = 600
    ) -> dict | None:
        """Play until the game is over (or max_moves of ours); returns the last state."""
        import websockets

        async with websockets.connect(self.url, max_size=1 << 22, open_timeout=30, ping_interval=None) as ws:
            deadline = time.monotonic() + timeout
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{self.url}: the game did not end in {timeout} s")
                text = await asyncio.wait_for(ws.recv(), left)
                now = time.monotonic()
                msg = orjson.loads(text)
                if self.keep:
                    self.texts.append(text if isinstance(text, str) else text.decode())
                    self.messages.append(msg)
                if msg["type"] == "error":
                    self.errors.append(msg)
                    if self.retry_errors and self.last is not None:
                        await asyncio.sleep(0.1)  # e.g. "too many messages": try again
                        self._acted_seq = -1
                        out = self.respond(self.last)
                        if out is not None:
                            if out.get("type") == "move":
                                self._sent[out["id"]] = time.monotonic()
                            await ws.send(json.dumps(out))
                    continue
                if msg["type"] != "state":
                    continue
                self.last = msg
                ack = msg.get("ack")
                if ack is not None and ack in self._sent:
                    sent = self._sent.pop(ack)
                    self.rtts.append(now - sent)
                    self.rtt_at.append(sent)
                if msg["phase"] == "over":
                    return msg
                if max_moves is not None and self.moves >= max_moves:
                    return msg
                out = self.respond(msg)
                if out is not None:
                    if self.think:
                        await asyncio.sleep(self.think * (0.5 + self.rng.random()))
                    if out.get("type") == "move":
                        self._sent[out["id"]] = time.monotonic()
                        self.moves += 1
                    await ws.send(json.dumps(out))

    def rtts_after(self, t: float) -> list[float]:
        return [r for r, at in zip(self.rtts, self.rtt_at) if at >= t]

    def respond(self, msg: dict) -> dict | None:
        """The intent to send after a state, if any (once per state sequence number)."""
        if msg["seq"] == self._acted_seq and msg["phase"] != "hand_over":
            return None
        you, view, phase = msg["you"], msg["view"], msg["phase"]
        if phase == "play" and view and view["to_move"] == you and view["legal"] and not msg.get("forced"):
            self._acted_seq = msg["seq"]
            self._next_id += 1
            return {"type": "move", "move": self.choose(view), "id": self._next_id}
        if phase == "hand_over" and self.next_hand and you not in msg["ready"]:
            if self._acted_seq == ("next", msg["seq"]):
                return None
            self._acted_seq = ("next", msg["seq"])  # type: ignore[assignment]
            return {"type": "next"}
        if phase == "leader" and msg["pending"] and you in msg["pending"]["seats"]:
            self._acted_seq = msg["seq"]
            return {"type": "leader", "seat": msg["pending"]["seats"][0]}
        return None


async def create_table(base_http: str, body: dict[str, Any]) -> dict:
    """POST /api/tables with httpx (async)."""
    import httpx

    async with httpx.AsyncClient(base_url=base_http, timeout=30) as c:
        r = await c.post("/api/tables", json=body)
        r.raise_for_status()
        return r.json()


async def join_table(base_http: str, table_id: str, name: str, invite: str | None = None) -> dict:
    """POST /api/tables/{id}/join (``invite``: a private table's secret, from its link)."""
    import httpx

    body: dict[str, Any] = {"name": name}
    if invite is not None:
        body["invite"] = invite
    async with httpx.AsyncClient(base_url=base_http, timeout=30) as c:
        r = await c.post(f"/api/tables/{table_id}/join", json=body)
        r.raise_for_status()
        return r.json()
