"""Bots (issue 3): every level plays legal moves in every variant, is deterministic for a
seed, sees nothing but its View, and the expert beats random.  Sampler: every world agrees
with the view it was drawn from."""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bonepile.bots import BOT_LEVELS, LEVELS, Budget, make_bot
from bonepile.bots.beliefs import beliefs, features
from bonepile.bots.expert import ExpertBot, preset
from bonepile.bots.policy import inputs
from bonepile.bots.reasons import Explainer
from bonepile.bots.sampler import Sampler
from bonepile.engine import Game, View, make_variant
from bonepile.engine.hand import Hand
from bonepile.engine.view import hand_view
from support import BOT_GAMES, TRAIN_GAMES

ALL = BOT_GAMES + TRAIN_GAMES


def _id(case):
    v, o = case
    return v + "".join(f"-{k}={x}" for k, x in o.items())


def budget(level):
    return Budget(simulations=2) if level == "expert" else None


#: a bot from outside the package (a ``module:Class`` plugin, the documented example)
PLUGIN = "heavy:HeavyBot"
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "bots"))


def play(game: Game, bots, max_moves: int = 4000) -> int:
    """Play with the bots; every choice must be one of the view's legal moves."""
    moves = 0
    while not game.over and moves < max_moves:
        s = game.to_move
        view = game.view(s)
        assert type(view) is View
        m = bots[s].choose(view)
        assert m in view.legal, (game.variant.name, s, m, view.legal)
        game.apply(m)
        moves += 1
    return moves


@pytest.mark.parametrize("case", ALL, ids=_id)
def test_greedy_and_expert_play_whole_games_legally(case):
    name, opts = case
    v = make_variant(name, opts)
    for level in ("greedy", "expert"):
        game = Game.new(name, opts, seed=11)
        bots = [
            make_bot(
                level if s % 2 == 0 else "random", v, seed=s, budget=budget(level) if s % 2 == 0 else None
            )
            for s in range(v.players)
        ]
        if name in ("quinientos", "cinque") and level == "expert":
            # whole games to 500/100 take long; two hands are the same code paths
            while len(game.hands) < 3 and not game.over:
                s = game.to_move
                m = bots[s].choose(game.view(s))
                assert m in game.legal_moves()
                game.apply(m)
            continue
        play(game, bots)
        assert game.over


def test_levels_registered():
    assert {"random", "greedy", "expert"} <= set(BOT_LEVELS)


@pytest.mark.parametrize(
    "case",
    [
        ("block", {"teams": True}),
        ("cinque", {}),
        ("draw", {"players": 3}),
        ("passing", {"players": 2}),
        ("billitonnen", {"players": 4}),
    ],
    ids=_id,
)
def test_same_seed_same_choices(case):
    name, opts = case
    v = make_variant(name, opts)
    runs = []
    for _ in range(2):
        game = Game.new(name, opts, seed=5)
        bots = [
            make_bot(
                "expert" if s % 2 else "greedy",
                v,
                seed=7 + s,
                budget=Budget(simulations=3) if s % 2 else None,
            )
            for s in range(v.players)
        ]
        seq = []
        while not game.over and len(game.hands) < 2:
            s = game.to_move
            view = game.view(s)
            m = bots[s].choose(view)
            seq.append(m)
            game.apply(m)
        runs.append(seq)
    assert runs[0] == runs[1]


def _positions(name, opts, seed, count):
    """Mid-hand positions of random games: (game, seat to move)."""
    rng = random.Random(seed)
    out = []
    for k in range(50):  # games until enough positions (the blind games have few choices)
        game = Game.new(name, opts, seed=seed + k)
        while not game.over and len(out) < count:
            if len(game.legal_moves()) > 1 and game.hand.log:
                out.append(game.copy())
            ms = game.legal_moves()
            game.apply(ms[rng.randrange(len(ms))])
        if len(out) >= count:
            break
    return out


def _same_view_other_deal(game: Game, seat: int, rng: random.Random, tries: int = 30) -> Game | None:
    """A second game whose view for ``seat`` is the game's but whose hidden tiles differ (a
    world drawn from that view), or None when ``tries`` worlds were all the real deal."""
    sampler = Sampler(game.variant, game.view(seat))
    for _ in range(tries):
        world = sampler.sample(rng)
        if world.masks != game.hand.masks or world.deal_rows != game.hand.deal_rows:
            return _game_from_world(game, world)
    return None


