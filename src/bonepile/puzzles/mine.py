"""Mining puzzles from played games: positions where, from what the seat to move knew, one
move is clearly best.

For each decision of each record, from the seat's ``View`` alone (docs/PUZZLES.md):

1. **A real choice.**  At least two legal moves that are different decisions (a tile at two
   ends that play alike is one decision).
2. **The best move, then its margin, certain.**  Hidden deals that agree with the view are
   drawn (``bots.sampler``).  In each, every decision is played out to the end of the hand
   with the expert's playout policy for every seat, all decisions with the same deal and the
   same random numbers (``ExpertBot.play_out``), scored as the analysis scores a move: net
   points of the hand with a game won in it worth the game's target (the chance to win the
   hand where a hand has no points).  The best decision is picked on the first
   ``screen`` deals; the margin over the second best is then measured on ``worlds`` fresh
   deals (``margin_deals``: three times as many in the long hands of the train layouts),
   paired deal by deal, and the position is kept only when the lower end of the 95%
   interval of the mean paired difference is above ``margin`` (the game's "mistake"
   threshold of ``analysis.marks`` by default).
3. **Every hand shown agrees.**  On ``exact_worlds`` of those deals the exact solver
   (``analysis.exact``) values every move with every hand shown; the solution must be among
   the best on at least ``agree`` of them.
4. **Not obvious.**  The weaker players are asked (the beginner ``beginner_tries`` times,
   the casual player, the strong level ``strong_tries`` times with other seeds); a position
   every one of them always solves is obvious and left out.  How many of them miss it
   gives the starting rating (``difficulty``).

A line goes on while the record's player played the solution and every other seat's move
after it was forced (one decision) or clearly best from that seat's own view (judged as a
solution is, obvious or not): the next decision of the same seat is then judged the same way
and, if it is a puzzle too, becomes the next step.  Themes are read from the
solution's reasons (``bots.reasons``) and the public facts of the position.  Everything is
drawn from a random generator seeded by ``seed`` and the position, so a run is repeatable.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..analysis.exact import Solver
from ..analysis.marks import thresholds
from ..bots.budget import Budget
from ..bots.expert import ExpertBot
from ..bots.greedy import GreedyBot
from ..bots.levels import BEGINNER_TEMPERATURE, STRONG_SIMULATIONS
from ..bots.reasons import Explainer
from ..bots.sampler import InconsistentView, Sampler
from ..bots.seat_knowledge import SeatKnowledge
from ..engine import Game, Variant, View
from ..engine.errors import RecordError
from ..engine.hand import Hand
from ..engine.knowledge import PublicKnowledge
from ..engine.notation import token
from ..engine.record import read, replay
from ..engine.tiles import ARM_NAMES, HI, LO, PASS, arm_of, tile_of
from ..engine.view import hand_view
from ..engine.viewcodec import view_to_dict
from .model import Puzzle, Step, puzzle_id

__all__ = [
    "MineConfig",
    "MINE_BUDGET",
    "Candidate",
    "difficulty",
    "judge_position",
    "margin_deals",
    "mine",
    "themes_of",
]

#: sampled deals per position by default (the margin's deals; ``Budget.simulations``)
MINE_BUDGET = Budget(simulations=40)
Z95 = 1.959964
#: how many times more margin deals a layout needs than a line: a hand of Mexican Train or
#: Chicken Foot is long (double-twelve or double-nine, up to eight seats) and its points are
#: the pips left, so one move's paired difference spreads over 30 to 60 points against a
#: threshold of 5; three times the deals narrow the margin's interval by about 1.7
LAYOUT_DEALS = {"line": 1, "trains": 3, "chicken_foot": 3}


def margin_deals(v: Variant, simulations: int) -> int:
    """The deals the margin of a position of ``v`` is measured on, for a budget of
    ``simulations`` (the line games' count; the train layouts take ``LAYOUT_DEALS`` times as
    many): the same test of the margin, with an interval as narrow as the game allows."""
    return simulations * LAYOUT_DEALS.get(v.layout, 1)


@dataclass(frozen=True)
class MineConfig:
    #: deals on which the best decision is picked (before the margin's own deals)
    screen: int = 12
    #: the least lower 95% bound of the margin (None: the game's "mistake" threshold)
    margin: float | None = None
    #: deals solved with every hand shown
    exact_worlds: int = 12
    #: the share of them on which the solution must be among the best
    agree: float = 0.9
    #: positions the exact solver may search per move before it estimates instead
    exact_nodes: int = 20_000
    #: how often the beginner and the strong level are asked
    beginner_tries: int = 6
    strong_tries: int = 2
    #: the most steps of a line
    max_steps: int = 3
    #: the least number of tiles played before a position is looked at (the first moves of a
    #: hand are too open to be puzzles, and too costly to solve)
    min_placed: int = 1


@dataclass(frozen=True)
class Candidate:
    """A position judged a puzzle: its solution (a legal move of the view), the decisions'
    mean scores (best first), the facts of the judgement and the starting rating."""

    solution: int
    values: tuple[tuple[int, float], ...]
    lower: float
    agree: float
    missed: dict[str, float]
    rating: float


def _score(v: Variant, net: float, won: float, game: int, worth: float) -> float:
    if v.scoring == "result_only":
        return float(won)
    return net + worth * (game > 0)


def _game_worth(v: Variant) -> float:
    return float(v.target) if v.target and v.target_rule != "single_hand" else 0.0


def _decisions(v: Variant, view: View) -> list[int]:
    """One legal move per decision, in the order of ``view.legal``."""
    legal = list(view.legal)
    firsts = PublicKnowledge.from_view(v, view).decisions(legal)
    return [m for i, m in enumerate(legal) if firsts[i] == i]


def _mean_sd(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var)


def difficulty(missed: dict[str, float]) -> float:
    """The starting rating from the share of tries each weaker player missed the solution:
    1000 for a puzzle they all solve, up to 2200 for one they all miss."""
    return round(
        1000.0
        + 350.0 * missed.get("beginner", 0.0)
        + 400.0 * missed.get("casual", 0.0)
        + 450.0 * missed.get("strong", 0.0),
        1,
    )


def judge_position(
    v: Variant,
    view: View,
    rng: random.Random,
    *,
    worlds: int,
    config: MineConfig = MineConfig(),
    obvious: bool = False,
) -> Candidate | None:
    """The puzzle in ``view`` (the seat to move's), or None (see the module's steps).
    ``obvious``: keep a clear best move that every weaker player finds (a reply in a line)."""
    if view.to_move != view.seat or view.over:
        return None
    moves = _decisions(v, view)
    if len(moves) < 2:
        return None
    me = view.seat
    side = v.side_of(me)
    worth = _game_worth(v)
    bot = ExpertBot(v, seed=0, budget=Budget(simulations=1))
    sampler = Sampler(v, view)
    per: list[list[float]] = [[] for _ in moves]
    order: list[int] = []
    deals: list[Hand] = []
    total = config.screen + worlds
    for _ in range(total):
        try:
            world = sampler.sample(rng)
        except InconsistentView:
            return None
        rseed = rng.random()
        for i, m in enumerate(moves):
            h = world.copy()
            h.apply(m)
            net, won, game = bot.play_out(h, random.Random(rseed), me, side)
            per[i].append(_score(v, net, won, game, worth))
        deals.append(world)
        if len(deals) == config.screen:
            screen_means = [sum(xs) / len(xs) for xs in per]
            order = sorted(range(len(moves)), key=lambda i: -screen_means[i])
            th = config.margin if config.margin is not None else thresholds(v).mistake
            if screen_means[order[0]] - screen_means[order[1]] < th:
                return None  # no clear best on the first deals: not worth the rest
    screen = config.screen
    best = order[0]
    th = config.margin if config.margin is not None else thresholds(v).mistake
    lower = math.inf
    for j in range(len(moves)):
        if j == best:
            continue
        diffs = [per[best][k] - per[j][k] for k in range(screen, total)]
        mean, sd = _mean_sd(diffs)
        lower = min(lower, mean - Z95 * sd / math.sqrt(len(diffs)))
    if lower <= th:
        return None
    # every hand shown: the solution among the best on most deals
    solver = Solver(v, nodes=config.exact_nodes, playouts=8, seed=rng.randrange(1 << 30))
    hits = 0
    checked = deals[screen : screen + config.exact_worlds]
    for world in checked:
        vals = solver.values(world)
        top = max(s.score for s in vals.values())
        if vals[moves[best]].score >= top - 1e-9:
            hits += 1
    agree = hits / len(checked)
    if agree < config.agree:
        return None
    sol = moves[best]
    missed = {} if obvious else _missed(v, view, sol, config)
    if not obvious and all(x == 0.0 for x in missed.values()):
        return None  # every weaker player always finds it: obvious
    means = [(moves[i], round(sum(per[i][screen:]) / worlds, 3)) for i in range(len(moves))]
    means.sort(key=lambda x: -x[1])
    return Candidate(sol, tuple(means), round(lower, 3), round(agree, 3), missed, difficulty(missed))


def _missed(v: Variant, view: View, sol: int, config: MineConfig) -> dict[str, float]:
    """Per weaker player, the share of its tries that missed the solution's decision."""
    legal = list(view.legal)
    firsts = PublicKnowledge.from_view(v, view).decisions(legal)
    key = {m: legal[i] for m, i in zip(legal, firsts)}

    def miss(bots: list[Any]) -> float:
        return round(sum(key[b.choose(view)] != key[sol] for b in bots) / len(bots), 3)

    return {
        "beginner": miss(
            [GreedyBot(v, seed=s, temperature=BEGINNER_TEMPERATURE) for s in range(config.beginner_tries)]
        ),
        "casual": miss([GreedyBot(v, seed=0)]),
        "strong": miss(
            [
                ExpertBot(v, seed=s, budget=Budget(simulations=STRONG_SIMULATIONS))
                for s in range(config.strong_tries)
            ]
        ),
    }


