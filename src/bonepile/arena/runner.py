"""Tournaments between bots over duplicate deals.

Vocabulary (see also the package docstring):

- a **game** is one whole game to the variant's target (one hand for Billitonnen), played from a
  *game seed* by one seating of the bots;
- a **deal set** is the game seed ``derive(seed, "game", g)`` for ``g = 0, 1, 2, ...`` replayed
  under every *rotation* of the bots: with ``k`` bots there are ``k`` rotations and in rotation
  ``r`` the seats of side ``j`` are played by bot ``(j + r) % k`` (in individual games a side is a
  seat; in partnership games the bots form the two sides).  Over a deal set each bot plays each
  seat (each side) exactly once on the same cards: hand ``n`` of every game of the set is dealt
  from ``derive(game seed, "hand", n)``, whatever happened in earlier hands;
- a **hand** is one hand (round) of one game; the hands of a bot are all the hands of all games
  (every bot sits in every game); the bot *wins* a hand when the hand's winning side is one it
  plays.

The run plays deal sets in order until at least ``hands`` hands have been played (whole deal sets
only, so that every rotation is equally represented) or the SPRT decides.  Deal sets are
computed in parallel (``play_deal_set``, the one unit of work, run by an executor: this
process, a process pool or Ray tasks, see ``executors``) but consumed in order, and every seed
is derived from ``seed`` and the deal set's index, so the outcome does not depend on the number
of workers nor on where they run (for bots whose budget is a simulation count, not a time).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..bots import Budget, ask, make_bot
from ..bots.plugins import check as check_bot
from ..engine import Game, OptionError, make_variant
from ..engine import record as rec
from ..engine.commit import Seal, seeded_salt
from ..engine.deals import derive
from .executors import Executor, Work, make_executor

#: a game is cut (left unfinished) after this many hands, so that no run can loop forever
MAX_HANDS_PER_GAME = 300


@dataclass(frozen=True)
class ArenaSpec:
    """What to play: everything a worker process needs (picklable)."""

    variant: str
    options: dict
    bots: tuple[str, ...]  # bot levels, one per entry (an entry may repeat a level)
    hands: int
    seed: int = 0
    budget: Budget | None = None  # None: each bot's default
    sprt: tuple[float, float] | None = None

    @property
    def labels(self) -> tuple[str, ...]:
        return unique_labels(self.bots)


def unique_labels(bots: Sequence[str]) -> tuple[str, ...]:
    """A unique name per entry: the level, with #2, #3 ... for repeats."""
    seen: dict[str, int] = {}
    out = []
    for b in bots:
        seen[b] = seen.get(b, 0) + 1
        out.append(b if seen[b] == 1 else f"{b}#{seen[b]}")
    return tuple(out)


def validate(spec: ArenaSpec) -> None:
    """Raise ValueError (OptionError) with a one-line reason when the spec cannot be played."""
    variant = make_variant(spec.variant, spec.options)  # OptionError names the problem
    if not spec.bots:
        raise OptionError("--bots needs at least two bots, e.g. --bots greedy,random")
    for b in spec.bots:
        check_bot(b)  # BotError: unknown name, a plugin that does not load
    if len(spec.bots) < 2:
        raise OptionError("--bots needs at least two bots, e.g. --bots greedy,random")
    nsides = len(variant.sides)
    if len(spec.bots) > nsides:
        what = "sides (partnerships)" if variant.teams else "seats"
        raise OptionError(f"{len(spec.bots)} bots but the game has only {nsides} {what}")
    if type(spec.hands) is not int or spec.hands < 1:
        raise OptionError(f"--hands must be at least 1, not {spec.hands}")
    if spec.sprt is not None:
        if len(spec.bots) != 2:
            raise OptionError("--sprt needs exactly two bots")
        e0, e1 = spec.sprt
        if not e0 < e1:
            raise OptionError("--sprt needs elo0 < elo1")


def rotations(k: int) -> int:
    return k


def lineup(spec: ArenaSpec, rotation: int, variant=None) -> list[int]:
    """The bot entry (index into ``spec.bots``) at each seat in ``rotation``."""
    v = variant or make_variant(spec.variant, spec.options)
    k = len(spec.bots)
    return [(v.side_of(s) + rotation) % k for s in range(v.players)]


