"""The storage writer: group commit.  Actions from every table are stored together in one
transaction by one worker thread; each caller resumes once its action is on disk.

When a batch fails, each of its actions is tried again on its own, so that one table's bad
row never refuses the other tables' moves: a table whose row fails (its stored data is not
what this server wrote) is isolated — its later actions are refused and the server is told
(``on_bad_row``) — while a fault of the storage itself (disk full, read-only, I/O) refuses
the actions it hit, with one log line per burst of faults, not one traceback per action."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy.exc import DatabaseError, OperationalError

from ..validate import RequestError
from .database import Store, describe

log = logging.getLogger("bonepile.serve")

#: one stored action: (table id, sequence number, kind, value, seat)
StoredAction = tuple[str, int, str, str, int]

DAMAGED = "this table's stored data is damaged: it cannot be played on this server (the other tables can)"
FAULT_EVERY = 30.0  # seconds between two log lines about storage faults (the rest are counted)


class StorageError(RequestError):
    """Storage failed: the action was not stored, nothing changed (HTTP 503).  It has been
    logged already (``faults``): whoever catches it need not log it again."""

    def __init__(self, message: str = ""):
        super().__init__(
            message or "the server cannot store anything right now (nothing was changed); try again later",
            503,
            code="storage",
        )


def is_fault(e: BaseException) -> bool:
    """A fault of the storage itself (disk full, read-only, I/O, locked, damaged file), not
    of one row."""
    return isinstance(e, OperationalError) or type(e) is DatabaseError


class FaultLog:
    """Storage faults in the log: the first at once, then at most one line every ``every``
    seconds saying how many more there were (a full disk makes every move fail)."""

    def __init__(self, every: float = FAULT_EVERY):
        self.every = every
        self.last = -float("inf")
        self.since = 0  # faults not logged since the last line

    def report(self, what: str, e: BaseException) -> StorageError:
        now = time.monotonic()
        if now - self.last >= self.every:
            more = f" (and {self.since} more since the last report)" if self.since else ""
            log.error("storage failed: %s: %s%s; nothing was changed", what, describe(e), more)
            self.last = now
            self.since = 0
        else:
            self.since += 1
        return StorageError()


class _Reported(logging.Filter):
    """Drop the report of a StorageError logged again with its traceback (the driver logs
    what its step raised): the fault log has said it once already."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], StorageError))


log.addFilter(_Reported())


class Writer:
    def __init__(
        self,
        store: Store,
        executor: ThreadPoolExecutor,
        on_bad_row: Callable[[str, str], None] | None = None,
    ):
        self.store = store
        self.executor = executor
        self.on_bad_row = on_bad_row  # (table id, why): the table is isolated
        self.faults = FaultLog()  # the server's other storage calls report here too
        self.refused: set[str] = set()  # tables whose actions are refused (a row of theirs failed)
        self.queue: list[tuple[StoredAction, asyncio.Future[None]]] = []
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self.task:
            self.task.cancel()

    async def append(self, item: StoredAction) -> None:
        """Store one action; returns once it is on disk (raises RequestError if it was not)."""
        if item[0] in self.refused:
            raise RequestError(DAMAGED, 503, code="damaged")
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.append((item, fut))
        self.wake.set()
        await fut

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch, self.queue = self.queue, []
            if not batch:
                continue
            items = [b[0] for b in batch]
            results: list[Exception | None]
            try:
                await loop.run_in_executor(self.executor, self.store.append, items)
                results = [None] * len(batch)
            except Exception as e:
                # one bad row fails the whole transaction: try each action on its own
                results = (
                    [e]
                    if len(batch) == 1
                    else await loop.run_in_executor(self.executor, self.store.append_each, items)
                )
            for (item, fut), err in zip(batch, results):
                if fut.done():
                    continue
                if err is None:
                    fut.set_result(None)
                elif is_fault(err):
                    fut.set_exception(self.faults.report(f"storing an action of table {item[0]}", err))
                else:
                    self._bad_row(item, err)
                    fut.set_exception(RequestError(DAMAGED, 503, code="damaged"))

    def _bad_row(self, item: StoredAction, err: Exception) -> None:
        table_id = item[0]
        if table_id in self.refused:
            return
        self.refused.add(table_id)
        why = f"its action {item[1]} could not be stored ({describe(err)})"
        log.error("table %s: %s; the table is stopped, the others play on", table_id, why)
        if self.on_bad_row is not None:
            self.on_bad_row(table_id, why)
