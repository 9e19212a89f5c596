"""The learned policy (issue 25, the ``strong`` level in open games): it only ever picks a legal
action in every open variant, is deterministic, the numpy inference is the trained torch
network's exactly, training is deterministic for a seed, and the trainer's oracle labels
values in the real deal.  (Not peeking: ``test_bots``'s same-view test covers ``PolicyBot``
through the ``strong`` level and the network's input, ``policy.inputs``.)"""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonepile.bots import levels, make_bot
from bonepile.bots.expert import ExpertBot, preset
from bonepile.bots.policy import INPUT, MODEL_PATH, PolicyBot, PolicyModel, inputs, shipped_model
from bonepile.engine import Game, make_variant
from bonepile.engine.variant import PLAYER_COUNTS

OPEN = [
    (v, {"players": n} if len(PLAYER_COUNTS[v]) > 1 else {})
    for v, ns in PLAYER_COUNTS.items()
    for n in ns
    if not make_variant(v, {"players": n} if len(PLAYER_COUNTS[v]) > 1 else {}).blind
    and make_variant(v, {"players": n} if len(PLAYER_COUNTS[v]) > 1 else {}).pips == 6  # the model's set
] + [
    ("block", {"players": 4, "teams": True}),
    ("draw", {"players": 4, "teams": True}),
    ("passing", {"players": 4, "teams": True}),
]


