"""The tables being played: the one authority over every game the server holds.

Each table is a ``Game`` rebuilt from its stored actions, the seats (people with secret seat
tokens, or bots), and the open sockets.  A client's intent is checked (turn, legality), the
action is stored (group commit) and only then applied and announced.  A driver task per
table plays the bots, forced turns, timed-out turns and the seats of people who left.
"""
from __future__ import annotations

import asyncio
import gc
import hashlib
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import orjson

from ..arena.deals import derive, deal_next, hand_rng, leader_rule
from ..bots import BOT_LEVELS, make_bot
from ..bots.expert import ExpertBot
from ..engine import BonepileError, Game, make_variant
from ..engine.hand import Hand
from ..engine.record import game_record
from ..engine.tiles import DRAW, NAME, PASS
from ..engine.view import Observer
from .protocol import hand_result_json, move_token, view_json
from .store import Store, TableRow

log = logging.getLogger("bonepile.serve")

MAX_MESSAGE = 4096  # bytes of one client message
RATE = 20.0  # client messages a second, on average (bursts of twice as many)
CHAT_MAX = 200  # characters of one chat message
CHAT_KEEP = 50  # chat lines a table remembers (in memory: chat is not stored)
STANDIN_LEVEL = "greedy"  # plays a person's turn when the person is away or out of time


def _dumps(obj: Any) -> str:
    """JSON text (orjson: the state messages are most of the server's work)."""
    return orjson.dumps(obj).decode()


