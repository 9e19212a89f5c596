"""Policy-based inference with several kinds of player (bots/inference.py, ``mixture``): each
other seat is weighed as the average over the kinds of the probability of its own plays, so
a seat that plays any tile that fits and one that sheds its heavy tiles are both recognised
from what they played, in the partnership block game as in Cinque.  (The mixture is the
expert's default in the partnership block game, so ``test_bots``'s poisoned-view check,
which runs the expert at its defaults in every variant, covers it reading nothing hidden.)"""

from __future__ import annotations

import math
import random

from bonepile.bots.inference import PlayModel, models
from bonepile.bots.sampler import Sampler
from bonepile.engine import make_variant
from bonepile.engine.tiles import PASS, tile_of
from test_bots import _positions

BLOCK = make_variant("block", {"players": 4, "teams": True})
KINDS = (0.0, 0.5)


def _models(seed: int, count: int):
    """(view, sampler, mixture model, one model per kind) at mid-hand positions."""
    rng = random.Random(seed)
    for game in _positions("block", {"players": 4, "teams": True}, seed, count):
        view = game.view(game.to_move)
        if not view.history or not models(BLOCK, view):
            continue
        sampler = Sampler(BLOCK, view)
        sampler.sample(rng)
        start = sampler.start_hand(sampler.last_deal)
        mixed = PlayModel(BLOCK, view, sampler.moves, start, beta=1.0, mixture=KINDS)
        singles = [
            PlayModel(BLOCK, view, sampler.moves, sampler.start_hand(sampler.last_deal), beta=1.0, pips=p)
            for p in KINDS
        ]
        yield game, view, sampler, mixed, singles, rng


def test_a_mixture_weighs_each_seat_by_the_average_of_its_kinds():
    """The mixture's weight of a world is, seat by seat, the mean over the kinds of the product
    of that seat's play probabilities under each kind alone; a mixture of one kind is that
    kind's model exactly; every weight is a probability."""
    checked = 0
    for _game, view, sampler, mixed, singles, rng in _models(5, 12):
        one = PlayModel(
            BLOCK, view, sampler.moves, sampler.start_hand(sampler.last_deal), beta=1.0, mixture=(0.5,)
        )
        for _ in range(6):
            d = sampler.sample_deal(rng)
            if d is None:
                continue
            deal = d[0]
            per_kind = [s.factors(deal) for s in singles]
            seats = [dec[0] for dec in mixed.decisions]
            expected = 1.0
            for seat in set(seats):
                expected *= sum(
                    math.prod(f for f, s in zip(fs, seats, strict=True) if s == seat) for fs in per_kind
                ) / len(KINDS)
            assert math.isclose(mixed.weight(deal), expected, rel_tol=1e-12)
            assert 0 < mixed.weight(deal) <= 1
            assert one.weight(deal) == singles[1].weight(deal)
            checked += 1
    assert checked >= 20


def test_a_seat_that_shed_light_tiles_is_read_as_a_player_of_any_tile():
    """Under the heavy-shedding kind, a world where the mover held a heavier tile that fitted
    makes its light play less likely; under the any-tile kind (0) it is as likely as the
    number of tiles that fitted says; the mixture lies between the two."""
    compared = 0
    for _game, _view, sampler, mixed, singles, _rng in _models(9, 30):
        deal = sampler.last_deal
        played = {tile_of(m) for m in sampler.moves if m < PASS}
        for k, (s, _i, t, per_kind) in enumerate(mixed.decisions):
            heavy = per_kind[1]
            best = max(heavy, key=heavy.__getitem__)
            if heavy[best] <= heavy[t] * 1.5 or best in played:
                continue
            holder = next(x for x in range(4) if best in deal[x])
            swap = next((x for x in deal[s] if x not in played and x not in heavy), None)
            if holder == s or swap is None or holder == _view.seat:
                continue
            alt = [list(r) for r in deal]
            alt[s] = [best if x == swap else x for x in alt[s]]
            alt[holder] = [swap if x == best else x for x in alt[holder]]
            lo, hi = singles[1].factors(alt)[k], singles[1].factors(deal)[k]
            assert lo < hi
            # any-tile kind: one more tile that fits, so 1/(n+1) against 1/n
            assert singles[0].factors(alt)[k] < singles[0].factors(deal)[k]
            assert math.isclose(1 / singles[0].factors(alt)[k], 1 / singles[0].factors(deal)[k] + 1)
            compared += 1
            break
    assert compared >= 3


def _plain_weight(model: PlayModel, deal) -> float:
    """The weight multiplied out, in ``weight``'s order, from ``kind_factors`` (which replays
    who holds what at every play)."""
    per = [[1.0] * model.kinds for _ in range(model.n)]
    for (s, *_), fs in zip(model.decisions, model.kind_factors(deal), strict=True):
        for k, f in enumerate(fs):
            per[s][k] *= f
    if model.kinds == 1:
        w = 1.0
        for fs in model.kind_factors(deal):
            w *= fs[0]
        return w
    w = 1.0
    for row in per:
        w *= sum(row) / model.kinds
    return w


def test_the_fast_weight_is_the_plain_replay_exactly():
    """``weight`` (tables built once per decision) gives bit for bit the number the plain
    replay of who holds what gives, for the mixture, for one kind, and in Cinque where a
    play's weight depends on the points it scored."""
    checked = 0
    for _game, _view, sampler, mixed, singles, rng in _models(13, 10):
        for _ in range(5):
            d = sampler.sample_deal(rng)
            if d is None:
                continue
            for m in (mixed, *singles):
                assert m.weight(d[0]) == _plain_weight(m, d[0])
            checked += 1
    cinque = make_variant("cinque")
    for game in _positions("cinque", None, 17, 10):
        view = game.view(game.to_move)
        if not view.history or not models(cinque, view):
            continue
        sampler = Sampler(cinque, view)
        sampler.sample(rng)
        model = PlayModel(cinque, view, sampler.moves, sampler.start_hand(sampler.last_deal), beta=0.6)
        for _ in range(5):
            d = sampler.sample_deal(rng)
            if d is not None:
                assert model.weight(d[0]) == _plain_weight(model, d[0])
                checked += 1
    assert checked >= 60