def _game_from_world(game: Game, world: Hand) -> Game:
    """A second game with the same public past and the world's hidden tiles."""
    g = Game(
        game.variant,
        auto_deal=False,
        start_hand=world.number,
        start_totals=world.totals,
        start_bonus_rounds=None,
    )
    h = Hand(
        game.variant,
        world.deal_rows,
        world.boneyard,
        world.leader,
        must_lead=world.must_lead,
        number=world.number,
        totals=world.totals,
        bonus=world.bonus,
        starter_first=world.starter_first,
    )
    for _s, m, _t in world.log:
        h.apply(m)
    g.hands.append(h)
    return g


@pytest.mark.parametrize("case", ALL, ids=_id)
def test_sampled_worlds_agree_with_the_view(case):
    """Every world shows the seat exactly its view (own tiles, counts, layout, history,
    legal moves...) and the public history is legal in it (so shown voids are respected)."""
    name, opts = case
    v = make_variant(name, opts)
    rng = random.Random(3)
    for game in _positions(name, opts, 21, 12):
        seat = game.to_move
        view = game.view(seat)
        sampler = Sampler(v, view)
        for _ in range(4):
            world = sampler.sample(rng)
            assert hand_view(world, seat) == view
            h = world.fresh()
            for _s, m, _t in world.log:
                h.check(m)  # raises if the move was illegal in this world
                h.apply(m)


@pytest.mark.parametrize("case", ALL, ids=_id)
def test_no_peeking_same_view_same_answer(case):
    """Two games whose view for the seat to move is identical but whose hidden tiles differ:
    every bot returns the same action and evaluation in both.  The hidden state of the real
    game is then poisoned after the view is taken: the answer must not change."""
    name, opts = case
    v = make_variant(name, opts)
    rng = random.Random(9)
    checked = 0
    for game in _positions(name, opts, 33, 6):
        seat = game.to_move
        view = game.view(seat)
        other = _same_view_other_deal(game, seat, rng)
        if other is None:
            continue
        view2 = other.view(seat)
        assert view2 == view
        why = [Explainer(v, view, seed=2).explain(m) for m in view.legal]
        # the belief model, its input and the expert drawing its worlds from it, too
        believed = beliefs(v, view)
        modelled = not view.blind and v.pips == 6  # the learned models read double-six open games
        seen = features(v, view).tolist() if modelled else None
        policy_in = inputs(v, view).tolist() if modelled else None
        with_beliefs = replace(preset(v), beliefs=True)
        ebel = ExpertBot(v, seed=4, budget=Budget(simulations=2), config=with_beliefs).evaluate(view)
        for level in ("random", "greedy", "expert", *LEVELS, PLUGIN):
            a = make_bot(level, v, seed=4, budget=budget(level))
            b = make_bot(level, v, seed=4, budget=budget(level))
            ea = a.evaluate(view) if level in ("greedy", "expert") else a.choose(view)
            # poison every hidden part of the real hand
            hidden = game.hand
            for s in range(v.players):
                if s != seat:
                    hidden.masks[s] = 0
            hidden.boneyard = tuple(reversed(hidden.boneyard))
            eb = b.evaluate(view2) if level in ("greedy", "expert") else b.choose(view2)
            assert ea == eb, (level, name)
        # the hint's reasons read the view only, too
        assert [Explainer(v, view2, seed=2).explain(m) for m in view.legal] == why
        assert beliefs(v, view2) == believed
        assert (features(v, view2).tolist() if modelled else None) == seen
        assert (inputs(v, view2).tolist() if modelled else None) == policy_in
        assert ExpertBot(v, seed=4, budget=Budget(simulations=2), config=with_beliefs).evaluate(view2) == ebel
        checked += 1
    assert checked


def test_bots_take_a_view_not_a_game():
    v = make_variant("block", {"teams": True})
    game = Game.new("block", {"teams": True}, seed=1)
    for level in ("greedy", "expert", *LEVELS, PLUGIN):
        bot = make_bot(level, v, seed=0, budget=budget(level))
        with pytest.raises((AttributeError, TypeError)):
            bot.choose(game)
