"""Post-game analysis in the browser: a finished table's game (or an uploaded record) judged
by ``bonepile.analysis`` in a worker process, never on the event loop, with its progress
(decisions done of decisions to do) kept for the page to poll, and the result stored
(``analyses``, migration 0007) so that a game is analysed once; a table's seats' luck and
skill (``store/luck.py``) are stored with it.

A job is keyed by what it analyses: ``table:<id>`` for a finished table, ``record:<sha256 of
the record's text>`` for an uploaded record.  With each judged decision the answer carries
what the page needs to draw the better move: the layout after the best move (``boards``),
built with the engine as the replay's frames are; the page computes no placement.

Fair shares: one client address has at most ``ADDRESS_ANALYSES`` jobs waiting or running
(429 ``analysis_yours`` past it); uploaded records take at most all the places but one, so a
finished table of this server (a player's own game) always finds a place; and a table's
analysis goes to the worker before any uploaded record waiting (then the oldest first)."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import queue
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine

from ...bots.budget import EXPERT_BUDGET, Budget
from ..store.database import analyses_t
from ..store.luck import store_figures
from ..validate import RequestError
from .searches import REPLAY_NICE, lower_priority

log = logging.getLogger("bonepile.serve")

ANALYSES_RUNNING = 1  # analyses computed at once (worker processes)
ANALYSES_WAITING = 4  # analyses running or waiting for a worker; more get 503
ADDRESS_ANALYSES = 2  # of them, asked from one client address; more get 429
MAX_MOVES = 1500  # moves of a record analysed at most (a long Quinientos game has ~900)
JOBS_KEPT = 256  # finished or failed jobs remembered in memory (their results are stored)
RECORDS_KEPT = 500  # uploaded records' analyses stored (the oldest go first); tables' are all kept

#: the progress queue of a worker process (set by its initializer)
_PROGRESS: Any = None


def _init(q: Any, nice: int) -> None:
    global _PROGRESS
    _PROGRESS = q
    lower_priority(nice)


def _public(key: str) -> str:
    """A job's name in answers: the table's id, or the record's hash."""
    return key.split(":", 1)[1]


def record_key(data: bytes) -> str:
    return "record:" + hashlib.sha256(data).hexdigest()


def _boards(game: Any, doc: dict[str, Any]) -> None:
    """Add to each judged decision of ``doc`` (``report.to_json``) what the page draws and
    words: ``boards`` (each way whose best move is not the one played: the layout after the
    best move and the tile it plays, None for a pass or a draw) and ``words`` (per move
    token named: its action, tile, the arm it went on, and whether it led the hand)."""
    from ...engine.notation import parse
    from ...engine.view import hand_view
    from ..protocol import history_json, layout_json

    for ha in doc["hands"]:
        h = game.hands[ha["hand"] - 1]
        by_move = {d["move"]: d for d in ha["decisions"]}
        pos = h.fresh()
        for j, (_s, m, _t) in enumerate(h.log, 1):
            d = by_move.get(j)
            if d is not None:
                lead = hand_view(pos, 0).layout.first is None
                made: dict[str, Any] = {}
                for tok in {d["played"], *(d[w]["best"] for w in ("knew", "shown") if d.get(w))}:
                    alt = pos.copy()
                    alt.apply(parse(alt, tok))
                    view = hand_view(alt, 0)
                    e = history_json(view)[-1]
                    made[tok] = (
                        {"layout": layout_json(view), "tile": e["tile"] if e["action"] == "play" else None},
                        {"action": e["action"], "tile": e["tile"], "arm": e["arm"], "lead": lead},
                    )
                d["words"] = {tok: w for tok, (_b, w) in made.items()}
                d["boards"] = {
                    w: None if not d.get(w) or d[w]["best"] == d["played"] else made[d[w]["best"]][0]
                    for w in ("knew", "shown")
                }
            pos.apply(m)


