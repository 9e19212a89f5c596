"""The expert's searches of a server (its bots' moves and the hints), in worker processes.

One pool of processes, as many as the machine has cores, serves every table.  The event loop
never waits on a search: it queues a job and awaits a future.  A job carries only what the
seat may know, its ``View`` (with the rules' name and options and a seed): no ``Game`` or
``Hand`` crosses to a worker, so no hidden tile can.

Fair per table: a table has at most one search running; the tables with work waiting are
served in turn (round robin), so 40 hint requests at one table delay another table's bot by
one search at most.  The queues are bounded: past ``MOVES_WAITING`` waiting moves the bot
plays the greedy bot's move (no search), past ``HINTS_WAITING`` waiting hints a hint is
refused as "busy"; a seat may have ``HINT_RATE`` hint searches a minute (an answer already
found for the position is free).

Under load the server thinks less rather than stalls: a search's time budget is chosen when
it starts, so that the searches being asked for fill at most ``BUSY`` of the workers' time
(from how many are asked a second and how long they took for their budget), so that the queue
drains within one turn (``SPAN`` seconds of the workers' time), and so that it never runs past
the moment its move is due.  It never goes below ``FLOOR`` seconds.  A move that even a floor search could not answer by its
due moment (from how long the last searches took, or because it waited too long) is played
by the greedy bot instead, without a search: the bots get weaker, not late.

Where no process can be started (an app embedded in a script without a ``__main__`` guard,
a sandbox: the first workers fail before any answer) the searches run in threads of the
server process instead, as the replays do.  A worker that dies later (killed, out of memory)
breaks its pool: the pool is replaced by a new one at the next search, never by threads.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ...bots.base import Bot, Evaluation
from ...bots.budget import Budget
from ...bots.expert import ExpertBot
from ...bots.hint import advise, likely_tiles
from ...bots.levels import FACTORIES
from ...engine import Variant, View, make_variant

log = logging.getLogger("bonepile.serve")

FLOOR = 0.005  # seconds: the least an expert search is given, however busy the server
SPAN = 0.6  # seconds of the workers' time in which the waiting searches should all be done
BUSY = 0.8  # the share of the workers' time the searches asked for should fill at most
MARGIN = 0.02  # seconds kept between a search's end and the moment its move is due
MOVES_WAITING = 1000  # bot moves waiting for a worker; past it the bot plays greedily
HINTS_WAITING = 8  # hints waiting for a worker; past it a hint is refused (busy)
HINT_RATE = 20.0  # hint searches a seat may ask for a minute (bursts of HINT_BURST)
HINT_BURST = 5.0
NICE = 5  # the workers yield the cores to the event loop (it answers every socket)
REPLAY_NICE = 10  # and the replay worker (anonymous work) yields them to the bots too


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


# ---------------------------------------------------------------------------- in a worker
_variants: dict[str, Variant] = {}


def _variant(name: str, options: dict[str, Any]) -> Variant:
    key = f"{name}:{sorted(options.items())!r}"
    v = _variants.get(key)
    if v is None:
        if len(_variants) > 256:
            _variants.clear()
        v = _variants[key] = make_variant(name, options)
    return v


def search(
    kind: str, rules: tuple[str, dict[str, Any]], view: View, seed: int, budget: float, level: str = "expert"
) -> Any:
    """Run in a worker: the move of a searching bot level (``kind`` "move": an action; the
    expert at ``budget``, the strong level at its own fixed budget) or the expert's opinion of
    every legal action with where the unseen tiles likely are ("hint": Evaluations, best
    first, and ``bots.hint.likely_tiles``), from the seat's view only."""
    if kind == "move":
        v = _variant(*rules)
        bot: Bot = (
            ExpertBot(v, seed=seed, budget=Budget(time=budget))
            if level == "expert"
            else FACTORIES[level](v, seed=seed)
        )
        return bot.choose(view)
    v = _variant(*rules)
    return advise(v, view, budget=Budget(time=budget), seed=seed), likely_tiles(v, view)  # reasons in words


def lower_priority(by: int = NICE) -> None:
    """A worker process's initializer: run ``by`` steps nicer than the server, and end when
    the server is gone."""
    try:
        os.nice(by)
    except OSError:
        pass
    _end_with_parent()


def _end_with_parent() -> None:
    """End this process once the process that started it is gone: a server killed with
    SIGKILL (a worker of a cluster lost) cannot stop its workers, which would search on for
    nobody, for ever."""
    started_by = multiprocessing.parent_process()  # known to a spawned process from its start
    parent = started_by.pid if started_by is not None and started_by.pid else os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="bonepile-parent-watch", daemon=True).start()


# ---------------------------------------------------------------------------- on the loop
class Busy(Exception):
    """The queue of this kind of search is full."""


class TooManyHints(Exception):
    """The seat asked for more hint searches than ``HINT_RATE`` a minute."""


