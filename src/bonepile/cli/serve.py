"""``bonepile serve``: the web server (tables with friends and bots, replays).

``--workers N``: N worker processes on one port (SO_REUSEPORT: the kernel spreads the
connections among them), each a worker of the cluster (``web.cluster``) with its own id and its
own cluster listener, where the other workers, of this machine or others, reach it.  The first
process serves nothing: it watches them and starts a new one in place of one that died after it
was serving (the others have taken its tables over meanwhile); a worker that stops before it
serves (it cannot listen, lock or open the database) stops the server with its message."""

from __future__ import annotations

import multiprocessing
import os
import secrets
import signal
import socket
import time
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from ..web.guard import HEADER_TIMEOUT
from ..web.settings import PROFILES_MODES, ServerSettings
from .common import fail

DEFAULT = ServerSettings()  # every option's default that the server shares

_LOCKS: list[Any] = []  # the lock files held for the life of the process


#: the PostgreSQL advisory lock a server holds on its database (any 64-bit number of our own)
PG_LOCK = 0x626F6E6570696C65  # "bonepile"


def _lock_database(url: Any, cluster: bool = False) -> None:
    """One server per database: on SQLite an exclusive lock on FILE.lock, held until the
    process ends (the kernel releases it even after kill -9); on PostgreSQL a session advisory
    lock on a connection kept open (the database releases it when the session ends, also after
    kill -9).  A second server exits with one line.  The workers of a cluster (``cluster``,
    ``--workers``) share the lock: one cluster per database, and no single server beside it."""
    if url.get_backend_name() == "postgresql":
        _lock_postgres(url, cluster)
        return
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return
    import fcntl

    path = os.path.abspath(url.database) + ".lock"
    try:
        f = open(path, "a+")
    except OSError as e:
        fail(f"--db: cannot open {url.database!r}: cannot create its lock file {path}: {e.strerror}")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        fail(
            f"--db: another bonepile server is using {url.database} (it holds {path}); "
            f"stop it or choose another --db"
        )
    _LOCKS.append(f)
    _lock_file_itself(url.database)