def themes_of(
    v: Variant, view: View, sol: int, runner_up: int | None = None, seed: int = 0
) -> tuple[str, ...]:
    """The themes of a solution, from its reasons (``bots.reasons``) and public facts: a
    reason the runner-up move (the second best) has as well does not make a theme."""
    why = Explainer(v, view, seed=seed)
    codes = {r["code"] for r in why.explain(sol)}
    if runner_up is not None:
        codes -= {r["code"] for r in why.explain(runner_up)}
    out = []
    if "next_lacks" in codes:
        out.append("block_next")
    if sol < PASS and _locks(v, view, sol, seed):
        out.append("lock")
    if "keeps_capicu" in codes:
        out.append("capicu")
    if "keeps_chuchazo" in codes:
        out.append("chuchazo")
    if "scores" in codes:
        out.append("count")
    if "keeps_suit" in codes:
        out.append("keep_suit")
    if v.teams and v.layout == "line" and sol < PASS and _feeds_partner(v, view, sol):
        out.append("feed_partner")
    if sol == PASS and len(view.legal) > 1:
        out.append("pass")
    if "goes_out" in codes:
        out.append("domino")
    return tuple(out)


def _locks(v: Variant, view: View, m: int, seed: int, tries: int = 8) -> bool:
    """Does move ``m`` end the hand blocked (a lock, tranque) in every deal drawn for the view
    (the seat cannot know more: a lock it can see is one in every deal)?"""
    rng = random.Random(seed)
    sampler = Sampler(v, view)
    for _ in range(tries):
        try:
            h = sampler.sample(rng)
        except InconsistentView:
            return False
        h.apply(m)
        if not (h.over and h.end == "blocked"):
            return False
    return True