class RequestError(Exception):
    """A bad request: the message says what is wrong; the status is the HTTP one."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any, default: str) -> str:
    """A display name: text, at most 24 characters, no control characters.  It is shown as
    text (never markup) by the client."""
    if name is None or name == "":
        return default
    if not isinstance(name, str):
        raise RequestError("name must be a string")
    name = "".join(ch for ch in name if ch.isprintable()).strip()
    if not name:
        return default
    if len(name) > 24:
        raise RequestError("name must be at most 24 characters")
    return name


# ---------------------------------------------------------------------------------- writer
class Writer:
    """Group commit: actions from every table are stored together in one transaction by one
    worker thread; each caller resumes once its action is on disk."""

    def __init__(self, store: Store, executor: ThreadPoolExecutor):
        self.store = store
        self.executor = executor
        self.queue: list[tuple[tuple, asyncio.Future]] = []
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def append(self, item: tuple) -> None:
        fut = asyncio.get_running_loop().create_future()
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


# ---------------------------------------------------------------------------------- sockets
class Connection:
    """One open socket of a seat.  State messages are coalesced: the sender builds the latest
    state when it gets to send, so a slow client never makes the server queue old states."""

    def __init__(self, table: "TableRT", seat: int, send: Callable[[str], Any]):
        self.table = table
        self.seat = seat
        self._send = send
        self.state_due = False
        self.ack: Any = None
        self.extra: list[dict] = []
        self.wake = asyncio.Event()
        self.closed = False
        self.tokens = 2 * table.server.rate
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        rate = self.table.server.rate
        self.tokens = min(2 * rate, self.tokens + (now - self.last) * rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def push_state(self) -> None:
        self.state_due = True
        self.wake.set()

    def push(self, msg: dict) -> None:
        if len(self.extra) < 32:
            self.extra.append(msg)
        self.wake.set()

    async def sender(self) -> None:
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            while self.extra:
                msg = self.extra.pop(0)
                await self._send(_dumps(msg))
            if self.state_due:
                self.state_due = False
                ack, self.ack = self.ack, None
                await self._send(self.table.state_text(self.seat, ack))


# ---------------------------------------------------------------------------------- tables
class Seat:
    def __init__(self, d: dict):
        self.name: str = d["name"]
        self.kind: str = d["kind"]  # human or bot
        self.level: str = d.get("level") or STANDIN_LEVEL
        self.token_hash: str | None = d.get("token_hash")
        self.conns: list[Connection] = []
        self.away_since: float | None = time.monotonic()
        self.bot_playing = False

    def stored(self) -> dict:
        return {"name": self.name, "kind": self.kind, "level": self.level, "token_hash": self.token_hash}

    @property
    def person(self) -> bool:
        """A person plays this seat now (claimed, and no bot stands in)."""
        return self.kind == "human" and self.token_hash is not None and not self.bot_playing


class TableRT:
    """A table in memory: its game, seats and sockets."""

    def __init__(self, server: "Server", row: TableRow):
        self.server = server
        self.id = row.id
        self.name = row.name
        self.created = row.created
        self.variant_name = row.variant
        self.options = row.options
        self.variant = make_variant(row.variant, row.options)
        self.seed = row.seed
        self.settings = row.settings
        self.timer = float(row.settings.get("timer") or 0)
        self.status = row.status
        self.seats = [Seat(d) for d in row.seats]
        self.game = Game(self.variant, auto_deal=False, names=[s.name for s in self.seats], snapshots=False)
        self.seq = 0
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.ready: set[int] = set()
        self.chat: list[dict] = []
        self.hand_over_since: float | None = None
        self.over_since: float | None = None
        self.turn_since = time.monotonic()
        self.bots = {}
        self._pending_deal: Hand | None = None
        self._state_cache: str | None = None
        self._observer: Observer | None = None
        self.task: asyncio.Task | None = None
        for kind, value, seat in row.actions:
            self._replay(kind, value, seat)

    # --------------------------------------------------------------------- rebuilding
    def _replay(self, kind: str, value: str, seat: int) -> None:
        g = self.game
        if kind == "leader":
            deal_next(g, self.seed, lambda *_: int(value))
        elif kind == "deal":  # the next hand was dealt (its leader by the rules)
            deal_next(g, self.seed)
        elif kind == "move":
            if not g.hands or g.hand.over:
                deal_next(g, self.seed)
            g.play(value)
        else:
            raise ValueError(f"unknown action kind {kind!r}")
        self.seq += 1
        if g.hand.over:
            self.hand_over_since = time.monotonic()

    def bot_for(self, seat: int, level: str):
        key = (seat, level)
        bot = self.bots.get(key)
        if bot is None:
            budget = {"time": self.server.bot_time} if level == "expert" else {}
            bot = self.bots[key] = make_bot(level, self.variant, seed=derive(self.seed, "bot", seat, level),
                                            **budget)
        return bot

    # --------------------------------------------------------------------- what is public
    def view(self, seat: int):
        """The View of a seat on the current hand, from this table's own observer (read
        incrementally: a move costs the new log entries, not the whole hand)."""
        h = self.game.hand
        ob = self._observer
        if ob is None or ob._h is not h:
            ob = self._observer = Observer(h)
        return ob.sync().view(seat)

    def info(self) -> dict:
        g = self.game
        return {
            "id": self.id, "name": self.name, "variant": self.variant_name,
            "players": self.variant.players, "options": dict(self.variant.options),
            "status": self.status, "timer": self.timer, "created": self.created,
            "seats": [{"seat": i, "name": s.name, "kind": s.kind, "level": s.level if s.kind == "bot" else None,
                       "claimed": s.kind == "bot" or s.token_hash is not None,
                       "connected": bool(s.conns), "bot_playing": s.bot_playing}
                      for i, s in enumerate(self.seats)],
            "sides": [list(x) for x in self.variant.sides],
            "hands": sum(1 for h in g.hands if h.over),
            "totals": list(g.totals), "winner": g.winner,
        }

    def pad(self) -> list[dict]:
        out = []
        totals = list(self.game.start_totals)
        for h in self.game.hands:
            if not h.over:
                break
            res = h.result
            totals = [a + b for a, b in zip(totals, res.points)]
            out.append(hand_result_json(h.number, h.leader, res, totals))
        return out

    def phase(self) -> str:
        g = self.game
        if self.status == "waiting":
            return "waiting"
        if g.over:
            return "over"
        if self._pending_deal is not None:
            return "leader"
        if not g.hands or g.hand.over:
            return "hand_over" if g.hands else "play"
        return "play"

    def pending(self, seat: int) -> dict | None:
        if self._pending_deal is None:
            return None
        prev = self.game.hands[-1].result
        seats = list(self.variant.sides[prev.winner])
        out: dict[str, Any] = {"kind": "leader", "seats": seats}
        if seat in seats:  # the chooser sees its own new tiles, as at a real table
            row = self._pending_deal.deal_rows[seat]
            out["hand"] = [] if self.variant.blind else [NAME[t] for t in row]
        return out

    def state_text(self, seat: int, ack: Any = None) -> str:
        """The state message for a seat: the only thing a seat's socket is sent about the game."""
        g = self.game
        cache = self._state_cache  # the table's info and score pad change only now and then
        if cache is None:
            common = {"table": self.info(), "pad": self.pad()}
            self._state_cache = cache = _dumps(common)[1:-1]
        view = view_json(self.view(seat)) if g.hands else None
        deadline = None
        if self.timer and view and view["to_move"] == seat and self.phase() == "play":
            deadline = max(0.0, round(self.timer - (time.monotonic() - self.turn_since), 1))
        forced = False
        if view and view["to_move"] == seat and len(view["legal"]) == 1 and self.phase() == "play":
            forced = view["blind"] or view["legal"][0]["kind"] != "play"
        own = {"type": "state", "seq": self.seq, "ack": ack, "you": seat, "phase": self.phase(),
               "forced": forced,
               "pending": self.pending(seat), "deadline": deadline, "view": view,
               "ready": sorted(self.ready)}
        return "{" + _dumps(own)[1:-1] + "," + cache + "}"

    def announce(self) -> None:
        for s in self.seats:
            for c in s.conns:
                c.push_state()

    def record(self) -> dict:
        """The game record; while the game is played, only the finished hands (the current
        hand's deal is secret)."""
        g = self.game
        if g.hands and not g.hand.over:
            g = g.copy()
            g.hands = g.hands[:-1]
        return game_record(g)

    # --------------------------------------------------------------------- actions
    async def _store(self, kind: str, value: str, seat: int) -> None:
        """Store one action (its sequence number is this table's next)."""
        await self.server.writer.append((self.id, self.seq, kind, value, seat))

    async def commit_move(self, seat: int, m: int) -> None:
        """Store, then apply a move already checked to be legal for ``seat`` (lock held)."""
        g = self.game
        canonical = g.token(m)
        await self._store("move", canonical, seat)
        g.apply(m)
        self.seq += 1
        self.turn_since = time.monotonic()
        if g.hand.over:
            self._state_cache = None  # the score pad and the table's totals change
            self.hand_over_since = time.monotonic()
            self.ready.clear()
        if g.over and self.status != "over":
            self.status = "over"
            await self.server.db(self.server.store.update_table, self.id, status="over")

    async def intent(self, conn: Connection, msg: Any) -> None:
        """Handle one message from a seat's socket.  A bad one is answered with an error."""
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise RequestError('a message must be a JSON object with a "type"')
        kind = msg["type"]
        mid = msg.get("id")
        if mid is not None and not (isinstance(mid, (int, str)) and len(str(mid)) <= 32):
            raise RequestError('"id" must be a short number or string')
        seat = conn.seat
        if kind == "ping":
            conn.push({"type": "pong", "id": mid})
            return
        if kind == "move":
            token = msg.get("move")
            if not isinstance(token, str) or len(token) > 16:
                raise RequestError('"move" must be a move token such as "6-4@L", "draw" or "pass"')
            async with self.lock:
                g = self.game
                if self.status == "waiting":
                    raise RequestError("the game has not started yet")
                if self.phase() != "play" or g.to_move is None:
                    raise RequestError(f"no move is expected now (phase {self.phase()})")
                if g.to_move != seat:
                    raise RequestError(f"it is not your turn (seat {g.to_move} is to move)")
                if self.seats[seat].bot_playing:
                    self.seats[seat].bot_playing = False
                    self._state_cache = None
                try:
                    m = g.hand.check(g.parse(token))
                except BonepileError as e:
                    raise RequestError(f"illegal move {token!r}: {e}") from None
                await self.commit_move(seat, m)
                conn.ack = mid
            self.announce()
            self.wake.set()
            return
        if kind == "leader":
            choice = msg.get("seat")
            async with self.lock:
                if self._pending_deal is None:
                    raise RequestError("no leader is to be chosen now")
                seats = self.variant.sides[self.game.hands[-1].result.winner]
                if seat not in seats:
                    raise RequestError("only the side that won the hand chooses the next leader")
                if type(choice) is not int or choice not in seats:
                    raise RequestError(f'"seat" must be one of {", ".join(map(str, seats))}')
                await self._deal_with_leader(choice, seat)
                conn.ack = mid
            self.announce()
            self.wake.set()
            return
        if kind == "next":
            async with self.lock:
                if self.phase() != "hand_over":
                    raise RequestError("the hand is not over")
                self.ready.add(seat)
            self.announce()
            self.wake.set()
            return
        if kind == "chat":
            text = msg.get("text")
            if not isinstance(text, str):
                raise RequestError('"text" must be a string')
            text = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
            if not text:
                raise RequestError("an empty chat message")
            if len(text) > CHAT_MAX:
                raise RequestError(f"a chat message is at most {CHAT_MAX} characters")
            line = {"seat": seat, "name": self.seats[seat].name, "text": text, "at": round(time.time(), 3)}
            self.chat.append(line)
            del self.chat[:-CHAT_KEEP]
            for x in self.seats:
                for c in x.conns:
                    c.push({"type": "chat", "lines": [line]})
            return
        if kind == "takeover":
            self.seats[seat].bot_playing = False
            self.seats[seat].away_since = None
            self._state_cache = None
            self.announce()
            self.wake.set()
            return
        if kind == "hint":
            g = self.game
            if self.phase() != "play" or g.to_move != seat:
                raise RequestError("a hint is given only when it is your turn")
            view = self.view(seat)
            seq = self.seq
            bot = ExpertBot(self.variant, seed=derive(self.seed, "hint", seq), time=self.server.hint_time)
            evals = await asyncio.get_running_loop().run_in_executor(self.server.bot_pool, bot.evaluate, view)
            if self.seq != seq:
                raise RequestError("the position changed before the hint was ready")
            conn.push({"type": "hint", "id": mid, "moves": [
                {"move": move_token(view, e.action), "points": round(e.value, 2),
                 "win": None if e.win is None else round(e.win, 3), "reason": e.reason} for e in evals]})
            return
        raise RequestError(f"unknown message type {kind!r} (move, leader, next, hint, chat, takeover, ping)")

    async def _deal_with_leader(self, leader: int, seat: int) -> None:
        await self._store("leader", str(leader), seat)
        deal_next(self.game, self.seed, lambda *_: leader)
        self._pending_deal = None
        self.seq += 1
        self._state_cache = None
        self.turn_since = time.monotonic()

    # --------------------------------------------------------------------- the driver
    def _humans_watching(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.person and s.conns]

    async def drive(self) -> None:
        """Play what no person has to decide, then wait for the next change."""
        while True:
            try:
                timeout = await self._step()
            except asyncio.CancelledError:
                raise
            except Exception:  # a bug must not kill the table silently
                log.exception("table %s: driver step failed", self.id)
                timeout = 1.0
            if timeout == 0:
                continue
            if timeout == -1:
                return
            try:
                await asyncio.wait_for(self.wake.wait(), timeout)
            except asyncio.TimeoutError:
                pass
            self.wake.clear()

    async def _step(self) -> float | None:
        """Do one thing if something is to be done; 0 means "call again", else how long to
        wait for a change (None: until woken)."""
        if self.status != "playing":
            return None
        now = time.monotonic()
        g = self.game
        # people who left: a bot stands in after the grace period
        wait: float | None = None
        for s in self.seats:
            if s.kind == "human" and s.token_hash is not None and not s.conns and not s.bot_playing:
                away = now - (s.away_since or now)
                if away >= self.server.grace:
                    s.bot_playing = True
                    self._state_cache = None
                    self.announce()
                else:
                    wait = _min(wait, self.server.grace - away)
        if g.over:  # kept in memory a while for the people looking at it, then storage only
            if self.over_since is None:
                self.over_since = now
            if not any(s.conns for s in self.seats) and now - self.over_since >= self.server.keep_finished:
                self.server.tables.pop(self.id, None)
                return -1
            return self.server.keep_finished
        if self._pending_deal is not None:
            winners = self.variant.sides[g.hands[-1].result.winner]
            # a person on the winning side (here, or away for less than the grace period) chooses
            if any(self.seats[i].person for i in winners):
                return wait
            async with self.lock:  # nobody on the winning side is here to choose
                if self._pending_deal is not None:
                    await self._deal_with_leader(self._pending_deal.leader, winners[0])
            self.announce()
            return 0
        if g.hands and g.hand.over:
            # the people at the table (here, or away for less than the grace period) look at
            # the finished hand until each presses "next" (at most hand_pause seconds)
            people = [i for i, x in enumerate(self.seats) if x.person]
            waited = now - (self.hand_over_since or now)
            if people and not set(people) <= self.ready and waited < self.server.hand_pause:
                return _min(wait, self.server.hand_pause - waited)
            async with self.lock:
                if g.hands and g.hand.over and not g.over:
                    await self._next_hand()
            self.announce()
            return 0
        if not g.hands:
            async with self.lock:
                if not g.hands:
                    deal_next(g, self.seed)
                    self.turn_since = time.monotonic()
            self.announce()
            return 0
        seat = g.to_move
        s = self.seats[seat]
        view = self.view(seat)
        forced = len(view.legal) == 1 and (view.legal[0] in (PASS, DRAW) or view.blind)
        level = None
        if not s.person:
            level = s.level if s.kind == "bot" else STANDIN_LEVEL
        elif forced and s.conns:
            level = "random"  # nothing to choose: played for the person, who sees it happen
        elif self.timer:
            left = self.timer - (now - self.turn_since)
            if left > 0:
                return _min(wait, left)
            level = "random" if forced else STANDIN_LEVEL  # out of time: a bot plays this turn
        else:
            return wait  # the person's turn (if away: until the grace period ends)
        delay = self.server.bot_delay if self._humans_watching() else 0.0
        if delay:
            await asyncio.sleep(delay)
        seq = self.seq
        bot = self.bot_for(seat, level)
        if level == "random" and len(view.legal) == 1:
            m = view.legal[0]
        elif level == "expert":
            m = await asyncio.get_running_loop().run_in_executor(self.server.bot_pool, bot.choose, view)
        else:
            m = bot.choose(view)
        async with self.lock:
            if self.seq != seq or g.to_move != seat:
                return 0  # someone acted meanwhile
            await self.commit_move(seat, m)
        self.announce()
        return 0

    async def _next_hand(self) -> None:
        """Deal the next hand (lock held); where the winning side chooses the leader and a
        person is on it, wait for the choice."""
        g = self.game
        number = g.start_hand + len(g.hands)
        prev = g.hands[-1]
        h = Hand.deal(self.variant, hand_rng(self.seed, number), number=number, prev=prev.result,
                      prev_leader=prev.leader)
        self.ready.clear()
        if leader_rule(g, h.deal_rows) == "choice":
            seats = self.variant.sides[prev.result.winner]
            if any(self.seats[i].person for i in seats):
                self._pending_deal = h
                self._state_cache = None
                return
            await self._deal_with_leader(h.leader, seats[0])
            return
        # stored, so that a restart shows the new hand (not the finished one) as before
        await self._store("deal", "", prev.leader)
        deal_next(g, self.seed)
        self.seq += 1
        self.turn_since = time.monotonic()
        self._state_cache = None


