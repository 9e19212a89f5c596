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
computed in parallel but consumed in order, and every seed is derived from ``seed`` and the
deal set's index, so the outcome does not depend on the number of workers (for bots whose
budget is a simulation count, not a time).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from ..bots import ask, make_bot
from ..bots.plugins import check as check_bot
from ..engine import Game, OptionError, make_variant
from ..engine import record as rec
from ..engine.deals import derive

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
    budget: dict = field(default_factory=dict)  # e.g. {"time": 0.1} or {"simulations": 200}
    sprt: tuple[float, float] | None = None

    @property
    def labels(self) -> tuple[str, ...]:
        """A unique name per entry: the level, with #2, #3 ... for repeats."""
        seen: dict[str, int] = {}
        out = []
        for b in self.bots:
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
    for key, value in spec.budget.items():
        if key == "time" and not (isinstance(value, (int, float)) and value > 0):
            raise OptionError(f"--time must be a positive number of seconds, not {value}")
        if key == "simulations" and not (type(value) is int and value >= 1):
            raise OptionError(f"--simulations must be at least 1, not {value}")


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


def _build(name: str, v, seed: int, budget: dict):
    return make_bot(name, v, seed=seed, **budget)


def play_game(spec: ArenaSpec, deal_set: int, rotation: int) -> GameResult:
    v = make_variant(spec.variant, spec.options)
    game_seed = derive(spec.seed, "game", deal_set)
    seats = lineup(spec, rotation, v)
    labels = spec.labels
    bots = [
        _build(spec.bots[e], v, derive(spec.seed, "bot", deal_set, rotation, s), spec.budget)
        for s, e in enumerate(seats)
    ]
    game = Game(v, seed=game_seed, auto_deal=False, names=[labels[e] for e in seats])
    times: list[list[float]] = [[] for _ in spec.bots]
    clock = time.perf_counter
    while not game.over and len(game.hands) < MAX_HANDS_PER_GAME:
        h = game.next_hand()
        while not h.over:
            s = h.to_move
            view = game.view(s)
            t0 = clock()
            m = ask(bots[s], labels[seats[s]], s, view, game.token)
            times[seats[s]].append((clock() - t0) * 1000.0)
            game.apply(m)
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
        rec.dumps(game.record()),
    )


def play_deal_set(spec: ArenaSpec, deal_set: int) -> list[GameResult]:
    return [play_game(spec, deal_set, r) for r in range(rotations(len(spec.bots)))]


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


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which stops them."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop(pool: ProcessPoolExecutor, pending: dict) -> None:
    """Shut the pool down; deal sets still running are not needed (the run is complete or
    interrupted), so their workers are ended rather than waited for."""
    if not any(not f.done() for f in pending):
        pool.shutdown(wait=True)
        return
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=5)


def run_arena(
    spec: ArenaSpec, workers: int | None = None, progress: Callable[[int, int], None] | None = None
) -> ArenaRun:
    """Play deal sets until ``spec.hands`` hands (or an SPRT decision).  ``progress(done,
    target)`` is called with the number of hands played so far."""
    from .stats import sprt as sprt_test

    validate(spec)
    v = make_variant(spec.variant, spec.options)
    side_of = [v.side_of(s) for s in range(v.players)]
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    start = time.perf_counter()
    done: dict[int, list[GameResult]] = {}
    consumed: list[GameResult] = []
    scores: list[float] = []
    hands_consumed = 0
    hands_done = 0  # in any order, for the progress bar
    next_set = 0  # the next deal set to consume
    stopped_by = "hands"

    def consume() -> bool:
        """Take finished deal sets in order; True when the run is complete."""
        nonlocal next_set, hands_consumed, stopped_by
        while next_set in done:
            games = done.pop(next_set)
            next_set += 1
            consumed.extend(games)
            for g in games:
                hands_consumed += len(g.hands)
                if spec.sprt is not None:
                    scores.extend(hand_scores(spec, g, side_of))
            if spec.sprt is not None:
                w = sum(1 for x in scores if x == 1.0)
                lo = sum(1 for x in scores if x == 0.0)
                state = sprt_test(w, len(scores) - w - lo, lo, *spec.sprt)
                if state.decision:
                    stopped_by = "sprt"
                    return True
            if hands_consumed >= spec.hands:
                return True
        return False

    def report(n: int) -> None:
        nonlocal hands_done
        hands_done += n
        if progress:
            progress(min(hands_done, spec.hands), spec.hands)

    if workers == 1:
        g = 0
        while True:
            done[g] = play_deal_set(spec, g)
            report(sum(len(x.hands) for x in done[g]))
            g += 1
            if consume():
                break
    else:
        # fork (where there is one) lets any script call run_arena without a __main__ guard
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init)
        pending: dict[Future, int] = {}
        try:
            submitted = 0
            finished_sets = 0
            finished_hands = 0
            complete = False
            while not complete:
                # keep the workers busy without running far past the hands wanted
                while len(pending) < 2 * workers:
                    if finished_sets:
                        per_set = finished_hands / finished_sets
                        if hands_done + len(pending) * per_set >= spec.hands and pending:
                            break
                    elif len(pending) >= workers:
                        break
                    pending[pool.submit(play_deal_set, spec, submitted)] = submitted
                    submitted += 1
                ready, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in ready:
                    g = pending.pop(fut)
                    games = fut.result()
                    done[g] = games
                    n = sum(len(x.hands) for x in games)
                    finished_sets += 1
                    finished_hands += n
                    report(n)
                complete = consume()
        finally:
            _stop(pool, pending)
    return ArenaRun(spec, consumed, next_set, hands_consumed, time.perf_counter() - start, scores, stopped_by)
