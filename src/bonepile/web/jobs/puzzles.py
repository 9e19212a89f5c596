"""Puzzles mined from the server's own finished games, in the background: every ``every``
seconds the miner takes one finished table not mined yet (the most recent; never a private
one), rebuilds its record, and mines it (``bonepile.puzzles.mine``) with a small budget in a
worker process of its own, one game at a time and never on the event loop.  What it finds is
stored (``store.puzzles.add_mined``, with the table marked mined in the same transaction) and
offered at once with the shipped puzzles.  A game whose mining fails is marked mined with no
puzzle, so it is not tried again and again."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from ..store import puzzles as db
from .searches import REPLAY_NICE, lower_priority

if TYPE_CHECKING:
    from ..routes.puzzles import Book
    from ..server import Server

log = logging.getLogger("bonepile.serve")

EVERY = 300.0  # seconds between two games mined (0: the server mines none)
SIMULATIONS = 48  # sampled deals per move judged: a small budget (the shipped set took more)
MAX_MOVES = 1500  # moves of a record mined at most (a long Quinientos game has ~900)


def mine_record(record: dict[str, Any], simulations: int, seed: int) -> list[dict[str, Any]]:
    """The puzzles one game record holds, as dicts (run in the miner's worker).  The work is
    bounded: the record's first hands of at most ``MAX_MOVES`` moves in all, a move of a
    train layout counting as many as its margin takes deals more (``puzzles.mine.margin_deals``:
    a Mexican Train game of 13 hands is mined a few hands in)."""
    from ...bots.budget import Budget
    from ...engine import make_variant
    from ...puzzles.mine import margin_deals, mine

    hands = [h for h in record.get("hands") or () if isinstance(h, dict)]
    try:
        weight = margin_deals(make_variant(str(record.get("variant")), record.get("options")), 1)
    except (ValueError, TypeError):  # not a game of this engine's, or bad options: mine() says why
        weight = 1
    kept, moves = [], 0
    for h in hands:
        moves += len(h.get("moves") or ()) * weight
        if moves > MAX_MOVES:
            break
        kept.append(h)
    if not kept:
        return []
    part = {**record, "hands": kept}
    return [p.to_dict() for p in mine([part], budget=Budget(simulations=simulations), seed=seed)]


class Miner:
    """The server's puzzle miner (``start`` when the server starts, ``stop`` when it stops)."""

    def __init__(
        self,
        server: Server,
        book: Book,
        *,
        every: float = EVERY,
        simulations: int = SIMULATIONS,
        processes: bool = True,
    ):
        self.server = server
        self.book = book
        self.every = every
        self.simulations = simulations
        self.processes = processes
        self.mined = 0  # games mined by this server
        self.found = 0  # puzzles they gave
        self._pool: Executor | None = None
        self._task: asyncio.Task[None] | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.processes:
                try:
                    self._pool = ProcessPoolExecutor(
                        1,
                        mp_context=multiprocessing.get_context("spawn"),
                        initializer=lower_priority,
                        initargs=(REPLAY_NICE,),
                    )
                except (RuntimeError, OSError):
                    self._pool = None
            if self._pool is None:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="bonepile-puzzles")
        return self._pool

    def start(self) -> None:
        if self.every > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.mine_one()
            except asyncio.CancelledError:
                raise
            except Exception:  # the next game is tried at the next turn
                log.exception("mining a finished game for puzzles failed")

    async def mine_one(self) -> int | None:
        """Mine the most recent finished table not mined yet (claimed first, so that the workers
        of a cluster mine different games): the puzzles it gave (None: no table was left)."""
        from ...puzzles.model import Puzzle

        engine = self.server.store.engine
        table_id = await self.server.db(db.claim_table, engine)
        if table_id is None:
            return None
        if self.server.tournaments.embargoed(table_id):  # its round's deals are still in play
            await self.server.db(db.release_table, engine, table_id)
            return None
        found: list[dict[str, Any]] = []
        try:
            t = await self.server.finished(table_id)
            record = t.record()
            seed = int(t.seed) & 0x7FFFFFFF
            loop = asyncio.get_running_loop()
            found = await loop.run_in_executor(self._executor(), mine_record, record, self.simulations, seed)
        except BrokenProcessPool:
            self._pool = None
            await self.server.db(db.release_table, engine, table_id)
            return 0  # the worker died (killed): the table is tried again later
        except Exception:
            log.exception("mining table %s for puzzles failed; it is not tried again", table_id)
            found = []
        puzzles = []
        for d in found:
            try:
                puzzles.append(Puzzle.from_dict(d))
            except (ValueError, TypeError, KeyError):
                continue
        new = await self.server.db(
            db.add_mined, engine, table_id, [(p.id, p.variant, p.to_dict()) for p in puzzles]
        )
        self.mined += 1
        self.found += new
        self.book.add(puzzles)
        return new

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