def _feeds_partner(v: Variant, view: View, sol: int) -> bool:
    """Does the move leave open the number the partner's last tile showed (the partner's
    suit), when the partner has not shown it lacks that number, and the move does not cover
    it?"""
    k = SeatKnowledge(v, view)
    for e in reversed(view.history):
        if not (k.is_partner(e.seat) and e.action == "play" and e.tile is not None):
            continue
        outer = next(
            (p.outer for ps in view.layout.arms.values() for p in ps if p.tile == e.tile),
            None,
        )
        if outer is None or (k.voids[e.seat] >> outer) & 1:
            return False
        before = list(view.layout.ends.values())
        return outer in before and outer in _ends_after(view, sol)
    return False


def _ends_after(view: View, m: int) -> list[int]:
    """The open numbers after laying ``m`` (its arm's end replaced by the tile's other pip)."""
    t, arm = tile_of(m), ARM_NAMES[arm_of(m)]
    ends = dict(view.layout.ends)
    if arm in ends:
        p = ends[arm]
        ends[arm] = LO[t] if HI[t] == p else HI[t]
    return list(ends.values())


def _games(records: Iterable[Any]) -> Iterator[tuple[str, Game]]:
    for i, rec in enumerate(records):
        if isinstance(rec, Game):
            yield f"game {i + 1}", rec
        elif isinstance(rec, dict):
            yield f"record {i + 1}", replay(rec)
        elif isinstance(rec, (str, os.PathLike)):
            yield os.path.basename(os.fspath(rec)), read(os.fspath(rec))
        else:
            raise RecordError(
                f"record {i + 1}: expected a file name, a record or a game, not {type(rec).__name__}"
            )


def mine(
    records: Iterable[Any],
    *,
    budget: Budget = MINE_BUDGET,
    seed: int = 0,
    config: MineConfig = MineConfig(),
    stats: dict[str, int] | None = None,
) -> Iterator[Puzzle]:
    """The puzzles of ``records`` (file names, record documents or games), in the order of
    their positions.  ``budget.simulations`` is the number of deals the margin is measured on
    in a line game (``margin_deals``: three times as many in the train layouts).
    ``stats`` (if given) counts ``positions`` looked at, ``choices`` (positions with a choice)
    and ``puzzles``."""
    worlds = budget.simulations or MINE_BUDGET.simulations or 40
    counts = stats if stats is not None else {}
    for key in ("positions", "choices", "puzzles"):
        counts.setdefault(key, 0)
    for source, game in _games(records):
        v = game.variant
        opts = dict(game.record_options if game.record_options is not None else v.options)
        deals = margin_deals(v, worlds)
        for hi, hand in enumerate(game.hands, start=1):
            yield from _mine_hand(v, opts, hand, f"{source} hand {hi}", hi, seed, deals, config, counts)


