"""Post-game analysis: every decision of a finished game judged two ways.

*With what you knew*: the expert's evaluation (``bots.hint.advise``) of every legal move,
built from the seat's ``View`` at that moment and nothing else: the later moves and the other
hands cannot change it (tests poison them).  *With every hand shown*: the value of every
legal move when all hands and the boneyard's order are known (``exact.Solver``: exact, a
bound or an estimate, said with each value).  Either way each move's *score* is its expected
points for the mover's side, net of the other sides, with a game won in this hand worth the
game's target (``marks``); the move played is marked by what it lost against the best one.

Only finished hands are analysed: a hand still in play has nothing to show.  A move and its
mirror image are one decision (``Hand.mirror_key``: the first tile laid either way round, a
tile laid on either of two ends that look the same), valued once; where there is no other
choice the move is not judged (it is counted nowhere).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.beliefs import beliefs
from ..bots.budget import EXPERT_BUDGET, Budget
from ..bots.hint import advise
from ..engine import Game, Variant
from ..engine.hand import Hand
from ..engine.notation import token
from ..engine.view import hand_view
from .exact import Shown, Solver, default_nodes
from .luck import HandLuck, deal_value, hand_luck, playouts_for
from .marks import MARKS, Thresholds, thresholds
from .words import knew_reason, shown_reason

#: per decision: (decisions done, decisions to do)
Progress = Callable[[int, int], None]


class AnalysisError(ValueError):
    """An analysis that cannot be made (an unfinished record, no such seat or hand): the
    message says what is wrong."""


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move of a decision, valued both ways (``knew`` None when not asked)."""

    move: str
    #: with what the seat knew: expected net points, chance to win the hand, chance to win
    #: the game in this hand (None: the game cannot end in it), and the score marks compare
    knew_points: float | None
    knew_win: float | None
    knew_game: float | None
    knew_score: float | None
    knew_reasons: tuple[dict[str, Any], ...]
    shown: Shown | None


@dataclass(frozen=True, slots=True)
class Judgement:
    """The move played against the best one, one way: ``loss`` >= 0 in the thresholds'
    unit, the ``mark``, the ``reason`` in English words and as reason codes (``reasons``:
    what the best move has that the move played has not)."""

    best: str
    loss: float
    mark: str
    reason: str
    reasons: tuple[dict[str, Any], ...] = ()
    kind: str = "estimate"


@dataclass(frozen=True, slots=True)
class Decision:
    hand: int  # 1-based index of the hand in the record
    move: int  # 1-based index of the move in the hand
    seat: int
    side: int
    played: str
    moves: tuple[MoveValue, ...]
    knew: Judgement | None
    shown: Judgement | None
    #: with what the seat knew: where the tiles it could not see probably were (per other
    #: seat and the stock, its likeliest tiles: ``bots.beliefs.Beliefs.as_json``)
    beliefs: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    hand: int
    points: tuple[int, ...]
    winner: int | None
    decisions: tuple[Decision, ...]
    #: the move numbers of the hand's biggest turning points (by the loss with what the
    #: mover knew; at most three, inaccuracies or worse), in the order played
    turning_points: tuple[int, ...]
    #: the hand's luck and skill per side (``luck``); None when not asked
    luck: HandLuck | None = None


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    decisions: int
    marks: dict[str, int]
    average_loss: float
    #: per cent of the seat's decisions marked best or good
    accuracy: float


@dataclass(slots=True)
class GameAnalysis:
    variant: Variant
    names: list[str] | None
    thresholds: Thresholds
    budget: Budget  # as given
    nodes: int  # the exact search's positions per decision (the budget's, or the variant's default)
    ways: tuple[str, ...]
    hands: list[HandAnalysis] = field(default_factory=list)
    #: per way ("knew", "shown"): one summary per seat analysed
    summary: dict[str, list[SeatSummary]] = field(default_factory=dict)