@dataclass
class Job:
    kind: str  # "move" or "hint"
    rules: tuple[str, dict[str, Any]]
    view: View
    seed: int
    full: float  # the budget when the server is not busy
    due: float | None  # monotonic time by which the answer is wanted (moves a person sees)
    future: asyncio.Future[Any] = field(repr=False)
    level: str = "expert"  # the bot level searching a move


class Searches:
    """The server's pool of searches: queue, fairness, budgets and the workers."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        processes: bool = True,
        floor: float = FLOOR,
        span: float = SPAN,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.workers = workers or cores()
        self.processes = processes
        self.floor = floor
        self.span = span
        self.clock = clock
        self.work: Callable[..., Any] = search  # what a worker runs (a test may count it)
        self._pool: Executor | None = None
        self._queues: dict[str, deque[Job]] = {}  # table id -> its jobs waiting, in order
        self._turns: deque[str] = deque()  # tables with a job waiting and none running
        self._running: set[str] = set()  # tables with a search running
        self.waiting = {"move": 0, "hint": 0}
        self._hint_buckets: dict[tuple[str, int], tuple[float, float]] = {}
        self._worked = False  # a worker process has answered once
        self.renewed = 0  # pools replaced after one of their workers died
        self.took = 0.0  # seconds a search takes from its start to its answer (moving average)
        self.stretch = 1.0  # how much longer than its budget a search takes (moving average)
        self._asked: deque[float] = deque(maxlen=100)  # when the last searches were asked for
        self.searched = 0  # searches run (for tests and measurements)
        self.budgets: deque[float] = deque(maxlen=1000)  # the last budgets given

    # ------------------------------------------------------------------ asking
    def move(
        self,
        table: str,
        rules: tuple[str, dict[str, Any]],
        view: View,
        *,
        seed: int,
        budget: float,
        due: float | None,
        level: str = "expert",
    ) -> asyncio.Future[int]:
        """The move of a searching level (the expert, or strong) for ``view``'s seat (Busy when
        too many moves wait)."""
        self._asked.append(self.clock())
        if self.waiting["move"] >= MOVES_WAITING:
            raise Busy("too many bot moves are waiting")
        if due is not None and self.expected_wait() > due - self.clock() - self.floor:
            raise Busy("no search could start in time")
        return self._queue(table, Job("move", rules, view, seed, budget, due, self._future(), level))

    def hint(
        self,
        table: str,
        seat: int,
        rules: tuple[str, dict[str, Any]],
        view: View,
        *,
        seed: int,
        budget: float,
    ) -> asyncio.Future[tuple[list[Evaluation], list[dict[str, Any]]]]:
        """The expert's opinion of ``view``'s legal actions and where the unseen tiles likely
        are (TooManyHints past the seat's rate, Busy when too many hints wait)."""
        self._asked.append(self.clock())
        if self.waiting["hint"] >= HINTS_WAITING:
            raise Busy("the server is busy with other hints; ask again in a moment")
        self._take_hint(table, seat)
        return self._queue(table, Job("hint", rules, view, seed, budget, None, self._future()))

    def _future(self) -> asyncio.Future[Any]:
        return asyncio.get_running_loop().create_future()

    def _take_hint(self, table: str, seat: int) -> None:
        """A token bucket per seat: HINT_RATE searches a minute, bursts of HINT_BURST."""
        now = self.clock()
        rate = HINT_RATE / 60.0
        tokens, when = self._hint_buckets.get((table, seat), (HINT_BURST, now))
        tokens = min(HINT_BURST, tokens + (now - when) * rate)
        if tokens < 1:
            raise TooManyHints(
                f"too many hints: at most {HINT_RATE:g} a minute; try again in {(1 - tokens) / rate:.0f} s"
            )
        self._hint_buckets[(table, seat)] = (tokens - 1, now)
        if len(self._hint_buckets) > 10000:  # forget the seats whose bucket is full again
            self._hint_buckets = {
                k: (n, w) for k, (n, w) in self._hint_buckets.items() if n + (now - w) * rate < HINT_BURST
            }

    def _queue(self, table: str, job: Job) -> asyncio.Future[Any]:
        q = self._queues.get(table)
        if q is None:
            q = self._queues[table] = deque()
        q.append(job)
        self.waiting[job.kind] += 1
        if table not in self._running and len(q) == 1:
            self._turns.append(table)
        self._pump()
        return job.future

    # ------------------------------------------------------------------ running
    def expected_wait(self) -> float:
        """How long a search asked for now would wait for a worker, from how long the last
        searches took (nothing is known before the first ends)."""
        queued = self.waiting["move"] + self.waiting["hint"] + len(self._running) - self.workers + 1
        return max(0, queued) * self.took / self.workers

    def asked_rate(self, now: float) -> float:
        """Searches asked for a second, lately (0 until enough are known)."""
        a = self._asked
        if len(a) < 10 or now <= a[0]:
            return 0.0
        return (len(a) - 1) / (now - a[0])

    def budget(self, job: Job, now: float) -> float:
        """The time a search may take when it starts now: its full budget while the searches
        asked for fill less than ``BUSY`` of the workers and the waiting ones fit in ``span``
        seconds of them, less the busier the server is; never past the moment it is due,
        never under ``floor``."""
        ahead = self.waiting["move"] + self.waiting["hint"] + len(self._running)
        b = min(job.full, self.span * self.workers / max(ahead, self.workers))
        rate = self.asked_rate(now)
        if rate > 0:
            b = min(b, BUSY * self.workers / (rate * self.stretch))
        if job.due is not None:
            b = min(b, job.due - now - MARGIN)
        return max(self.floor, b)

    def _pump(self, waited: bool = False) -> None:
        """Start searches while a worker is free, the tables in turn.  A move that ``waited``
        in the queue past the moment a floor search would still end before it is due is
        answered Busy (the caller plays without a search) instead."""
        while self._turns and len(self._running) < self.workers:
            table = self._turns.popleft()
            q = self._queues[table]
            job = q.popleft()
            self.waiting[job.kind] -= 1
            if not q:
                del self._queues[table]
            late = waited and job.due is not None and self.clock() + self.floor > job.due
            if late:
                job.future.set_exception(Busy("the search would end after the move is due"))
            if job.future.done():  # cancelled (its table left, its driver stopped), or late
                if q:
                    self._turns.append(table)
                continue
            self._start(table, job)

    def _start(self, table: str, job: Job) -> None:
        budget = self.budget(job, self.clock())
        self.budgets.append(budget)
        self.searched += 1
        self._running.add(table)
        args = (job.kind, job.rules, job.view, job.seed, budget, job.level)
        loop = asyncio.get_running_loop()
        try:
            try:
                pool = self._executor()
                fut = loop.run_in_executor(pool, self.work, *args)
            except BrokenProcessPool:  # a worker died since the last search: new workers
                self._renew(pool)
                pool = self._executor()
                fut = loop.run_in_executor(pool, self.work, *args)
        except RuntimeError:  # no process can be started here: threads, still off the loop
            log.warning("bot searches run in threads: no worker process could be started")
            pool = self._threads()
            fut = loop.run_in_executor(pool, self.work, *args)
        began = self.clock()
        fut.add_done_callback(lambda f: self._done(table, job, f, began, budget, pool))

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.processes:
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=lower_priority
                )
            else:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="bonepile-bot")
        return self._pool

    def _renew(self, broken: Executor) -> None:
        """A worker of ``broken`` died (killed, out of memory): the pool is dropped and the next
        search starts a new one; processes are never given up for threads for good."""
        if self._pool is broken:
            log.error("a bot worker process stopped; starting new ones")
            self._pool = None
            self.renewed += 1
        broken.shutdown(wait=False, cancel_futures=True)

    def _threads(self) -> Executor:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self.processes = False
        self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="bonepile-bot")
        return self._pool

    def _requeue(self, table: str, job: Job) -> None:
        """Put a job back at the head of its table's queue."""
        q = self._queues.get(table)
        if q is None:
            q = self._queues[table] = deque()
            if table in self._turns:
                self._turns.remove(table)
            self._turns.appendleft(table)
        q.appendleft(job)
        self.waiting[job.kind] += 1

    def _done(
        self, table: str, job: Job, fut: asyncio.Future[Any], began: float, budget: float, pool: Executor
    ) -> None:
        self._running.discard(table)
        if self._worked:  # (the first searches also waited for the workers to start)
            took = self.clock() - began
            self.took = 0.9 * self.took + 0.1 * took
            self.stretch = 0.9 * self.stretch + 0.1 * max(1.0, took / budget)
        if table in self._queues:
            self._turns.append(table)
        if not job.future.done():
            if fut.cancelled():
                job.future.cancel()
            elif (e := fut.exception()) is not None:
                if isinstance(e, BrokenProcessPool) and not self._worked and self.processes:
                    # the workers could not even start: threads, and this job again
                    log.warning("bot searches run in threads: no worker process could be started")
                    self._threads()
                    self._requeue(table, job)
                    self._pump()
                    return
                if isinstance(e, BrokenProcessPool):  # a worker died: new ones next time
                    self._renew(pool)
                job.future.set_exception(e)
            else:
                self._worked = True
                job.future.set_result(fut.result())
        self._pump(waited=True)

    def forget(self, table: str) -> None:
        """The table left memory: drop its waiting jobs and its seats' hint buckets."""
        for job in self._queues.pop(table, ()):
            self.waiting[job.kind] -= 1
            job.future.cancel()
        if table in self._turns:
            self._turns.remove(table)
        for key in [k for k in self._hint_buckets if k[0] == table]:
            del self._hint_buckets[key]

    def close(self) -> None:
        """Drop what waits and stop the workers (a running search ends within its budget)."""
        for table in list(self._queues):
            self.forget(table)
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
