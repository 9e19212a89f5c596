"""Load of a tournament's round on one ``bonepile serve``: every table of a round played at once.

    PYTHONPATH=src python bench/tournament_load.py [--tables 50] [--hands 2] [--think 0.5]
        [--variant draw --players 2]

Starts ``bonepile serve`` as its own process on a fresh SQLite file, makes a profile per
person, a tournament of one round waiting for ``--tables`` x players people, and has them
all join: the round opens ``--tables`` tables at once (the same deals at each).  Every person
is a ``web.client.SeatClient`` in this process, playing a random legal move after a think time
of 0.5x to 1.5x ``--think`` seconds, that finds its seat by polling the tournament as the page
does.  Then, for comparison, the same number of ordinary tables of people (``POST
/api/tables``) is played the same way for as long as the round took.  Printed side by side: each move's round trip (sent
until the state that acknowledges it arrives) at p50/p99/max, moves, the time from the last
join to the round's first table opening, and the ratio tournament / ordinary.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000 if xs else float("nan")


async def tournament_round(http: str, ws: str, args) -> tuple[list[float], int, float]:
    import httpx

    from bonepile.web.client import SeatClient

    people = args.tables * args.players
    async with httpx.AsyncClient(base_url=http, timeout=60) as c:
        keys = []
        for i in range(people):
            r = await c.post("/api/profiles", json={"name": f"P{i}"})
            keys.append(r.json()["key"])
        made = (
            await c.post(
                "/api/tournaments",
                json={
                    "variant": args.variant,
                    "players": args.players,
                    "rounds": 1,
                    "hands": args.hands,
                    "start_when": people,
                    "join": False,
                },
                headers={"Authorization": f"Bearer {keys[0]}"},
            )
        ).json()
        tid = made["id"]
        for k in keys:
            r = await c.post(
                f"/api/tournaments/{tid}/join", json={}, headers={"Authorization": f"Bearer {k}"}
            )
            assert r.status_code == 200, r.text
        joined = time.monotonic()
        opened: list[float] = []

    async def person(i: int, key: str) -> SeatClient:
        async with httpx.AsyncClient(
            base_url=http, headers={"Authorization": f"Bearer {key}"}, timeout=60
        ) as c:
            while True:
                st = (await c.get(f"/api/tournaments/{tid}")).json()
                if st["you"]:
                    opened.append(time.monotonic())
                    break
                await asyncio.sleep(1.0)  # (the page polls every 2 s)
        you = st["you"]
        sc = SeatClient(ws, you["table"], you["token"], seed=i, think=args.think)
        await sc.play(timeout=600)
        return sc

    clients = await asyncio.gather(*(person(i, k) for i, k in enumerate(keys)))
    return [x for sc in clients for x in sc.rtts], sum(sc.moves for sc in clients), min(opened) - joined


async def ordinary_tables(http: str, ws: str, args, seconds: float) -> tuple[list[float], int]:
    import httpx

    from bonepile.web.client import SeatClient

    seats = []
    async with httpx.AsyncClient(base_url=http, timeout=60) as c:
        for _ in range(args.tables):
            made = (
                await c.post(
                    "/api/tables",
                    json={
                        "variant": args.variant,
                        "players": args.players,
                        "seats": [{"kind": "human"}] * args.players,
                        "timer": 60,
                    },
                )
            ).json()
            seats.append((made["id"], made["token"]))
            for _ in range(args.players - 1):
                j = (await c.post(f"/api/tables/{made['id']}/join", json={"name": "P"})).json()
                seats.append((made["id"], j["token"]))
    clients = [SeatClient(ws, tid, tok, seed=i, think=args.think) for i, (tid, tok) in enumerate(seats)]

    async def for_a_while(sc: SeatClient) -> None:
        try:
            await sc.play(timeout=seconds)
        except TimeoutError:
            pass  # the window is over (the games go on to their target)

    await asyncio.gather(*(for_a_while(sc) for sc in clients))
    return [x for sc in clients for x in sc.rtts], sum(sc.moves for sc in clients)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--hands", type=int, default=2)
    ap.add_argument("--think", type=float, default=0.5)
    ap.add_argument("--variant", default="draw")
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bonepile-tourney-load-")
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    cmd = [
        sys.executable,
        "-m",
        "bonepile",
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{tmp}/db.sqlite",
        "--create-rate",
        "100000",
        "--profile-rate",
        "100000",
        "--hand-pause",
        "1",
        "--grace",
        "1000",
        "--address-sockets",
        "100000",
    ]
    server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import httpx

        http, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        for _ in range(300):
            try:
                if httpx.get(http + "/api/variants").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        t0 = time.monotonic()
        rt, moves, opening = asyncio.run(tournament_round(http, ws, args))
        t1 = time.monotonic()
        ro, omoves = asyncio.run(ordinary_tables(http, ws, args, t1 - t0))
        t2 = time.monotonic()
    finally:
        server.terminate()
        server.wait(30)
    print(
        f"{args.tables} tables of {args.variant} ({args.players} players), {args.hands} hand(s), "
        f"think {args.think} s; load {os.getloadavg()[0]:.1f} at the end"
    )
    print(f"{'':28s} {'tournament round':>18s} {'ordinary tables':>18s} {'ratio':>7s}")
    for label, p in (
        ("move round trip p50 (ms)", 0.5),
        ("move round trip p99 (ms)", 0.99),
        ("move round trip max (ms)", 1.0),
    ):
        a, b = pct(rt, p), pct(ro, p)
        print(f"{label:28s} {a:18.1f} {b:18.1f} {a / b:7.2f}")
    print(f"{'moves measured':28s} {len(rt):18d} {len(ro):18d}")
    print(f"{'wall time (s)':28s} {t1 - t0:18.1f} {t2 - t1:18.1f}")
    print(f"the round's first table seen by a person {opening * 1000:.0f} ms after the last join")


if __name__ == "__main__":
    main()
