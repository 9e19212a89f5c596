"""``bonepile serve --workers N``: N worker processes on one port (SO_REUSEPORT: the kernel
spreads the connections among them), each a worker of the cluster (``web.cluster``) with its
own id and its own cluster listener, where the other workers, of this machine or others,
reach it.  The first process watches them and starts a new one in place of one that died
(the others have taken its tables over meanwhile)."""

from __future__ import annotations

import multiprocessing
import os
import secrets
import signal
import socket
import time
from dataclasses import dataclass
from typing import Any

import typer

from .common import fail

QUICK_DEATH = 5.0  # a worker dead this soon after its start is not started again


@dataclass(frozen=True)
class Spec:
    """What every worker is started with."""

    db: str
    host: str
    port: int
    settings: dict[str, Any]  # Server's settings
    uvicorn: dict[str, Any]  # log_level, header_timeout
    chat_filter: str | None  # the file of --chat-filter (read by each worker)
    lease: float
    cluster_host: str
    cluster_port: int  # the first worker's (0: any)


def listen(host: str, port: int, shared: bool) -> socket.socket:
    """A listening socket; ``shared``: with SO_REUSEPORT, the same port as the other workers."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if shared:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    s.bind((host, port))
    s.listen(2048)
    s.setblocking(False)
    return s


def _die_with_parent() -> None:
    """Linux: this process is sent SIGTERM when the process that started it dies."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def worker(spec: Spec, index: int, child: bool = True) -> None:
    """One worker: its lock on the database, its two listeners, the application (a worker
    process that cannot start says why in one line and exits with status 2)."""
    try:
        _worker(spec, index, child)
    except typer.Exit as e:
        if not child:
            raise
        raise SystemExit(e.exit_code) from None


def _worker(spec: Spec, index: int, child: bool) -> None:
    import uvicorn
    from sqlalchemy import make_url

    from ..web.cluster import ClusterSettings
    from ..web.guard import hide_tokens
    from ..web.store import normalize_url
    from .serve import _lock_database, build_app, uvicorn_config

    if child:
        _die_with_parent()
    _lock_database(make_url(normalize_url(spec.db)), cluster=True)
    try:
        public = listen(spec.host, spec.port, shared=True)
        inner = listen(spec.cluster_host, spec.cluster_port + index if spec.cluster_port else 0, shared=False)
    except OSError as e:
        fail(f"worker {index}: cannot listen: {e.strerror}")
    port = inner.getsockname()[1]
    host = spec.cluster_host
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    worker_id = f"{socket.gethostname()[:40]}/{os.getpid()}/{secrets.token_hex(3)}"
    settings = dict(spec.settings)
    if spec.chat_filter is not None:
        from ..web.chatfilter import load

        settings["chat_filter"] = load(spec.chat_filter)
    settings["cluster"] = ClusterSettings(worker=worker_id, address=address, port=port, lease=spec.lease)
    app = build_app(spec.db, settings)
    config = uvicorn_config(app, **spec.uvicorn)
    hide_tokens()
    uvicorn.Server(config).run(sockets=[public, inner])


def run_cluster(spec: Spec, n: int) -> None:
    """Start ``n`` workers (this process is the one worker when n is 1) and keep them running."""
    if n == 1:
        worker(spec, 0, child=False)
        return
    ctx = multiprocessing.get_context("spawn")

    def start(i: int) -> Any:
        p = ctx.Process(target=worker, args=(spec, i), name=f"bonepile-worker-{i}", daemon=False)
        p.start()
        return p, time.monotonic()

    def stopping(*_: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stopping)
    procs = [start(i) for i in range(n)]
    try:
        while True:
            time.sleep(0.5)
            for i, (p, since) in enumerate(procs):
                if p.is_alive():
                    continue
                if time.monotonic() - since < QUICK_DEATH:
                    fail(
                        f"worker {i} stopped as it started (exit status {p.exitcode}); see its message above"
                    )
                typer.echo(f"worker {i} stopped (exit status {p.exitcode}); starting another", err=True)
                procs[i] = start(i)
    except KeyboardInterrupt:
        pass
    finally:
        for p, _ in procs:
            if p.is_alive():
                p.terminate()
        for p, _ in procs:
            p.join(30)
