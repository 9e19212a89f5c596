"""A table in memory: its game (rebuilt from its stored actions), its seats and their
sockets, and what each seat is told.  Every message to a seat is built from that seat's
``View``; the public facts added to it (what each move scored, the count) are the same for
every seat.  The socket route only calls ``attach`` and ``detach``; the intents are handled
by ``handlers``, what nobody decides by ``driver``."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Protocol

from ...bots import Budget, make_bot
from ...bots.base import Bot
from ...engine import Game, make_variant
from ...engine.commit import Seal
from ...engine.deals import derive
from ...engine.hand import Hand
from ...engine.tiles import NAME
from ...engine.view import Observer, View
from ..jobs.searches import Searches
from ..messages import (
    ChatLine,
    ChatMessage,
    CountJSON,
    DealsInfo,
    PadLine,
    Pending,
    Phase,
    RematchSeat,
    ServerMessage,
    TableInfo,
)
from ..protocol import count_json, hand_result_json, move_points, public_view_json, view_json
from ..settings import ServerSettings
from ..store.database import TableRow
from ..store.ratings import DUPLICATE, Outcome
from ..store.results import Finished, finished_of
from ..words.catalog import scoring, sides
from ..words.names import seat_named, table_named
from .chatfilter import ChatFilter
from .connection import Connection, dumps
from .offer import Offer

STANDIN_LEVEL = "greedy"  # plays a person's turn when the person is away or out of time
CHAT_KEEP = 50  # chat lines a table remembers (in memory: chat is not stored)
WATCHING_EVERY = 0.5  # seconds at least between two "n watching" updates of a table


# ---------------------------------------------------------------------------- deals
# The table's game carries the table's seed: ``Game.deal_next`` deals hand n from it (the
# engine's seeded deals, ``engine.deals``), once; ``Game.next_hand(dealt=...)`` starts it.
def deal(game: Game) -> Hand:
    """The next hand as the rules deal it from the table's seed (not started yet)."""
    return game.deal_next()


def begin(game: Game, h: Hand, chosen: int | None = None) -> None:
    """Start the dealt hand ``h``; where the winning side chooses the leader, ``chosen``
    leads (by default the seeded draw), elsewhere the rules decide."""
    game.next_hand(dealt=h, leader=chosen if game.leader_choosers() is not None else None)


# ---------------------------------------------------------------------------- seats
class Seat:
    def __init__(self, d: dict[str, Any]):
        self.name: str = d["name"]
        self.kind: str = d["kind"]  # human or bot
        self.level: str = d.get("level") or STANDIN_LEVEL
        self.token_hash: str | None = d.get("token_hash")
        self.profile: str | None = d.get("profile")  # the id of the profile the seat is tied to
        self.conns: list[Connection] = []
        self.away_since: float | None = time.monotonic()
        self.bot_playing = False

    def stored(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "level": self.level,
            "token_hash": self.token_hash,
            "profile": self.profile,
        }

    @property
    def person(self) -> bool:
        """A person plays this seat now (claimed, and no bot stands in)."""
        return self.kind == "human" and self.token_hash is not None and not self.bot_playing

    @property
    def free(self) -> bool:
        return self.kind == "human" and self.token_hash is None


# ---------------------------------------------------------------------------- the server
class TableHost(Protocol):
    """What a table (and its driver, handlers, rematch and mutes) needs of the server that
    holds it: the settings, the bots' searches, the chat filter and a few callbacks."""

    settings: ServerSettings
    searches: Searches
    chat_filter: ChatFilter | None

    async def store_action(self, action: tuple[str, int, str, str, int]) -> None:
        """Store one action: (table id, sequence number, kind, value, seat)."""

    def muted_by(self, profile: str | None) -> set[str]:
        """The profiles whose chat ``profile`` muted (stored mutes)."""

    async def set_mute(self, muter: str, muted: str, on: bool) -> None:
        """Store a mute between two profiles (or its end) and resend the chat it changes."""

    async def game_over(self, t: LiveTable) -> None:
        """Store the finished table's result (and rate it)."""

    async def expire(self, t: LiveTable, why: str | None = None) -> None:
        """Close a table that waited too long for its players (or, ``why``, another reason)."""

    def let_go(self, t: LiveTable) -> None:
        """A finished table leaves memory."""

    def sealed(self, t: LiveTable) -> bool:
        """Whether the table's seed stays secret although its play has ended (a tournament's
        table whose round is still being played at another table, with the same deals)."""

    async def start_rematch(self, row: TableRow, of: LiveTable, settings: dict[str, Any]) -> None:
        """Store and start the rematch ``row`` of ``of`` (whose settings become ``settings``)."""