def _trainer():
    path = Path(__file__).resolve().parents[1] / "bench" / "train_policy.py"
    spec = importlib.util.spec_from_file_location("train_policy", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["train_policy"] = mod
    spec.loader.exec_module(mod)
    return mod


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(OPEN), seed=st.integers(0, 10_000), steps=st.integers(0, 40))
def test_the_policy_only_picks_legal_actions(case, seed, steps):
    """Random play to a position, then the policy plays out the rest of the hand: every action
    it picks is legal, and its evaluation lists every legal action once."""
    name, opts = case
    v = make_variant(name, opts)
    g = Game.new(name, opts, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.over:
            return
        g.apply(rng.choice(g.view(g.to_move).legal))
    bot = PolicyBot(v, seed=seed)
    hand = g.hand
    first = True
    while not g.over and g.hand is hand:
        view = g.view(g.to_move)
        if first:
            ev = bot.evaluate(view)
            assert sorted(e.action for e in ev) == sorted(view.legal)
            first = False
        m = bot.choose(view)
        assert m in view.legal
        g.apply(m)


def test_strong_blends_the_policy_in_open_games_only():
    """The strong level's search counts the policy as ``STRONG_POLICY`` deals in open games
    (``STRONG_POLICY_IN_PLAY`` where points are scored during play: Cinque);
    blind games have no policy (the policy bot refuses them)."""
    s = levels.strong(make_variant("cinque", {}), seed=1)
    assert s.config.policy == levels.STRONG_POLICY_IN_PLAY > levels.STRONG_POLICY > 0
    assert s.budget.simulations == levels.STRONG_SIMULATIONS_IN_PLAY  # points in play: dearer deals
    block = levels.strong(make_variant("block", {"players": 4, "teams": True}), seed=1)
    assert (
        block.config.policy == levels.STRONG_POLICY and block.budget.simulations == levels.STRONG_SIMULATIONS
    )
    blind = make_variant("blind-hugie", {"players": 2})
    b = levels.strong(blind, seed=1)
    assert b.config.policy == 0
    g = Game.new("blind-hugie", {"players": 2}, seed=1)
    assert b.policy_scores(g.view(g.to_move)) == {}
    with pytest.raises(ValueError, match="open games"):
        PolicyBot(blind)
    # the model is the double-six set's: in Cuban (double-nine) the strong level searches
    # without it, the expert asks nothing of it, and the policy bot refuses the game
    cuban = make_variant("cuban")
    assert levels.strong(cuban, seed=1).config.policy == 0
    g = Game.new("cuban", seed=1)
    view = g.view(g.to_move)
    assert ExpertBot(cuban, seed=1, config=replace(preset(cuban), policy=8.0)).policy_scores(view) == {}
    with pytest.raises(ValueError, match="double-six games only, not double-nine"):
        PolicyBot(cuban)


def test_the_policy_changes_the_search_only_by_its_weight():
    """With the policy counted as 0 deals the search is today's, move for move; counted as
    many deals, its ranking is the policy's."""
    from dataclasses import replace

    from bonepile.bots import Budget, ExpertBot
    from bonepile.bots.expert import preset

    v = make_variant("block", {"players": 4, "teams": True})
    g = Game.new("block", {"players": 4, "teams": True}, seed=4)
    rng = random.Random(4)
    for _ in range(6):
        g.apply(rng.choice(g.view(g.to_move).legal))
    view = g.view(g.to_move)
    assert len(view.legal) > 1

    def bot(policy):
        return ExpertBot(
            v, seed=2, budget=Budget(simulations=3), config=replace(preset(v), policy=policy, prior=0.0)
        )

    assert bot(0.0).evaluate(view) == ExpertBot(
        v, seed=2, budget=Budget(simulations=3), config=replace(preset(v), prior=0.0)
    ).evaluate(view)
    learned = bot(1e9).policy_scores(view)
    top = max(view.legal, key=lambda m: (learned[m], -view.legal.index(m)))
    assert bot(1e9).choose(view) == top


def test_strong_is_deterministic_for_a_seed():
    """Four strong seats play the same game twice: the same actions, move for move."""

    def record(seed):
        g = Game.new("block", {"players": 4, "teams": True}, seed=11)
        bots = [make_bot("strong", g.variant, seed=seed + s) for s in range(4)]
        moves = []
        while not g.over and len(moves) < 60:
            m = bots[g.to_move].choose(g.view(g.to_move))
            moves.append(m)
            g.apply(m)
        return moves

    assert record(3) == record(3)


def test_the_shipped_model_fits_this_input_and_is_small():
    model = shipped_model()
    assert model is not None, "the package ships bots/models/policy.npz"
    assert os.path.getsize(MODEL_PATH) <= 2_000_000
    assert model.scores(np.zeros((3, INPUT), np.float32)).shape == (3,)


def test_the_oracle_values_actions_in_the_real_deal():
    """The trainer's labels read the real deal: late in a partnership block hand (two sides,
    nothing to draw), where the search solves each world exactly, the oracle's value of each action is the exact result
    of the real hands after it (net points plus the hand-win bonus)."""
    from bonepile.bots.playout import solve, tiles_left

    mod = _trainer()
    v = make_variant("block", {"players": 4, "teams": True})
    checked = 0
    for seed in range(40):
        g = Game.new("block", {"players": 4, "teams": True}, seed=seed)
        rng = random.Random(seed)
        while not g.over and (tiles_left(g.hand) > 8 or len(g.view(g.to_move).legal) < 2):
            g.apply(rng.choice(g.view(g.to_move).legal))
        if g.over:
            continue
        view = g.view(g.to_move)
        oracle = mod.Oracle(v, g.hand, rollouts=2, seed=1)
        got = oracle.values(view)
        side = v.side_of(view.seat)
        w = oracle.config.win_weight
        for m in view.legal:
            h = g.hand.copy()
            h.apply(m)
            if h.over:
                net, won, _ = oracle.outcome(h, h.result, view.seat, side)
            else:
                net, won, _ = solve(h, v, side, w, oracle.game_weight)
            assert got[m] == pytest.approx(net + w * won, abs=0.01), (seed, m)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


@pytest.mark.slow
def test_numpy_inference_is_the_torch_network_and_training_is_deterministic(tmp_path):
    """A tiny training run with PyTorch on a few labelled positions: the same seed makes the
    same data and trains the same weights; the exported weights, run with numpy, give the torch
    network's scores."""
    torch = pytest.importorskip("torch")
    mod = _trainer()
    x, q, grp, kind = mod.generate(3, 12, rollouts=2, log=False)
    assert x.shape[1] == INPUT and len(x) == len(q) == len(grp) and len(kind) == 12
    # the data is the seed's: the same positions and labels again
    again = mod.generate(3, 12, rollouts=2, log=False)
    assert all(np.array_equal(a, b) for a, b in zip((x, q, grp, kind), again))
    y, w = mod.targets(q, grp, kind)
    # each position's targets are centred, the weights positive
    assert np.allclose(np.bincount(grp, weights=y), 0.0, atol=1e-3) and (w > 0).all()
    outs = []
    for i in range(2):
        net = mod.train(x, y, w, seed=4, epochs=2, hidden=16, layers=2, lr=1e-3, batch=16, log=False)
        out = tmp_path / f"p{i}.npz"
        mod.export(net, str(out))
        outs.append(out)
    a, b = np.load(outs[0]), np.load(outs[1])
    assert all(np.array_equal(a[k], b[k]) for k in a.files)
    model = PolicyModel(str(outs[0]))
    with torch.no_grad():
        ref = net(torch.from_numpy(x))[:, 0].numpy()
    assert np.allclose(model.scores(x), ref, atol=1e-5)
    np.savez(tmp_path / "bad.npz", w0=np.zeros((3, 1), np.float32), b0=np.zeros(1, np.float32))
    with pytest.raises(ValueError, match="bad.npz"):
        PolicyModel(str(tmp_path / "bad.npz"))
    # a view of the game gives one input row per legal action
    g = Game.new("cinque", {}, seed=2)
    view = g.view(g.to_move)
    assert inputs(g.variant, view).shape == (len(view.legal), INPUT)


def test_identical_rows_get_the_very_same_score_wherever_they_sit_in_the_batch():
    """Moves the policy cannot tell apart (the same input row) score exactly alike, even where
    the network's product rounds a row by its place in the batch (simulated here: a network
    whose output drifts by a hair with the row's index), so a bot's choice between them never
    depends on the processor (a golden strong move once did)."""
    model = PolicyModel()
    real = model.net

    class Drifting:
        def __call__(self, x: np.ndarray) -> np.ndarray:
            out = real(x)
            return out + 1e-7 * np.arange(len(x)).reshape(-1, 1)

    model.net = Drifting()  # type: ignore[assignment]
    rng = np.random.default_rng(0)
    x = rng.random((6, INPUT)).astype(np.float32)
    x[4] = x[1]
    s = model.scores(x)
    assert s[1] == s[4] and len(set(s.tolist())) == 5
    batch = np.stack([x, x[::-1]])  # (2, 6, INPUT): a batch of positions
    assert model.scores(batch).shape == (2, 6)