def _lock_file_itself(database: str) -> None:
    """The lock by the file's identity (its device and inode, whatever the path): an
    exclusive ``flock`` on the database file itself, so a second server given a symbolic or a
    hard link to the same file is refused too.  (SQLite's own locks are ``fcntl`` byte ranges,
    which ``flock`` does not meet; the descriptor stays open for the life of the process, as
    closing it would drop SQLite's locks on the file.)  A file that cannot be opened is left to
    the database's own message."""
    import fcntl

    try:
        fd = os.open(database, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        st = os.stat(database)
        fail(
            f"--db: another bonepile server is using {database} (the same file, device {st.st_dev} "
            f"inode {st.st_ino}, perhaps through a link); stop it or choose another --db"
        )
    _LOCKS.append(fd)


def _lock_postgres(url: Any, cluster: bool = False) -> None:
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.pool import NullPool

    from ..web.store.database import describe

    where = url.render_as_string(hide_password=True)
    try:
        conn = create_engine(url, poolclass=NullPool).connect()
        how = "pg_try_advisory_lock_shared" if cluster else "pg_try_advisory_lock"
        got = conn.execute(text(f"SELECT {how}(:key)"), {"key": PG_LOCK}).scalar()
        conn.commit()
    except (SQLAlchemyError, ImportError) as e:
        fail(f"--db: cannot open {where!r}: {describe(e)}")
    if not got:
        conn.close()
        if cluster:
            fail(
                f"--db: a bonepile server without --workers is using {where}; stop it or choose another --db"
            )
        fail(f"--db: another bonepile server is using {where}; stop it or choose another --db")
    _LOCKS.append(conn)


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0 for every interface).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        str, typer.Option(help="Storage: an SQLAlchemy URL, sqlite:///FILE or postgresql://USER@HOST/DB.")
    ] = "sqlite:///bonepile.db",
    bot_delay: Annotated[
        float, typer.Option(min=0, help="Seconds a bot waits before moving while a person watches.")
    ] = DEFAULT.bot_delay,
    grace: Annotated[
        float, typer.Option(min=0, help="Seconds before a bot plays for a person who left.")
    ] = DEFAULT.grace,
    hand_pause: Annotated[
        float, typer.Option(min=0, help="Seconds at most between hands while people look at the result.")
    ] = DEFAULT.hand_pause,
    bot_time: Annotated[
        float, typer.Option(min=0.01, help="The expert bot's thinking time per move (seconds).")
    ] = DEFAULT.bot_time,
    analysis_time: Annotated[
        float,
        typer.Option(
            min=0.01,
            help="Seconds the post-game analysis thinks about each decision of a finished game "
            "(one game at a time, beside the play).",
        ),
    ] = DEFAULT.analysis_time,
    puzzle_mining: Annotated[
        float,
        typer.Option(
            min=0,
            help="Seconds between two finished public games mined for puzzles in the background "
            "(one game at a time, in a low-priority process; 0: mine none).",
        ),
    ] = DEFAULT.puzzle_mining,
    rate: Annotated[
        float, typer.Option(min=1, help="Messages a second one socket may send (bursts of twice as many).")
    ] = DEFAULT.rate,
    create_rate: Annotated[
        float,
        typer.Option(
            min=0.01, help="Tables one client address may create a minute (bursts of twice as many)."
        ),
    ] = DEFAULT.create_rate,
    profile_rate: Annotated[
        float,
        typer.Option(
            min=0.01, help="Profiles one client address may make a minute (bursts of twice as many)."
        ),
    ] = DEFAULT.profile_rate,
    watch_rate: Annotated[
        float,
        typer.Option(
            min=0.01,
            help="Spectators' sockets one client address may open a minute (bursts of twice as many).",
        ),
    ] = DEFAULT.watch_rate,
    address_bot_tables: Annotated[
        int,
        typer.Option(min=1, help="Tables of bots only one client address may have playing at once."),
    ] = DEFAULT.address_bot_tables,
    bots_unwatched: Annotated[
        float,
        typer.Option(
            min=1, help="Seconds a table of bots only plays on while nobody watches it (then it is closed)."
        ),
    ] = DEFAULT.bots_unwatched,
    table_ttl: Annotated[
        float, typer.Option(min=1, help="Seconds a table may wait for its players before it is closed.")
    ] = DEFAULT.table_ttl,
    rematch_wait: Annotated[
        float, typer.Option(min=1, help="Seconds the people asked for a rematch have to answer.")
    ] = DEFAULT.rematch_wait,
    seat_sockets: Annotated[
        int, typer.Option(min=1, help="Sockets one seat may have open at once (tabs).")
    ] = DEFAULT.seat_sockets,
    address_sockets: Annotated[
        int, typer.Option(min=1, help="Table sockets one client address may have open at once.")
    ] = DEFAULT.address_sockets,
    table_watchers: Annotated[
        int, typer.Option(min=1, help="Spectators' sockets one table may have open at once.")
    ] = DEFAULT.table_watchers,
    address_watchers: Annotated[
        int,
        typer.Option(
            min=1, help="Spectators' sockets one client address may have open at once (all tables)."
        ),
    ] = DEFAULT.address_watchers,
    header_timeout: Annotated[
        float, typer.Option(min=0.1, help="Seconds a connection may take to send a request's headers.")
    ] = HEADER_TIMEOUT,
    durable: Annotated[
        bool,
        typer.Option(
            "--durable",
            help="Every commit waits for the disk (SQLite synchronous=FULL): no acknowledged move "
            "is lost even on power loss, at the price of slower moves.",
        ),
    ] = DEFAULT.durable,
    bot_workers: Annotated[
        int,
        typer.Option(min=0, help="Processes searching the expert bots' moves and hints (0: one per core)."),
    ] = DEFAULT.bot_workers,
    profiles: Annotated[
        str,
        typer.Option(
            help="Profiles (a name and a key kept by the browser): off, optional (seats taken with a "
            "profile are tied to it) or required (no table is made or joined without one)."
        ),
    ] = DEFAULT.profiles,
    chat_filter: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Mask the words of FILE in the table chat for everybody (UTF-8, one word or phrase a "
            "line, # starts a comment; any case or accents, whole words). Off without it.",
        ),
    ] = None,
    log_level: Annotated[
        str, typer.Option(help="Server log level (debug, info, warning, error).")
    ] = "warning",
    workers: Annotated[
        int,
        typer.Option(
            min=0,
            help="Serve as N worker processes on one port, sharing a PostgreSQL --db with every "
            "other machine's workers (0: one server process, the default).",
        ),
    ] = 0,
    lease: Annotated[
        float,
        typer.Option(
            min=0.3, help="With --workers: seconds until another worker takes the tables of one that died."
        ),
    ] = 10.0,
    cluster_host: Annotated[
        str,
        typer.Option(
            help="With --workers: this machine's address where the other machines' workers reach its own."
        ),
    ] = "127.0.0.1",
    cluster_port: Annotated[
        int,
        typer.Option(
            min=0,
            max=65535,
            help="With --workers: the first of the ports (one a worker) they reach each other on (0: any).",
        ),
    ] = 0,
) -> None:
    """Play in the browser: start the web server and open the printed address."""
    from sqlalchemy import make_url
    from sqlalchemy.exc import ArgumentError

    from ..web.store.database import normalize_url

    try:
        url = make_url(normalize_url(db))
    except ArgumentError:
        fail(f"--db: not a database URL: {db!r} (e.g. sqlite:///bonepile.db or postgresql://user@host/db)")
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        fail(f"--db: {url.get_backend_name()} is not supported (use sqlite or postgresql)")
    profile_mode = next((m for m in PROFILES_MODES if m == profiles), None)
    if profile_mode is None:
        fail(f"--profiles must be off, optional or required, not {profiles!r}")
    if log_level not in ("debug", "info", "warning", "error", "critical"):
        fail(f"--log-level must be debug, info, warning, error or critical, not {log_level!r}")
    if workers and url.get_backend_name() != "postgresql":
        fail("--workers needs a PostgreSQL --db (postgresql://USER@HOST/DB): SQLite serves one process only")
    words = None
    if chat_filter is not None:
        from ..web.play.chatfilter import ChatFilterError, load

        try:
            words = load(chat_filter)
        except ChatFilterError as e:
            fail(f"--chat-filter: {e}")
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        fail(f"cannot listen on {host}:{port}: {e.strerror} (choose another --port or --host)")

    _lock_database(url, cluster=bool(workers))
    settings = ServerSettings(
        bot_delay=bot_delay,
        grace=grace,
        hand_pause=hand_pause,
        bot_time=bot_time,
        rate=rate,
        create_rate=create_rate,
        profile_rate=profile_rate,
        watch_rate=watch_rate,
        address_bot_tables=address_bot_tables,
        bots_unwatched=bots_unwatched,
        table_ttl=table_ttl,
        rematch_wait=rematch_wait,
        seat_sockets=seat_sockets,
        address_sockets=address_sockets,
        table_watchers=table_watchers,
        address_watchers=address_watchers,
        durable=durable,
        bot_workers=bot_workers,
        profiles=profile_mode,
        analysis_time=analysis_time,
        puzzle_mining=puzzle_mining,
    )
    uv: dict[str, Any] = dict(log_level=log_level, header_timeout=header_timeout)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if workers:
        spec = Spec(db, host, port, settings, uv, chat_filter, lease, cluster_host, cluster_port)
        typer.echo(
            f"bonepile is serving on http://{shown}:{port}/ as {workers} workers "
            f"(open it in a browser; Ctrl-C stops)"
        )
        typer.echo(f"storage: {db}")
        run_cluster(spec, workers)
        return
    app = build_app(db, settings, chat_filter=words)
    typer.echo(f"bonepile is serving on http://{shown}:{port}/  (open it in a browser; Ctrl-C stops)")
    typer.echo(f"storage: {db}")
    if profiles != "optional":
        typer.echo(f"profiles: {profiles}")
    if words is not None:
        typer.echo(f"chat filter: {words.size} words and phrases from {chat_filter}")
    import uvicorn

    from ..web.guard import hide_tokens

    config = uvicorn_config(app, host=host, port=port, **uv)
    hide_tokens()  # after uvicorn configured its loggers
    _exit_on_sigterm()
    uvicorn.Server(config).run()