# ---------------------------------------------------------------------------- the table
class LiveTable:
    """A table being played (or a finished one loaded to be looked at)."""

    def __init__(self, row: TableRow, host: TableHost):
        self.host = host
        self.id = row.id
        self.name = row.name
        self.created = row.created
        self.variant_name = row.variant
        self.variant = make_variant(row.variant, row.options)
        self.rules = (row.variant, dict(self.variant.options))  # what a bot worker is sent
        self.seed = row.seed
        self.settings = dict(row.settings)  # as stored (a rematch adds its link to them)
        self.timer = float(row.settings.get("timer") or 0)
        self.invite_hash: str | None = row.settings.get("invite_hash")  # a private table's
        # its result changes ratings: as it ends (Server.game_over), or a tournament's table once
        # its round is over, on its deals (play.tournaments)
        self.rated = row.settings.get("rated") in (True, DUPLICATE)
        self.status = row.status
        self.rematch: str | None = row.settings.get("rematch")  # the id of this table's rematch
        self.rematch_of: str | None = row.settings.get("rematch_of")
        # a table of a tournament's round plays this many hands at most (None: to the game's end)
        self.hands_cap: int | None = row.settings.get("hands")
        self.offer: Offer | None = None  # a rematch asked for (in memory only)
        self.handoff: dict[int, RematchSeat] = {}  # the rematch's seat of each person who said yes
        self.seats = [Seat(d) for d in row.seats]
        self.game = Game(
            self.variant, seed=row.seed, auto_deal=False, names=[s.name for s in self.seats], snapshots=False
        )
        # the commitment to the seed, shown from the start; the seed and salt only once the
        # game is over (``deals_json``, the record); None: a table stored before deals were sealed
        self.game.seal = None if row.deal_salt is None else Seal.make(row.seed, row.deal_salt)
        self.seq = 0
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.ready: set[int] = set()
        self.chat: list[ChatLine] = []
        self.mutes: dict[int, set[int]] = {}  # seat -> the seats it muted here (``moderation``)
        self.hand_over_since: float | None = None
        self.over_since: float | None = None
        self.turn_since = time.monotonic()
        self.bots: dict[tuple[int, str], Bot] = {}
        self.hints: dict[tuple[int, int], asyncio.Future[Any]] = {}  # (seat, seq) -> the expert's hint
        self.pending_deal: Hand | None = None  # dealt, waiting for the winning side's choice of leader
        self.task: asyncio.Task[None] | None = None
        self._common: str | None = None  # the table's info and score pad as JSON (they change rarely)
        self._public: tuple[int, list[int | None], CountJSON | None] | None = None
        self._observer: Observer | None = None
        self.watchers: list[Connection] = []  # spectators' sockets (no seat)
        self._watched: tuple[int, str] | None = None  # (seq, the spectators' view as JSON)
        self.unwatched_since: float | None = time.monotonic()  # nobody watching since (bots only)
        self._watching_told = 0.0  # when "n watching" was last told (monotonic seconds)
        self._watching_timer: asyncio.TimerHandle | None = None  # the next telling, if due
        for kind, value, _seat in row.actions:
            self._replay(kind, value)

    def _replay(self, kind: str, value: str) -> None:
        g = self.game
        if kind == "leader":
            begin(g, deal(g), int(value))
        elif kind == "deal":  # the next hand was dealt (its leader by the rules)
            begin(g, deal(g))
        elif kind == "move":
            if not g.hands or g.hand.over:
                begin(g, deal(g))
            g.play(value)
        else:
            raise ValueError(f"unknown action kind {kind!r}")
        self.seq += 1
        if g.hand.over:
            self.hand_over_since = time.monotonic()

    # --------------------------------------------------------------------- sockets
    def attach(self, conn: Connection) -> None:
        """A socket of ``conn.seat`` opened: the person is back (a bot standing in stops).
        A spectator's socket (no seat) is counted among those watching."""
        if conn.seat is None:
            self.watchers.append(conn)
            if self.chat:
                conn.push(self.chat_for(None))
            conn.push_state()
            self.watchers_changed()  # "n watching" changes for everybody, soon
            return
        s = self.seats[conn.seat]
        s.conns.append(conn)
        if self.chat or self.muted_seats(conn.seat):
            conn.push(self.chat_for(conn.seat))
        if conn.seat in self.handoff:  # the seat is waiting at the rematch's table
            conn.push(self.handoff[conn.seat])
        if len(s.conns) == 1 and self.offer is not None:
            self.offer.came_back(conn.seat)
        if len(s.conns) > 1 and not s.bot_playing:  # another tab of a seat already here: the
            conn.push_state()  # others are told nothing (a storm of sockets costs them nothing)
            return
        s.away_since = None
        s.bot_playing = False
        self.changed()

    def detach(self, conn: Connection) -> None:
        """The socket closed: when it was the seat's last, the grace period starts."""
        conn.close()
        if conn.seat is None:
            if conn in self.watchers:
                self.watchers.remove(conn)
                self.watchers_changed()
            return
        s = self.seats[conn.seat]
        if conn not in s.conns:
            return
        s.conns.remove(conn)
        if not s.conns:
            s.away_since = time.monotonic()
            self.changed()  # only the seat's last socket changes what the others see

    def watchers_changed(self) -> None:
        """A spectator came or left: everybody is told how many watch, at most once every
        WATCHING_EVERY seconds whatever the churn (the changes in between are told together)."""
        if self._watching_timer is not None:
            return  # a telling is due already: it will say the count as it is then
        wait = self._watching_told + WATCHING_EVERY - time.monotonic()
        if wait <= 0:
            self._watching_told = time.monotonic()
            self.changed()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a table driven by hand in a test): now
            self._watching_told = time.monotonic()
            self.changed()
            return
        self._watching_timer = loop.call_later(wait, self._watching_due)

    def _watching_due(self) -> None:
        self._watching_timer = None
        self._watching_told = time.monotonic()
        self.changed()

    def changed(self) -> None:
        """The table's info changed (seats, status): tell every seat and wake the driver."""
        self._common = None
        self.announce()
        self.wake.set()

    def announce(self) -> None:
        for s in self.seats:
            for c in s.conns:
                c.push_state()
        for c in self.watchers:
            c.push_state()

    def broadcast(self, msg: ServerMessage) -> None:
        for s in self.seats:
            for c in s.conns:
                c.push(msg)
        for c in self.watchers:
            c.push(msg)

    @property
    def ended(self) -> bool:
        """No more play: the game is over, or the table's hands (``hands_cap``) are played."""
        g = self.game
        if g.over:
            return True
        cap = self.hands_cap
        return cap is not None and len(g.hands) >= cap and g.hand.over

    def has_people(self) -> bool:
        """A seat of the table is a person's (claimed or not)."""
        return any(s.kind == "human" for s in self.seats)

    def abandoned(self, now: float, grace: float) -> bool:
        """A game in play that its people have all left, each longer than ``grace`` seconds
        ago (the time a bot waits before it stands in for a person away): its bots wait for
        them, and the lobby no longer lists it as being played."""
        people = [s for s in self.seats if s.kind == "human"]
        return (
            self.status == "playing"
            and bool(people)
            and all(not s.conns and s.away_since is not None and now - s.away_since >= grace for s in people)
        )

    def humans_watching(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.person and s.conns]

    # --------------------------------------------------------------------- what is public
    def view(self, seat: int) -> View:
        """The View of a seat on the current hand, from this table's own observer (read
        incrementally: a move costs the new log entries, not the whole hand)."""
        return self._observe(self.game.hand).sync().view(seat)

    def _observe(self, h: Hand) -> Observer:
        """This table's observer of the current hand ``h``."""
        ob = self._observer
        if ob is None or ob._h is not h:
            ob = self._observer = Observer(h)
        return ob

    def public(self) -> tuple[list[int | None], CountJSON | None]:
        """What each move of the current hand scored and the count: public, the same for
        every seat, worked out once per action."""
        cached = self._public
        if cached is None or cached[0] != self.seq:
            h = self.game.hand
            cached = self._public = (self.seq, move_points(h, self._observe(h)), count_json(h))
        return cached[1], cached[2]

    def info(self) -> TableInfo:
        g = self.game
        out: TableInfo = {
            "id": self.id,
            "name": self.name,
            "named": table_named(self.name, self.variant_name),
            "variant": self.variant_name,
            "players": self.variant.players,
            "options": dict(self.variant.options),
            "sides": sides(self.variant),
            "scoring": scoring(self.variant),
            "direction": self.variant.direction,
            "status": self.status,  # type: ignore[typeddict-item]
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "named": seat_named(s.name, s.kind, s.level, i),
                    "kind": s.kind,  # type: ignore[typeddict-item]
                    "level": s.level if s.kind == "bot" else None,
                    "claimed": s.kind == "bot" or s.token_hash is not None,
                    "connected": bool(s.conns),
                    "bot_playing": s.bot_playing,
                    "profile": s.profile,
                }
                for i, s in enumerate(self.seats)
            ],
            "timer": self.timer,
            "private": self.invite_hash is not None,
            "rated": self.rated,
            "created": self.created,
            "hands": sum(1 for h in g.hands if h.over),
            "totals": list(g.totals),
            "winner": g.winner,
            "watching": len(self.watchers),
            "rematch": self.rematch,
            "rematch_of": self.rematch_of,
            "deals": self.deals_json(),
        }
        if self.settings.get("tournament"):
            out["tournament"] = self.settings["tournament"]
        return out

    @property
    def revealed(self) -> bool:
        """The seed and salt may be told: the table's play has ended (the game, or a
        tournament table's hands) and no other table still plays the same deals."""
        return self.ended and not self.host.sealed(self)

    def deals_json(self) -> DealsInfo | None:
        """The table's sealed deals: the commitment, and the seed and salt once its play is
        over, never before (None: a table made before deals were sealed)."""
        seal = self.game.seal
        if seal is None:
            return None
        out: DealsInfo = {"scheme": seal.scheme, "commitment": seal.commitment, "seed": None, "salt": None}
        if self.revealed:
            out["seed"], out["salt"] = str(seal.seed), seal.salt  # a string: beyond 2**53
        return out

    def pad(self) -> list[PadLine]:
        out = []
        totals = list(self.game.start_totals)
        for h in self.game.hands:
            if not h.over:
                break
            res = h.result
            totals = [a + b for a, b in zip(totals, res.points)]  # type: ignore[union-attr]
            out.append(hand_result_json(h.number, h.leader, res, totals))
        return out

    def phase(self) -> Phase:
        g = self.game
        if self.status == "waiting":
            return "waiting"
        if self.ended:
            return "over"
        if self.pending_deal is not None:
            return "leader"
        if not g.hands or g.hand.over:
            return "hand_over" if g.hands else "play"
        return "play"

    def winners(self) -> tuple[int, ...]:
        """The seats of the side that won the last finished hand."""
        return self.variant.sides[self.game.hands[-1].result.winner]  # type: ignore[union-attr, index]

    def pending(self, seat: int | None) -> Pending | None:
        if self.pending_deal is None:
            return None
        seats = list(self.winners())
        out: Pending = {"kind": "leader", "seats": seats}
        if seat in seats:  # the chooser sees its own new tiles, as at a real table
            row = self.pending_deal.deal_rows[seat]
            out["hand"] = [] if self.variant.blind else [NAME[t] for t in row]
        return out

    def deadline(self) -> float | None:
        """Seconds left for the person to move (the timer), told to every socket so that
        each shows the clock at the seat whose turn it is; None when no clock runs."""
        g = self.game
        if not self.timer or self.phase() != "play" or not g.hands or g.to_move is None:
            return None
        if not self.seats[g.to_move].person:  # a bot's turn (or a stand-in's): no clock
            return None
        return max(0.0, round(self.timer - (time.monotonic() - self.turn_since), 1))

    def watched_json(self) -> str:
        """The spectators' view of the current hand as JSON text: built from the engine's
        public view alone, once per action, the same text for every spectator."""
        cached = self._watched
        if cached is None or cached[0] != self.seq:
            points, count = self.public()
            pv = self._observe(self.game.hand).sync().public_view()
            cached = self._watched = (self.seq, dumps(public_view_json(pv, points=points, count=count)))
        return cached[1]

    def state_text(self, seat: int | None, ack: Any = None) -> str:
        """The state message for a seat (None: for a spectator): the only thing a socket is
        sent about the game."""
        g = self.game
        common = self._common
        if common is None:
            self._common = common = dumps({"table": self.info(), "pad": self.pad()})[1:-1]
        phase = self.phase()
        view = None
        if g.hands and seat is not None:
            points, count = self.public()
            v = self.view(seat)
            decisions = self._observe(g.hand).sync().knowledge().decisions(v.legal) if v.legal else None
            view = view_json(v, points=points, count=count, decisions=decisions)
        mine = view is not None and view["to_move"] == seat and phase == "play"
        forced = False
        if mine and view is not None and len(view["legal"]) == 1:
            forced = view["blind"] or view["legal"][0]["kind"] != "play"
        own = {
            "type": "state",
            "seq": self.seq,
            "ack": ack,
            "you": seat,
            "phase": phase,
            "forced": forced,
            "pending": self.pending(seat),
            "deadline": self.deadline(),
            "ready": sorted(self.ready),
            "rematch": None if self.offer is None else self.offer.json(),
        }
        # a spectator's view is the same text for every spectator: built once per action
        if view is not None:
            text = dumps(view)
        else:
            text = self.watched_json() if seat is None and g.hands else "null"
        return "{" + dumps(own)[1:-1] + ',"view":' + text + "," + common + "}"

    def record(self) -> dict[str, Any]:
        """The game record; while the game is played, only the finished hands (the current
        hand's deal is secret)."""
        g = self.game
        if g.hands and not g.hand.over:
            g = g.copy()
            g.hands = g.hands[:-1]
        return g.record(reveal=self.revealed)

    def bot_for(self, seat: int, level: str) -> Bot:
        key = (seat, level)
        bot = self.bots.get(key)
        if bot is None:
            budget = Budget(time=self.host.settings.bot_time) if level == "expert" else None
            bot = self.bots[key] = make_bot(
                level, self.variant, seed=derive(self.seed, "bot", seat, level), budget=budget
            )
        return bot

    # --------------------------------------------------------------------- actions (lock held)
    async def _store(self, kind: str, value: str, seat: int) -> None:
        """Store one action (its sequence number is this table's next)."""
        await self.host.store_action((self.id, self.seq, kind, value, seat))

    async def commit_move(self, seat: int, m: int) -> None:
        """Store, then apply a move already checked to be legal for ``seat``."""
        g = self.game
        await self._store("move", g.token(m), seat)
        g.apply(m)
        self.seq += 1
        self.turn_since = time.monotonic()
        if g.hand.over:
            self._common = None  # the score pad and the table's totals change
            self.hand_over_since = time.monotonic()
            self.ready.clear()
        if self.ended and self.status != "over":
            self.status = "over"
            self._common = None  # the table's info says so from now on
            await self.host.game_over(self)  # the "over" mark, the result, the rating

    async def deal_first(self) -> None:
        """The first hand (not stored: its first move's replay deals it)."""
        begin(self.game, deal(self.game))
        self.turn_since = time.monotonic()

    async def deal_next(self) -> None:
        """Deal the next hand, once; where the winning side chooses the leader and a person is
        on it, keep the deal until the choice is made."""
        g = self.game
        prev = g.hands[-1]
        h = deal(g)
        self.ready.clear()
        seats = g.leader_choosers()
        if seats is not None:
            if any(self.seats[i].person for i in seats):
                self.pending_deal = h
                self._common = None
                return
            await self.choose_leader(h.leader, seats[0], h)
            return
        # stored, so that a restart shows the new hand (not the finished one) as before
        await self._store("deal", "", prev.leader)
        begin(g, h)
        self.seq += 1
        self.turn_since = time.monotonic()
        self._common = None

    async def choose_leader(self, leader: int, seat: int, h: Hand | None = None) -> None:
        """``seat`` chose ``leader`` for the dealt hand (the pending one by default)."""
        h = h or self.pending_deal
        assert h is not None
        await self._store("leader", str(leader), seat)
        begin(self.game, h, leader)
        self.pending_deal = None
        self.seq += 1
        self._common = None
        self.turn_since = time.monotonic()

    def add_chat(self, seat: int, text: str) -> None:
        line: ChatLine = {
            "seat": seat,
            "name": self.seats[seat].name,
            "text": text,
            "at": round(time.time(), 3),
        }
        self.chat.append(line)
        del self.chat[:-CHAT_KEEP]
        # each seat is sent the line unless it muted the seat that wrote it (then only how
        # many lines it is not shown); spectators see every line
        for i, s in enumerate(self.seats):
            if s.conns:
                msg = self.chat_for(i, [line])
                for c in s.conns:
                    c.push(msg)
        if self.watchers:
            msg = self.chat_for(None, [line])
            for c in self.watchers:
                c.push(msg)

    def muted_seats(self, seat: int | None) -> set[int]:
        """The seats whose chat ``seat`` is not shown (none for a spectator): muted here, or
        tied to a profile that the seat's profile muted."""
        if seat is None:
            return set()
        out = set(self.mutes.get(seat, ()))
        muted = self.host.muted_by(self.seats[seat].profile)
        if muted:
            out |= {i for i, s in enumerate(self.seats) if s.profile in muted and i != seat}
        return out

    def chat_for(self, seat: int | None, lines: list[ChatLine] | None = None) -> ChatMessage:
        """A chat message for ``seat``: the given new ``lines`` (None: every line the table
        keeps, replacing what the socket shows) less those of the seats it muted."""
        muted = self.muted_seats(seat)
        shown = [x for x in (self.chat if lines is None else lines) if x["seat"] not in muted]
        return {
            "type": "chat",
            "lines": shown,
            "full": lines is None,
            "muted": sorted(muted),
            "hidden": sum(1 for x in self.chat if x["seat"] in muted),
        }

    # --------------------------------------------------------------------- a finished game
    def result(self) -> Finished:
        """The finished game's result, as storage keeps it (``store.results``)."""
        return finished_of(
            self.game,
            self.variant_name,
            self.created,
            [s.profile for s in self.seats],
            rated=self.rated,
            private=self.invite_hash is not None,
        )

    def outcome(self) -> Outcome:
        """The finished game, as the ratings read it (``store.ratings``)."""
        g = self.game
        return Outcome(self.variant_name, self.variant.players, g.sides, list(g.totals), g.winner)
