"""The belief model (issue 25): ``beliefs(variant, view)`` respects every hard fact in every
variant (each unseen tile's probabilities sum to 1, each holder is expected to hold exactly
its count, voids and own or played tiles get 0, the real holder is never ruled out), the
numpy inference is the trained torch network's exactly, training is deterministic for a seed,
and the sampler follows the weights it is given.  (Not peeking: ``test_bots``'s same-view
test covers ``beliefs``, ``features`` and the expert drawing worlds from them.)"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonepile.bots import Budget
from bonepile.bots.beliefs import (
    FEATURES,
    OUTPUTS,
    STOCK,
    BeliefModel,
    beliefs,
    constraints,
    feasible_support,
    features,
    project,
    shipped_model,
)
from bonepile.bots.expert import ExpertBot, preset
from bonepile.bots.sampler import Sampler
from bonepile.engine import Game, make_variant
from bonepile.engine.knowledge import PublicKnowledge, layout_tiles
from bonepile.engine.tiles import bits
from bonepile.engine.variant import PLAYER_COUNTS

CASES = [
    (v, {"players": n} if len(PLAYER_COUNTS[v]) > 1 else {}) for v, ns in PLAYER_COUNTS.items() for n in ns
] + [
    ("block", {"players": 4, "teams": True}),
    ("draw", {"players": 4, "teams": True}),
]


def _position(name, opts, seed, steps):
    """A game after ``steps`` random legal moves (within its first hands)."""
    g = Game.new(name, opts, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.over:
            break
        g.apply(rng.choice(g.view(g.to_move).legal))
    return g


def _holder(g, t):
    return next((s for s in range(g.variant.players) if g.hand.masks[s] >> t & 1), STOCK)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(CASES), seed=st.integers(0, 10_000), steps=st.integers(0, 40), who=st.integers(0, 3)
)
def test_beliefs_respect_every_hard_fact(case, seed, steps, who):
    name, opts = case
    v = make_variant(name, opts)
    g = _position(name, opts, seed, steps)
    if g.over:
        return
    seat = who % v.players
    view = g.view(seat)
    for model in ("shipped", None):
        b = beliefs(v, view, model=model)
        assert len(set(b.tiles)) == len(b.tiles)
        own_or_table = set(view.hand) | set(bits(layout_tiles(view.layout)))
        assert not own_or_table & set(b.tiles)
        for t in own_or_table:
            assert all(b.prob(t, h) == 0 for h in b.holders)
        for row in b.probs:
            assert sum(row) == pytest.approx(1.0, abs=1e-6)
            assert all(p >= 0 for p in row)
        cons = constraints(v, view)
        for h, cap in zip(b.holders, cons.caps):
            assert b.expected(h) == pytest.approx(cap, abs=1e-4)
        if not view.blind:
            # every other seat is expected to hold its count, the stock the boneyard's size
            for h in b.holders:
                assert cons.caps[b.holders.index(h)] == (
                    view.boneyard_size if h == STOCK else view.tile_counts[h]
                )
            # a seat that proved it lacks a pip holds no tile with it
            know = PublicKnowledge.from_view(v, view)
            for h in b.holders:
                if h != STOCK:
                    for t in bits(know.void_tiles(h)):
                        assert b.prob(t, h) == 0
        # the real holder is always possible
        for t in b.tiles:
            assert b.prob(t, _holder(g, t) if not view.blind else _blind_holder(g, t)) > 0


def _blind_holder(g, t):
    for s, row in enumerate(g.hand.rows):
        if t in row:
            return s
    return STOCK


def test_the_projection_meets_rows_and_counts_and_keeps_zeros():
    scores = np.array([[5.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 2.0, 1.0], [1.0, 0.0, 3.0]])
    p = project(scores, np.array([1.0, 2.0, 1.0]))
    assert np.allclose(p.sum(axis=1), 1.0)
    assert np.allclose(p.sum(axis=0), [1.0, 2.0, 1.0], atol=1e-5)
    assert (p[scores == 0] == 0).all()
    # a tile with one possible holder fills it: the other tile cannot go there
    support = feasible_support([[True, False], [True, True]], [1, 1])
    assert support == [[True, False], [False, True]]
    q = project(np.array(support, dtype=float), np.array([1.0, 1.0]))
    assert q[0, 0] == 1.0 and q[1, 1] == 1.0
    # a chain of swaps: tile 2 may go to holder 0 if tile 0 moves to holder 1 and tile 1 to 2
    support = feasible_support([[True, True, False], [False, True, True], [True, False, True]], [1, 1, 1])
    assert support == [[True, True, False], [False, True, True], [True, False, True]]
    assert feasible_support([[True, False], [True, False]], [1, 1]) == [[True, False], [True, False]]


def test_a_seat_that_must_hold_a_tile_holds_it_with_certainty():
    """Block, 4 seats: after three passes in a row on the same ends the last seat holding
    tiles fitting them is the only one that can; the beliefs say so."""
    v = make_variant("block", {"players": 4, "teams": True})
    for seed in range(200):
        g = _position("block", {"players": 4, "teams": True}, seed, 30)
        if g.over:
            continue
        view = g.view(g.to_move)
        b = beliefs(v, view, model=None)
        cons = constraints(v, view)
        for t, row in zip(cons.tiles, cons.allowed):
            if sum(row) == 1:
                j = row.index(True)
                assert b.probs[b.tiles.index(t)][j] == pytest.approx(1.0)
                return
    pytest.fail("no position with a tile only one seat may hold")


def test_the_sampler_follows_certain_weights():
    """A weight of 1 on one allowed holder (0 on the others) puts the tile there in every
    world; without weights it moves."""
    v = make_variant("block", {"players": 4, "teams": True})
    g = Game.new("block", {"players": 4, "teams": True}, seed=7)
    view = g.view(g.to_move)
    s = Sampler(v, view)
    t = bits(s.unknown)[0]
    target = (view.seat + 2) % 4
    weights = {u: {h: 1 / len(s.allowed[u]) for h in s.allowed[u]} for u in bits(s.unknown)}
    weights[t] = {h: (1.0 if h == target else 0.0) for h in s.allowed[t]}
    s.weights = weights
    rng = random.Random(1)
    assert all(s.sample(rng).masks[target] >> t & 1 for _ in range(30))
    plain = Sampler(v, view)
    assert not all(plain.sample(rng).masks[target] >> t & 1 for _ in range(30))


def test_the_expert_with_beliefs_is_deterministic_and_legal():
    v = make_variant("block", {"players": 4, "teams": True})
    g = _position("block", {"players": 4, "teams": True}, 3, 10)
    view = g.view(g.to_move)
    config = replace(preset(v), beliefs=True)
    a = ExpertBot(v, seed=5, budget=Budget(simulations=6), config=config).evaluate(view)
    b = ExpertBot(v, seed=5, budget=Budget(simulations=6), config=config).evaluate(view)
    assert a == b
    assert sorted(e.action for e in a) == sorted(view.legal)


def test_the_shipped_model_fits_this_input_and_is_small():
    import os

    from bonepile.bots.beliefs import MODEL_PATH

    model = shipped_model()
    assert model is not None, "the package ships bots/models/beliefs.npz"
    assert os.path.getsize(MODEL_PATH) <= 5_000_000
    x = np.zeros(FEATURES, dtype=np.float32)
    assert model.logits(x).shape == (28, OUTPUTS)


@pytest.mark.slow
def test_numpy_inference_is_the_torch_network_and_training_is_deterministic(tmp_path):
    """A tiny training run with PyTorch: the exported weights, run with numpy, give the torch
    network's logits; the same seed trains the same weights."""
    torch = pytest.importorskip("torch")
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "bench" / "train_beliefs.py"
    spec = importlib.util.spec_from_file_location("train_beliefs", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["train_beliefs"] = mod
    spec.loader.exec_module(mod)
    mix = [("block", {"players": 4, "teams": True}, 1), ("draw", {"players": 2}, 1)]
    x, y, m = mod.generate(3, 120, mix=mix, players=[("greedy", 1), ("random", 1)], log=False)
    assert x.shape == (120, FEATURES) and (y >= -1).all() and (y < OUTPUTS).all()
    # every label is an allowed holder
    rows, tiles = np.nonzero(y >= 0)
    assert m[rows, tiles, y[rows, tiles]].all()
    nets = []
    for _ in range(2):
        net = mod.train(x, y, m, seed=4, epochs=1, hidden=16, layers=2, lr=1e-3, batch=32, log=False)
        out = tmp_path / f"m{len(nets)}.npz"
        mod.export(net, str(out))
        nets.append((net, out))
    (net, out), (_, out2) = nets
    a, b = np.load(out), np.load(out2)
    assert all(np.array_equal(a[k], b[k]) for k in a.files)
    model = BeliefModel(str(out))
    with torch.no_grad():
        ref = net(torch.from_numpy(x)).numpy().reshape(-1, 28, OUTPUTS)
    assert np.allclose(model.logits(x), ref, atol=1e-5)
    # a model of the wrong shape is refused with the file's name
    np.savez(tmp_path / "bad.npz", w0=np.zeros((3, 4), np.float32), b0=np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="bad.npz"):
        BeliefModel(str(tmp_path / "bad.npz"))


def test_features_read_only_public_facts_of_an_open_game():
    v = make_variant("blind-hugie", {})
    g = Game.new("blind-hugie", {}, seed=1)
    with pytest.raises(ValueError, match="open games"):
        features(v, g.view(0))
    v = make_variant("block", {"players": 4, "teams": True})
    g = _position("block", {"players": 4, "teams": True}, 2, 6)
    x = features(v, g.view(g.to_move))
    assert x.shape == (FEATURES,)
    assert x[:28].sum() == len(g.view(g.to_move).hand)
    with pytest.raises(ValueError, match="not of this variant"):
        beliefs(make_variant("draw", {"players": 2}), g.view(0))


def test_the_words_name_seats_by_place_and_only_likely_tiles():
    """Block, 4 seats in partnerships, play going counterclockwise: the next seat sits on
    your right, your partner across."""
    from bonepile.bots.beliefs import Beliefs, english, place
    from bonepile.engine.tiles import tile_index

    v = make_variant("block", {"players": 4, "teams": True})
    assert v.direction == "counterclockwise"
    assert [place(v, 0, s) for s in (1, 2, 3)] == ["right", "across", "left"]
    assert [place(make_variant("draw", {"players": 2}), 1, 0)] == ["across"]
    six_four, five_five, blank = tile_index(6, 4), tile_index(5, 5), tile_index(0, 0)
    b = Beliefs(
        seat=0,
        tiles=(blank, five_five, six_four),
        holders=(1, 2, 3, STOCK),
        probs=((0.4, 0.3, 0.3, 0.0), (0.0, 1.0, 0.0, 0.0), (0.72, 0.08, 0.2, 0.0)),
    )
    assert english(v, b) == ["Your partner surely holds the 5-5", "Right probably holds the 6-4 (72%)"]
    assert b.as_json(v, 2)[0] == {
        "seat": 1,
        "place": "right",
        "tiles": [{"tile": "6-4", "p": 0.72}, {"tile": "0-0", "p": 0.4}],
    }
    assert b.as_json(v)[3] == {"seat": None, "place": "stock", "tiles": []}


def test_hint_json_lists_each_other_seats_likeliest_unseen_tiles(tmp_path):
    import json

    from typer.testing import CliRunner

    from bonepile.cli import app
    from bonepile.engine import record as rec

    g = _position("block", {"players": 4, "teams": True}, 8, 14)
    path = tmp_path / "g.json"
    path.write_text(rec.dumps(g.record()))
    r = CliRunner().invoke(app, ["hint", str(path), "--json", "--simulations", "1"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)["beliefs"]
    view = g.view(g.to_move)
    assert [x["seat"] for x in got] == [(view.seat + k) % 4 for k in (1, 2, 3)] + [None]
    seen = {t for t in view.hand} | set(bits(layout_tiles(view.layout)))
    from bonepile.engine.tiles import NAME

    for x in got[:3]:
        ps = [y["p"] for y in x["tiles"]]
        assert len(ps) == 3 and ps == sorted(ps, reverse=True) and all(0 < p <= 1 for p in ps)
        assert not {y["tile"] for y in x["tiles"]} & {NAME[t] for t in seen}
    words = CliRunner().invoke(app, ["hint", str(path), "--simulations", "1"])
    assert "Where the tiles you cannot see probably are:" in words.stdout


def test_each_analysed_decision_says_where_the_unseen_tiles_probably_were():
    from bonepile.analysis import analyze
    from bonepile.analysis.report import to_json
    from bonepile.engine.tiles import NAME

    g = Game.new("block", {"players": 4, "teams": True, "target": 20}, seed=4)
    rng = random.Random(4)
    while g.hand.number == 1 and not g.hand.over:
        g.apply(rng.choice(g.view(g.to_move).legal))
    a = to_json(analyze(g, hands=[1], budget=Budget(simulations=1, nodes=50), ways=("knew",)))
    decisions = a["hands"][0]["decisions"]
    assert decisions
    h = g.hands[0]
    pos = h.fresh()
    by_move = {d["move"]: d for d in decisions}
    for j, (s, m, _t) in enumerate(h.log, 1):
        if j in by_move:
            d = by_move[j]
            mine = {NAME[t] for t in bits(pos.masks[s])}
            assert [b["seat"] for b in d["beliefs"]] == [(s + k) % 4 for k in (1, 2, 3)] + [None]
            for b in d["beliefs"][:3]:
                assert b["tiles"] and not {x["tile"] for x in b["tiles"]} & mine
        pos.apply(m)