def _min(a: float | None, b: float) -> float:
    return b if a is None else min(a, b)


# ---------------------------------------------------------------------------------- server
class Server:
    """Every table, the storage and the worker threads."""

    def __init__(self, db: str, *, bot_delay: float = 0.6, grace: float = 30.0, hand_pause: float = 120.0,
                 bot_time: float = 0.1, hint_time: float = 0.5, rate: float = RATE,
                 keep_finished: float = 300.0):
        self.store = Store(db)
        self.bot_delay = bot_delay
        self.grace = grace
        self.hand_pause = hand_pause
        self.bot_time = bot_time
        self.hint_time = hint_time
        self.rate = rate
        self.keep_finished = keep_finished
        self.tables: dict[str, TableRT] = {}
        self.db_pool = ThreadPoolExecutor(1, thread_name_prefix="bonepile-db")
        self.bot_pool = ThreadPoolExecutor(2, thread_name_prefix="bonepile-bot")
        self.writer = Writer(self.store, self.db_pool)

    async def db(self, fn: Callable, *args: Any, **kw: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, lambda: fn(*args, **kw))

    async def start(self) -> None:
        """Load every table that is not over and start playing them again."""
        self.writer.start()
        rows = await self.db(self.store.load_active)
        for row in rows:
            try:
                t = TableRT(self, row)
            except Exception:
                log.exception("table %s could not be rebuilt; left in storage untouched", row.id)
                continue
            if t.game.over and t.status != "over":  # stopped between its last move and this mark
                t.status = "over"
                await self.db(self.store.update_table, t.id, status="over")
            self._run(t)
        log.info("resumed %d tables", len(self.tables))
        # A full collection of the cyclic garbage collector stops the event loop for as long
        # as it takes to scan every live object (over 100 ms with a few hundred tables):
        # leave what exists now out of it, and run it far less often.
        gc.freeze()
        gc.set_threshold(20000, 50, 100)

    def _run(self, t: TableRT) -> None:
        self.tables[t.id] = t
        t.task = asyncio.get_running_loop().create_task(t.drive())

    async def stop(self) -> None:
        for t in self.tables.values():
            if t.task:
                t.task.cancel()
        if self.writer.task:
            self.writer.task.cancel()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.db_pool.shutdown(wait=True)
        self.store.close()

    # --------------------------------------------------------------------- requests
    async def create(self, body: Any) -> dict:
        if not isinstance(body, dict):
            raise RequestError("the body must be a JSON object")
        variant = body.get("variant")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise RequestError('"options" must be an object of rule options')
        options = dict(options)
        if "players" in body:
            options["players"] = body["players"]
        try:
            v = make_variant(variant if isinstance(variant, str) else repr(variant), options)
        except BonepileError as e:
            raise RequestError(str(e)) from None
        seats_in = body.get("seats")
        if seats_in is None:
            seats_in = [{"kind": "human"}] + [{"kind": "bot", "level": "expert"}] * (v.players - 1)
        if not isinstance(seats_in, list) or len(seats_in) != v.players:
            raise RequestError(f'"seats" must list {v.players} seats ({v.name} with {v.players} players)')
        timer = body.get("timer", 0) or 0
        if type(timer) not in (int, float) or not 0 <= timer <= 3600:
            raise RequestError('"timer" must be a number of seconds per move from 0 (none) to 3600')
        name = clean_name(body.get("name"), "")
        seats = []
        creator = None
        token = None
        for i, sd in enumerate(seats_in):
            if not isinstance(sd, dict) or sd.get("kind") not in ("human", "bot"):
                raise RequestError(f'seat {i}: "kind" must be "human" or "bot"')
            if sd["kind"] == "bot":
                level = sd.get("level", "expert")
                if level not in BOT_LEVELS:
                    raise RequestError(f'seat {i}: bot level must be one of {", ".join(BOT_LEVELS)}')
                seats.append({"name": clean_name(sd.get("name"), f"{level} bot {i}"), "kind": "bot",
                              "level": level, "token_hash": None})
            else:
                d = {"name": clean_name(sd.get("name"), f"Seat {i}"), "kind": "human", "level": None,
                     "token_hash": None}
                if creator is None:
                    creator = i
                    token = secrets.token_urlsafe(18)
                    d["token_hash"] = token_hash(token)
                    d["name"] = clean_name(body.get("player") or sd.get("name"), "You")
                seats.append(d)
        humans = [s for s in seats if s["kind"] == "human"]
        status = "playing" if all(s["token_hash"] for s in humans) else "waiting"
        row = TableRow(id=secrets.token_hex(6), created=time.time(), name=name or f"{v.name} table",
                       variant=v.name, options=dict(v.options), seed=secrets.randbits(62), seats=seats,
                       settings={"timer": timer}, status=status)
        await self.db(self.store.create_table, row)
        t = TableRT(self, row)
        self._run(t)
        t.wake.set()
        return {"id": t.id, "seat": creator, "token": token, "invite": f"/t/{t.id}"}

    def get(self, table_id: str) -> TableRT:
        t = self.tables.get(table_id)
        if t is None:
            raise RequestError(f"no table {table_id!r} is being played here", 404)
        return t

    async def finished(self, table_id: str) -> TableRT:
        """A table in memory, or a finished one loaded from storage."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise RequestError("no such table", 404)
        row = await self.db(self.store.load, table_id)
        if row is None:
            raise RequestError(f"no table {table_id!r}", 404)
        return TableRT(self, row)

    async def join(self, table_id: str, body: Any) -> dict:
        t = self.get(table_id)
        if not isinstance(body, dict):
            raise RequestError("the body must be a JSON object")
        want = body.get("seat")
        name = clean_name(body.get("name"), "")
        async with t.lock:
            free = [i for i, s in enumerate(t.seats) if s.kind == "human" and s.token_hash is None]
            if t.status != "waiting" or not free:
                raise RequestError("this table has no free seat", 409)
            if want is None:
                seat = free[0]
            elif type(want) is int and want in free:
                seat = want
            else:
                raise RequestError(f'"seat" must be one of the free seats {", ".join(map(str, free))}')
            token = secrets.token_urlsafe(18)
            s = t.seats[seat]
            old = (s.token_hash, s.name)
            s.token_hash = token_hash(token)
            s.name = name or f"Player {seat}"
            humans = [x for x in t.seats if x.kind == "human"]
            status = "playing" if all(x.token_hash for x in humans) else "waiting"
            try:
                await self.db(self.store.update_table, t.id, seats=[x.stored() for x in t.seats], status=status)
            except Exception:
                s.token_hash, s.name = old
                raise
            t.status = status
            t.game.names = [x.name for x in t.seats]
            t._state_cache = None
        t.announce()
        t.wake.set()
        return {"seat": seat, "token": token}

    def seat_of(self, t: TableRT, token: Any) -> int:
        if not isinstance(token, str) or not token:
            raise RequestError("a seat token is required", 403)
        h = token_hash(token)
        for i, s in enumerate(t.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        raise RequestError("this seat token does not belong to this table", 403)

    async def start_table(self, table_id: str, body: Any) -> dict:
        t = self.get(table_id)
        token = body.get("token") if isinstance(body, dict) else None
        self.seat_of(t, token)
        async with t.lock:
            if t.status != "waiting":
                raise RequestError("the game has already started", 409)
            for i, s in enumerate(t.seats):
                if s.kind == "human" and s.token_hash is None:
                    s.kind, s.level, s.name = "bot", "expert", f"expert bot {i}"
            await self.db(self.store.update_table, t.id, seats=[x.stored() for x in t.seats], status="playing")
            t.status = "playing"
            t.game.names = [x.name for x in t.seats]
            t._state_cache = None
        t.announce()
        t.wake.set()
        return t.info()

    def listing(self) -> list[dict]:
        return [t.info() for t in sorted(self.tables.values(), key=lambda t: -t.created)
                if t.status != "over"][:100]
