"""The HTTP routes of puzzles (``bonepile.puzzles``): the puzzles offered (the shipped set and
the ones mined from this server's finished tables), the next puzzle for a player near their
puzzle rating, the daily puzzle, a puzzle by id, and a move answered at one step of a puzzle.
docs/PROTOCOL.md, "Puzzles".

The server keeps each puzzle's solution: a puzzle is sent as its first step's view alone (the
solver's seat's censored ``View``), and a step's answer is judged here.  The next step's view
comes only with a right answer, the better move only once the step is answered; so the client
never holds a future position or the solution before the player has answered.  No state is
kept between two requests: a move at step k comes with the moves that answered steps 0..k-1,
which must be right ones (a client cannot reach step k without having solved the steps before).

With a profile key, the first attempt of a profile at a puzzle to end (solved, or a wrong move)
is rated (Glicko-2, ``store.puzzles``); a puzzle tried again changes no rating."""

from __future__ import annotations

import asyncio
import datetime
import logging
import random
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from ...bots.sampler import InconsistentView, Sampler
from ...engine import make_variant
from ...engine.hand import Hand
from ...engine.knowledge import PublicKnowledge
from ...engine.tiles import NAME, PASS, tile_of
from ...engine.view import View, hand_view
from ...puzzles.judge import judge
from ...puzzles.model import THEMES, Puzzle
from ...puzzles.moves import PuzzleError, move_of
from ..protocol import count_json, history_json, layout_json, move_token, view_json
from ..store import puzzles as db
from ..validate import TOKEN_MAX, RequestError, parse_json, read_body
from ..words.labels import variant_key, variant_label
from .pages import STATIC

if TYPE_CHECKING:
    from ..server import Server

log = logging.getLogger("bonepile.serve")

PUZZLE_ID = re.compile(r"[0-9A-Za-z_-]{1,40}")
MAX_MOVE_BODY = 4096  # bytes of a move's body (a step, a token and the line before it)
NEAREST = 8  # the next puzzle is drawn from this many of those rated nearest the player
REREAD = 60.0  # seconds between two reads of the mined puzzles and the puzzles' ratings
START = 1500.0  # the rating a player without one is offered puzzles near


def _shipped() -> list[Puzzle]:
    from ...puzzles.store import load

    return load()


def _daily(day: datetime.date) -> Puzzle:
    from ...puzzles.store import daily

    return daily(day)


def game_of(p: Puzzle) -> dict[str, Any]:
    """The puzzle's game, with its name's key and English words (the client words it)."""
    return {
        "variant": p.variant,
        "players": int(p.options.get("players", p.steps[0].view.players)),
        "label_key": variant_key(p.variant),
        "label": variant_label(p.variant),
    }


def theme_json(code: str) -> dict[str, str]:
    return {"code": code, "key": f"puzzles.theme.{code}"}


def seats_json(view: View) -> list[dict[str, Any]]:
    """Who each seat is to the solver: ``you``, ``partner`` or ``opponent`` with its number
    (1, 2... in the order they play after you), the words the page names them by."""
    side = next(s for s in view.sides if view.seat in s)
    out: list[dict[str, Any]] = []
    n = view.players
    k = 0
    for i in range(1, n + 1):
        seat = (view.seat + i) % n
        if seat == view.seat:
            out.append({"seat": seat, "role": "you", "n": 0})
        elif seat in side:
            out.append({"seat": seat, "role": "partner", "n": 0})
        else:
            k += 1
            out.append({"seat": seat, "role": "opponent", "n": k})
    return sorted(out, key=lambda s: s["seat"])


def step_view_json(p: Puzzle, k: int) -> dict[str, Any]:
    """Step k's position as the table's JSON (``protocol.view_json``) with the public facts
    of the same position (what each event scored, the count, which moves are one decision),
    read from the engine's public knowledge of the View alone."""
    view = p.steps[k].view
    v = make_variant(p.variant, p.options)
    kn = PublicKnowledge.from_view(v, view)
    points = [pt if e.action == "play" else None for e, pt in zip(view.history, kn.points)]
    # the count of the ends where the game scores it, as the table words it (``count_json``),
    # read off a world rebuilt from the view: the ends are public, the same in every world
    world = _world(p, view) if v.in_play is not None and view.history else None
    count = count_json(world) if world is not None else None
    return dict(view_json(view, points=points, count=count, decisions=kn.decisions(view.legal)))