def _exit_on_sigterm() -> None:
    """SIGTERM ends the process as an exit does: uvicorn stops serving on it, then raises it
    again once it has shut down, and the default action would end the process there, before
    the interpreter's own shutdown (the worker pools' semaphores then left for the resource
    tracker to report as leaked).  Exit status 143 (128 + SIGTERM), as a shell shows it."""

    def terminate(signum: int, _frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminate)


def build_app(db: str, settings: ServerSettings, **parts: Any) -> Any:
    """The application, its storage checked (a damaged or read-only database is refused now,
    in one line, not at every move)."""
    from sqlalchemy.exc import ArgumentError, DatabaseError

    from ..web.app import create_app
    from ..web.store.database import Unusable, describe, unusable

    try:
        app = create_app(db, settings, **parts)
        app.state.server.store.check()
    except DatabaseError as e:
        fail(f"--db: cannot open {db!r}: {unusable(e)}")
    except (ArgumentError, ImportError) as e:
        fail(f"--db: cannot open {db!r}: {describe(e)}")
    except Unusable as e:
        fail(f"--db: cannot use {db!r}: {e}")
    return app


def uvicorn_config(app: Any, *, log_level: str, header_timeout: float, **where: Any) -> Any:
    """uvicorn's settings: idle keep-alive connections close after 5 s, a request's headers
    must arrive within ``header_timeout``, a socket that stops answering pings closes after 40 s."""
    import uvicorn

    from ..web.guard import http_protocol

    return uvicorn.Config(
        app,
        log_level=log_level,
        ws_max_size=65536,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        ws_per_message_deflate=False,
        lifespan="on",
        http=http_protocol(header_timeout),
        timeout_keep_alive=5,
        **where,
    )


