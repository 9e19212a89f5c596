"""Post-game analysis (issue: what the best move was): the exact search with every hand shown
against plain minimax, the marks, fairness by construction (the "with what you knew" half reads
the seat's View only), and the shape of an analysis."""

from __future__ import annotations

import random

import pytest

from bonepile.analysis import AnalysisError, analyze, thresholds
from bonepile.analysis.exact import BOUND, ESTIMATE, EXACT, Solver
from bonepile.analysis.marks import Thresholds
from bonepile.bots import Budget, make_bot
from bonepile.bots.sampler import Sampler
from bonepile.engine import Game, make_variant
from bonepile.engine import record as rec
from bonepile.engine.hand import Hand
from bonepile.engine.view import hand_view


def played_game(variant: str, options: dict | None, seed: int, levels=("greedy", "random")) -> Game:
    """One hand of ``variant`` played by bots (the game may go on: its next hand has no move)."""
    g = Game.new(variant, options, seed=seed)
    bots = [make_bot(levels[s % len(levels)], g.variant, seed=seed + s) for s in range(g.variant.players)]
    first = g.hand
    while not first.over:
        s = g.to_move
        g.apply(bots[s].choose(g.view(s)))
    return g


def minimax(h: Hand, solver: Solver, me: int, side: int) -> float:
    """The searched objective by plain minimax (no pruning, no table)."""
    if h.over:
        return solver._terminal(h, me, side)[0]
    vals = []
    for m in h.legal_moves():
        h.push(m)
        vals.append(minimax(h, solver, me, side))
        h.pop()
    return max(vals) if solver.v.side_of(h.to_move) == side else min(vals)


def endgames(variant: str, options: dict | None, tiles: int, count: int):
    rng = random.Random(7)
    v = make_variant(variant, options)
    out = []
    while len(out) < count:
        h = Hand.deal(v, rng)
        while not h.over and h.in_hands.bit_count() > tiles:
            h.apply(rng.choice(h.legal_moves()))
        if not h.over and len(h.legal_moves()) > 1:
            out.append(h)
    return v, out


@pytest.mark.parametrize(
    "variant,options,tiles",
    [
        ("block", {"teams": True}, 10),
        ("quinientos", None, 10),
        ("cinque", None, 9),
        pytest.param("block", {"players": 2}, 7, marks=pytest.mark.slow),
        pytest.param("draw", {"players": 2}, 6, marks=pytest.mark.slow),
        ("block", None, 9),  # four sides: the others together against the mover
    ],
)
def test_every_hand_shown_equals_plain_minimax_on_endgames(variant, options, tiles):
    v, positions = endgames(variant, options, tiles, 12)
    for h in positions:
        solver = Solver(v)
        got = solver.values(h)
        me = h.to_move
        for m, shown in got.items():
            w = h.copy()
            w.push(m)
            assert shown.score == minimax(w, solver, me, v.side_of(me)), (variant, m)
            assert shown.kind == (EXACT if len(v.sides) == 2 else BOUND)


def test_the_table_carries_over_between_decisions_without_changing_values():
    """One solver for a whole hand (its table kept) gives each decision the values a fresh
    solver gives it."""
    g = played_game("block", {"teams": True}, 3)
    h = g.hands[0]
    kept = Solver(g.variant)
    pos = h.fresh()
    for _s, m, _t in h.log:
        if len(pos.legal_moves()) > 1 and pos.in_hands.bit_count() <= 16:
            assert kept.values(pos) == Solver(g.variant).values(pos)
        pos.apply(m)


