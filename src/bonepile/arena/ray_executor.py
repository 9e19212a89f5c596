"""Deal sets as Ray tasks: on a Ray instance started here, or on a cluster joined by address.

Each ``work(deal_set)`` call is one task (``num_cpus=1``).  A task whose worker process dies
(killed, out of memory, its machine gone) is run again by Ray, up to ``RETRIES`` times: the
driver takes a deal set's result only from the task's one object reference, which a retry
fills once, so a lost attempt counts no hand (the arena counts hands when it takes a result).
An exception raised by the work itself (a bot that breaks the rules) is not retried: it is
raised again here, as itself.

Ray is imported when an executor is made, never at import time: the arena runs without it.

Niceness: Ray runs its workers 15 steps nicer than the node that starts them by default (its
``worker_niceness``), so on a shared machine the arena's tasks would yield to everything else
and run several times slower than the process pool, whose processes inherit the command's
niceness.  A Ray instance this executor starts (``--ray`` alone) therefore runs its workers at
the command's own niceness (``worker_niceness`` 0: ``nice -n 10 bonepile arena ... --ray``
gives tasks at nice 10, as the pool), unless ``RAY_worker_niceness`` is set, which Ray reads
and which wins.  A cluster joined by address keeps the niceness its nodes were started
with: a task cannot lower its own (that needs privileges), so it is set where the node starts
(``RAY_worker_niceness=0 ray start ...``, docs/SCALING.md).
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Collection
from typing import Any

from ..engine import BonepileError, OptionError

#: the unit of work (``executors.Work``; named again here so that neither module imports the other)
Work = Callable[[int], Any]

#: times a task is run again after its worker process is lost
RETRIES = 3

#: the address that starts a Ray instance on this machine instead of joining one
LOCAL = "local"

#: the environment variable through which Ray reads its workers' niceness
NICENESS_VARIABLE = "RAY_worker_niceness"
#: the environment variable that turns Ray's usage statistics on or off (Ray's default: on)
USAGE_STATS_VARIABLE = "RAY_USAGE_STATS_ENABLED"


def local_worker_niceness() -> int | None:
    """Ray's ``worker_niceness`` for a Ray instance started here: 0, so that its workers run at
    this process's niceness as the process pool's do (Ray adds it to the niceness its node
    inherits from this process); None when ``RAY_worker_niceness`` says it already."""
    if os.environ.get(NICENESS_VARIABLE, "").strip():
        return None
    return 0


class RayMissing(OptionError):
    """--ray was given but Ray is not installed."""


class WorkerLost(BonepileError):
    """A deal set's task lost its worker more often than it may be retried (or Ray failed
    it otherwise)."""


def _call(work: Work, deal_set: int) -> Any:
    """The task: one call of the arena's unit of work."""
    return work(deal_set)


def probe(address: str, timeout: float = 5.0) -> None:
    """OptionError at once when nothing listens at a ``host:port`` address (``ray.init`` would
    keep trying for minutes); ``auto`` and ``local`` are Ray's to resolve."""
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        if address in (LOCAL, "auto"):
            return
        raise OptionError(f"--ray expects host:port (or auto), not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise OptionError(f"cannot reach the Ray cluster at {address}: {e.strerror or e}") from None


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayMissing("--ray needs Ray, which is not installed: pip install 'bonepile[ray]'") from None
    return ray


class RayExecutor:
    def __init__(self, address: str, workers: int | None = None, retries: int = RETRIES) -> None:
        ray = self.ray = import_ray()
        self.owns = False  # this executor started (or joined) Ray and shuts it down at the end
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {
                "include_dashboard": False,
                "logging_level": logging.WARNING,
                "log_to_driver": False,
            }
            if address == LOCAL:
                kwargs["num_cpus"] = workers or os.cpu_count() or 1
                # a Ray started here sends no usage statistics unless the user asked for them
                os.environ.setdefault(USAGE_STATS_VARIABLE, "0")
                niceness = local_worker_niceness()
                if niceness is not None:
                    kwargs["_system_config"] = {"worker_niceness": niceness}
            else:
                probe(address)
            try:
                ray.init(address=address, **kwargs)
            except (ConnectionError, RuntimeError, ValueError) as e:
                first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                hint = ""
                if address != LOCAL and "RAY_AUTH_MODE" not in os.environ:
                    # Ray sends its token to an address given by hand only when told to
                    hint = (
                        " (if the cluster uses token authentication, set RAY_AUTH_MODE=token and"
                        " give this machine the cluster's token)"
                    )
                raise OptionError(f"cannot join the Ray cluster at {address}: {first}{hint}") from None
            self.owns = True
        # a Ray instance started here has ``workers`` CPUs: queue ahead as a pool does; on a
        # cluster, ``workers`` caps the deal sets at once, so no more than that are submitted
        capped = workers is not None and not (self.owns and address == LOCAL)
        if workers is None:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.workers = workers
        self.ahead = workers if capped else 2 * workers
        self.task = ray.remote(_call).options(num_cpus=1, max_retries=retries, retry_exceptions=False)
        self.retries = retries

    def submit(self, work: Work, deal_set: int) -> Any:
        return self.task.remote(work, deal_set)

    def ready(self, handles: Collection[Any]) -> list[Any]:
        done, _ = self.ray.wait(list(handles), num_returns=1)
        return list(done)

    def result(self, handle: Any) -> Any:
        ex = self.ray.exceptions
        try:
            return self.ray.get(handle)
        except ex.RayTaskError as e:  # the work raised: raise that, not Ray's wrapper
            cause = getattr(e, "cause", None)
            if isinstance(cause, BaseException):
                raise cause from None
            raise BonepileError(
                f"a deal set failed on Ray: {(str(e).strip().splitlines() or [type(e).__name__])[0]}"
            ) from None
        except (ex.WorkerCrashedError, ex.NodeDiedError, ex.ObjectLostError) as e:
            raise WorkerLost(
                f"a Ray worker was lost {self.retries + 1} times on one deal set: {type(e).__name__}"
            ) from None
        except ex.RayError as e:  # out of memory, cancelled...: one line, not Ray's traceback
            text = str(e).strip()
            first = text.splitlines()[0] if text else ""
            raise WorkerLost(f"Ray could not play a deal set: {type(e).__name__}: {first}") from None

    def close(self, pending: Collection[Any]) -> None:
        for ref in pending:
            try:
                self.ray.cancel(ref, force=True)
            except Exception:  # already finished, or its worker is gone
                pass
        if self.owns:
            self.ray.shutdown()