def analyze(
    game: Game,
    *,
    seats: Sequence[int] | None = None,
    hands: Sequence[int] | None = None,
    budget: Budget = EXPERT_BUDGET,
    seed: int = 0,
    ways: Sequence[str] = ("knew", "shown"),
    progress: Progress | None = None,
    playouts: int | None = None,
) -> GameAnalysis:
    """Analyse the decisions of ``game``'s finished hands: of every seat, or of ``seats``;
    of every hand, or of ``hands`` (1-based).  The ``budget`` per decision: its time (or its
    simulations) for the expert with what the mover knew, its nodes for the exact search with
    every hand shown (default: ``exact.default_nodes``) before it estimates.  Deterministic for
    a seed with ``simulations``.  Each hand's deal is valued with ``playouts`` playouts
    (``luck.deal_value``; default ``luck.playouts_for(budget)``; 0: no luck and skill figures), and its skill is told apart where
    every seat is judged with what it knew."""
    v = game.variant
    for n, h in enumerate(game.hands, 1):
        if not h.over and h.log:
            raise AnalysisError(f"hand {n} is unfinished: only finished hands can be analysed")
    played = sum(1 for h in game.hands if h.over)  # (a next hand dealt with no move yet is left out)
    if not played:
        raise AnalysisError("the record has no finished hand to analyse")
    for s in seats or ():
        if not 0 <= s < v.players:
            raise AnalysisError(f"there is no seat {s}: seats are 0 to {v.players - 1}")
    for n in hands or ():
        if not 1 <= n <= played:
            raise AnalysisError(
                f"there is no hand {n}: the record has hand 1"
                if played == 1
                else f"there is no hand {n}: the record has hands 1 to {played}"
            )
    bad = [w for w in ways if w not in ("knew", "shown")]
    if bad or not ways:
        raise AnalysisError("the ways of analysis are knew and shown")
    if playouts is None:
        playouts = playouts_for(budget)
    if playouts < 0:
        raise AnalysisError(f"the deal's playouts are 0 or more, not {playouts}")
    every_seat = "knew" in ways and (seats is None or set(seats) == set(range(v.players)))
    th = thresholds(v)
    nodes = default_nodes(v) if budget.nodes is None else budget.nodes
    out = GameAnalysis(v, game.names, th, budget, nodes, tuple(ways))
    which = [i for i in range(1, played + 1) if hands is None or i in hands]
    # only decisions with a choice count: each hand replayed once to count them
    total = sum(
        1
        for i in which
        for (s, _m, _t), n in zip(game.hands[i - 1].log, _choice_counts(game.hands[i - 1]))
        if n > 1 and (seats is None or s in seats)
    )
    done = 0
    solver = Solver(v, nodes=nodes, seed=seed)
    for i in which:
        h = game.hands[i - 1]
        # with every hand shown, the hand's decisions are solved together, from the last
        # (``Solver.values_line``)
        at: list[Hand] = []
        pos = h.fresh()
        for s, m, _t in h.log:
            if len(pos.choices()) > 1 and (seats is None or s in seats):
                at.append(pos.copy())
            pos.apply(m)
        shown = iter(solver.values_line(at) if "shown" in ways else [None] * len(at))
        pos = h.fresh()
        decisions = []
        for j, (s, m, _t) in enumerate(h.log, 1):
            choices = pos.choices()
            if len(choices) > 1 and (seats is None or s in seats):
                decisions.append(
                    _decide(
                        v, pos, i, j, s, m, choices, th, next(shown), solver.game_worth, budget, seed, ways
                    )
                )
                done += 1
                if progress is not None:
                    progress(done, total)
            pos.apply(m)
        res = h.current_result()
        turning = sorted(
            (d for d in decisions if d.knew is not None and d.knew.mark in MARKS[2:]),
            key=lambda d: -d.knew.loss,  # type: ignore[union-attr]
        )[:3]
        luck = None
        if playouts:
            losses = (
                [(d.side, points_lost(d)) for d in decisions if d.knew is not None] if every_seat else None
            )
            luck = hand_luck(i, h, deal_value(h, playouts=playouts, seed=seed + i), losses)
        out.hands.append(
            HandAnalysis(
                i, res.points, res.winner, tuple(decisions), tuple(sorted(d.move for d in turning)), luck
            )
        )
    for way in ways:
        out.summary[way] = _summaries(out.hands, way, seats if seats is not None else range(v.players))
    return out