def test_a_hand_solved_from_its_last_decision_has_the_values_of_one_by_one():
    """``values_line`` (what ``analyze`` does) gives the decisions of a hand the values the
    solver gives them one by one from the first.  With a budget the first decisions exceed,
    those are estimated (at once, from the last position that ran out of nodes, or took more
    than half of them, back) and the last ones are exact; the table's order may then solve a
    position one way and not the other, and what both solve is the same."""
    g = played_game("block", {"teams": True}, 3)
    pos = g.hands[0].fresh()
    line = []
    for _s, m, _t in g.hands[0].log:
        if len(pos.choices()) > 1:
            line.append(pos.copy())
        pos.apply(m)
    # (at the default budget the values are the same on every example's hands:
    # bench/analysis_line.py)
    one = Solver(g.variant, nodes=2_000, playouts=4)
    by_one = [one.values(p) for p in line]
    together = Solver(g.variant, nodes=2_000, playouts=4).values_line(line)
    both = [
        i
        for i, (a, b) in enumerate(zip(by_one, together))
        if EXACT in {x.kind for x in a.values()} and EXACT in {x.kind for x in b.values()}
    ]
    assert both and all(together[i] == by_one[i] for i in both)
    kinds = [{x.kind for x in d.values()} for d in together]
    assert kinds[0] == {ESTIMATE} and kinds[-1] == {EXACT}
    cut = max(i for i, k in enumerate(kinds) if ESTIMATE in k)
    assert all(k == {ESTIMATE} for k in kinds[: cut + 1]) and all(ESTIMATE not in k for k in kinds[cut + 1 :])


def test_a_hand_is_not_searched_before_a_position_that_took_over_half_the_nodes():
    """The position before one whose search took more than half the nodes would nearly always
    spend them all (it holds that one's search and more): it and every one before it are
    estimated at once, without a search (on the examples: 12 s of the Dominican example's
    28 s of search went into such searches that ended in estimates)."""
    searched: list[tuple[int, str]] = []

    class Spy(Solver):
        def values(self, h):
            got = super().values(h)
            searched.append((self.last_nodes, next(iter(got.values())).kind))
            return got

    cuts = 0
    for seed in range(3, 8):
        g = played_game("block", {"teams": True}, seed)
        pos = g.hands[0].fresh()
        line = []
        for _s, m, _t in g.hands[0].log:
            if len(pos.choices()) > 1:
                line.append(pos.copy())
            pos.apply(m)
        searched.clear()
        solver = Spy(g.variant, nodes=2_000, playouts=2)
        together = solver.values_line(line)
        # searched from the last one back, until one was estimated or took over half the nodes
        stop = next(i for i, (n, kind) in enumerate(searched) if kind == ESTIMATE or n > 1_000)
        assert len(searched) == stop + 1
        cuts += searched[stop][1] != ESTIMATE
        kinds = [{x.kind for x in d.values()} for d in together[::-1]]
        assert all(k == {ESTIMATE} for k in kinds[stop + 1 :])
    assert cuts  # (some hand was cut by the rule, not by running out)


def test_too_large_a_position_is_estimated_and_says_so():
    g = played_game("block", {"teams": True}, 5)
    pos = g.hands[0].fresh()
    while len(pos.legal_moves()) < 2:
        pos.apply(pos.legal_moves()[0])
    got = Solver(g.variant, nodes=10, playouts=4).values(pos)
    assert {s.kind for s in got.values()} == {ESTIMATE}
    assert all(0 <= s.won <= 1 for s in got.values())