def _world(p: Puzzle, view: View) -> Hand | None:
    """A hidden world that agrees with ``view`` (``bots.sampler``), for the public facts a
    position's geometry gives (the count, the layout after a move); None if none is found."""
    try:
        return Sampler(make_variant(p.variant, p.options), view).sample(random.Random(0))
    except InconsistentView:  # never expected (the puzzles' tests)
        return None


def board_after(p: Puzzle, k: int, token: str) -> dict[str, Any] | None:
    """The layout after ``token`` is played at step k, and its tile (None for a pass or a
    draw): what the page draws once the attempt is over (the better move, or the last one).
    The move is played in a world rebuilt from the step's view (``bots.sampler``), as the
    reasons are: every world that agrees with the view lays the tile alike, and nothing of the
    world but the layout (public, with the seat's own tile) is sent."""
    view = p.steps[k].view
    m = move_of(view, token)
    if m >= PASS:
        return None
    world = _world(p, view)
    if world is None:
        return None
    world.apply(m)
    return {"layout": layout_json(hand_view(world, view.seat)), "tile": NAME[tile_of(m)]}


def legal_tokens(view: View) -> list[str]:
    return [move_token(view, m) for m in view.legal]


@dataclass
class Book:
    """The puzzles this server offers: the shipped set, read once, and the mined ones from
    storage (``add`` keeps them up to date as the miner stores more); with each puzzle's
    rating as it stands (its own row once someone tried it, else its starting rating)."""

    server: Server
    puzzles: dict[str, Puzzle] | None = None
    ratings: dict[str, db.Standing] | None = None
    _loading: asyncio.Lock | None = None
    _read: float = 0.0  # when storage was last read (monotonic seconds)
    _since: float = 0.0  # when the newest mined puzzle read was stored

    async def load(self) -> dict[str, Puzzle]:
        """The puzzles offered; storage is read again every ``REREAD`` seconds, so that the
        workers of a cluster offer what the others mined and rate puzzles as they stand."""
        if self.puzzles is not None and time.monotonic() - self._read < REREAD:
            return self.puzzles
        if self._loading is None:
            self._loading = asyncio.Lock()
        async with self._loading:
            if self.puzzles is None:
                try:
                    shipped = await asyncio.to_thread(_shipped)
                except (PuzzleError, OSError, ValueError):  # a damaged installation: the mined ones
                    log.exception("the shipped puzzles cannot be read")
                    shipped = []
                self.puzzles = {p.id: p for p in shipped}
            if time.monotonic() - self._read >= REREAD:
                engine = self.server.store.engine
                stored = await self.server.db(db.mined, engine, self._since)
                self.ratings = await self.server.db(db.puzzle_ratings, engine)
                for at, d in stored:
                    self._since = max(self._since, at)
                    try:
                        p = Puzzle.from_dict(d)
                    except (ValueError, TypeError, KeyError):
                        continue
                    self.puzzles.setdefault(p.id, p)
                self._read = time.monotonic()
        return self.puzzles

    def daily(self) -> Puzzle | None:
        """Today's puzzle (UTC), the same for everyone (None: no puzzle is shipped)."""
        try:
            return _daily(datetime.datetime.now(datetime.UTC).date())
        except PuzzleError:
            return None

    def add(self, found: list[Puzzle]) -> None:
        """Puzzles the miner stored: offered from now on (if the book is loaded; else they are
        read with the rest when it is)."""
        if self.puzzles is not None:
            for p in found:
                self.puzzles.setdefault(p.id, p)

    def rating(self, p: Puzzle) -> float:
        s = (self.ratings or {}).get(p.id)
        return s.rating.r if s is not None else p.rating

    async def get(self, pid: str) -> Puzzle:
        found = (await self.load()).get(pid) if PUZZLE_ID.fullmatch(pid) else None
        if found is None:
            raise RequestError(f"no puzzle {pid[:40]!r} on this server", 404, code="no_puzzle")
        return found

    async def choose(
        self, near: float, variant: str | None, theme: str | None, tried: dict[str, bool], after: str | None
    ) -> Puzzle:
        """A puzzle near the rating ``near``, of the game and theme asked (None: any), not
        tried yet (if every such puzzle was, one not solved, then any); never ``after``, the
        one just played, when there is another."""
        pool = [
            p
            for p in (await self.load()).values()
            if (variant is None or p.variant == variant) and (theme is None or theme in p.themes)
        ]
        if not pool:
            raise RequestError("no puzzle of this game and theme here", 404, code="no_puzzles")
        for keep in (lambda p: p.id not in tried, lambda p: not tried.get(p.id), lambda p: True):
            left = [p for p in pool if keep(p) and p.id != after]
            if left:
                break
        else:
            left = pool
        left.sort(key=lambda p: (abs(self.rating(p) - near), p.id))
        return random.choice(left[:NEAREST])