# ---------------------------------------------------------------------------------------------
# one game, one deal set (run in worker processes)
# ---------------------------------------------------------------------------------------------


@dataclass
class GameResult:
    deal_set: int
    rotation: int
    seats: list[int]  # bot entry per seat
    hands: list[tuple[int | None, tuple[int, ...], str]]  # (winning side, points per side, end)
    winner: int | None  # winning side of the game (None: no single winner / cut)
    finished: bool
    totals: list[int]
    decision_ms: list[list[float]]  # per bot entry
    record: str  # the RECORD.md text


def _build(name: str, v, seed: int, budget: Budget | None):
    return make_bot(name, v, seed=seed, budget=budget)


class Watcher(Protocol):
    """Sees every decision of a game as it is played (self-play data is made this way)."""

    def decide(self, game: Game, seat: int, action: int) -> None:
        """``seat`` chose ``action``; ``game`` is as the seat saw it (before the action)."""

    def applied(self, game: Game, seat: int) -> None:
        """The action of ``seat`` has been applied to ``game``."""


def play_seated(
    game: Game,
    bots: list,
    labels: list[str],
    hands: int = MAX_HANDS_PER_GAME,
    watch: Watcher | None = None,
    timed: Callable[[int, float], None] | None = None,
) -> Game:
    """The one game loop: ``bots[s]`` (named ``labels[s]``) plays seat ``s`` of ``game`` (made
    with ``auto_deal=False``) until the game is over or ``hands`` hands have been played.
    ``timed(seat, ms)`` hears each decision's time."""
    clock = time.perf_counter
    while not game.over and len(game.hands) < hands:
        h = game.next_hand()
        while not h.over:
            s = h.to_move
            view = game.view(s)
            t0 = clock()
            m = ask(bots[s], labels[s], s, view, game.token)
            if timed is not None:
                timed(s, (clock() - t0) * 1000.0)
            if watch is not None:
                watch.decide(game, s, m)
            game.apply(m)
            if watch is not None:
                watch.applied(game, s)
    return game


def play_game(spec: ArenaSpec, deal_set: int, rotation: int, watch: Watcher | None = None) -> GameResult:
    v = make_variant(spec.variant, spec.options)
    game_seed = derive(spec.seed, "game", deal_set)
    seats = lineup(spec, rotation, v)
    labels = spec.labels
    bots = [
        _build(spec.bots[e], v, derive(spec.seed, "bot", deal_set, rotation, s), spec.budget)
        for s, e in enumerate(seats)
    ]
    game = Game(v, seed=game_seed, auto_deal=False, names=[labels[e] for e in seats])
    # every seating of a deal set has the same deals, so the same seal; the run's seed is
    # public (results.json), so the salt hides nothing: the record is revealed as written
    game.seal = Seal.make(game_seed, seeded_salt(spec.seed, "deals", deal_set))
    times: list[list[float]] = [[] for _ in spec.bots]
    play_seated(
        game, bots, [labels[e] for e in seats], watch=watch, timed=lambda s, ms: times[seats[s]].append(ms)
    )
    hands = [(h.result.winner, tuple(h.result.points), h.result.end) for h in game.hands]  # type: ignore[union-attr]
    return GameResult(
        deal_set,
        rotation,
        seats,
        hands,
        game.winner,
        game.over,
        list(game.totals),
        times,
        rec.dumps(game.record(reveal=True)),
    )


def play_deal_set(
    spec: ArenaSpec, deal_set: int, watch: Callable[[], Watcher] | None = None
) -> list[GameResult]:
    """The arena's unit of work: every seating of one deal set (the same function whether
    it runs here, in a process pool or as a Ray task).  ``watch``: makes a watcher for each
    game (self-play data)."""
    return [
        play_game(spec, deal_set, r, watch() if watch is not None else None)
        for r in range(rotations(len(spec.bots)))
    ]


# ---------------------------------------------------------------------------------------------
# the tournament
# ---------------------------------------------------------------------------------------------


@dataclass
class ArenaRun:
    spec: ArenaSpec
    games: list[GameResult]
    deal_sets: int
    hands: int
    elapsed: float
    sprt_scores: list[float]  # per hand, for entry 0 against entry 1: 1, 0.5 or 0
    stopped_by: str  # "hands" or "sprt"


