"""Helpers for the tests of ``bonepile serve``: a server in this process (uvicorn in a
background thread, so a test can read the server's own games, the ground truth) or in a
child process (to kill it), HTTP calls, and the hidden-information checker."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import pathlib
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from bonepile.engine.tiles import NAME

ROOT = pathlib.Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
TILE_RE = re.compile(r"^(\d)-(\d)$")
ALL_TILES = set(NAME)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(pred, timeout: float = 60.0, what: str = "a condition", step: float = 0.02) -> Any:
    """Poll pred() until it is true (returned); fail after timeout seconds."""
    end = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(step)


@contextmanager
def logged_server(tmp: pathlib.Path, *args: str, code: str | None = None) -> Iterator[str]:
    """A server in a child process for the browser tests, its output in ``tmp/serve.log``
    (a file, not a pipe: a long test must not block it); yields its base address once it
    answers.  ``python -m bonepile serve --port P --db sqlite:///tmp/db.sqlite ARGS``, or
    with ``code``: ``python -c CODE DB PORT`` (an app built with settings serve has no
    option for)."""
    port = free_port()
    db = f"sqlite:///{tmp / 'db.sqlite'}"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(SRC), env.get("PYTHONPATH", "")] if p)
    if code is None:
        argv = [sys.executable, "-m", "bonepile", "serve", "--port", str(port), "--db", db, *args]
    else:
        argv = [sys.executable, "-c", code, db, str(port), *args]
    base = f"http://127.0.0.1:{port}"
    with open(tmp / "serve.log", "w") as log:
        proc = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=tmp)
        try:

            def up() -> bool:
                if proc.poll() is not None:
                    raise AssertionError(f"the server exited: {(tmp / 'serve.log').read_text()}")
                try:
                    return httpx.get(base + "/api/variants", timeout=10).status_code == 200
                except httpx.HTTPError:
                    return False

            wait_until(up, 30, "the server to answer", step=0.1)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


class Served:
    """What both kinds of server offer: addresses and a few HTTP calls."""

    port: int

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.http, timeout=60)

    def post(self, path: str, body: Any = None, **kw) -> httpx.Response:
        with self.client() as c:
            return c.post(path, json=body, **kw) if body is not None else c.post(path, **kw)

    def get(self, path: str, **kw) -> httpx.Response:
        with self.client() as c:
            return c.get(path, **kw)

    def create(self, body: dict) -> dict:
        r = self.post("/api/tables", body)
        assert r.status_code == 200, r.text
        return r.json()

    def join(self, table_id: str, name: str = "P", seat: int | None = None) -> dict:
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        r = self.post(f"/api/tables/{table_id}/join", body)
        assert r.status_code == 200, r.text
        return r.json()

    def people_table(
        self, variant: str, players: int = 4, options: dict | None = None, timer: float = 0
    ) -> tuple[str, list[str]]:
        """A table of people only, every seat claimed: (id, token per seat); it is playing."""
        made = self.create(
            {
                "variant": variant,
                "players": players,
                "options": options or {},
                "seats": [{"kind": "human"}] * players,
                "timer": timer,
            }
        )
        tokens = [""] * players
        tokens[made["seat"]] = made["token"]
        for _ in range(players - 1):
            j = self.join(made["id"], "P")
            tokens[j["seat"]] = j["token"]
        return made["id"], tokens

    def info(self, table_id: str) -> dict:
        r = self.get(f"/api/tables/{table_id}")
        assert r.status_code == 200, r.text
        return r.json()


class InProcess(Served):
    """create_app(...) served by uvicorn in a daemon thread of this process."""

    def __init__(self, db: str, **settings: Any):
        import uvicorn

        from bonepile.web.app import create_app

        settings.setdefault("bot_delay", 0)
        settings.setdefault("bot_time", 0.02)
        settings.setdefault("create_rate", 100_000)  # the tests make many tables from one address
        settings.setdefault("profile_rate", 100_000)  # and many profiles
        settings.setdefault("watch_rate", 100_000)  # and many spectators' sockets
        settings.setdefault("address_bot_tables", 100_000)  # and many tables of bots only
        settings.setdefault("puzzle_mining", 0)  # no puzzle mined behind a test's back
        self.app = create_app(db, **settings)
        self.port = free_port()
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on", ws_max_size=65536
        )
        self.uv = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.uv.run, daemon=True)

    @property
    def server(self):
        return self.app.state.server

    def __enter__(self) -> InProcess:
        self.thread.start()
        wait_until(lambda: self.uv.started, 30, "uvicorn to start")
        return self

    def __exit__(self, *exc) -> None:
        self.uv.should_exit = True
        self.thread.join(30)


class Child(Served):
    """``python -m bonepile serve`` as a child process (killable with SIGKILL)."""

    def __init__(self, db: str, *args: str, port: int | None = None):
        self.db = db
        self.args = list(args)
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> Child:
        env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bonepile",
                "serve",
                "--port",
                str(self.port),
                "--db",
                self.db,
                "--bot-delay",
                "0",
                "--bot-time",
                "0.02",
                "--create-rate",
                "100000",
                "--profile-rate",
                "100000",
                "--address-bot-tables",
                "100000",
                *self.args,
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=str(ROOT),
        )

        def up():
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode(errors="replace")
                raise AssertionError(f"the server exited with {self.proc.returncode}: {out}")
            try:
                return self.get("/api/variants").status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(up, 60, "the server process to answer", step=0.1)
        return self

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def __enter__(self) -> Child:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.kill()
        if self.proc and self.proc.stdout:
            self.proc.stdout.close()


# ------------------------------------------------------------------------ sockets
class Sock:
    """A raw table socket for hand-written exchanges (websockets' asyncio client)."""

    def __init__(self, ws):
        self.ws = ws
        self.latest: dict | None = None  # the last state received

    @classmethod
    async def open(cls, base_ws: str, table_id: str, token: str | None) -> Sock:
        import websockets

        url = f"{base_ws}/ws/tables/{table_id}" + (f"?token={token}" if token is not None else "")
        ws = await websockets.connect(url, max_size=1 << 22, open_timeout=30, ping_interval=None)
        return cls(ws)

    async def send(self, msg: Any) -> None:
        await self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    async def recv(self, timeout: float = 30) -> dict:
        msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if msg.get("type") == "state":
            self.latest = msg
        return msg

    async def at(self, seq: int, timeout: float = 30) -> dict:
        """The seat's state once it has seen sequence number seq (with a view)."""
        st = self.latest
        if st is not None and st["seq"] >= seq and st["view"] is not None:
            return st
        return await self.state(lambda m: m["seq"] >= seq and m["view"] is not None, timeout, f"state {seq}")

    async def expect(self, pred, timeout: float = 30, what: str = "a message") -> dict:
        """The next message for which pred(msg) is true (earlier ones are skipped)."""
        end = time.monotonic() + timeout
        seen = []
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {what} within {timeout} s; got {seen[-5:]}")
            try:
                msg = await self.recv(left)
            except TimeoutError:
                raise AssertionError(f"no {what} within {timeout} s; got {seen[-5:]}") from None
            seen.append(msg)
            if pred(msg):
                return msg

    async def error(self, timeout: float = 30) -> dict:
        return await self.expect(lambda m: m["type"] == "error", timeout, "error message")

    async def state(self, pred=lambda m: True, timeout: float = 30, what: str = "state") -> dict:
        return await self.expect(lambda m: m["type"] == "state" and pred(m), timeout, what)

    async def close(self) -> None:
        await self.ws.close()


def strip_live(state: dict) -> dict:
    """A state without what changes with connections and the clock (and the ack)."""
    s = json.loads(json.dumps(state))
    s.pop("deadline", None)
    s.pop("ack", None)
    for seat in s["table"]["seats"]:
        seat.pop("connected", None)
        seat.pop("bot_playing", None)
    return s


# ------------------------------------------------------------------------ hidden information
SECRET_KEYS = ("seed", "token_hash")  # never in a message, whatever their value
DEAL_KEYS = ("deal", "deal_rows", "boneyard", "rows")  # never holding a list of tiles


#: a tile name in a text: "a-b" between two separators (or the text's ends), as the pieces of
#: the text split at runs of separators that are exactly a digit, a dash and a digit
_SEP = r"@\s,;:()'\"\[\]"
_TILE_IN_TEXT = re.compile(rf"(?<![^{_SEP}])(\d)-(\d)(?![^{_SEP}])")


@functools.lru_cache(maxsize=1 << 16)
def _tiles_in_text(text: str) -> frozenset[str]:
    out = set()
    for pips in _TILE_IN_TEXT.findall(text):
        a, b = sorted(map(int, pips), reverse=True)
        out.add(f"{a}-{b}")
    return frozenset(out)


def tiles_in(x: Any) -> set[str]:
    """Every tile name ("a-b", either order) in a JSON value (its strings: the values of its
    objects, not their keys), written as "hi-lo".  (A walk with a stack and a cache of the
    texts seen: the hidden-information checks call it on every message of whole games.)"""
    out: set[str] = set()
    stack = [x]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if "-" in v:
                out |= _tiles_in_text(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def _any_bad_key(x: Any, up: str | None = None, key: str | None = None) -> bool:
    """Whether ``bad_keys`` finds anything, without the paths (which cost more to build than
    the walk): ``key`` and ``up`` are the keys of x and of its parent (None: a list's item).
    Never false where ``bad_keys`` finds something."""
    if isinstance(x, dict):
        for k, v in x.items():
            if k in SECRET_KEYS:
                if not (k == "seed" and key == "deals" and up == "table"):  # (the sealed deals' seed)
                    return True
            elif k in DEAL_KEYS and isinstance(v, list):
                return True
            if isinstance(v, (dict, list)) and _any_bad_key(v, key, k):
                return True
    elif isinstance(x, list):
        for v in x:
            if isinstance(v, (dict, list)) and _any_bad_key(v, key, None):
                return True
    return False


def bad_keys(x: Any, path: str = "$") -> list[str]:
    """Keys no message may carry: a seed, a token hash, a deal or the boneyard as a list.
    The one seed allowed is the table's sealed deals' (``table.deals.seed``):
    ``revealed_too_soon`` checks it is revealed once the game is over, never before."""
    if path == "$" and not _any_bad_key(x):
        return []  # (the usual answer, found without building every path)
    out = []
    if isinstance(x, dict):
        for k, v in x.items():
            if k == "seed" and path.endswith(".table.deals"):
                continue  # the sealed deals' seed: null until the end (``revealed_too_soon``)
            if k in SECRET_KEYS or (k in DEAL_KEYS and isinstance(v, list)):
                out.append(f"{path}.{k}")
            out += bad_keys(v, f"{path}.{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += bad_keys(v, f"{path}[{i}]")
    return out


def revealed_too_soon(msg: dict) -> bool:
    """A message that names a table's seed or salt (its sealed deals, RECORD.md "Extensions")
    while its game is not over."""
    table = msg.get("table") if isinstance(msg, dict) else None
    deals = table.get("deals") if isinstance(table, dict) else None
    if not deals:
        return False
    over = msg.get("phase") == "over" if "phase" in msg else table.get("status") == "over"
    return not over and (deals.get("seed") is not None or deals.get("salt") is not None)


def secret_free_text(text: str) -> bool:
    """A message's text names no seed and no token hash: the only "seed" in it is the table's
    sealed deals' key, its value null until the game is over."""
    msg = json.loads(text)
    if revealed_too_soon(msg):
        return False
    rest = re.sub(r'"seed":\s*(null|"\d+")', "", text, count=1) if '"deals":' in text else text
    return "seed" not in rest and "token_hash" not in text


def peeked(h, seat: int) -> int | None:
    """Billitonnen: the tile of its own row that seat may look at now (RULES.md: the player to
    move peeks at the next tile when the turned-up one fits more than one end)."""
    if h.rows is None or not h.v.peek or h.over or h.to_move != seat or not h.placed:
        return None
    row = h.rows[seat]
    return row[1] if len(row) > 1 and len(h.fits(row[0])) > 1 else None


def hidden_from(h, seat: int | None, seen: set[int] = frozenset()) -> set[str]:
    """Tiles of hand h (in its current position) that seat may not see: other seats' tiles and
    the boneyard; in blind games the seat's own face-down row too.  ``seen``: tiles the seat
    has seen earlier in the hand (blind games: every tile turned up, its own peeks).  Seat
    None is a spectator: every seat's tiles are hidden from it."""
    if h.over:
        return set()
    hidden: set[int] = set(h.boneyard[h.bpos :])
    for s in range(h.n):
        if s != seat:
            hidden |= set(h.held(s))
    if h.rows is not None:
        if seat is not None:
            row = h.rows[seat]
            hidden |= {t for t in row if not h.face_up[seat] >> t & 1}
        if h.rows[h.to_move]:
            hidden.discard(h.rows[h.to_move][0])  # turned up by the player to move: public
        hidden.discard(peeked(h, seat))
        hidden -= seen
    return {NAME[t] for t in hidden}


class Timeline:
    """The positions of a table's game by sequence number, from the stored actions and the
    server's finished (or current) Game: position(seq, hand_number) is the Hand as it was."""

    def __init__(self, game, actions: list[tuple[str, str, int]]):
        self.game = game
        # after each seq: (index of the last dealt hand, moves made in it)
        at = [(-1, 0)]
        i, k = -1, 0
        for kind, _value, _seat in actions:
            if kind in ("leader", "deal"):  # the next hand is dealt
                i, k = i + 1, 0
            else:
                if i < 0 or k >= len(game.hands[i].log) and game.hands[i].over:
                    i, k = i + 1, 0
                k += 1
            at.append((i, k))
        self.at = at
        self.index = {h.number: n for n, h in enumerate(game.hands)}

    def position(self, seq: int, hand_number: int) -> tuple[Any, list[set[int]]]:
        """The hand as it was at seq, and per seat the tiles it saw earlier in the hand (blind
        games: the tiles turned up, which everybody sees, and its own peeks)."""
        i, k = self.at[seq]
        j = self.index[hand_number]
        if j == i + 1:  # dealt by the server and shown before its first stored action
            assert i < 0 or self.game.hands[i].over, (seq, hand_number)
            k = 0
        else:
            assert j == i, f"seq {seq}: a view of hand {hand_number}, but hand index {i} is played"
        h = self.game.hands[j].fresh()
        seen: list[set[int]] = [set() for _ in range(h.n)]
        for _seat, m, _t in self.game.hands[j].log[:k]:
            if h.rows is not None:
                for s in range(h.n):
                    seen[s].add(h.rows[h.to_move][0])
                    p = peeked(h, s)
                    if p is not None:
                        seen[s].add(p)
            h.apply(m)
        return h, seen

    def finished(self, seq: int) -> int:
        """How many hands were over at seq."""
        i, k = self.at[seq]
        if i < 0:
            return 0
        h = self.game.hands[i]
        return i + (1 if h.over and k >= len(h.log) else 0)

    def next_hand(self, seq: int):
        """The hand dealt after the one played at seq (shown to a chooser of the leader)."""
        i, _ = self.at[seq]
        return self.game.hands[i + 1].fresh()


def seen_by(seen: list[set[int]], seat: int | None) -> set[int]:
    """What seat saw earlier in the hand; a spectator (None): what every seat saw."""
    return seen[seat] if seat is not None else set.intersection(*seen)


def check_messages(messages: list[dict], seat: int | None, timeline: Timeline) -> int:
    """Assert that no message sent to seat (None: a spectator) names a tile hidden from it at
    that moment; returns how many tiles were checked."""
    checked = 0
    moment: tuple[int, int] | None = None  # (seq, hand number) of the last state
    for n, msg in enumerate(messages):
        where = f"seat {seat} message {n} ({msg.get('type')})"
        assert not revealed_too_soon(msg), f"{where}: the seed revealed before the game is over"
        assert not bad_keys(msg), f"{where}: forbidden keys {bad_keys(msg)}"
        if msg["type"] == "state":
            view = msg["view"]
            if view is not None:
                moment = (msg["seq"], view["hand_number"])
                assert view["seat"] == seat and msg["you"] == seat, where
            rest = {k: v for k, v in msg.items() if k not in ("view", "pending", "pad")}
            assert not tiles_in(rest), f"{where}: tiles outside the view {tiles_in(rest)}"
            # the score pad: one line per finished hand, no more
            assert len(msg["pad"]) == timeline.finished(msg["seq"]), where
            if view is not None:
                h, seen = timeline.position(msg["seq"], view["hand_number"])
                shown = tiles_in(view)
                bad = shown & hidden_from(h, seat, seen_by(seen, seat))
                assert not bad, f"{where}: hidden tiles {sorted(bad)} in the view"
                checked += len(shown)
            if msg["pending"] is not None:
                h = timeline.next_hand(msg["seq"])
                shown = tiles_in(msg["pending"])
                bad = shown & hidden_from(h, seat)
                assert not bad, f"{where}: hidden tiles {sorted(bad)} in pending"
                if seat in msg["pending"]["seats"] and not h.v.blind:
                    assert sorted(msg["pending"]["hand"]) == sorted(NAME[t] for t in h.held(seat))
                else:
                    assert "hand" not in msg["pending"], where
                checked += len(shown)
        else:
            found = tiles_in(msg)
            if found:
                assert moment is not None, f"{where}: tiles before any view: {found}"
                h, seen = timeline.position(*moment)
                bad = found & hidden_from(h, seat, seen_by(seen, seat))
                assert not bad, f"{where}: hidden tiles {sorted(bad)}"
                checked += len(found)
    return checked


def timeline_of(server, table_id: str) -> Timeline:
    """The ground truth of a table of an in-process server."""
    t = server.tables[table_id]
    row = server.store.load(table_id)
    return Timeline(t.game, row.actions)


def run(coro, timeout: float = 300):
    return asyncio.run(asyncio.wait_for(coro, timeout))


# ------------------------------------------------------------------------ a table of sockets
class Driver:
    """Plays the given seats of a table over raw sockets (random legal moves, "next" after
    each hand, a random seat offered as leader) until ``stop(self)`` is true at one of our
    seats' turns, then stops sending and waits until every seat has seen that state.  Keeps every message,
    the latest state of each seat and the moves the server acknowledged."""

    def __init__(self, base_ws: str, table_id: str, tokens: dict[int, str], seed: int = 0):
        import random

        self.base_ws = base_ws
        self.table_id = table_id
        self.tokens = dict(tokens)
        self.rng = random.Random(seed)
        self.messages: dict[int, list[dict]] = {s: [] for s in tokens}
        self.last: dict[int, dict] = {}
        self.sent: dict[int, dict] = {}  # move id -> what was sent
        self.acked: list[dict] = []
        self.moves = 0
        self.stopped = False
        self.socks: dict[int, Sock] = {}
        self._ids = 0
        self._acted: dict[int, Any] = {}
        self.turn_seat: int | None = None  # whose state stop() is looking at

    async def _seat(self, seat: int, stop, done: asyncio.Event) -> None:
        sock = self.socks[seat]
        while True:
            try:
                msg = await sock.recv(timeout=3600)
            except Exception:
                return
            self.messages[seat].append(msg)
            if msg["type"] == "error" and "too many" in msg["message"] and seat in self.last:
                await asyncio.sleep(0.3)  # the rate limit: try the last state's move again
                self._acted.pop(seat, None)
                msg = self.last[seat]
            elif msg["type"] != "state":
                continue
            self.last[seat] = msg
            if msg["ack"] is not None and msg["ack"] in self.sent:
                self.acked.append(self.sent.pop(msg["ack"]))
            view = msg["view"]
            self.turn_seat = seat
            if (
                not self.stopped
                and msg["phase"] == "play"
                and view
                and view["to_move"] == seat
                and not msg["forced"]
                and self._acted.get(seat) != msg["seq"]
                and stop(self)
            ):
                self.stopped = True  # our turn: nothing happens at the table until we move
                done.set()
            if self.stopped:
                continue
            out = self.respond(seat, msg)
            if out is not None:
                await sock.send(out)

    def respond(self, seat: int, msg: dict) -> dict | None:
        view, phase = msg["view"], msg["phase"]
        if phase == "play" and view and view["to_move"] == seat and not msg["forced"]:
            if self._acted.get(seat) == msg["seq"]:
                return None
            self._acted[seat] = msg["seq"]
            self._ids += 1
            token = self.rng.choice(view["legal"])["move"]
            self.sent[self._ids] = {
                "seat": seat,
                "hand": view["hand_number"],
                "index": len(view["history"]),
                "move": token,
            }
            self.moves += 1
            return {"type": "move", "move": token, "id": self._ids}
        if (
            phase == "hand_over"
            and seat not in msg["ready"]
            and self._acted.get(seat) != ("next", msg["seq"])
        ):
            self._acted[seat] = ("next", msg["seq"])
            return {"type": "next"}
        if phase == "leader" and msg["pending"] and seat in msg["pending"]["seats"]:
            if self._acted.get(seat) != ("leader", msg["seq"]):
                self._acted[seat] = ("leader", msg["seq"])
                return {"type": "leader", "seat": self.rng.choice(msg["pending"]["seats"])}
        return None

    def quiet_turn(self) -> bool:
        """Every seat has the same latest state, and in it one of our seats is to play (not a
        forced move): nothing happens at the table until that seat moves."""
        if len(self.last) != len(self.tokens):
            return False
        states = list(self.last.values())
        seqs = {s["seq"] for s in states}
        st = states[0]
        return (
            len(seqs) == 1
            and st["phase"] == "play"
            and st["view"] is not None
            and st["view"]["to_move"] in self.tokens
            and not self.last[st["view"]["to_move"]]["forced"]
        )

    async def run(self, stop, timeout: float = 120, settle: bool = True) -> None:
        """Play until stop(self) at our turn (with settle: until every seat has seen it)."""
        for s, tok in self.tokens.items():
            if s not in self.socks:
                self.socks[s] = await Sock.open(self.base_ws, self.table_id, tok)
        self.stopped = False
        done = asyncio.Event()
        tasks = [asyncio.create_task(self._seat(s, stop, done)) for s in self.tokens]
        try:
            try:
                await asyncio.wait_for(done.wait(), timeout)
            except TimeoutError:
                raise AssertionError(
                    f"table {self.table_id}: no stop in {timeout} s after {self.moves} moves; "
                    f"last states: {[(s, m['seq'], m['phase']) for s, m in self.last.items()]}; "
                    f"errors: {[m for ms in self.messages.values() for m in ms if m['type'] == 'error'][:3]}"
                ) from None
            if settle:
                end = time.monotonic() + timeout
                while True:
                    before = sum(map(len, self.messages.values()))
                    await asyncio.sleep(0.3)
                    if self.quiet_turn() and sum(map(len, self.messages.values())) == before:
                        break
                    assert time.monotonic() < end, (
                        f"table {self.table_id} did not come to rest: "
                        f"{[(s, m['seq'], m['phase'], m['view'] and m['view']['to_move'], m['forced']) for s, m in self.last.items()]}"
                    )
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def play_out(self, timeout: float = 300) -> None:
        """Go on playing (after run, or on sockets of its own) until every seat has seen the
        game over."""
        for s, tok in self.tokens.items():
            if s not in self.socks:
                self.socks[s] = await Sock.open(self.base_ws, self.table_id, tok)
        for seat, st in self.last.items():
            out = self.respond(seat, st)
            if out is not None:
                await self.socks[seat].send(out)
        self.stopped = False
        done = asyncio.Event()
        tasks = [asyncio.create_task(self._seat(s, lambda d: False, done)) for s in self.tokens]
        try:
            end = time.monotonic() + timeout
            while not (
                len(self.last) == len(self.tokens) and all(s["phase"] == "over" for s in self.last.values())
            ):
                assert time.monotonic() < end, (
                    f"table {self.table_id}: the game did not end: "
                    f"{[(s, m['seq'], m['phase'], m['view'] and m['view']['to_move'], m['forced']) for s, m in self.last.items()]}"
                    f"; errors: {[m for ms in self.messages.values() for m in ms if m['type'] == 'error'][-3:]}"
                )
                await asyncio.sleep(0.05)
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        for s in self.socks.values():
            try:
                await s.close()
            except Exception:
                pass
        self.socks = {}


def receive_until(ws, kind: str, tries: int = 200) -> dict:
    """The next message of type ``kind`` on a TestClient socket (those before it dropped)."""
    for _ in range(tries):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")