# ------------------------------------------------------------------------ --workers


@dataclass(frozen=True)
class Spec:
    """What every worker is started with."""

    db: str
    host: str
    port: int
    settings: ServerSettings
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


def worker(spec: Spec, index: int, child: bool = True, serving: Any = None) -> None:
    """One worker: its lock on the database, its two listeners, the application (a worker
    process that cannot start says why in one line and exits with status 2).  ``serving``, an
    event set once the application has started and listens."""
    try:
        _worker(spec, index, child, serving)
    except typer.Exit as e:
        if not child:
            raise
        raise SystemExit(e.exit_code) from None


def _worker(spec: Spec, index: int, child: bool, serving: Any) -> None:
    import uvicorn
    from sqlalchemy import make_url

    from ..web.cluster import ClusterSettings
    from ..web.guard import hide_tokens
    from ..web.store.database import normalize_url

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
    words = None
    if spec.chat_filter is not None:
        from ..web.play.chatfilter import load

        words = load(spec.chat_filter)
    cluster = ClusterSettings(worker=worker_id, address=address, port=port, lease=spec.lease)
    app = build_app(spec.db, spec.settings, chat_filter=words, cluster=cluster)
    config = uvicorn_config(app, **spec.uvicorn)
    hide_tokens()
    _exit_on_sigterm()

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started and serving is not None:
                serving.set()

    Server(config).run(sockets=[public, inner])


def run_cluster(spec: Spec, n: int) -> None:
    """Start ``n`` workers (this process is the one worker when n is 1) and keep them running."""
    if n == 1:
        worker(spec, 0, child=False)
        return
    ctx = multiprocessing.get_context("spawn")

    def start(i: int) -> Any:
        serving = ctx.Event()
        p = ctx.Process(
            target=worker, args=(spec, i, True, serving), name=f"bonepile-worker-{i}", daemon=False
        )
        p.start()
        return p, serving

    def stopping(*_: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stopping)
    procs = [start(i) for i in range(n)]
    try:
        while True:
            time.sleep(0.5)
            for i, (p, serving) in enumerate(procs):
                if p.is_alive():
                    continue
                if not serving.is_set():
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