def points_lost(d: Decision) -> float:
    """What decision ``d`` lost in the hand's points with what the seat knew: the expected
    net points of the best move (by score) less those of the move played, never below 0.
    Unlike the loss of the marks, a game won in the hand is not counted at the game's target:
    the figure is in the same points as the hand's result (``luck``)."""
    if d.knew is None:
        return 0.0
    pts = {m.move: m.knew_points for m in d.moves}
    best, played = pts.get(d.knew.best), pts.get(d.played)
    if best is None or played is None:
        return d.knew.loss
    return round(max(0.0, best - played), 3)


def _choice_counts(h: Hand) -> list[int]:
    """The number of choices (``Hand.choices``) before each move of hand ``h``."""
    pos = h.fresh()
    out = []
    for _s, m, _t in h.log:
        out.append(len(pos.choices()))
        pos.apply(m)
    return out


def _decide(
    v: Variant,
    pos: Hand,
    i: int,
    j: int,
    seat: int,
    played: int,
    choices: list[int],
    th: Thresholds,
    values: dict[int, Shown] | None,
    worth: float,
    budget: Budget,
    seed: int,
    ways: Sequence[str],
) -> Decision:
    """One decision judged: with what the seat knew (the expert's advice) and with every
    hand shown (``values``, the solver's, None when not asked); ``worth``: a game won in the
    hand, in points (``Solver.game_worth``)."""
    # a move and its mirror image are one decision (``Hand.mirror_key``): each choice is
    # valued once, and the one made is written as the record played it (the first tile may
    # be laid the other way round, a tile laid on R where the engine lists L first)
    first = {pos.mirror_key(m): m for m in choices}
    made = first[pos.mirror_key(played)]
    tok = {m: token(pos, m) for m in choices}
    tok[made] = token(pos, played)
    knew: dict[int, Any] = {}
    believed: tuple[dict[str, Any], ...] = ()
    if "knew" in ways:
        view = hand_view(pos, seat, pos.number)
        believed = tuple(beliefs(v, view).as_json(v))
        for e in advise(v, view, budget=budget, seed=seed + 1000 * i + j):
            score = e.value if v.scoring == "result_only" else e.value + worth * (e.game or 0.0)
            knew.setdefault(first[pos.mirror_key(e.action)], (e, score))
    shown: dict[int, Shown] = {}
    if values is not None:
        for m, value in values.items():
            shown.setdefault(first[pos.mirror_key(m)], value)
    moves = tuple(
        MoveValue(
            tok[m],
            knew[m][0].value if m in knew else None,
            knew[m][0].win if m in knew else None,
            knew[m][0].game if m in knew else None,
            round(knew[m][1], 3) if m in knew else None,
            knew[m][0].reasons if m in knew else (),
            shown.get(m),
        )
        for m in choices
    )
    kj = sj = None
    if knew:
        best = max(choices, key=lambda m: (knew[m][1], -choices.index(m)))
        loss = max(0.0, knew[best][1] - knew[made][1])
        mark = th.mark(loss)
        words, codes = knew_reason(knew[best][0], knew[made][0], tok[best], mark, loss, th)
        kj = Judgement(tok[best], round(loss, 3), mark, words, codes, "estimate")
    if shown:
        best = max(choices, key=lambda m: (shown[m].score, -choices.index(m)))
        loss = max(0.0, shown[best].score - shown[made].score)
        mark = th.mark(loss)
        sj = Judgement(
            tok[best],
            round(loss, 3),
            mark,
            shown_reason(shown[best], shown[made], tok[best], mark, th),
            (),
            shown[best].kind,
        )
    return Decision(i, j, seat, v.side_of(seat), tok[made], moves, kj, sj, believed)


def _summaries(hands: list[HandAnalysis], way: str, seats: Sequence[int]) -> list[SeatSummary]:
    out = []
    for s in seats:
        js = [
            j
            for h in hands
            for d in h.decisions
            if d.seat == s
            for j in [d.knew if way == "knew" else d.shown]
            if j is not None
        ]
        marks = {m: sum(1 for j in js if j.mark == m) for m in MARKS}
        n = len(js)
        out.append(
            SeatSummary(
                s,
                n,
                marks,
                round(sum(j.loss for j in js) / n, 3) if n else 0.0,
                round(100.0 * (marks["best"] + marks["good"]) / n, 1) if n else 100.0,
            )
        )
    return out
