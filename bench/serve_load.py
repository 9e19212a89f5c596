"""Load on one ``bonepile serve``: many 4-player tables played at once over websockets.

    PYTHONPATH=src python bench/serve_load.py [--games 500] [--think 1.0] [--duration 90]
        [--variant block] [--clients 1] [--db sqlite:///…]

Starts ``bonepile serve`` as its own process on a fresh SQLite file (or ``--db``), creates
``--games`` tables of four people, and connects four websocket clients per table from
``--clients`` client processes.  Each client is a bot that plays its seat from the messages it
receives (a random legal move after a think time drawn uniformly from 0.5x to 1.5x
``--think`` seconds), acknowledges hand ends, and starts a new table when its game is over,
so ``--games`` games are always being played.  After ``--warmup`` seconds it measures for
``--duration`` seconds: games completed, moves, the round trip of each move (sent until the
state that acknowledges it arrives) at p50/p99/max, and errors (refused intents, failed
connections, unfinished games).  The server's and the clients' CPU use are printed too.

``--experts``: the lobby's default table instead, one person (a client) and three expert bots
(the server's), at the server's default bot delay (0.6 s); it also prints the person's wait
for the others' moves (from the acknowledgement of its move to its next turn) at p50/p99.
``--hammer N``: N anonymous clients ask for the replay of a long record and the table list
over and over during the run (their statuses are printed).

``--workers N``: the server as N workers on one port (``serve --workers``; PostgreSQL only);
``--pg`` stores on a throwaway PostgreSQL cluster made for the run (``bench/pgtemp.py``), whose
CPU use is printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import shutil
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


async def _post(client, path: str, body: dict) -> dict:
    r = await client.post(path, json=body)
    if r.status_code != 200:
        raise RuntimeError(f"{path}: {r.status_code} {r.text}")
    return r.json()


async def new_table(client, variant: str, options: dict, experts: bool = False) -> tuple[str, list[str]]:
    if experts:  # the lobby's default table: one person and three expert bots
        t = await _post(
            client,
            "/api/tables",
            {
                "variant": variant,
                "players": 4,
                "options": options,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "expert"}] * 3,
            },
        )
        return t["id"], [t["token"]]
    t = await _post(
        client,
        "/api/tables",
        {"variant": variant, "players": 4, "options": options, "seats": [{"kind": "human"}] * 4},
    )
    tokens = [t["token"]]
    for i in range(3):
        j = await _post(client, f"/api/tables/{t['id']}/join", {"name": f"p{i + 1}"})
        tokens.append(j["token"])
    return t["id"], tokens


def person_client(base, table_id, token, **kw):
    """A SeatClient that also times the person's wait for the others' moves: from the state
    acknowledging its move to the state where it is to move again, when the others made one
    move each in between (a wait that also spans a forced pass or draw of the person, played
    by the server, is counted in ``longer``, not timed)."""
    from bonepile.web.client import SeatClient

    class Person(SeatClient):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            self.waits: list[float] = []
            self.wait_at: list[float] = []
            self.longer = 0
            self._acked: tuple[float, int, int] | None = None

        def respond(self, msg):
            now = time.monotonic()
            view = msg["view"]
            if msg.get("ack") is not None and view:
                self._acked = (now, view["hand_number"], len(view["history"]))
            out = super().respond(msg)
            if out is not None and out.get("type") == "move":
                if self._acked is not None and view and view["hand_number"] == self._acked[1]:
                    if len(view["history"]) - self._acked[2] == len(view["tile_counts"]) - 1:
                        self.waits.append(now - self._acked[0])
                        self.wait_at.append(now)
                    else:
                        self.longer += 1
                self._acked = None
            return out

    return Person(base, table_id, token, **kw)


async def hammer(args: dict, stop_at: float, out: list) -> None:
    """An anonymous client asking for replays of a long record and the table list, over and
    over (one request at a time)."""
    import httpx

    from bonepile.engine import Game
    from bonepile.engine import record as rec

    rng = random.Random(9)
    g = Game.new("draw", {"target": 1000}, seed=9)
    while not g.over:
        if g.hand.over:
            g.next_hand()
        g.apply(rng.choice(g.legal_moves()))
    body = rec.dumps(g.record()).encode()
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{args['port']}", timeout=120) as hc:
        while time.monotonic() < stop_at:
            r = await hc.post("/api/replay", content=body)
            out.append(r.status_code)
            r = await hc.get("/api/tables")
            out.append(r.status_code)


def client_main(args: dict, tables: int, seed: int, out) -> None:
    """One client process: ``tables`` tables kept busy until the end of the run."""
    import gc

    gc.freeze()  # as the server does: no long garbage-collector pauses in the measurements
    gc.set_threshold(20000, 50, 100)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(_clients(args, tables, seed, out))


async def _clients(args: dict, tables: int, seed: int, out) -> None:
    import httpx

    http = f"http://127.0.0.1:{args['port']}"
    ws = f"ws://127.0.0.1:{args['port']}"
    start = time.monotonic()
    measure_from = start + args["warmup"]
    stop_at = measure_from + args["duration"]
    stats = {
        "games": 0,
        "moves": 0,
        "rtts": [],
        "errors": 0,
        "error_samples": [],
        "unfinished": 0,
        "hands": 0,
        "waits": [],
        "longer": 0,
        "hammer": [],
    }
    hammers = [asyncio.ensure_future(hammer(args, stop_at, stats["hammer"])) for _ in range(args["hammer"])]
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=50)

    async with httpx.AsyncClient(base_url=http, timeout=60, limits=limits) as hc:

        async def table_loop(k: int) -> None:
            await asyncio.sleep(rng.random() * args["think"] * 2)  # stagger the starts
            while time.monotonic() < stop_at:
                try:
                    tid, tokens = await new_table(hc, args["variant"], args["options"], args["experts"])
                except Exception as e:
                    stats["errors"] += 1
                    stats["error_samples"].append(f"create: {e!r}"[:200])
                    await asyncio.sleep(1)
                    continue
                clients = [
                    person_client(
                        ws, tid, tok, think=args["think"], seed=rng.getrandbits(32), retry_errors=True
                    )
                    for tok in tokens
                ]
                left = stop_at - time.monotonic()
                tasks = [asyncio.ensure_future(c.play(timeout=max(1.0, left))) for c in clients]
                done = False
                try:
                    results = await asyncio.gather(*tasks)
                    done = all(r is not None and r["phase"] == "over" for r in results)
                except TimeoutError:
                    for t in tasks:
                        t.cancel()
                except Exception as e:
                    for t in tasks:
                        t.cancel()
                    if time.monotonic() < stop_at:
                        stats["errors"] += 1
                        stats["error_samples"].append(f"play: {e!r}"[:200])
                now = time.monotonic()
                for c in clients:
                    for err in c.errors:
                        stats["errors"] += 1
                        if len(stats["error_samples"]) < 10:
                            stats["error_samples"].append(err.get("message", "")[:200])
                    if now > measure_from:
                        stats["waits"].extend(w for w, at in zip(c.waits, c.wait_at) if at >= measure_from)
                        stats["longer"] += c.longer
                        stats["rtts"].extend(c.rtts_after(measure_from))
                        stats["moves"] += len(c.rtts_after(measure_from))
                if done and now >= measure_from and now <= stop_at + 1:
                    stats["games"] += 1
                elif not done:
                    stats["unfinished"] += 1

        await asyncio.gather(*(table_loop(k) for k in range(tables)))
        await asyncio.gather(*hammers, return_exceptions=True)
    stats["cpu"] = time.process_time()
    stats["wall"] = time.monotonic() - start
    out.put(stats)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=500, help="tables played at once")
    ap.add_argument("--think", type=float, default=1.0, help="mean think time per move (s)")
    ap.add_argument("--duration", type=float, default=90.0, help="measured seconds")
    ap.add_argument("--warmup", type=float, default=15.0, help="seconds before measuring")
    ap.add_argument("--variant", default="block")
    ap.add_argument("--option", action="append", default=[], help="rule option key=value")
    ap.add_argument("--clients", type=int, default=1, help="client processes")
    ap.add_argument("--db", default=None, help="storage URL (default: a fresh SQLite file)")
    ap.add_argument(
        "--experts",
        action="store_true",
        help="tables of one person and three expert bots (the lobby's default) instead of four people",
    )
    ap.add_argument(
        "--bot-delay",
        type=float,
        default=None,
        help="the server's --bot-delay (default: 0, or the server's 0.6 with --experts)",
    )
    ap.add_argument(
        "--hammer",
        type=int,
        default=0,
        help="anonymous clients (in the first client process) asking for replays and the table list",
    )
    ap.add_argument("--server-log", default=None, help="keep the server's log in this file")
    ap.add_argument("--workers", type=int, default=0, help="serve --workers N (PostgreSQL only)")
    ap.add_argument("--pg", action="store_true", help="store on a throwaway PostgreSQL cluster")
    args = ap.parse_args()
    if args.pg:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from pgtemp import throwaway

        with throwaway() as (url, postmaster):
            args.db = url
            run(args, postmaster)
    else:
        run(args, None)


def run(args: argparse.Namespace, postmaster: int | None) -> None:

    from bonepile.engine.variant import parse_option_value

    options = {}
    for pair in args.option:
        k, _, v = pair.partition("=")
        options[k] = parse_option_value(v)

    bot_delay = args.bot_delay if args.bot_delay is not None else (0.6 if args.experts else 0.0)
    tmp = tempfile.mkdtemp(prefix="bonepile-load-")
    db = args.db or f"sqlite:///{tmp}/load.db"
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bonepile",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--bot-delay",
            str(bot_delay),
            "--rate",
            "50",
            "--grace",
            "600",
            "--create-rate",
            "100000",
            "--address-sockets",
            "100000",
            *(["--workers", str(args.workers)] if args.workers else []),
        ],
        env=env,
        stdout=open(args.server_log or f"{tmp}/server.log", "w"),
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        if args.workers > 1:  # the workers register in the database as they start
            time.sleep(5)
        cpu0 = _cpu(server.pid)
        kids0 = _children_cpu(server.pid)
        pg0 = _children_cpu(postmaster) if postmaster else {}
        t0 = time.monotonic()
        shared = {
            "port": port,
            "think": args.think,
            "duration": args.duration,
            "warmup": args.warmup,
            "variant": args.variant,
            "options": options,
            "experts": args.experts,
            "hammer": 0,
        }
        q: mp.Queue = mp.Queue()
        per = [
            args.games // args.clients + (1 if i < args.games % args.clients else 0)
            for i in range(args.clients)
        ]
        procs = [
            mp.Process(target=client_main, args=(dict(shared, hammer=args.hammer if i == 0 else 0), n, i, q))
            for i, n in enumerate(per)
        ]
        for p in procs:
            p.start()
        results = [q.get() for _ in procs]
        for p in procs:
            p.join()
        wall = time.monotonic() - t0
        cpu1 = _cpu(server.pid)
        kids1 = _children_cpu(server.pid)
        pg1 = _children_cpu(postmaster) if postmaster else {}
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        try:
            server_log = Path(args.server_log or f"{tmp}/server.log").read_text().splitlines()
        except OSError:
            server_log = []
        shutil.rmtree(tmp, ignore_errors=True)

    rtts = sorted(x for r in results for x in r["rtts"])
    games = sum(r["games"] for r in results)
    moves = sum(r["moves"] for r in results)
    errors = sum(r["errors"] for r in results)
    unfinished = sum(r["unfinished"] for r in results)
    samples = [s for r in results for s in r["error_samples"]][:10]

    def pct(p: float) -> float:
        return rtts[min(len(rtts) - 1, int(p * len(rtts)))] * 1000 if rtts else float("nan")

    print(
        f"bonepile serve under load: {args.games} concurrent {args.variant} tables of "
        f"{'one person and three expert bots' if args.experts else '4 websocket clients'}, think {args.think} s, {args.clients} client process(es), {os.cpu_count()} cores"
    )
    print(f"storage: {args.db or 'a fresh SQLite file'}; server workers: {args.workers or 'one process'}")
    print(f"measured {args.duration:.0f} s after {args.warmup:.0f} s warm-up")
    print(f"games completed in the window: {games}")
    print(f"moves: {moves} ({moves / args.duration:.0f}/s)")
    print(f"move round trip: p50 {pct(0.50):.1f} ms, p99 {pct(0.99):.1f} ms, max {pct(1.0):.1f} ms")
    waits = sorted(x for r in results for x in r["waits"])
    if waits:

        def wp(p: float) -> float:
            return waits[min(len(waits) - 1, int(p * len(waits)))]

        print(
            f"the person's wait for the others' moves: p50 {wp(0.5):.2f} s, p99 {wp(0.99):.2f} s "
            f"(bot delay {bot_delay} s; {len(waits)} waits, and "
            f"{sum(r['longer'] for r in results)} that also spanned a forced turn of the person)"
        )
    hammered = [c for r in results for c in r["hammer"]]
    if hammered:
        print(
            f"anonymous requests (replays, table list): {len(hammered)}, statuses "
            f"{ {c: hammered.count(c) for c in sorted(set(hammered))} }"
        )
    print(
        f"errors: {errors} (refused intents and failed requests); games cut by the end of the run: "
        f"{unfinished}"
    )
    if cpu0 is not None and cpu1 is not None:
        print(f"server CPU: {(cpu1 - cpu0) / wall * 100:.0f}% of one core over the run (its event loop)")
    kids = sum(c - kids0.get(pid, 0.0) for pid, c in kids1.items())
    if kids1:
        print(
            f"server's worker processes (bots, replays): {len(kids1)}, "
            f"CPU {kids / wall * 100:.0f}% of one core over the run"
        )
    if postmaster:
        pg = sum(c - pg0.get(pid, 0.0) for pid, c in pg1.items())
        print(f"PostgreSQL (its {len(pg1)} processes): CPU {pg / wall * 100:.0f}% of one core over the run")
    for i, r in enumerate(results):
        print(f"client process {i}: CPU {r['cpu'] / r['wall'] * 100:.0f}% of one core")
    for s in samples:
        print("  error:", s)
    problems = [line for line in server_log if "Traceback" in line or "ERROR" in line]
    if problems:
        print(f"the server logged {len(problems)} problems; its log ends with:")
        for line in server_log[-20:]:
            print("  |", line)
    print(
        json.dumps(
            {
                "games": games,
                "moves": moves,
                "p50_ms": round(pct(0.5), 2),
                "wait_p50_s": round(waits[len(waits) // 2], 3) if waits else None,
                "wait_p99_s": round(waits[min(len(waits) - 1, int(0.99 * len(waits)))], 3) if waits else None,
                "p99_ms": round(pct(0.99), 2),
                "errors": errors,
                "concurrent": args.games,
                "workers": args.workers,
            }
        )
    )


def _cpu(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None


def _children_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each child process of ``pid`` (the server's workers)."""
    out: dict[int, float] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                parts = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(parts[1]) == pid:
            out[int(d)] = (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")
    return out


if __name__ == "__main__":
    main()
