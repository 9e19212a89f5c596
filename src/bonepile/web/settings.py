"""The settings of ``bonepile serve``, each with its one default: ``cli/serve.py`` reads its
options' defaults from here and builds a ``ServerSettings``, which ``web.app.create_app``
hands to the ``Server``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..bots.budget import EXPERT_TIME, HINT_TIME, Budget

ProfilesMode = Literal["off", "optional", "required"]
PROFILES_MODES: tuple[ProfilesMode, ...] = ("off", "optional", "required")


@dataclass(frozen=True)
class ServerSettings:
    bot_delay: float = 0.6  # seconds a bot waits before moving while a person watches
    grace: float = 30.0  # seconds before a bot plays for a person who left
    hand_pause: float = 120.0  # seconds at most between hands while people look at the result
    bot_time: float = EXPERT_TIME  # the expert bot's thinking time per move (seconds)
    hint_time: float = HINT_TIME  # the expert's thinking time for a hint (seconds)
    rate: float = 20.0  # messages a second one socket may send (bursts of twice as many)
    keep_finished: float = 300.0  # seconds a finished table stays in memory once nobody looks
    create_rate: float = 20.0  # tables one client address may create a minute (bursts of twice)
    profile_rate: float = 10.0  # profiles one client address may make a minute (bursts of twice)
    address_bot_tables: int = 4  # tables of bots only one client address may have playing at once
    bots_unwatched: float = 600.0  # seconds a table of bots only plays on with nobody watching
    table_ttl: float = 3600.0  # seconds a table may wait for its players before it is closed
    rematch_wait: float = 60.0  # seconds the people asked for a rematch have to answer
    seat_sockets: int = 8  # sockets open at once on one seat (tabs of one person)
    address_sockets: int = 64  # table sockets open at once from one client address
    table_watchers: int = 64  # spectators' sockets open at once on one table
    address_watchers: int = 16  # spectators' sockets open at once from one address (all tables)
    watch_rate: float = 60.0  # spectators' sockets one address may open a minute (bursts of twice)
    address_tickets: int = 8  # quick-match tickets waiting at once from one address
    durable: bool = False  # every commit waits for the disk (SQLite synchronous=FULL)
    bot_workers: int = 0  # processes searching the bots' moves and hints (0: one per core)
    bot_processes: bool = True  # the searches in worker processes (False: threads, for tests)
    profiles: ProfilesMode = "optional"  # off, optional or required
    # the post-game analysis's budget per decision (None: no such bound) and its processes
    analysis_time: float = EXPERT_TIME
    analysis_simulations: int | None = None
    analysis_nodes: int | None = None
    analysis_processes: bool = True
    # puzzles mined from finished games (web/jobs/puzzles.py): seconds between two games
    # mined (0: none), and the miner in a worker process (False: a thread, for tests)
    puzzle_mining: float = 300.0
    puzzle_processes: bool = True

    @property
    def analysis_budget(self) -> Budget:
        """The post-game analysis's budget per decision, as the analysis takes it."""
        return Budget(
            time=self.analysis_time, simulations=self.analysis_simulations, nodes=self.analysis_nodes
        )