def test_thresholds_per_game_scale_with_the_target():
    assert thresholds(make_variant("block", {"teams": True})) == Thresholds(2, 5, 10, "points")
    assert thresholds(make_variant("quinientos", None)) == Thresholds(10, 25, 50, "points")
    assert thresholds(make_variant("passing", None)) == Thresholds(1.22, 3.05, 6.1, "points")
    assert thresholds(make_variant("billitonnen", None)) == Thresholds(0.05, 0.10, 0.20, "win")
    t = Thresholds(2, 5, 10, "points")
    assert [t.mark(x) for x in (0, 0.01, 0.02, 1.99, 2, 4.99, 5, 9.99, 10, 40)] == [
        "best",
        "best",
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_an_analysis_marks_each_decision_by_what_it_lost():
    g = played_game("block", {"teams": True}, 11)
    a = analyze(g, budget=Budget(simulations=6, nodes=20_000))
    th = a.thresholds
    (h,) = a.hands
    assert h.decisions, "a hand of the partnership game has decisions"
    for d in h.decisions:
        scores = {m.move: m.knew_score for m in d.moves}
        assert d.played in scores and len(scores) > 1
        assert d.knew.loss == pytest.approx(max(scores.values()) - scores[d.played], abs=0.002)
        assert scores[d.knew.best] == max(scores.values())
        assert d.knew.mark == th.mark(d.knew.loss)
        shown = {m.move: m.shown.score for m in d.moves}
        assert d.shown.loss == pytest.approx(max(shown.values()) - shown[d.played], abs=0.002)
        assert d.shown.mark == th.mark(d.shown.loss)
        if d.knew.mark in ("inaccuracy", "mistake", "blunder"):
            assert d.knew.reason.startswith(f"{d.knew.best} was better")
    worst = sorted(
        (d for d in h.decisions if d.knew.mark in ("inaccuracy", "mistake", "blunder")),
        key=lambda d: -d.knew.loss,
    )
    assert set(h.turning_points) == {d.move for d in worst[:3]}
    for way in ("knew", "shown"):
        for s in a.summary[way]:
            mine = [d.knew if way == "knew" else d.shown for d in h.decisions if d.seat == s.seat]
            assert s.decisions == len(mine)
            assert s.marks == {m: sum(j.mark == m for j in mine) for m in s.marks}


def test_with_simulations_an_analysis_is_the_same_every_time():
    g = played_game("cinque", None, 2)
    one = analyze(g, budget=Budget(simulations=4, nodes=5_000), hands=[1], seats=[0])
    two = analyze(g, budget=Budget(simulations=4, nodes=5_000), hands=[1], seats=[0])
    assert one.hands == two.hands and one.summary == two.summary
    assert all(d.seat == 0 for d in one.hands[0].decisions)


def test_with_what_you_knew_reads_nothing_but_the_view():
    """Fair by construction: a second game that agrees with seat s's View at one decision (its
    hand, the table, every play and pass so far) but deals the other hands differently and
    plays on differently gets the very same "with what you knew" judgement of that decision."""
    g = played_game("block", {"teams": True}, 17)
    h = g.hands[0]
    pos = h.fresh()
    j = 0
    for j, entry in enumerate(h.log, 1):
        if len(pos.legal_moves()) > 1 and j > 6:
            break
        pos.apply(entry[1])
    s, m, _t = h.log[j - 1]
    view = hand_view(pos, s)
    rng = random.Random(1)
    for _ in range(3):
        world = Sampler(g.variant, view).sample(rng)  # another deal the view allows
        assert world.masks[s] == pos.masks[s]
        assert any(world.masks[o] != pos.masks[o] for o in range(4) if o != s)
        other = Game(g.variant, auto_deal=False)
        w = other.next_hand([sorted(r) for r in world.deal_rows], list(world.boneyard), world.leader)
        for _s, mm, _t in pos.log:
            other.apply(mm)
        bots = [make_bot("random", g.variant, seed=o) for o in range(4)]
        other.apply(m)  # the same move at the decision, then other play to the end
        while not w.over:
            other.apply(bots[other.to_move].choose(other.view(other.to_move)))
        a = analyze(g, budget=Budget(simulations=5, nodes=2_000), seats=[s], ways=["knew"])
        b = analyze(other, budget=Budget(simulations=5, nodes=2_000), seats=[s], ways=["knew"])
        da = next(d for d in a.hands[0].decisions if d.move == j)
        db = next(d for d in b.hands[0].decisions if d.move == j)
        assert da == db


def test_only_finished_hands_are_analysed():
    g = Game.new("block", {"teams": True}, seed=1)
    g.apply(g.legal_moves()[0])
    with pytest.raises(AnalysisError, match="hand 1 is unfinished"):
        analyze(g, budget=Budget(simulations=1))
    g = played_game("block", {"teams": True}, 1)
    with pytest.raises(AnalysisError, match="no seat 4"):
        analyze(g, seats=[4])
    with pytest.raises(AnalysisError, match="no hand 2: the record has hand 1"):
        analyze(g, hands=[2])
    doc = rec.loads(rec.dumps(g.record()))
    assert (
        analyze(rec.replay(doc), budget=Budget(simulations=1, nodes=100), ways=["shown"]).hands[0].decisions
    )


def test_the_exact_search_budget_is_smaller_with_a_spinner():
    assert Solver(make_variant("cinque", None)).nodes == 50_000
    assert Solver(make_variant("block", {"teams": True})).nodes == 200_000
    assert Solver(make_variant("cinque", None), nodes=7).nodes == 7