def build(source: bytes | dict[str, Any], job: str, budget: Budget) -> tuple[int, dict[str, Any]]:
    """An analysis (status, the answer's document): 200 and the analysis, or an HTTP status
    and {"error": ...}.  Runs in the analysis worker; its progress goes to the queue."""
    from ...analysis import AnalysisError, analyze
    from ...analysis.report import to_json
    from ...engine import BonepileError
    from ...engine import record as rec

    try:
        doc = rec.loads(source) if isinstance(source, bytes) else source
        hands = doc.get("hands") if isinstance(doc, dict) else None
        n = (
            sum(len(h.get("moves") or ()) for h in hands if isinstance(h, dict))
            if isinstance(hands, list)
            else 0
        )
        if n > MAX_MOVES:
            return 413, {"error": f"the record has {n} moves; at most {MAX_MOVES} are analysed"}
        game = rec.replay(doc)
    except BonepileError as e:
        return 400, {"error": f"the record is not valid: {e}"}
    q = _PROGRESS

    def progress(done: int, total: int) -> None:
        if q is not None:
            q.put((job, done, total))

    try:
        a = analyze(game, progress=progress, budget=budget)
    except AnalysisError as e:
        return 409, {"error": str(e)}
    out = to_json(a)
    _boards(game, out)
    return 200, out


@dataclass
class Job:
    key: str
    status: str = "waiting"  # waiting, running, done, failed
    done: int = 0
    total: int = 0
    error: str | None = None
    http: int = 200
    started: float = field(default_factory=time.monotonic)
    address: str = ""  # the client address that asked for it

    @property
    def active(self) -> bool:
        return self.status in ("waiting", "running")

    @property
    def order(self) -> tuple[int, float]:
        """Its place in the worker's queue: finished tables' analyses first, then the oldest."""
        return (0 if self.key.startswith("table:") else 1, self.started)

    def answer(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "job": _public(self.key),
            "status": self.status,
            "done": self.done,
            "total": self.total,
        }
        if self.error is not None:
            out["error"] = self.error
        return out


