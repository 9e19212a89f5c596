"""Quick match under load: many people asking for a game at once, time to a table.

    PYTHONPATH=src python bench/quickmatch_load.py [--players 200] [--spread 20] [--poll 0.25]
        [--timeout 120] [--seed 1]

Starts the server in its own process on a fresh SQLite file, makes ``--players`` profiles and
gives each a rating (normal around 1500, sd 200, written to the storage first), then each
player asks for a quick match at a moment drawn uniformly over ``--spread`` seconds: a game
among Block for 2 (40 %), Draw for 4 (30 %), Draw for 3 (15 %) and Block for 4 (15 %), and a
wait for bots of 10, 20 or 30 s or none (people only, one in ten).  Each polls its ticket every
``--poll`` seconds until it is seated (or ``--timeout``).  The bots are random ones and the
people never connect (a long grace), so the tables cost the server nothing once made: what is
measured is the queue.

Prints per game and in all: players, seated, the time from asking to a seat at p50/p99/max and
their ratio, tables made, people per table, bots per table and the widest rating gap at a table
of people; then the checks: every seated person at exactly one table, in a seat that is theirs,
no table with two seats for one person.  The server's CPU time is printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import random
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

GAMES = [(("block", 2), 0.40), (("draw", 4), 0.30), (("draw", 3), 0.15), (("block", 4), 0.15)]
WAITS = [10, 20, 30, None]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(db: str, port: int) -> None:
    import uvicorn

    from bonepile.web.app import create_app

    app = create_app(
        db,
        address_tickets=100_000,  # every simulated player comes from this one address
        create_rate=1_000_000,
        grace=100_000,
        bot_delay=0,
        bot_workers=1,
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(p / 100 * len(xs)) - 1))]


async def run(args: argparse.Namespace, base: str, db: str) -> None:
    import httpx
    from sqlalchemy import create_engine, insert

    from bonepile.arena.skill import MU0, SCALE, game_key
    from bonepile.web.store.database import ratings_t

    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(max_connections=100)) as c:
        profiles = []
        for i in range(args.players):
            r = await c.post("/api/profiles", json={"name": f"P{i}"})
            profiles.append(r.json())
        wants = []
        rows = []
        for p in profiles:
            (variant, n) = rng.choices([g for g, _ in GAMES], [w for _, w in GAMES])[0]
            shown = rng.gauss(1500, 200)
            wants.append(
                {
                    "variant": variant,
                    "players": n,
                    "bots_after": rng.choice(WAITS) if rng.random() > 0.1 else None,
                    "level": "random",
                    "at": rng.uniform(0, args.spread),
                    "rating": round(shown),
                }
            )
            rows.append(
                {
                    "participant": f"profile:{p['id']}",
                    "game": game_key(variant, n),
                    "mu": MU0 + (shown - 1500) / SCALE,
                    "sigma": 2.0,
                    "games": 20,
                    "name": p["name"],
                    "updated": time.time(),
                }
            )
        eng = create_engine(db)
        with eng.begin() as conn:
            conn.execute(insert(ratings_t), rows)
        eng.dispose()

        start = time.monotonic()

        async def player(p: dict, w: dict) -> tuple[float | None, dict | None]:
            await asyncio.sleep(w["at"])
            body = {k: w[k] for k in ("variant", "players", "bots_after", "level")}
            asked = time.monotonic()
            r = await c.post("/api/match", json=body, headers={"authorization": f"Bearer {p['key']}"})
            if r.status_code != 200:
                return None, {"error": r.text}
            ticket = r.json()["ticket"]
            while time.monotonic() - asked < args.timeout:
                st = (await c.get(f"/api/match/{ticket}")).json()
                if st.get("status") == "seated":
                    return time.monotonic() - asked, st
                await asyncio.sleep(args.poll)
            return None, None

        results = await asyncio.gather(*(player(p, w) for p, w in zip(profiles, wants)))
        took = time.monotonic() - start
        infos: dict[str, dict] = {}
        for _, st in results:
            if st and st.get("table") and st["table"] not in infos:
                infos[st["table"]] = (await c.get(f"/api/tables/{st['table']}")).json()

    # ------------------------------------------------------------------ figures
    errors = [st for _, st in results if st and "error" in st]
    by_game: dict[str, list[int]] = {}
    for i, w in enumerate(wants):
        by_game.setdefault(game_key(w["variant"], w["players"]), []).append(i)
    rating_of = {p["id"]: w["rating"] for p, w in zip(profiles, wants)}
    print(f"{args.players} players over {args.spread:g} s, poll every {args.poll:g} s; run {took:.1f} s")
    head = f"{'game':9} {'players':>7} {'seated':>6} {'p50 s':>7} {'p99 s':>7} {'max s':>7} {'p99/p50':>7} "
    head += f"{'tables':>6} {'people/t':>8} {'bots/t':>6} {'gap max':>7}"
    print(head)

    def line(name: str, idx: list[int]) -> None:
        waits = [results[i][0] for i in idx if results[i][0] is not None]
        tables = {results[i][1]["table"] for i in idx if results[i][0] is not None}
        people = [sum(s["kind"] == "human" for s in infos[t]["seats"]) for t in tables]
        bots = [sum(s["kind"] == "bot" for s in infos[t]["seats"]) for t in tables]
        gaps = []
        for t in tables:
            rs = [rating_of[s["profile"]] for s in infos[t]["seats"] if s.get("profile")]
            if len(rs) > 1:
                gaps.append(max(rs) - min(rs))
        p50, p99 = pct(waits, 50), pct(waits, 99)
        print(
            f"{name:9} {len(idx):7d} {len(waits):6d} {p50:7.2f} {p99:7.2f} {max(waits, default=float('nan')):7.2f} "
            f"{(p99 / p50 if p50 else float('nan')):7.1f} {len(tables):6d} "
            f"{(statistics.mean(people) if people else 0):8.2f} {(statistics.mean(bots) if bots else 0):6.2f} "
            f"{max(gaps, default=0):7d}"
        )

    for key in sorted(by_game):
        line(key, by_game[key])
    line("all", list(range(len(wants))))
    # ------------------------------------------------------------------ checks
    seen: dict[str, int] = {}
    bad = 0
    for p, (_, st) in zip(profiles, results):
        if st and st.get("table"):
            seen[p["id"]] = seen.get(p["id"], 0) + 1
            if infos[st["table"]]["seats"][st["seat"]].get("profile") != p["id"]:
                bad += 1
    doubles = sum(
        1
        for info in infos.values()
        if len([s["profile"] for s in info["seats"] if s.get("profile")])
        != len({s["profile"] for s in info["seats"] if s.get("profile")})
    )
    waiting_people_only = sum(1 for w, (t, _) in zip(wants, results) if t is None and w["bots_after"] is None)
    print(
        f"checks: seated once each {all(v == 1 for v in seen.values())}, seats not theirs {bad}, "
        f"tables with two seats for one person {doubles}, refusals {len(errors)}, "
        f"unseated {sum(1 for t, _ in results if t is None)} (of them people-only tickets {waiting_people_only})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--spread", type=float, default=20.0)
    ap.add_argument("--poll", type=float, default=0.25)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bonepile-quick-")
    db = f"sqlite:///{tmp}/bench.db"
    port = free_port()
    proc = mp.get_context("spawn").Process(target=serve, args=(db, port), daemon=True)
    proc.start()
    base = f"http://127.0.0.1:{port}"
    import httpx

    for _ in range(300):
        try:
            if httpx.get(base + "/api/variants", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    try:
        asyncio.run(run(args, base, db))
        try:
            with open(f"/proc/{proc.pid}/stat") as f:
                parts = f.read().split()
            cpu = (int(parts[13]) + int(parts[14])) / os.sysconf("SC_CLK_TCK")
            print(f"server CPU {cpu:.1f} s (start included); load {os.getloadavg()[0]:.2f}")
        except OSError:
            pass
    finally:
        proc.terminate()
        proc.join(10)


if __name__ == "__main__":
    main()
