"""Another table's ping while one address floods the chat of its own tables with the worst
line for the word filter (``"\\ufdfa" * 200``: U+FDFA folds into 18 characters), on a server
started with ``--chat-filter`` (a list of ``--words`` made-up words).  This source and the
source of an older commit (``--old REV``, exported with ``git archive``) side by side, each in
a server of its own started for the run; without the attack first, as a baseline.

    PYTHONPATH=src python bench/probe_chat.py [--sockets 64] [--lines 20] [--seconds 10]
        [--words 2004] [--old 380b444]

``--sockets`` seat sockets (16 tables of four people) each send ``--lines`` chat lines a
second (the socket rate limit is raised so every line is read); one seat of another table
pings every 50 ms and the round trips are printed (p50, p95, max).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
WORST = "\ufdfa" * 200


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(src: str, words: Path, db: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bonepile", "serve", "--db", f"sqlite:///{db}", "--port", str(port),
         "--chat-filter", str(words), "--rate", "1000", "--address-sockets", "1000",
         "--create-rate", "100000", "--grace", "1000", "--log-level", "warning"],
        env=dict(os.environ, PYTHONPATH=src), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(base + "/api/variants").status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def table(base: str) -> tuple[str, list[str]]:
    """A table of four people, every seat taken: (id, tokens)."""
    made = httpx.post(
        base + "/api/tables", json={"variant": "block", "players": 4, "seats": [{"kind": "human"}] * 4}
    ).json()
    tokens = [made["token"]]
    for _ in range(3):
        tokens.append(httpx.post(f"{base}/api/tables/{made['id']}/join", json={"name": "P"}).json()["token"])
    return made["id"], tokens


async def drain(ws) -> None:
    try:
        async for _ in ws:
            pass
    except websockets.ConnectionClosed:
        pass


async def attacker(url: str, lines: float, stop: float) -> int:
    sent = 0
    async with websockets.connect(url, max_size=None) as ws:
        reader = asyncio.create_task(drain(ws))
        while time.monotonic() < stop:
            await ws.send(json.dumps({"type": "chat", "text": WORST}))
            sent += 1
            await asyncio.sleep(1 / lines)
        reader.cancel()
    return sent


async def pinger(url: str, stop: float) -> list[float]:
    took = []
    async with websockets.connect(url, max_size=None) as ws:
        n = 0
        while time.monotonic() < stop:
            n += 1
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "id": n}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if msg.get("type") == "pong" and msg.get("id") == n:
                    break
            took.append(time.perf_counter() - t0)
            await asyncio.sleep(0.05)
    return took


async def probe(base: str, sockets: int, lines: float, seconds: float, attack: bool) -> list[float]:
    ws = base.replace("http", "ws")
    tid, tokens = table(base)
    ping_url = f"{ws}/ws/tables/{tid}?token={tokens[0]}"
    urls = []
    if attack:
        for _ in range(sockets // 4):
            t, toks = table(base)
            urls += [f"{ws}/ws/tables/{t}?token={tok}" for tok in toks]
    stop = time.monotonic() + seconds
    tasks = [asyncio.create_task(attacker(u, lines, stop)) for u in urls]
    took = await pinger(ping_url, stop)
    await asyncio.gather(*tasks, return_exceptions=True)
    return took


def show(label: str, took: list[float]) -> str:
    took = sorted(took)
    if not took:
        return f"{label:24s} no ping answered"
    q = lambda p: took[min(len(took) - 1, int(len(took) * p))] * 1e3  # noqa: E731
    return f"{label:24s} {len(took):4d} pings  p50 {q(0.5):8.1f} ms  p95 {q(0.95):8.1f} ms  max {took[-1] * 1e3:8.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sockets", type=int, default=64)
    ap.add_argument("--lines", type=float, default=20)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--words", type=int, default=2004)
    ap.add_argument("--old", default="380b444")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bonepile-probe-"))
    rng = random.Random(1)
    words = tmp / "words.txt"
    words.write_text(
        "\n".join(
            "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9)))
            for _ in range(a.words)
        ),
        encoding="utf-8",
    )
    sources = [("this", str(ROOT / "src"))]
    if a.old:
        archive = subprocess.run(["git", "archive", a.old, "src"], cwd=ROOT, capture_output=True, check=True)
        (tmp / "old").mkdir()
        subprocess.run(["tar", "-x", "-C", str(tmp / "old")], input=archive.stdout, check=True)
        sources.append((a.old, str(tmp / "old" / "src")))
    print(
        f"{a.sockets} sockets x {a.lines:g} lines/s of U+FDFA x 200, {a.words} words listed, {a.seconds:g} s each"
    )
    for label, src in sources:
        proc, base = start(src, words, tmp / f"{label}.db")
        try:
            print(
                show(
                    f"{label}: no attack", asyncio.run(probe(base, a.sockets, a.lines, a.seconds / 2, False))
                )
            )
            print(
                show(f"{label}: chat attack", asyncio.run(probe(base, a.sockets, a.lines, a.seconds, True)))
            )
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
