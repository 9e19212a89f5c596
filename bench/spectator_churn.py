"""Spectator churn against the players (issue 27, item 5): one address opens and closes
spectators' sockets on a table as fast as it can while two people play a game there; what
the player sees (states a second on one seat) and how long a move waits for its ack, side by
side, in one run:

- ``quiet``: no churn (the reference);
- ``before``: churn with every "n watching" change told at once and no open rate (the server
  as it was: ``WATCHING_EVERY = 0``, ``watch_rate`` unbounded);
- ``after``: churn with the server's defaults (told at most twice a second; 60 spectators'
  sockets a minute per address, bursts of 120, then 429).

The server runs in its own process (uvicorn, SQLite); the player and the churn are this one.

    PYTHONPATH=src python bench/spectator_churn.py [--seconds 10] [--churners 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACE = 0.1  # seconds a seat waits before each of its moves
sys.path.insert(0, str(ROOT / "src"))


def serve(mode: str, port: int, db: str) -> None:
    """The server of one mode (run in a child process)."""
    import uvicorn

    from bonepile.web.app import create_app
    from bonepile.web.play import table

    options: dict = {"bot_delay": 0, "grace": 1000, "hand_pause": 1000, "create_rate": 1000}
    if mode == "before":
        table.WATCHING_EVERY = 0.0
        options["watch_rate"] = 1e9
    app = create_app(f"sqlite:///{db}", **options)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="error")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def measure(base: str, seconds: float, churners: int) -> dict:
    import httpx
    import websockets

    async with httpx.AsyncClient(base_url=base) as c:
        made = (
            await c.post(
                "/api/tables",
                json={
                    "variant": "draw",
                    "players": 2,
                    "options": {"target": 1000},
                    "seats": [{"kind": "human"}, {"kind": "human"}],
                },
            )
        ).json()
        tid = made["id"]
        other = (await c.post(f"/api/tables/{tid}/join", json={"name": "Ben"})).json()
    ws = base.replace("http", "ws")
    tokens = {made["seat"]: made["token"], other["seat"]: other["token"]}
    stop = time.monotonic() + seconds
    states = [0]
    acks: list[float] = []
    opened = [0, 0]  # accepted, refused

    async def seat(me: int) -> None:
        async with websockets.connect(f"{ws}/ws/tables/{tid}?token={tokens[me]}", max_size=1 << 22) as s:
            sent: dict[int, float] = {}
            last: dict | None = None
            n = 0

            async def act(msg: dict) -> None:
                nonlocal n
                view = msg.get("view")
                if msg["phase"] == "hand_over":
                    await s.send(json.dumps({"type": "next"}))
                elif msg["phase"] == "play" and view and view["to_move"] == me and not msg["forced"]:
                    await asyncio.sleep(PACE)  # a person's pace (and under the socket's rate)
                    n += 1
                    sent[n] = time.monotonic()
                    await s.send(json.dumps({"type": "move", "move": view["legal"][0]["move"], "id": n}))

            while time.monotonic() < stop:
                try:
                    msg = json.loads(await asyncio.wait_for(s.recv(), max(0.01, stop - time.monotonic())))
                except TimeoutError:
                    break
                if msg.get("type") == "error":  # refused (the position moved on): act on the last state
                    sent.clear()
                    if last is not None:
                        await act(last)
                    continue
                if msg.get("type") != "state":
                    continue
                last = msg
                if me == 0:
                    states[0] += 1
                ack = msg.get("ack")
                if ack in sent:
                    acks.append(time.monotonic() - sent.pop(ack))
                if not sent:  # no move of mine on its way
                    await act(msg)

    async def churn() -> None:
        while time.monotonic() < stop:
            try:
                async with websockets.connect(f"{ws}/ws/tables/{tid}", max_size=1 << 22) as s:
                    first = json.loads(await s.recv())
                    opened[first.get("type") == "error"] += 1
            except (OSError, websockets.ConnectionClosed):
                opened[1] += 1

    start = time.monotonic()
    await asyncio.gather(seat(0), seat(1), *(churn() for _ in range(churners)))
    took = time.monotonic() - start
    return {
        "states/s": states[0] / took,
        "acks": len(acks),
        "p50": statistics.median(acks) * 1000 if acks else float("nan"),
        "p90": statistics.quantiles(acks, n=10)[-1] * 1000 if len(acks) >= 10 else float("nan"),
        "opens/s": opened[0] / took,
        "refused/s": opened[1] / took,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--churners", type=int, default=8)
    ap.add_argument("--serve", nargs=3, metavar=("MODE", "PORT", "DB"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve[0], int(args.serve[1]), args.serve[2])
        return
    import httpx

    rows = []
    for mode in ("quiet", "before", "after"):
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
            child = subprocess.Popen(
                [sys.executable, __file__, "--serve", mode, str(port), f"{tmp}/db"], env=env
            )
            try:
                base = f"http://127.0.0.1:{port}"
                for _ in range(300):
                    try:
                        if httpx.get(base + "/api/variants").status_code == 200:
                            break
                    except httpx.HTTPError:
                        time.sleep(0.1)
                got = asyncio.run(measure(base, args.seconds, 0 if mode == "quiet" else args.churners))
            finally:
                child.terminate()
                child.wait(30)
        rows.append((mode, got))
    print(
        f"spectator churn: {args.churners} sockets opening and closing from one address, {args.seconds:g} s a mode"
    )
    print(f"load before: {os.getloadavg()[0]:.2f}")
    print(
        f"{'':8}{'opens/s':>9}{'refused/s':>11}{'player states/s':>17}{'acks':>7}{'ack p50 ms':>12}{'ack p90 ms':>12}"
    )
    for mode, g in rows:
        print(
            f"{mode:8}{g['opens/s']:9.0f}{g['refused/s']:11.0f}{g['states/s']:17.1f}{g['acks']:7d}"
            f"{g['p50']:12.1f}{g['p90']:12.1f}"
        )
    b, a = rows[1][1], rows[2][1]
    print(
        f"after / before: player states/s x{a['states/s'] / b['states/s']:.3f}, ack p50 x{a['p50'] / b['p50']:.2f}"
    )


if __name__ == "__main__":
    main()