def _mine_hand(
    v: Variant,
    opts: dict[str, Any],
    hand: Hand,
    source: str,
    number: int,
    seed: int,
    worlds: int,
    config: MineConfig,
    counts: dict[str, int],
) -> Iterator[Puzzle]:
    log = list(hand.log)
    h = hand.fresh()
    i = 0
    while i < len(log):
        seat, m, _ = log[i]
        if h.placed < config.min_placed or len(h.choices()) < 2:
            counts["positions"] += 1
            h.apply(m)
            i += 1
            continue
        counts["positions"] += 1
        counts["choices"] += 1
        steps, used = _line(v, h, log, i, seat, number, str(seed), worlds, config)
        if steps:
            sts = tuple(s for s, _ in steps)
            first_view = sts[0].view
            cand = steps[0][1]
            themes = themes_of(v, first_view, cand.solution, cand.values[1][0])
            pid = puzzle_id(v.name, opts, seat, sts)
            counts["puzzles"] += 1
            yield Puzzle(
                id=pid,
                variant=v.name,
                options=opts,
                seat=seat,
                themes=themes,
                rating=cand.rating,
                steps=sts,
                source=f"{source} move {i + 1}",
                facts={
                    "lower": cand.lower,
                    "agree": cand.agree,
                    "missed": cand.missed,
                    "decisions": len(cand.values),
                },
            )
            for _ in range(used):
                h.apply(log[i][1])
                i += 1
        else:
            h.apply(m)
            i += 1


def _line(
    v: Variant,
    h: Hand,
    log: list[tuple[int, int, int]],
    i: int,
    seat: int,
    number: int,
    key: str,
    worlds: int,
    config: MineConfig,
) -> tuple[list[tuple[Step, Candidate]], int]:
    """The steps of the line that starts at move ``i`` of the hand (none: no puzzle there)
    and how many moves of the log they span."""
    out: list[tuple[Step, Candidate]] = []
    w = h.copy()
    j = i
    while len(out) < config.max_steps:
        view = hand_view(w, seat, number)
        cand = judge_position(
            v, view, random.Random(f"{key}:{_fingerprint(view)}"), worlds=worlds, config=config
        )
        if cand is None:
            break
        tok = {m: token(w, m) for m in w.legal_moves()}
        same = {m: w.mirror_key(m) for m in w.legal_moves()}
        sol_key = same[cand.solution]
        alts = tuple(tok[m] for m in w.legal_moves() if m != cand.solution and same[m] == sol_key)
        step = Step(
            view=view,
            solution=tok[cand.solution],
            alternatives=alts,
            values=tuple((tok[m], x) for m, x in cand.values),
        )
        out.append((step, cand))
        played = log[j][1]
        if w.mirror_key(played) != sol_key:
            return _close(out), j + 1 - i
        w.apply(played)
        j += 1
        replies: list[str] = []
        while j < len(log) and not w.over and log[j][0] != seat:
            if len(w.choices()) > 1 and not _clearly_best(v, w, log[j], number, worlds, config):
                return _close(out), j - i
            replies.append(token(w, log[j][1]))
            w.apply(log[j][1])
            j += 1
        if w.over or j >= len(log) or len(w.choices()) < 2:
            return _close(out), j - i
        last, c = out[-1]
        out[-1] = (Step(last.view, last.solution, last.alternatives, tuple(replies), last.values), c)
    return _close(out), j - i


def _clearly_best(
    v: Variant, w: Hand, move: tuple[int, int, int], number: int, worlds: int, config: MineConfig
) -> bool:
    """Is the reply ``move`` (seat, move, _) the clearly best move from its seat's view, as a
    puzzle's solution must be (obvious or not)?"""
    seat, m, _ = move
    view = hand_view(w, seat, number)
    cand = judge_position(
        v, view, random.Random(f"reply:{_fingerprint(view)}"), worlds=worlds, config=config, obvious=True
    )
    return cand is not None and w.mirror_key(cand.solution) == w.mirror_key(m)


def _fingerprint(view: View) -> str:
    """A position's own name: the same position draws the same deals whatever file it is in."""
    text = json.dumps(view_to_dict(view), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _close(out: list[tuple[Step, Candidate]]) -> list[tuple[Step, Candidate]]:
    """A line ends on a step: the replies after its last step are not part of it."""
    if out and out[-1][0].replies:
        s, c = out[-1]
        out[-1] = (Step(s.view, s.solution, s.alternatives, (), s.values), c)
    return out
