"""Where deal sets are played: in this process, in a local process pool, or on Ray.

An executor runs ``work(deal_set)`` calls (``work`` is a picklable callable, e.g.
``functools.partial(play_deal_set, spec)``: the same function whatever the executor) and hands
back their results as they finish.  ``runner.ordered_results`` drives any of them the same way:

- ``workers``: how many calls run at once;
- ``ahead``: how many calls may be submitted before one is taken back;
- ``submit(work, deal_set)`` -> a handle; ``ready(handles)`` -> the handles that finished (at
  least one, blocking until then); ``result(handle)`` -> the call's value (or its exception);
- ``close(pending)``: stop, ending calls still running (their results are not needed).

The Ray executor lives in ``ray_executor`` and imports Ray only when it is used.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Collection
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol

Work = Callable[[int], Any]


class Executor(Protocol):
    workers: int
    ahead: int

    def submit(self, work: Work, deal_set: int) -> Any: ...

    def ready(self, handles: Collection[Any]) -> list[Any]: ...

    def result(self, handle: Any) -> Any: ...

    def close(self, pending: Collection[Any]) -> None: ...


class Inline:
    """One call at a time, in this process (``--workers 1``)."""

    workers = 1
    ahead = 1

    def submit(self, work: Work, deal_set: int) -> Any:
        return _Done(work(deal_set))

    def ready(self, handles: Collection[Any]) -> list[Any]:
        return list(handles)

    def result(self, handle: Any) -> Any:
        return handle.value

    def close(self, pending: Collection[Any]) -> None:
        pass


class _Done:
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which stops them, and end quietly when it does
    (a handler inherited from the parent, e.g. Ray's, would report the SIGTERM as a crash)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Pool:
    """A process pool on this machine."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.ahead = 2 * workers
        # fork (where there is one) lets any script run the arena without a __main__ guard
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init)

    def submit(self, work: Work, deal_set: int) -> Future:
        return self.pool.submit(work, deal_set)

    def ready(self, handles: Collection[Any]) -> list[Any]:
        done, _ = wait(handles, return_when=FIRST_COMPLETED)
        return list(done)

    def result(self, handle: Any) -> Any:
        return handle.result()

    def close(self, pending: Collection[Any]) -> None:
        """Shut the pool down; calls still running are not needed (the run is complete or
        interrupted), so their workers are ended rather than waited for."""
        pool = self.pool
        if not any(not f.done() for f in pending):
            pool.shutdown(wait=True)
            return
        procs = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)
        # the pool's manager thread closes its wake-up pipe when it sees the workers gone; left
        # running, it races the interpreter's exit hook that writes to that pipe (a traceback
        # at exit), so it is waited for here
        if manager is not None:
            manager.join(timeout=10)


def make_executor(workers: int | None, ray: str | None = None) -> Executor:
    """The executor for ``workers`` processes: Ray when ``ray`` is an address (``"local"``
    starts a Ray instance on this machine; None workers: all its CPUs), else a pool of this
    machine (None: all cores; in this process for one worker).  ``RayMissing`` (an
    OptionError) when Ray is asked for but not installed."""
    if ray is not None:
        from .ray_executor import RayExecutor

        return RayExecutor(ray, workers)
    n = workers or os.cpu_count() or 1
    return Inline() if n == 1 else Pool(n)
