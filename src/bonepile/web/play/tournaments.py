"""Tournaments for people on the server: made, joined, started, their rounds opened and their
standings read.  The format is the arena's (``arena.tournament``): this module only stores it
and seats it at ordinary tables.

- A tournament waits until ``start_when`` entrants have joined (or its start time has come
  with at least two); then bots fill the field (marked, never ranked) and round 1 opens.
- A round is one server table per group of entrants, every table dealt from the round's
  seed (``arena.tournament.round_seed``), playing ``hands`` hands (``LiveTable.hands_cap``)
  with a clock (a person who leaves is played by the server's stand-in bot, as at any table).
  Tables know nothing of tournaments beyond a tag in their settings.
- A round's tables and the bots that fill the field are stored in one transaction
  (``store.tournaments.open_round``) before the tables themselves; after a restart every
  stored round's missing table is made again from those rows (the same seats, seed and
  tokens), and the tables already stored resume from their own actions: nothing is lost.
- The next round opens once every table of the round is over; the results are read from the
  tables themselves (their stored actions), scored by ``arena.matchpoints``.
- A person's seat token at a round's table is derived from the tournament's secret and told
  only to a request made with the profile seated there.
- Each round's seed stays secret until its tables are over; the round publishes the engine's
  commitment to it (``engine/commit.py``, with ``round_salt``), the fingerprint every table of
  the round shows, and each table's record reveals seed and salt at its end (``bonepile verify``).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from ...arena.matchpoints import SCORINGS, Outcome, boards, outcomes_of_hand, score
from ...arena.tournament import FORMATS, Entrant, Settings, check, fill, round_seed, standings, tables
from ...arena.tournament_play import FILLER
from ...engine import make_variant
from ...engine.commit import commitment
from .. import validate
from ..store import ratings
from ..store import tournaments as store
from ..store.database import Store, TableRow
from ..store.ratings import DUPLICATE
from ..validate import RequestError, token_hash
from ..words.names import seat_default

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..messages import (
        ProfileInfo,
        TournamentCreated,
        TournamentDeal,
        TournamentJoined,
        TournamentRound,
        TournamentSeat,
        TournamentStanding,
        TournamentState,
        TournamentSummary,
        TournamentTable,
    )
    from ..settings import ServerSettings
    from .table import LiveTable

log = logging.getLogger("bonepile.serve")

TICK = 0.5  # seconds between two looks at every tournament's tables
TIMER = 60  # seconds per move at a tournament's table: a person who leaves is played by a bot
MAX_ROUNDS = 20
MAX_HANDS = 20
MAX_FIELD = 256  # the most entrants a tournament waits for
SHARED_FRESH = 1.0  # seconds the page's shared part (rounds, standings, hands) is kept


class TournamentHost(Protocol):
    """What tournaments need of the server."""

    settings: ServerSettings
    store: Store
    tables: dict[str, LiveTable]

    async def db(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any: ...

    def allow_create(self, address: str) -> None: ...

    def play(self, row: TableRow) -> LiveTable: ...

    async def finished(self, table_id: str) -> LiveTable: ...


def seat_token(secret: str, table_id: str, seat: int) -> str:
    """The seat token of a person at a tournament's table (derived, so a table made again
    after a restart has the same tokens)."""
    return hmac.new(secret.encode(), f"seat:{table_id}:{seat}".encode(), hashlib.sha256).hexdigest()[:32]


def deal_values(mine: list[list[int]], others: list[list[list[int]]]) -> list[float]:
    """Per side, what the tiles a table played were worth, summed over its hands: on each hand,
    the mean over the other tables that played it of the side's points less the mean of the
    other sides' (``analysis.luck``'s unit: it sums to 0 over the sides); 0 where no other
    table played the hand."""
    sides = len(mine[0]) if mine else 0
    out = [0.0] * sides
    for n in range(len(mine)):
        there = [pts[n] for pts in others if len(pts) > n]
        for j in range(sides):
            if there:
                out[j] += sum(p[j] - (sum(p) - p[j]) / (sides - 1) for p in there) / len(there)
    return out


def round_salt(secret: str, number: int) -> str:
    """The secret salt of round ``number``'s seal (64 hex digits, from the tournament's secret,
    so a table made again after a restart has the same seal): every table of the round shows
    the same fingerprint, revealed with the seed at each table's end."""
    return hmac.new(secret.encode(), f"salt:{number}".encode(), hashlib.sha256).hexdigest()