def puzzle_json(book: Book, p: Puzzle, *, daily: bool = False, tried: bool | None = None) -> dict[str, Any]:
    """A puzzle as it is sent: its first step's position and what the page shows round it,
    never a solution, a reply or a later step."""
    return {
        "id": p.id,
        "game": game_of(p),
        "rating": round(book.rating(p)),
        "steps": len(p.steps),
        "step": 0,
        "view": step_view_json(p, 0),
        "seats": seats_json(p.steps[0].view),
        "daily": daily,
        "tried": tried,  # None: no profile; else whether this profile tried it already
    }


def rating_json(s: db.Standing | None) -> dict[str, Any] | None:
    if s is None:
        return None
    return {"rating": round(s.rating.r), "rd": round(s.rating.rd), "attempts": s.attempts, "solved": s.solved}


def _moves_body(body: Any, p: Puzzle) -> tuple[int, str, list[str]]:
    """(step, move, line) of a move's body, checked: the step is the next one after the line,
    and every move of the line answered its step rightly."""
    if not isinstance(body, dict):
        raise RequestError("the body must be a JSON object {step, move, line}", code="bad_request")
    step, move, line = body.get("step"), body.get("move"), body.get("line", [])
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < len(p.steps):
        raise RequestError(
            f"step must be a whole number from 0 to {len(p.steps) - 1} (this puzzle has {len(p.steps)} steps)",
            409,
            code="puzzle_step",
        )
    if not isinstance(move, str) or not move or len(move) > TOKEN_MAX:
        raise RequestError(f"move must be a move token of at most {TOKEN_MAX} characters", code="puzzle_move")
    if not isinstance(line, list) or not all(isinstance(x, str) for x in line):
        raise RequestError(
            "line must be the list of the moves that answered the steps before", code="bad_request"
        )
    if len(line) != step:
        raise RequestError(
            f"step {step} comes after {step} answered steps; the line has {len(line)}",
            409,
            code="puzzle_step",
        )
    for k, tok in enumerate(line):
        try:
            right = judge(p, k, tok).correct
        except PuzzleError:
            right = False
        if not right:
            raise RequestError(
                f"step {step} is not reached: the line's move {tok[:TOKEN_MAX]!r} does not answer step {k}",
                409,
                code="puzzle_step",
            )
    view = p.steps[step].view
    try:
        m = move_of(view, move)
    except PuzzleError:
        raise RequestError(
            f"{move!r} is not a legal move at step {step}; the legal moves are {', '.join(legal_tokens(view))}",
            400,
            code="puzzle_move",
        ) from None
    return step, move_token(view, m), line


