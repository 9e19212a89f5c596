"""Storage of tables and their actions with SQLAlchemy (SQLite by default, PostgreSQL too).

A table is its settings (variant, options, seed, seats) and the list of actions accepted at
it, in order.  The game is rebuilt by replaying those actions from the seed, so what is
stored is all there is: a server killed at any moment resumes every table exactly.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DatabaseError

from ...engine.commit import new_salt
from . import migrations

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("name", String(80), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("options", Text, nullable=False),  # JSON: the rule options, players included
    Column("seed", BigInteger, nullable=False),
    Column("seats", Text, nullable=False),  # JSON: [{name, kind, level, token_hash}]
    Column("settings", Text, nullable=False),  # JSON: {timer, invite_hash, rated, rematch, rematch_of}
    Column("status", String(16), nullable=False),  # waiting, playing, over
)

actions_t = Table(
    "actions",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # "move" (a record token), "leader" (a seat) or "deal"
    Column("value", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

#: profiles (``migrations/versions/0002_profiles.py``)
#: ratings per game (web/store/ratings.py reads and writes them; migration 0003_ratings)
ratings_t = Table(
    "ratings",
    metadata,
    Column("participant", String(80), primary_key=True),  # "profile:<id>" or "bot:<level>"
    Column("game", String(40), primary_key=True),  # the game key: "<variant>-<players>"
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("name", String(80), nullable=True),  # the name at its seat in its last rated game
    Column("updated", Float, nullable=False),
    Index("ratings_by_game", "game", "games"),  # a leaderboard reads one game's rows
)

rated_games_t = Table(
    "rated_games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("rated", Float, nullable=False),
)

#: each rated table's effect on each participant (migration 0009_rating_history;
#: web/store/ratings.py): the rating before and after, read by the game-over banner's change
#: and a profile's graph over time
rating_history_t = Table(
    "rating_history",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("participant", String(80), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("at", Float, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),  # rated games of that game counted after this one
    Index("rating_history_by_participant", "participant", "game", "at"),
)


#: a finished table's result, stored when its last move is (web/store/results.py;
#: migration 0004_results): what its history row and its players' stats are read from
results_t = Table(
    "results",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("variant", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("created", Float, nullable=False),  # the table's
    Column("finished", Float, nullable=False),  # when its last action was stored
    Column("sides", Text, nullable=False),  # JSON: the seats of each side
    Column("totals", Text, nullable=False),  # JSON: the final total of each side
    Column("winner", Integer, nullable=True),  # the winning side (None: a tie at the target)
    Column("hands", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("private", Boolean, nullable=False),
)

#: per seat of a finished table: its profile, how its side finished, and the facts its
#: player's stats count (engine/tally.py); a column is None where the game has no such thing
result_seats_t = Table(
    "result_seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("profile", String(32), nullable=True),
    # the table's, repeated here: a profile's page reads its rows alone, in order, by the index
    Column("created", Float, nullable=False),
    Column("variant", String(32), nullable=False),
    Column("private", Boolean, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("side", Integer, nullable=False),
    Column("outcome", String(8), nullable=False),  # won, lost or tie
    Column("points", Integer, nullable=True),  # its side's points over the hands
    Column("dominoes", Integer, nullable=False),  # hands it won by going out
    Column("blocked_won", Integer, nullable=False),  # blocked hands its side won
    Column("capicus", Integer, nullable=True),
    Column("chuchazos", Integer, nullable=True),
    Index("result_seats_by_profile", "profile", "created"),
)


#: a profile's sums over its finished tables, per game and private or not: its stats are
#: read from these few rows, whatever the number of its games; kept in the same transaction
#: as the results (results.finish_table)
profile_stats_t = Table(
    "profile_stats",
    metadata,
    Column("profile", String(32), primary_key=True),
    Column("variant", String(32), primary_key=True),
    Column("private", Boolean, primary_key=True),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("ties", Integer, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("points", Integer, nullable=True),  # None: the game scores no points
    Column("point_hands", Integer, nullable=False),  # the hands those points were scored in
    Column("dominoes", Integer, nullable=False),
    Column("blocked_won", Integer, nullable=False),
    Column("capicus", Integer, nullable=True),  # None: the game has no capicús
    Column("chuchazos", Integer, nullable=True),
)


profiles_t = Table(
    "profiles",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("created", Float, nullable=False),
)

#: a profile's secret keys, one per device (only their hashes): a claimed link code gives
#: the new device a key of its own, the first device's keeps working
profile_keys_t = Table(
    "profile_keys",
    metadata,
    Column("key_hash", String(64), primary_key=True),
    Column("profile_id", String(32), ForeignKey("profiles.id"), nullable=False),
    Column("created", Float, nullable=False),
)

#: codes that move a profile to another device: their hash, an expiry, used once, and the
#: hash of the key (the device) that made it: the code dies with that key (0008_link_keys)
profile_links_t = Table(
    "profile_links",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("profile_id", String(32), ForeignKey("profiles.id"), nullable=False),
    Column("expires", Float, nullable=False),
    Column("used", Boolean, nullable=False, default=False),
    Column("key_hash", String(64), nullable=True),
    Index("profile_links_by_key", "key_hash"),
)

#: mutes: the profile ``muter`` is not shown the table chat of the profile ``muted``, at any
#: table (migration 0005_mutes; web/play/moderation.py)
mutes_t = Table(
    "mutes",
    metadata,
    Column("muter", String(32), ForeignKey("profiles.id"), primary_key=True),
    Column("muted", String(32), ForeignKey("profiles.id"), primary_key=True),
    Column("created", Float, nullable=False),
)

#: the workers of a cluster (``serve --workers``) alive until ``expires`` (the database's
#: clock, seconds since the epoch), and the address where the others reach each one
#: (migration 0006_leases; web/store/leases.py)
workers_t = Table(
    "workers",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("address", String(255), nullable=False),
    Column("expires", Float, nullable=False),
)

#: which worker plays each table, until ``expires``; an expired lease may be taken by any worker
leases_t = Table(
    "leases",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("worker", String(64), nullable=False),
    Column("expires", Float, nullable=False),
    Index("leases_by_worker", "worker"),
)

#: post-game analyses made for the replay page (migration 0007_analyses; web/jobs/analyses.py),
#: by what they analyse: "table:<id>" or "record:<sha256 of the record>"; ``body`` the JSON
analyses_t = Table(
    "analyses",
    metadata,
    Column("key", String(80), primary_key=True),
    Column("created", Float, nullable=False),
    Column("body", Text, nullable=False),
)

#: each table's secret salt of the commitment to its seed (engine/commit.py; migration
#: 0010_deal_salt): revealed with the seed once the game is over; a table made before has none
deal_salts_t = Table(
    "deal_salts",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("salt", String(128), nullable=False),
)


def _tables() -> Any:
    """Select tables with their deal salts (None for a table made before deals were sealed)."""
    return select(tables_t, deal_salts_t.c.salt.label("deal_salt")).select_from(
        tables_t.outerjoin(deal_salts_t, deal_salts_t.c.table_id == tables_t.c.id)
    )


#: puzzles (migration 0013_puzzles; web/store/puzzles.py): each profile's puzzle rating
#: (Glicko-2, one for all games), each puzzle's own once it has been tried, every profile's
#: first attempt at each puzzle (the one that counts: the primary key keeps it once), and the
#: puzzles the server mined from its own finished tables, with the tables it has mined
puzzle_players_t = Table(
    "puzzle_players",
    metadata,
    Column("profile", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("vol", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

puzzle_ratings_t = Table(
    "puzzle_ratings",
    metadata,
    Column("puzzle", String(40), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("vol", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

puzzle_attempts_t = Table(
    "puzzle_attempts",
    metadata,
    Column("profile", String(32), primary_key=True),
    Column("puzzle", String(40), primary_key=True),
    Column("solved", Boolean, nullable=False),
    Column("at", Float, nullable=False),
    Column("rating_before", Float, nullable=False),  # the player's puzzle rating before it
    Column("rating", Float, nullable=False),  # and after
    Index("puzzle_attempts_by_profile", "profile", "at"),
)

mined_puzzles_t = Table(
    "mined_puzzles",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("variant", String(32), nullable=False),
    Column("table_id", String(32), nullable=False),  # the finished table it was mined from
    Column("created", Float, nullable=False),
    Column("body", Text, nullable=False),  # JSON: bonepile.puzzles' Puzzle.to_dict
    Index("mined_puzzles_by_variant", "variant"),
)

puzzle_mined_tables_t = Table(
    "puzzle_mined_tables",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("mined", Float, nullable=False),
    Column("found", Integer, nullable=False),  # puzzles it gave (0: none, or its mining failed)
)


#: tournaments (migration 0011_tournaments; web/store/tournaments.py, web/play/tournaments.py):
#: a tournament's settings and secrets, its entrants, and each round's tables (the tables
#: themselves are ordinary rows of ``tables``, tagged with the tournament's id)
tournaments_t = Table(
    "tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("name", String(80), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("options", Text, nullable=False),  # JSON: the rule options, players included
    Column("settings", Text, nullable=False),  # JSON: format, rounds, hands, scoring, start, invite_hash
    Column("seed", BigInteger, nullable=False),  # secret: every round's seed is derived from it
    Column("secret", String(64), nullable=False),  # secret: the entrants' seat tokens derive from it
    Column("status", String(16), nullable=False),  # waiting, playing, over
    Column("rounds_open", Integer, nullable=False),  # rounds whose tables are stored
)

tournament_entrants_t = Table(
    "tournament_entrants",
    metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),  # the order of entry, from 0
    Column("name", String(80), nullable=False),
    Column("profile", String(32), nullable=True),
    Column("partner", String(32), nullable=True),  # pairs: the second player's profile
    Column("partner_name", String(80), nullable=True),  # pairs: the second player (None: a bot)
    Column("bot", Boolean, nullable=False),  # a bot that fills the field: plays, never ranked
    Column("joined", Float, nullable=False),
)

tournament_tables_t = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("table_id", String(32), nullable=False),
    Column("entrants", Text, nullable=False),  # JSON: the entrant at each side
    Column("commitment", String(64), nullable=False),  # SHA-256 of the round's seed and a salt
)

#: each seat's luck and skill in a finished table whose analysis was stored (migration
#: 0012_luck_skill; web/store/luck.py): sums over the analysed hands, in the game's points
luck_skill_t = Table(
    "luck_skill",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("profile", String(32), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("created", Float, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("result", Float, nullable=False),
    Column("luck", Float, nullable=False),
    Column("skill", Float),
    Index("luck_skill_by_profile", "profile", "created"),
)


@dataclass
class TableRow:
    id: str
    created: float
    name: str
    variant: str
    options: dict
    seed: int
    seats: list[dict]
    settings: dict
    status: str
    actions: list[tuple[str, str, int]] = field(default_factory=list)  # (kind, value, seat)
    #: the salt of the commitment to ``seed``, secret until the game is over (a new table's
    #: is fresh; None: a table stored before deals were sealed)
    deal_salt: str | None = field(default_factory=new_salt)


class Damaged(Exception):
    """A stored table that cannot be read back (its row is not what this server wrote)."""

    def __init__(self, table_id: str, reason: str):
        super().__init__(f"table {table_id}: {reason}")
        self.table_id = table_id
        self.reason = reason


class Unusable(Exception):
    """The storage as a whole cannot be used (not a database, damaged, read-only): one line."""


def describe(e: BaseException) -> str:
    """The first line of a storage error, without SQLAlchemy's wrapping and SQL."""
    inner = getattr(e, "orig", None) or e
    return (str(inner).strip().splitlines() or [type(inner).__name__])[0]