def hand_scores(spec: ArenaSpec, g: GameResult, sides_of_seat) -> list[float]:
    """Per hand, the SPRT score of entry 0 against entry 1 (1 win, 0 loss, ½ no winner)."""
    out = []
    for winner, _points, _end in g.hands:
        if winner is None:
            out.append(0.5)
            continue
        winners = {g.seats[s] for s in range(len(g.seats)) if sides_of_seat[s] == winner}
        out.append(1.0 if 0 in winners else 0.0 if 1 in winners else 0.5)
    return out


def ordered_results(
    executor: Executor,
    work: Work,
    target: int,
    hands_of: Callable[[Any], int],
    progress: Callable[[int, int], None] | None = None,
) -> Generator[tuple[int, Any], None, None]:
    """``(deal_set, work(deal_set))`` for deal sets 0, 1, 2 ... in order, computed by
    ``executor`` as far ahead as its workers allow without running far past ``target``
    hands; the caller stops when it has enough (closing the generator ends the calls still
    running).  ``progress(done, target)`` is called as results arrive, in any order, with the
    hands finished so far: a result is counted once, when it is taken back."""
    done: dict[int, Any] = {}
    pending: dict[Any, int] = {}
    next_set = submitted = finished_sets = finished_hands = 0
    try:
        while True:
            # keep the workers busy without running far past the hands wanted
            while len(pending) < executor.ahead:
                if finished_sets:
                    per_set = finished_hands / finished_sets
                    if pending and finished_hands + len(pending) * per_set >= target:
                        break
                elif len(pending) >= executor.workers:
                    break
                pending[executor.submit(work, submitted)] = submitted
                submitted += 1
            for handle in executor.ready(list(pending)):
                g = pending.pop(handle)
                result = done[g] = executor.result(handle)
                finished_sets += 1
                finished_hands += hands_of(result)
                if progress:
                    progress(min(finished_hands, target), target)
            while next_set in done:
                yield next_set, done.pop(next_set)
                next_set += 1
    finally:
        executor.close(list(pending))


def _hands(games: list[GameResult]) -> int:
    return sum(len(g.hands) for g in games)


def run_arena(
    spec: ArenaSpec,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    ray: str | None = None,
    executor: Executor | None = None,
) -> ArenaRun:
    """Play deal sets until ``spec.hands`` hands (or an SPRT decision).  ``progress(done,
    target)`` is called with the number of hands played so far.

    Where: a process pool of ``workers`` (all cores if None; this process for 1); with
    ``ray``, Ray tasks on a Ray instance started here (``"local"``) or on the cluster at that
    address; or the given ``executor`` (``executors.make_executor``), closed at the end.  For
    bots whose budget is a simulation count the outcome is the same wherever it is played."""
    validate(spec)
    if workers is not None and workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    start = time.perf_counter()
    if executor is None:
        executor = make_executor(workers, ray)
    return _consume(spec, executor, progress, start)


def _consume(
    spec: ArenaSpec, executor: Executor, progress: Callable[[int, int], None] | None, start: float
) -> ArenaRun:
    from .stats import sprt as sprt_test

    v = make_variant(spec.variant, spec.options)
    side_of = [v.side_of(s) for s in range(v.players)]
    consumed: list[GameResult] = []
    scores: list[float] = []
    hands = sets = 0
    stopped_by = "hands"
    results = ordered_results(executor, functools.partial(play_deal_set, spec), spec.hands, _hands, progress)
    try:
        for _g, games in results:
            sets += 1
            consumed.extend(games)
            hands += _hands(games)
            if spec.sprt is not None:
                for g in games:
                    scores.extend(hand_scores(spec, g, side_of))
                w = sum(1 for x in scores if x == 1.0)
                lo = sum(1 for x in scores if x == 0.0)
                if sprt_test(w, len(scores) - w - lo, lo, *spec.sprt).decision:
                    stopped_by = "sprt"
                    break
            if hands >= spec.hands:
                break
    finally:
        results.close()
    return ArenaRun(spec, consumed, sets, hands, time.perf_counter() - start, scores, stopped_by)