def router(server: Server, book: Book) -> APIRouter:
    r = APIRouter()
    engine = server.store.engine

    async def profile_of(request: Request) -> str | None:
        """The profile whose key the request carries (None without one; a wrong one is 401)."""
        auth = request.headers.get("authorization")
        if not auth:
            return None
        return str((await server.profiles.me(auth))["id"])

    async def tried_by(profile: str | None) -> dict[str, bool]:
        return {} if profile is None else await server.db(db.attempted, engine, profile)

    @r.get("/puzzles")
    async def page():
        return FileResponse(STATIC / "puzzles.html")

    @r.get("/api/puzzles")
    async def overview(request: Request):
        """The games and themes offered (with how many puzzles each), today's puzzle's id and
        the player's puzzle rating (null without a profile, or before their first puzzle)."""
        profile = await profile_of(request)
        puzzles = (await book.load()).values()
        games: dict[str, dict[str, Any]] = {}
        themes: dict[str, int] = {}
        for p in puzzles:
            g = games.setdefault(p.variant, {**game_of(p), "count": 0})
            g["count"] += 1
            for t in p.themes:
                themes[t] = themes.get(t, 0) + 1
        mine = None if profile is None else await server.db(db.player, engine, profile)
        return {
            "games": sorted(games.values(), key=lambda g: g["label"]),
            "themes": [
                {**theme_json(t), "count": n}
                for t, n in sorted(themes.items(), key=lambda x: (THEMES + (x[0],)).index(x[0]))
            ],
            "daily": today.id if (today := book.daily()) is not None else None,
            "rating": rating_json(mine),
            "total": len(puzzles),
        }

    @r.get("/api/puzzles/me")
    async def my_rating(request: Request):
        """The player's puzzle rating (their profile key is required)."""
        profile = await server.profiles.me(request.headers.get("authorization"))
        return {"rating": rating_json(await server.db(db.player, engine, str(profile["id"])))}

    @r.get("/api/puzzles/next")
    async def next_puzzle(
        request: Request, game: str | None = None, theme: str | None = None, after: str | None = None
    ):
        if theme is not None and theme not in THEMES:
            raise RequestError(
                f"no theme {theme[:40]!r}: theme= is one of {', '.join(THEMES)}", 400, code="bad_request"
            )
        if game is not None and not re.fullmatch(r"[a-z-]{1,32}", game):
            raise RequestError(f"no game {game[:40]!r}", 400, code="bad_request")
        profile = await profile_of(request)
        tried = await tried_by(profile)
        mine = None if profile is None else await server.db(db.player, engine, profile)
        near = mine.rating.r if mine is not None else START
        p = await book.choose(near, game, theme, tried, after)
        return puzzle_json(book, p, tried=None if profile is None else p.id in tried)

    @r.get("/api/puzzles/daily")
    async def daily_puzzle(request: Request):
        profile = await profile_of(request)
        await book.load()
        p = book.daily()
        if p is None:
            raise RequestError("no puzzle is shipped with this server", 404, code="no_puzzles")
        tried = await tried_by(profile)
        return puzzle_json(book, p, daily=True, tried=None if profile is None else p.id in tried)

    @r.get("/api/puzzles/{pid}")
    async def one_puzzle(pid: str, request: Request):
        p = await book.get(pid)
        profile = await profile_of(request)
        tried = await tried_by(profile)
        today = (daily := book.daily()) is not None and daily.id == p.id
        return puzzle_json(book, p, daily=today, tried=None if profile is None else p.id in tried)

    @r.post("/api/puzzles/{pid}/moves")
    async def answer(pid: str, request: Request):
        """A move at step k: the verdict.  Right and not the last step: the replies and the
        next step's position; right at the last: solved; wrong: why, and the better move.
        When the attempt ends (solved, or wrong) a profile's first attempt is rated."""
        p = await book.get(pid)
        profile = await profile_of(request)
        step, move, _line = _moves_body(parse_json(await read_body(request, MAX_MOVE_BODY)), p)
        verdict = judge(p, step, move)
        s = p.steps[step]
        out: dict[str, Any] = {
            "id": p.id,
            "step": step,
            "move": move,
            "correct": verdict.correct,
            "done": verdict.done,
            # the better move written as the page's tokens are ("a-b@R" for a later tile)
            "better": None if verdict.correct else move_token(s.view, move_of(s.view, verdict.better)),
            "reasons": list(verdict.reasons),
            "replies": [],
            "next": None,
            "rating": None,
            "counted": False,
            "themes": None,
        }
        if verdict.correct and not verdict.done:
            after = p.steps[step + 1].view
            # the others' replies, as events of the next position's history (who, what, where)
            out["replies"] = history_json(after)[len(s.view.history) + 1 :]
            out["next"] = {"step": step + 1, "view": step_view_json(p, step + 1)}
            return out
        # the attempt ends here: the puzzle's line may be told
        out["board"] = board_after(p, step, out["better"] or move)
        out["themes"] = [theme_json(t) for t in p.themes]
        out["values"] = [[t, v] for t, v in s.values]
        if profile is not None:
            await book.load()
            change = await server.db(db.rate_attempt, engine, profile, p.id, p.rating, verdict.correct)
            if change is not None:
                out["counted"] = True
                out["rating"] = {
                    "before": round(change.before.r),
                    "after": round(change.after.r),
                    "change": round(change.after.r) - round(change.before.r),
                    "attempts": change.attempts,
                }
                if book.ratings is not None:
                    old = book.ratings.get(p.id)
                    book.ratings[p.id] = db.Standing(
                        change.puzzle,
                        (old.attempts if old else 0) + 1,
                        (old.solved if old else 0) + int(verdict.correct),
                    )
        return out

    return r