class Analyses:
    """The analyses of a server: the jobs in memory, the worker, the stored results."""

    def __init__(
        self,
        engine: Engine,
        *,
        budget: Budget = EXPERT_BUDGET,
        waiting: int = ANALYSES_WAITING,
        processes: bool = True,
        records_kept: int = RECORDS_KEPT,
    ):
        self.engine = engine
        self.budget = budget
        self.waiting_limit = waiting
        self.records_kept = records_kept
        self.processes = processes
        self.jobs: dict[str, Job] = {}
        self.queued: list[Job] = []  # jobs waiting for the worker (``Job.order`` says who is next)
        self.running = 0  # jobs given to the worker
        self._turn: asyncio.Condition | None = None
        self.tasks: set[asyncio.Task[Any]] = set()
        self.computed = 0  # analyses computed by this server (not served from the store)
        self._pool: Executor | None = None
        self._queue: Any = None
        self._reader: threading.Thread | None = None
        self._db = ThreadPoolExecutor(1, thread_name_prefix="bonepile-analysis-db")

    # ------------------------------------------------------------------ storage (a thread)
    def _load(self, key: str) -> bytes | None:
        with self.engine.connect() as c:
            row = c.execute(select(analyses_t.c.body).where(analyses_t.c.key == key)).first()
        return None if row is None else row[0].encode() if isinstance(row[0], str) else row[0]

    def _save(self, key: str, body: bytes) -> None:
        with self.engine.begin() as c:
            if c.execute(select(analyses_t.c.key).where(analyses_t.c.key == key)).first() is None:
                c.execute(analyses_t.insert().values(key=key, created=time.time(), body=body.decode()))
            if key.startswith("record:"):  # anyone may upload records: their analyses are bounded
                old = (
                    select(analyses_t.c.key)
                    .where(analyses_t.c.key.like("record:%"))
                    .order_by(analyses_t.c.created.desc())
                    .offset(self.records_kept)
                )
                c.execute(delete(analyses_t).where(analyses_t.c.key.in_(old.scalar_subquery())))

    async def stored(self, key: str) -> bytes | None:
        return await asyncio.get_running_loop().run_in_executor(self._db, self._load, key)

    # ------------------------------------------------------------------ the worker
    def _executor(self) -> Executor:
        if self._pool is None:
            if self.processes:
                ctx = multiprocessing.get_context("spawn")
                self._queue = ctx.Queue()
                try:
                    self._pool = ProcessPoolExecutor(
                        ANALYSES_RUNNING,
                        mp_context=ctx,
                        initializer=_init,
                        initargs=(self._queue, REPLAY_NICE),
                    )
                except (RuntimeError, OSError):
                    self._pool = None
            if self._pool is None:
                global _PROGRESS
                self._queue = _PROGRESS = queue.Queue()  # the worker threads read it here
                self._pool = ThreadPoolExecutor(ANALYSES_RUNNING, thread_name_prefix="bonepile-analysis")
            self._reader = threading.Thread(target=self._read, args=(self._queue,), daemon=True)
            self._reader.start()
        return self._pool

    def _read(self, q: Any) -> None:
        """The worker's progress, read in a thread: (job, done, total); None ends it."""
        while True:
            try:
                item = q.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            key, done, total = item
            j = self.jobs.get(key)
            if j is not None and j.status in ("waiting", "running"):
                j.status, j.done, j.total = "running", done, total

    async def start(self, key: str, source: bytes | dict[str, Any], address: str = "") -> dict[str, Any]:
        """Start analysing (or say where the analysis of ``key`` is): the job's answer.
        ``address``: the client's, which has at most ADDRESS_ANALYSES jobs at once."""
        j = self.jobs.get(key)
        if j is not None and j.active:
            return j.answer()
        if await self.stored(key) is not None:
            return {"job": _public(key), "status": "done", "done": 0, "total": 0}
        active = [x for x in self.jobs.values() if x.active]
        mine = sum(1 for x in active if x.address == address)
        if mine >= ADDRESS_ANALYSES:
            raise RequestError(
                f"you have {mine} analyses on the way already (at most {ADDRESS_ANALYSES} at once); "
                "wait for one to finish",
                429,
                code="analysis_yours",
                params={"n": ADDRESS_ANALYSES},
            )
        # a finished table of this server always finds a place: uploads leave one free
        uploads = sum(1 for x in active if not x.key.startswith("table:"))
        if len(active) >= self.waiting_limit or (
            not key.startswith("table:") and uploads >= self.waiting_limit - 1
        ):
            raise RequestError(
                "the server is busy analysing other games; try again in a few minutes",
                503,
                code="analysis_busy",
            )
        j = self.jobs[key] = Job(key, address=address)
        task = asyncio.get_running_loop().create_task(self._run(j, source))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        self._forget()
        return j.answer()

    async def _run(self, j: Job, source: bytes | dict[str, Any]) -> None:
        import orjson

        loop = asyncio.get_running_loop()
        if self._turn is None:
            self._turn = asyncio.Condition()
        turn = self._turn
        self.queued.append(j)
        try:
            async with turn:  # the worker's queue is ours: the next job is chosen when it is free
                await turn.wait_for(
                    lambda: self.running < ANALYSES_RUNNING and min(self.queued, key=lambda x: x.order) is j
                )
                self.running += 1
        finally:
            self.queued.remove(j)
        try:
            status, doc = await loop.run_in_executor(self._executor(), build, source, j.key, self.budget)
            if status == 200:
                self.computed += 1  # counted before it is stored: a reader may find it stored at once
                body = orjson.dumps(doc)
                await loop.run_in_executor(self._db, self._save, j.key, body)
                if j.key.startswith("table:"):  # each seat's luck and skill, for its profile's page
                    await loop.run_in_executor(self._db, store_figures, self.engine, _public(j.key), doc)
                j.status, j.done = "done", j.total
            else:
                j.status, j.error, j.http = "failed", doc["error"], status
        except BrokenProcessPool:
            self._pool = None
            j.status, j.error, j.http = "failed", "the analysis stopped (its worker ended); try again", 503
        except Exception:
            log.exception("an analysis failed")
            j.status, j.error, j.http = "failed", "the analysis failed (a fault of the server)", 500
        finally:
            async with turn:
                self.running -= 1
                turn.notify_all()

    def _forget(self) -> None:
        over = [k for k, x in self.jobs.items() if x.status in ("done", "failed")]
        for k in over[: max(0, len(over) - JOBS_KEPT)]:
            del self.jobs[k]

    async def answer(self, key: str) -> tuple[int, bytes]:
        """(status, JSON) of ``key``: the stored analysis ({"status": "done", "analysis"}),
        its progress, its failure, or 404 when nobody asked for it."""
        import orjson

        body = await self.stored(key)
        if body is not None:
            return 200, b'{"job":' + orjson.dumps(
                _public(key)
            ) + b',"status":"done","analysis":' + body + b"}"
        j = self.jobs.get(key)
        if j is None:
            raise RequestError(
                "this game has not been analysed; ask for its analysis first", 404, code="no_analysis"
            )
        if j.status == "failed":
            if j.http in (503, 500):  # asked again, it is tried again
                del self.jobs[key]
            return j.http, orjson.dumps({"error": j.error, **j.answer()})
        return 200, orjson.dumps(j.answer())

    async def stop(self) -> None:
        for t in list(self.tasks):
            t.cancel()
        if self._queue is not None:
            try:
                self._queue.put(None)
            except (OSError, ValueError):
                pass
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._db.shutdown(wait=False)
