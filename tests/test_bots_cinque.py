"""The expert in Cinque (issue 11): points are scored during play, so it takes an obvious
count, does not hand the next player one when an equal alternative exists, searches mirror
images once, and weighs the game's target (RULES.md §2.3)."""

from __future__ import annotations

import random
from dataclasses import replace

from bonepile.bots import Budget, make_bot
from bonepile.bots.expert import ExpertBot, preset
from bonepile.bots.playout import game_outcome
from bonepile.bots.seat_knowledge import SeatKnowledge
from bonepile.engine import Game, Hand, make_variant
from bonepile.engine.tiles import PASS, bits, move, tile_of
from test_bots_greedy import DOUBLES, game_with

CINQUE = make_variant("cinque", {})


def expert(**kw) -> ExpertBot:
    return ExpertBot(CINQUE, seed=0, budget=Budget(simulations=30), config=replace(preset(CINQUE), **kw))


def scores_now(h: Hand, m: int) -> int:
    side = h._side[h.to_move]
    before = h.inplay[side]
    h.push(m)
    got = h.inplay[side] - before
    h.pop()
    return got


def test_2_3_expert_takes_the_fifteen_on_the_spinner():
    g = game_with(
        "cinque",
        {},
        [
            DOUBLES,
            ["6-5", "6-3", "1-0", "2-0", "2-1", "3-1", "4-1"],
            ["6-4", "6-2", "6-1", "6-0", "3-0", "4-0", "5-0"],
            ["5-1", "3-2", "4-2", "5-2", "4-3", "5-3", "5-4"],
        ],
    )
    g.play("6-6")
    m = expert().choose(g.view(1))
    assert g.token(m).split("@")[0] == "6-3"


def test_2_3_expert_takes_an_obvious_ten():
    """Ends L5 R3 and the spinner's U/D (6): 6-2 on U or D makes 5 + 3 + 2 = 10 (greedy,
    wary of the count it leaves, takes 5 with 5-2); the expert plays a 10."""
    g = game_with(
        "cinque",
        {},
        [
            DOUBLES,
            ["6-5", "1-0", "2-0", "2-1", "3-1", "4-1", "4-0"],
            ["6-3", "6-4", "6-1", "6-0", "3-0", "5-0", "3-2"],
            ["6-2", "5-4", "4-3", "5-1", "4-2", "5-2", "5-3"],
        ],
    )
    for t in ("6-6", "6-5@L", "6-3@R"):
        g.play(t)
    m = expert().choose(g.view(3))
    assert scores_now(g.hand, m) == 10


def test_mirror_images_get_the_same_value():
    """6-2 on U and on D make the same table: the same value, searched once."""
    g = game_with(
        "cinque",
        {},
        [
            DOUBLES,
            ["6-5", "1-0", "2-0", "2-1", "3-1", "4-1", "4-0"],
            ["6-3", "6-4", "6-1", "6-0", "3-0", "5-0", "3-2"],
            ["6-2", "5-4", "4-3", "5-1", "4-2", "5-2", "5-3"],
        ],
    )
    for t in ("6-6", "6-5@L", "6-3@R"):
        g.play(t)
    ev = {g.token(e.action): e for e in expert(epsilon=0.25).evaluate(g.view(3))}
    assert ev["6-2@U"].value == ev["6-2@D"].value and ev["6-2@U"].win == ev["6-2@D"].win


def _threat_tiles(game: Game, m: int) -> int:
    """After move m, how many tiles unseen by the mover would let the next seat (an
    opponent) score 10 or more at once."""
    h = game.hand
    seat = h.to_move
    k = SeatKnowledge(CINQUE, game.view(seat))
    h.push(m)
    nxt = h.to_move
    side = h._side[nxt]
    saved = h.masks[nxt]
    n = 0
    for t in bits(k.unseen):
        h.masks[nxt] = saved | 1 << t
        best = 0
        for a in h.fits(t):
            h.push(move(t, a))
            best = max(best, h.inplay[side])
            h.pop()
        if best - h.inplay[side] >= 10:
            n += 1
    h.masks[nxt] = saved
    h.pop()
    return n


def _count_positions(limit: int):
    """Positions where two plays score nothing now, one leaves the next player no tile that
    scores 10 and the other leaves it at least five such tiles."""
    rng = random.Random(5)
    found = []
    for seed in range(200):
        game = Game.new("cinque", {}, seed=seed)
        while not game.hand.over and len(found) < limit:
            h = game.hand
            ms = [m for m in game.legal_moves() if m < PASS]
            if len(ms) >= 2 and h.placed and not any(scores_now(h, m) for m in ms):
                threat = {m: _threat_tiles(game, m) for m in ms}
                safe = [m for m in ms if threat[m] == 0]
                bad = [m for m in ms if threat[m] >= 5]
                if safe and bad:
                    found.append((game.copy(), bad))
            ms = game.legal_moves()
            game.apply(ms[rng.randrange(len(ms))])
        if len(found) >= limit:
            break
    return found