def _int(body: dict[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = body.get(key, default)
    if type(value) is not int or not lo <= value <= hi:
        raise RequestError(
            f'"{key}" must be a whole number from {lo} to {hi}, not {value!r}',
            code="tournament_number",
            params={"what": key, "lo": lo, "hi": hi},
        )
    return value


class Tournaments:
    def __init__(self, host: TournamentHost):
        self.host = host
        self.live: dict[str, store.TournamentRow] = {}  # not over, and the over ones read since
        self.results: dict[str, list[Outcome]] = {}  # a finished table's outcomes, by table id
        self.points: dict[str, list[list[int]]] = {}  # a finished table's points per hand and side
        self.rated: set[tuple[str, int]] = set()  # (tournament, round) whose tables were rated
        self.task: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()  # one tournament changes at a time
        # per tournament: (its rounds open, status and entrants; when; the page's shared part)
        self.shared: dict[str, tuple[tuple[int, str, int], float, Any]] = {}

    @property
    def engine(self) -> Any:
        return self.host.store.engine

    # ------------------------------------------------------------------ running
    async def start(self) -> None:
        """Every tournament not over loaded; missing tables of its open rounds made again."""
        for t in await self.host.db(store.load_active, self.engine):
            self.live[t.id] = t
            await self._ensure_tables(t)
        self.task = asyncio.get_running_loop().create_task(self._loop())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _loop(self) -> None:
        while True:
            for t in list(self.live.values()):
                if t.status == "over":
                    continue
                try:
                    async with self.lock:
                        await self.advance(t)
                except Exception:
                    log.exception("tournament %s: could not go on now (tried again shortly)", t.id)
            await asyncio.sleep(TICK)

    async def advance(self, t: store.TournamentRow) -> None:
        """Start a tournament whose field is in; open the next round once a round is over."""
        s = t.settings
        if t.status == "waiting":
            people = sum(1 for e in t.entrants if not e.bot)
            due = s.get("start_at") is not None and time.time() >= s["start_at"]
            if people >= s["start_when"] or (due and people >= 2):
                await self._open_round(t, 0)
            return
        current = [x for x in t.tables if x.round == t.rounds_open - 1]
        if not await self._all_over([x.table_id for x in current]):
            return
        for r in range(t.rounds_open):
            if (t.id, r) not in self.rated:
                await self._rate_round(t, r)
        if t.rounds_open < s["rounds"]:
            await self._open_round(t, t.rounds_open)
        else:
            await self.host.db(store.set_status, self.engine, t.id, "over")
            t.status = "over"

    def embargoed(self, table_id: str) -> bool:
        """Whether a table belongs to a round still being played at another table.  Every table
        of a round holds the same deals, so until the whole round is over nobody may see its
        hands or its play from outside its seats: not its record, replay, analysis or check, not
        a spectator's view (a person of another table could read the tiles they face).  A table
        not in memory is over (the tables in play are all in memory)."""
        for t in self.live.values():
            for x in t.tables:
                if x.table_id == table_id:
                    return any(self._in_play(y.table_id) for y in t.tables if y.round == x.round)
        return False

    def _in_play(self, table_id: str) -> bool:
        live = self.host.tables.get(table_id)
        return live is not None and live.status != "over"

    def refuse_if_embargoed(self, table_id: str) -> None:
        if self.embargoed(table_id):
            raise RequestError(
                "this tournament table's round is still being played: its hands are shown once every "
                "table of the round is over",
                409,
                code="round_in_play",
            )

    async def _rate_round(self, t: store.TournamentRow, number: int) -> None:
        """Rate every table of a finished round on its deals: each side's luck is what the
        same tiles made at the round's other tables (``deal_values``), so a side is ranked by
        how much better it did with them than the field (``arena.skill.rate_game_adjusted``).
        Once per table (``rate_table`` keeps a table's rating once, after a restart too)."""
        await self.outcomes(t)  # every finished table's points per hand (self.points)
        tabs = [x for x in t.tables if x.round == number]
        field = [self.points.get(x.table_id, []) for x in tabs]
        for i, x in enumerate(tabs):
            live = await self.host.finished(x.table_id)
            luck = deal_values(field[i], field[:i] + field[i + 1 :])
            await self.host.db(
                ratings.rate_table, self.engine, x.table_id, replace(live.outcome(), luck=luck)
            )
        self.rated.add((t.id, number))

    async def _all_over(self, ids: list[str]) -> bool:
        unknown = []
        for tid in ids:
            live = self.host.tables.get(tid)
            if live is None:
                unknown.append(tid)
            elif live.status != "over":
                return False
        stored = await self.host.db(store.stored_tables, self.engine, unknown)
        return all(stored.get(tid) == "over" for tid in unknown)

    def settings_of(self, t: store.TournamentRow) -> Settings:
        v = make_variant(t.variant, t.options)
        s = t.settings
        return Settings(s["format"], s["rounds"], s["hands"], len(v.sides), s["scoring"])

    async def _open_round(self, t: store.TournamentRow, number: int) -> None:
        fmt = self.settings_of(t)
        field = [Entrant(e.number, e.name, e.bot) for e in t.entrants]
        bots: list[store.EntrantRow] = []
        if number == 0:
            now = time.time()
            full = fill(field, fmt, lambda i: seat_default("bot", FILLER, len(field) + i + 1))
            bots = [store.EntrantRow(e.number, e.name, None, True, now) for e in full[len(field) :]]
            field = full
        played = [x.entrants for x in t.tables]
        outs = await self.outcomes(t)
        seed = round_seed(t.seed, number)
        salt = round_salt(t.secret, number)
        made = [
            store.RoundTable(number, i, secrets.token_hex(6), list(seated), commitment(seed, salt))
            for i, seated in enumerate(tables(fmt, field, played, outs))
        ]
        await self.host.db(store.open_round, self.engine, t.id, number, bots, made)
        t.entrants += bots
        t.tables += made
        t.rounds_open = number + 1
        t.status = "playing"
        await self._ensure_tables(t)

    async def _ensure_tables(self, t: store.TournamentRow) -> None:
        """Every table of the open rounds stored and played (made again if missing)."""
        missing = [x for x in t.tables if x.table_id not in self.host.tables]
        stored = await self.host.db(store.stored_tables, self.engine, [x.table_id for x in missing])
        rows = [self.table_row(t, x) for x in missing if x.table_id not in stored]
        await self.host.db(store.create_tables, self.engine, rows)  # one transaction
        for row in rows:
            self.host.play(row)

    def table_row(self, t: store.TournamentRow, x: store.RoundTable) -> TableRow:
        v = make_variant(t.variant, t.options)
        nsides = len(v.sides)
        seats: list[dict[str, Any]] = []
        for s in range(v.players):
            e = t.entrants[x.entrants[v.side_of(s)]]
            member = s // nsides if v.teams else 0
            profile, name = (e.profile, e.name) if member == 0 else (e.partner, e.partner_name)
            if e.bot or name is None:  # a bot entrant, or a pair's missing partner
                seats.append(
                    {
                        "name": e.name if e.bot else seat_default("bot", FILLER, s),
                        "kind": "bot",
                        "level": FILLER,
                        "token_hash": None,
                        "profile": None,
                    }
                )
            else:
                seats.append(
                    {
                        "name": name,
                        "kind": "human",
                        "level": None,
                        "token_hash": token_hash(seat_token(t.secret, x.table_id, s)),
                        "profile": profile,
                    }
                )
        return TableRow(
            id=x.table_id,
            created=time.time(),
            name=t.name,
            variant=t.variant,
            options=dict(t.options),
            seed=round_seed(t.seed, x.round),
            seats=seats,
            settings={"timer": TIMER, "hands": t.settings["hands"], "tournament": t.id, "rated": DUPLICATE},
            status="playing",
            deal_salt=round_salt(t.secret, x.round),
        )

    async def outcomes(self, t: store.TournamentRow) -> list[Outcome]:
        """Every deal played at the tournament's finished rounds, read from the tables (a round's
        results, which say something of the deals other tables still play, wait for its end)."""
        out: list[Outcome] = []
        for x in t.tables:
            if any(self._in_play(y.table_id) for y in t.tables if y.round == x.round):
                continue  # a round's results are told once it is over: the tables share deals
            if x.table_id not in self.results:
                live = self.host.tables.get(x.table_id)
                if live is not None and live.status != "over":
                    continue  # being played
                if live is None:  # finished and let go (or not made yet): read from storage
                    stored = await self.host.db(store.stored_tables, self.engine, [x.table_id])
                    if stored.get(x.table_id) != "over":
                        continue
                    live = await self.host.finished(x.table_id)
                got: list[Outcome] = []
                points: list[list[int]] = []
                for n, h in enumerate(live.game.hands):
                    if h.result is not None:
                        got += outcomes_of_hand(x.round, x.number, n, x.entrants, list(h.result.points))
                        points.append(list(h.result.points))
                self.results[x.table_id] = got
                self.points[x.table_id] = points
            out += self.results[x.table_id]
        return out

    # ------------------------------------------------------------------ requests
    async def create(self, body: Any, address: str, profile: ProfileInfo | None) -> TournamentCreated:
        body = validate.body_object(body)
        pairs = body.get("pairs", False)
        if type(pairs) is not bool:
            raise RequestError('"pairs" must be true or false', code="bad_request")
        v = validate.rules(body, **({"teams": True} if pairs else {}))
        fmt_name = body.get("format", "swiss")
        if fmt_name not in FORMATS:
            raise RequestError(
                f'"format" must be one of {", ".join(FORMATS)}, not {fmt_name!r}', code="tournament_format"
            )
        scoring = body.get("scoring", "matchpoints")
        if scoring not in SCORINGS:
            raise RequestError(
                f'"scoring" must be one of {", ".join(SCORINGS)}, not {scoring!r}', code="tournament_scoring"
            )
        rounds = _int(body, "rounds", 3, 1, MAX_ROUNDS)
        hands = _int(body, "hands", 2, 1, MAX_HANDS)
        start_when = _int(body, "start_when", 4, 2, MAX_FIELD)
        start_at = body.get("start_at")
        if start_at is not None and (type(start_at) not in (int, float) or start_at < 0):
            raise RequestError('"start_at" must be a time in seconds since 1970', code="bad_request")
        private = body.get("private", False)
        if type(private) is not bool:
            raise RequestError('"private" must be true or false', code="bad_request")
        fmt = Settings(fmt_name, rounds, hands, len(v.sides), scoring)
        try:
            check(fmt, start_when)
        except ValueError as e:
            raise RequestError(str(e), code="tournament_format_field") from None
        name = validate.clean_name(body.get("name"), f"{v.name} tournament")
        self.host.allow_create(address)
        settings: dict[str, Any] = {
            "format": fmt_name,
            "rounds": rounds,
            "hands": hands,
            "scoring": scoring,
            "start_when": start_when,
            "start_at": start_at,
            "pairs": v.teams,
        }
        link_secret = None
        if private:
            link_secret, settings["invite_hash"] = validate.new_token()
        t = store.TournamentRow(
            id=secrets.token_hex(6),
            created=time.time(),
            name=name,
            variant=v.name,
            options=dict(v.options),
            settings=settings,
            seed=secrets.randbits(62),
            secret=secrets.token_hex(32),
            status="waiting",
        )
        await self.host.db(store.create, self.engine, t)
        self.live[t.id] = t
        link = f"/tournaments/{t.id}" + (f"?invite={link_secret}" if link_secret else "")
        return {"id": t.id, "link": link, "private": private}

    async def get(self, tid: Any) -> store.TournamentRow:
        if not isinstance(tid, str) or len(tid) > 32:
            raise RequestError("no such tournament", 404, code="no_tournament")
        t = self.live.get(tid)
        if t is None:
            t = await self.host.db(store.load, self.engine, tid)
            if t is None:
                raise RequestError(f"no tournament {tid!r}", 404, code="no_tournament")
            self.live[tid] = t
        return t

    async def join(self, tid: str, body: Any, profile: ProfileInfo | None) -> TournamentJoined:
        """A person joins with a profile (``pair``: the number of the pair whose second
        player they are, in a tournament of pairs)."""
        body = validate.body_object(body)
        t = await self.get(tid)
        validate.invite(body.get("invite"), t.settings.get("invite_hash"))
        if profile is None:
            raise RequestError(
                "a tournament is joined with a profile: make one (POST /api/profiles) and send its key",
                401,
                code="profile_required",
            )
        pair = body.get("pair")
        if pair is not None and (type(pair) is not int or not t.settings.get("pairs")):
            raise RequestError(
                '"pair" must be the number of a pair of this tournament', code="tournament_pair_full"
            )
        async with self.lock:
            e = store.EntrantRow(0, profile["name"], profile["id"], False, time.time())
            try:
                number = await self.host.db(store.add_entrant, self.engine, t.id, e, pair)
            except store.Refused as r:
                words = {
                    "tournament_started": ("this tournament has started: it cannot be joined now", 409),
                    "tournament_joined": ("your profile has joined this tournament already", 409),
                    "tournament_pair_full": ("this pair has its two players already", 409),
                }[r.code]
                raise RequestError(words[0], words[1], code=r.code) from None
            fresh = await self.host.db(store.load, self.engine, t.id)
            if fresh is not None:
                t.entrants = fresh.entrants
        return {"entrant": number}

    def listing(self) -> list[TournamentSummary]:
        """The public tournaments not over, newest first."""
        out = []
        for t in reversed(self.live.values()):
            if t.status != "over" and "invite_hash" not in t.settings:
                out.append(self.summary(t))
        return out

    def summary(self, t: store.TournamentRow) -> TournamentSummary:
        s = t.settings
        return {
            "id": t.id,
            "name": t.name,
            "game": f"variant.{t.variant}.name",
            "players": make_variant(t.variant, t.options).players,
            "format": s["format"],
            "scoring": s["scoring"],
            "rounds": s["rounds"],
            "hands": s["hands"],
            "pairs": bool(s.get("pairs")),
            "start_when": s["start_when"],
            "start_at": s.get("start_at"),
            "status": t.status,  # type: ignore[typeddict-item]  # one of Status, as stored
            "round": t.rounds_open,
            "entrants": sum(1 for e in t.entrants if not e.bot),
        }

    async def _shared(
        self, t: store.TournamentRow
    ) -> tuple[list[TournamentRound], list[TournamentStanding], list[TournamentDeal]]:
        """What every visitor of the page is shown alike: built at most once per
        ``SHARED_FRESH`` seconds (and again when a round opens or the tournament ends)."""
        now = time.monotonic()
        key = (t.rounds_open, t.status, len(t.entrants))
        hit = self.shared.get(t.id)
        if hit is not None and hit[0] == key and now - hit[1] < SHARED_FRESH:
            return hit[2]
        outs = await self.outcomes(t)
        field = [Entrant(e.number, e.name, e.bot) for e in t.entrants]
        seated = {(x.round, x.number): tuple(x.entrants) for x in t.tables}
        rows = standings(field, seated, outs, t.settings["scoring"]) if field else []
        rounds: list[TournamentRound] = []
        for r in range(t.rounds_open):
            tabs: list[TournamentTable] = []
            for x in (x for x in t.tables if x.round == r):
                live = self.host.tables.get(x.table_id)
                over = x.table_id in self.results or (live is not None and live.status == "over")
                away = []
                if live is not None and not over:
                    away = [i for i, s in enumerate(live.seats) if s.kind == "human" and not s.conns]
                tabs.append(
                    {
                        "number": x.number + 1,
                        "table": x.table_id,
                        "entrants": x.entrants,
                        "over": over,
                        "away": away,
                    }
                )
            commit = next((x.commitment for x in t.tables if x.round == r), "")
            rounds.append({"round": r + 1, "commitment": commit, "tables": tabs})
        scores = score(outs, t.settings["scoring"]) if outs else []
        by_outcome = {id(o): sc for o, sc in zip(outs, scores, strict=True)}
        deals: list[TournamentDeal] = [
            {
                "round": key[0] + 1,
                "hand": key[1] + 1,
                "side": key[2],
                "results": [
                    {
                        "entrant": o.entrant,
                        "table": o.table + 1,
                        "points": o.points,
                        "result": o.result,
                        "score": by_outcome[id(o)],
                    }
                    for o in sorted(group, key=lambda o: -o.result)
                ],
            }
            for key, group in sorted(boards(outs).items())
        ]
        table: list[TournamentStanding] = [
            {
                "rank": r.rank,
                "entrant": r.entrant,
                "score": r.score,
                "difference": r.difference,
                "head_to_head": r.head_to_head,
                "buchholz": r.buchholz,
                "deals": r.deals,
            }
            for r in rows
        ]
        made = (rounds, table, deals)
        self.shared[t.id] = (key, now, made)
        return made

    async def state(self, tid: str, profile: ProfileInfo | None) -> TournamentState:
        """Everything the tournament's page shows; the seat of ``profile`` at its table in
        play, with the seat's token."""
        t = await self.get(tid)
        rounds, table, deals = await self._shared(t)
        v = make_variant(t.variant, t.options)
        me = profile["id"] if profile is not None else None
        mine = [e.number for e in t.entrants if me is not None and me in (e.profile, e.partner)]
        you: TournamentSeat | None = None
        if mine and t.rounds_open:
            e = t.entrants[mine[0]]
            for x in (x for x in t.tables if x.round == t.rounds_open - 1 and mine[0] in x.entrants):
                live = self.host.tables.get(x.table_id)
                if live is None or live.status == "over":
                    continue
                side = x.entrants.index(mine[0])
                for s in range(v.players):
                    member = s // len(v.sides) if v.teams else 0
                    if v.side_of(s) == side and (e.profile if member == 0 else e.partner) == me:
                        you = {"table": x.table_id, "seat": s, "token": seat_token(t.secret, x.table_id, s)}
        return {
            **self.summary(t),
            "entrants_list": [
                {
                    "number": e.number,
                    "name": e.name,
                    "partner": e.partner_name,
                    "bot": e.bot,
                    "you": e.number in mine,
                }
                for e in t.entrants
            ],
            "rounds_played": rounds,
            "standings": table,
            "deals": deals,
            "you": you,
            "entrant": mine[0] if mine else None,
        }