def unusable(e: BaseException) -> str:
    """Why a database cannot be used, in words, from the error opening or writing it."""
    why = describe(e)
    if "readonly" in why.replace(" ", "").lower():
        return f"it is read-only, the server could not store a single move ({why})"
    if "not a database" in why or "malformed" in why:
        return f"the file is damaged or not a database ({why})"
    return why


def normalize_url(url: str) -> str:
    """SQLAlchemy URL for a --db value: "postgresql://" uses psycopg 3."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def append_each(
    append: Callable[[list[tuple[str, int, str, str, int]]], None],
    batch: list[tuple[str, int, str, str, int]],
) -> list[Exception | None]:
    """Each action of ``batch`` stored by ``append`` on its own: per action, None or why it
    failed.  A table's actions after one of its own that failed are not tried (they would
    leave a gap)."""
    out: list[Exception | None] = []
    failed: dict[str, Exception] = {}
    for item in batch:
        if item[0] in failed:
            out.append(failed[item[0]])
            continue
        try:
            append([item])
            out.append(None)
        except Exception as e:
            failed[item[0]] = e
            out.append(e)
    return out


class Store:
    """Synchronous storage; the server calls it from one worker thread.

    SQLite runs in WAL mode with ``synchronous=NORMAL``: a commit survives the process being
    killed, but the last commits may be lost if the machine loses power.  ``durable``
    (``--durable``) sets ``synchronous=FULL``: every commit waits for the disk."""

    def __init__(self, url: str, *, durable: bool = False):
        url = normalize_url(url)
        kw: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kw["connect_args"] = {"check_same_thread": False}
        self.url = url
        self.durable = durable
        self.engine: Engine = create_engine(url, **kw)
        if url.startswith("sqlite"):

            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn, _record):  # pragma: no cover - exercised by every test
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=FULL" if durable else "PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA busy_timeout=5000")
                cur.close()

        # the schema is the migrations' (``migrations/``): a database of an older release is
        # brought up to date, a new one built; ``metadata`` above mirrors the head revision
        migrations.upgrade(self.engine)

    def check(self) -> None:
        """Refuse storage that cannot be used, in one line (``Unusable``): a damaged SQLite
        file (its every page read once) or one this process cannot write."""
        try:
            with self.engine.connect() as c:
                if self.url.startswith("sqlite"):
                    found = [r[0] for r in c.exec_driver_sql("PRAGMA quick_check").all()]
                    if found != ["ok"]:
                        raise Unusable(f"the file is damaged ({found[0]})")
                    c.rollback()
                c.execute(tables_t.delete().where(text("1 = 0")))  # a write that changes nothing
                c.rollback()
        except Unusable:
            raise
        except DatabaseError as e:
            raise Unusable(unusable(e)) from None

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ writes
    @staticmethod
    def _table_values(row: TableRow) -> dict[str, Any]:
        return {
            "id": row.id,
            "created": row.created,
            "name": row.name,
            "variant": row.variant,
            "options": json.dumps(row.options),
            "seed": row.seed,
            "seats": json.dumps(row.seats),
            "settings": json.dumps(row.settings),
            "status": row.status,
        }

    def create_table(self, row: TableRow) -> None:
        with self.engine.begin() as c:
            c.execute(insert(tables_t).values(**self._table_values(row)))
            self._store_salt(c, row)

    @staticmethod
    def _store_salt(c: Any, row: TableRow) -> None:
        if row.deal_salt is not None:
            c.execute(insert(deal_salts_t).values(table_id=row.id, salt=row.deal_salt))

    def create_rematch(self, row: TableRow, old_id: str, old_settings: dict[str, Any]) -> None:
        """The rematch's table stored, and the finished table's settings that name it, in one
        transaction: a finished table never points at a rematch that was not stored."""
        with self.engine.begin() as c:
            c.execute(insert(tables_t).values(**self._table_values(row)))
            self._store_salt(c, row)
            c.execute(
                update(tables_t).where(tables_t.c.id == old_id).values(settings=json.dumps(old_settings))
            )

    def update_table(
        self,
        table_id: str,
        *,
        seats: list[dict] | None = None,
        status: str | None = None,
        settings: dict | None = None,
    ) -> None:
        values: dict[str, Any] = {}
        if seats is not None:
            values["seats"] = json.dumps(seats)
        if settings is not None:
            values["settings"] = json.dumps(settings)
        if status is not None:
            values["status"] = status
        if values:
            with self.engine.begin() as c:
                c.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    def append(self, batch: list[tuple[str, int, str, str, int]]) -> None:
        """Store many actions in one transaction: (table, seq, kind, value, seat).
        A (table, seq) stored twice fails the whole batch (the primary key): see
        ``append_each``."""
        now = time.time()
        with self.engine.begin() as c:
            c.execute(
                insert(actions_t),
                [
                    {"table_id": t, "seq": seq, "kind": kind, "value": value, "seat": seat, "at": now}
                    for t, seq, kind, value, seat in batch
                ],
            )

    def append_each(self, batch: list[tuple[str, int, str, str, int]]) -> list[Exception | None]:
        """Store each action in its own transaction (after a batch failed): per action, None
        or why it failed."""
        return append_each(self.append, batch)

    # ------------------------------------------------------------------ reads
    def _row(self, r: Any) -> TableRow:
        """A stored row as a TableRow (``Damaged`` if its JSON columns are not ours)."""
        parsed: dict[str, Any] = {}
        for col, kind in (("options", dict), ("seats", list), ("settings", dict)):
            try:
                parsed[col] = json.loads(getattr(r, col))
            except (ValueError, TypeError) as e:
                raise Damaged(r.id, f"its {col} are not JSON ({e})") from None
            if not isinstance(parsed[col], kind):
                raise Damaged(r.id, f"its {col} are not a JSON {'list' if kind is list else 'object'}")
        if not all(isinstance(d, dict) for d in parsed["seats"]):
            raise Damaged(r.id, "its seats are not JSON objects")
        return TableRow(
            id=r.id,
            created=r.created,
            name=r.name,
            variant=r.variant,
            seed=int(r.seed),
            status=r.status,
            deal_salt=r.deal_salt,  # from the outer join with deal_salts (``_tables``)
            **parsed,
        )

    def load(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as c:
            r = c.execute(_tables().where(tables_t.c.id == table_id)).first()
            if r is None:
                return None
            row = self._row(r)
            row.actions = self._actions(c, table_id)
        return row

    def _actions(self, c: Any, table_id: str) -> list[tuple[str, str, int]]:
        rs = c.execute(
            select(actions_t.c.seq, actions_t.c.kind, actions_t.c.value, actions_t.c.seat)
            .where(actions_t.c.table_id == table_id)
            .order_by(actions_t.c.seq)
        ).all()
        out = []
        for i, r in enumerate(rs):
            if r.seq != i:  # never happens: sequence numbers are checked before storing
                raise Damaged(table_id, f"its action {i} is missing from storage")
            out.append((r.kind, r.value, r.seat))
        return out

    def load_active(self, damaged: dict[str, str] | None = None) -> list[TableRow]:
        """Every table not over, with its actions.  A table whose stored data cannot be read
        is left out (and put in ``damaged``: its id -> why)."""
        rows: list[TableRow] = []
        with self.engine.connect() as c:
            for r in c.execute(_tables().where(tables_t.c.status != "over").order_by(tables_t.c.created)):
                try:
                    rows.append(self._row(r))
                except Damaged as e:
                    if damaged is not None:
                        damaged[e.table_id] = e.reason
            for row in list(rows):
                try:
                    row.actions = self._actions(c, row.id)
                except Damaged as e:
                    rows.remove(row)
                    if damaged is not None:
                        damaged[e.table_id] = e.reason
        return rows

    def recent_over(self, limit: int = 20) -> list[TableRow]:
        with self.engine.connect() as c:
            return [
                self._row(r)
                for r in c.execute(
                    _tables()
                    .where(tables_t.c.status == "over")
                    .order_by(tables_t.c.created.desc())
                    .limit(limit)
                )
            ]

    # ------------------------------------------------------------------ profiles
    def create_profile(self, profile_id: str, name: str, key_hash: str) -> None:
        now = time.time()
        with self.engine.begin() as c:
            c.execute(insert(profiles_t).values(id=profile_id, name=name, created=now))
            c.execute(insert(profile_keys_t).values(key_hash=key_hash, profile_id=profile_id, created=now))

    def profile_by_key(self, key_hash: str) -> dict[str, Any] | None:
        """The profile one of whose keys hashes to ``key_hash`` ({id, name, key_hash}), or None."""
        with self.engine.connect() as c:
            r = c.execute(
                select(profiles_t.c.id, profiles_t.c.name, profile_keys_t.c.key_hash)
                .join(profile_keys_t, profile_keys_t.c.profile_id == profiles_t.c.id)
                .where(profile_keys_t.c.key_hash == key_hash)
            ).first()
        return None if r is None else {"id": r.id, "name": r.name, "key_hash": r.key_hash}

    def rename_profile(self, profile_id: str, name: str) -> None:
        with self.engine.begin() as c:
            c.execute(update(profiles_t).where(profiles_t.c.id == profile_id).values(name=name))

    def add_link(self, code_hash: str, profile_id: str, key_hash: str, expires: float, now: float) -> None:
        """A new link code made by the key ``key_hash``: it replaces that key's earlier codes
        (one code per device at a time), and every used or expired code of any profile is
        purged in the same transaction."""
        with self.engine.begin() as c:
            c.execute(
                delete(profile_links_t).where(
                    (profile_links_t.c.key_hash == key_hash)
                    | profile_links_t.c.used.is_(True)
                    | (profile_links_t.c.expires <= now)
                )
            )
            c.execute(
                insert(profile_links_t).values(
                    code_hash=code_hash, profile_id=profile_id, expires=expires, used=False, key_hash=key_hash
                )
            )

    def claim_link(self, code_hash: str, key_hash: str, now: float) -> dict[str, Any] | None:
        """Use a link code once: its profile gets a new key (``key_hash``) and is returned
        ({id, name}); None for a code unknown, used, expired, or whose device (the key that
        made it) is signed out.  Marking it used is one conditional update: a code claimed
        twice at once is given to one of the two."""
        maker = (
            select(profile_keys_t.c.key_hash)
            .where(
                profile_keys_t.c.key_hash == profile_links_t.c.key_hash,
                profile_keys_t.c.profile_id == profile_links_t.c.profile_id,
            )
            .exists()
        )
        with self.engine.begin() as c:
            done = c.execute(
                update(profile_links_t)
                .where(
                    profile_links_t.c.code_hash == code_hash,
                    profile_links_t.c.used.is_(False),
                    profile_links_t.c.expires > now,
                    maker,
                )
                .values(used=True)
            )
            if done.rowcount != 1:
                return None
            r = c.execute(
                select(profiles_t.c.id, profiles_t.c.name)
                .join(profile_links_t, profile_links_t.c.profile_id == profiles_t.c.id)
                .where(profile_links_t.c.code_hash == code_hash)
            ).one()
            c.execute(insert(profile_keys_t).values(key_hash=key_hash, profile_id=r.id, created=now))
        return {"id": r.id, "name": r.name}

    def profile_keys(self, profile_id: str) -> list[tuple[str, float]]:
        """The hashes of a profile's keys (one per device) and when each was made, oldest first."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(profile_keys_t.c.key_hash, profile_keys_t.c.created)
                .where(profile_keys_t.c.profile_id == profile_id)
                .order_by(profile_keys_t.c.created, profile_keys_t.c.key_hash)
            ).all()
        return [(r.key_hash, r.created) for r in rows]

    def drop_profile_key(self, profile_id: str, key_hash: str) -> bool:
        """Forget one key of a profile (a device signed out or removed) and the link codes it
        made; False: no such key."""
        with self.engine.begin() as c:
            done = c.execute(
                delete(profile_keys_t).where(
                    profile_keys_t.c.profile_id == profile_id, profile_keys_t.c.key_hash == key_hash
                )
            )
            c.execute(delete(profile_links_t).where(profile_links_t.c.key_hash == key_hash))
        return done.rowcount == 1

    # ------------------------------------------------------------------ mutes
    def profile_name(self, profile_id: str) -> str | None:
        """The name of the profile ``profile_id`` (None: no such profile)."""
        with self.engine.connect() as c:
            return c.execute(select(profiles_t.c.name).where(profiles_t.c.id == profile_id)).scalar()

    def mutes_of(self, muter: str) -> list[dict[str, str]]:
        """The profiles ``muter`` muted ({id, name}), the first muted first."""
        with self.engine.connect() as c:
            rs = c.execute(
                select(profiles_t.c.id, profiles_t.c.name)
                .join(mutes_t, mutes_t.c.muted == profiles_t.c.id)
                .where(mutes_t.c.muter == muter)
                .order_by(mutes_t.c.created, profiles_t.c.id)
            ).all()
        return [{"id": r.id, "name": r.name} for r in rs]

    def set_mute(self, muter: str, muted: str, on: bool) -> None:
        """Mute (``on``) or unmute a profile for another; doing it twice changes nothing."""
        with self.engine.begin() as c:
            where = (mutes_t.c.muter == muter) & (mutes_t.c.muted == muted)
            found = c.execute(select(mutes_t.c.muter).where(where)).first()
            if on and found is None:
                c.execute(insert(mutes_t).values(muter=muter, muted=muted, created=time.time()))
            elif not on and found is not None:
                c.execute(mutes_t.delete().where(where))