def test_2_3_expert_does_not_leave_an_obvious_count():
    positions = _count_positions(6)
    assert len(positions) >= 4
    for game, bad in positions:
        m = expert().choose(game.view(game.to_move))
        assert m not in bad, game.token(m)


def test_game_outcome_reads_the_scores_and_the_target():
    """§2.3 overtaking: at the end of the hand the higher total at or over 100 wins; equal
    totals go to the side that reached 100 first."""
    v = CINQUE
    h = Hand.deal(v, random.Random(1), totals=[90, 60])
    assert game_outcome(v, h, (5, 10), 0) == 0  # 95-70: the game goes on
    assert game_outcome(v, h, (10, 0), 0) == 1
    assert game_outcome(v, h, (10, 45), 0) == -1  # 100-105: overtaken
    h.first_to_target = 1
    assert game_outcome(v, h, (10, 40), 0) == -1  # 100-100: B reached it first
    assert game_outcome(v, h, (10, 40), 1) == 1


def test_expert_plays_for_the_game_near_the_target():
    """The game term is on by default where there is a target, off for a single hand."""
    two = Budget(simulations=2)
    assert make_bot("expert", CINQUE, budget=two).game_weight > 0
    assert make_bot("expert", make_variant("billitonnen", {}), budget=two).game_weight == 0


def test_no_peeking_with_every_cinque_option():
    """The options of the Cinque expert (play model, horizon, playout randomness) read only the
    view: two games with the same view and different hidden tiles get the same evaluation,
    also after the real hidden tiles are wiped."""
    from test_bots import _positions, _same_view_other_deal

    rng = random.Random(4)
    checked = 0
    for game in _positions("cinque", {}, 41, 5):
        seat = game.to_move
        view = game.view(seat)
        other = _same_view_other_deal(game, seat, rng)
        if other is None:
            continue
        for opts in (
            {"horizon": 4, "win_weight": 0.0},
            {"horizon": 0},
            {"epsilon": 0.25, "infer": 0},
            {"infer": 6, "infer_beta": 0.5, "infer_kinds": (0.0, 0.1)},
        ):
            config = replace(preset(CINQUE), **opts)
            ea = ExpertBot(CINQUE, seed=3, budget=Budget(simulations=4), config=config).evaluate(view)
            hidden = game.hand
            saved = hidden.masks[:]
            for s in range(4):
                if s != seat:
                    hidden.masks[s] = 0
            eb = ExpertBot(CINQUE, seed=3, budget=Budget(simulations=4), config=config).evaluate(
                other.view(seat)
            )
            hidden.masks[:] = saved
            assert ea == eb, opts
        checked += 1
    assert checked


def test_play_model_prefers_worlds_where_the_plays_were_good_choices():
    """Policy-based inference (bots/inference.py): a seat that passed up a count weighs the
    worlds where it held the scoring tile less than those where it did not; its weight is a
    probability (0 < w <= 1) and a world with no modelled choice weighs 1."""
    from bonepile.bots.inference import PlayModel, models
    from bonepile.bots.sampler import Sampler
    from test_bots import _positions

    rng = random.Random(8)
    compared = 0
    for game in _positions("cinque", {}, 61, 8):
        seat = game.to_move
        view = game.view(seat)
        assert models(CINQUE, view)
        sampler = Sampler(CINQUE, view)
        sampler.sample(rng)
        pm = PlayModel(CINQUE, view, sampler.moves, sampler.start_hand(sampler.last_deal), beta=0.5)
        for _ in range(10):
            d = sampler.sample_deal(rng)
            if d is None:
                continue
            w = pm.weight(d[0])
            assert 0 < w <= 1
        # a decision where the mover played a tile that scored less than another tile
        # that fits: a world where it also held that tile makes the play less likely
        played = {tile_of(m) for m in sampler.moves if m < PASS}
        deal = sampler.last_deal
        for k, (s, _i, t, per_kind) in enumerate(pm.decisions):
            weights = per_kind[0]
            best = max(weights, key=weights.__getitem__)
            if weights[best] <= weights[t] * 1.5 or best in played:
                continue
            holder = next(x for x in range(4) if best in deal[x])
            swap = next((x for x in deal[s] if x not in played and x not in weights), None)
            if holder in (s, seat) or swap is None:
                continue
            alt = [list(r) for r in deal]
            alt[s] = [best if x == swap else x for x in alt[s]]
            alt[holder] = [swap if x == best else x for x in alt[holder]]
            assert pm.factors(alt)[k] < pm.factors(deal)[k]
            compared += 1
            break
    assert compared
