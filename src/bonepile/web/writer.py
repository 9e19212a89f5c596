"""The storage writer: group commit.  Actions from every table are stored together in one
transaction by one worker thread; each caller resumes once its action is on disk."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from .store import Store

log = logging.getLogger("bonepile.serve")

#: one stored action: (table id, sequence number, kind, value, seat)
Action = tuple[str, int, str, str, int]


class Writer:
    def __init__(self, store: Store, executor: ThreadPoolExecutor):
        self.store = store
        self.executor = executor
        self.queue: list[tuple[Action, asyncio.Future[None]]] = []
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self.task:
            self.task.cancel()

    async def append(self, item: Action) -> None:
        """Store one action; returns once it is on disk (raises if storing failed)."""
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
            try:
                await loop.run_in_executor(self.executor, self.store.append, [b[0] for b in batch])
                for _, fut in batch:
                    if not fut.done():
                        fut.set_result(None)
            except Exception as e:  # storage failed: nobody's action is acknowledged
                log.exception("storing %d actions failed", len(batch))
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(e)
