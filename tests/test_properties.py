"""Properties that hold for every game of every variant, player count and option combination.

Random games (random deals, uniformly random legal actions) are checked move by move:
tile accounting, legal actions, termination, totals, record round trips, undo and copy.
The option combinations are drawn from ``OPTION_SPECS`` / ``PLAYER_COUNTS``; combinations
the rules reject (``OptionError``, e.g. ``teams`` with 3 players) are skipped.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bonepile import Game, make_variant
from bonepile.engine import PASS
from bonepile.engine import record as rec
from bonepile.engine.errors import OptionError
from bonepile.engine.tiles import bits, tile_of
from bonepile.engine.variant import OPTION_SPECS, PLAYER_COUNTS

MAX_MOVES = 20_000  # far above any real game (longest random games are < 1,000 actions)

ALL_COMBOS = [(v, n) for v, counts in PLAYER_COUNTS.items() for n in counts]

# Integer options: a few values that keep random games short but exercise the rule.
INT_VALUES = {
    "target": (1, 25, 61, 100),
    "boneyard_reserve": (0, 1, 2, 3),
}


@st.composite
def game_setups(draw, variants=tuple(PLAYER_COUNTS)):
    """(variant, options, deal seed, move seed) with a valid option combination."""
    variant = draw(st.sampled_from(variants))
    players = draw(st.sampled_from(PLAYER_COUNTS[variant]))
    options: dict = {}
    if len(PLAYER_COUNTS[variant]) > 1:
        options["players"] = players
    for name, spec in OPTION_SPECS[variant].items():
        if spec.values is None:
            values = INT_VALUES.get(name, (spec.default,))
            if name == "target" and variant == "quinientos":
                values = (100, 250, 500)
        else:
            values = spec.values
        choice = draw(st.sampled_from((None, *values)))  # None: option absent (the default)
        if choice is not None or (spec.values is not None and None in spec.values and draw(st.booleans())):
            options[name] = choice
    try:
        make_variant(variant, options)
    except OptionError:
        assume(False)
    seed = draw(st.integers(0, 2**32 - 1))
    move_seed = draw(st.integers(0, 2**32 - 1))
    return variant, options, seed, move_seed


# ------------------------------------------------------------------------------ helpers


def tiles_accounted(g: Game) -> list[int]:
    """Every tile of the current hand: held (hands / rows) + laid on the table + undrawn
    boneyard (+ the 3-player Billitonnen / full-deal starter, laid from the boneyard)."""
    h = g.hand
    held = [t for s in range(g.variant.players) for t in h.held(s)]
    laid = [tile_of(m) for _, m, _ in h.log if m < PASS]
    undrawn = list(h.boneyard[h.bpos :])
    starter = [h.boneyard[0]] if g.variant.starter else []
    hub = [h.hub] if g.variant.layout != "line" else []  # the round's double, in the centre
    return held + laid + undrawn + starter + hub


def check_accounting(g: Game, where: str) -> None:
    h = g.hand
    tiles = tiles_accounted(g)
    n_tiles = g.variant.n_tiles
    assert sorted(tiles) == list(range(n_tiles)), (
        f"{where}: tiles not accounted for exactly once: "
        f"{len(tiles)} tiles, duplicates {sorted({t for t in tiles if tiles.count(t) > 1})}, "
        f"missing {sorted(set(range(n_tiles)) - set(tiles))}"
    )
    # the hand masks agree with the rows of the blind games
    for s in range(g.variant.players):
        assert sorted(h.held(s)) == bits(h.masks[s]), f"{where}: seat {s} rows/hand mask disagree"
    laid = sum(1 for _, m, _ in h.log if m < PASS) + (
        1 if g.variant.starter or g.variant.layout != "line" else 0
    )
    assert h.placed == laid, f"{where}: placed={h.placed} but {laid} tiles laid"


def snapshot(g: Game) -> tuple:
    """Everything observable about a game (for equality checks)."""
    hands = []
    for h in g.hands:
        hands.append(
            (
                h.deal_rows,
                h.boneyard,
                tuple(h.log),
                tuple(h.masks),
                None if h.rows is None else tuple(map(tuple, h.rows)),
                None if h.face_up is None else tuple(h.face_up),
                tuple(h.pip),
                tuple(h.open_arms),
                h.spin,
                h.placed,
                h.bpos,
                h.to_move,
                h.passes,
                h.drew,
                h.over,
                h.end,
                h.result,
                tuple(h.inplay),
                h.leader,
                h.first_to_target,
                h.ends(),
            )
        )
    return (
        tuple(hands),
        tuple(g.totals),
        g.over,
        g.winner,
        g.to_move,
        tuple(g.legal_moves()),
        repr(g.result()),
    )


def play_random(g: Game, rng: random.Random, on_step=None) -> int:
    """Play uniformly random legal actions to the end of the game; returns the move count."""
    moves = 0
    while not g.over:
        assert moves < MAX_MOVES, f"game did not terminate within {MAX_MOVES} moves"
        assert not g.hand.over, "the hand is over but the game neither ended nor dealt a new hand"
        legal = g.legal_moves()
        assert legal, (
            f"no legal action in hand {len(g.hands)} before the hand ended "
            f"(to_move={g.to_move}, ends={g.hand.ends()})"
        )
        assert g.to_move is not None
        m = legal[rng.randrange(len(legal))]
        if on_step:
            on_step(g, m)
        g.apply(m)
        moves += 1
        check_accounting(g, f"hand {len(g.hands)}, after move {len(g.hand.log)}")
    return moves


def check_finished_game(g: Game) -> None:
    assert g.over and g.hand.over
    assert g.legal_moves() == []
    assert g.to_move is None
    res = g.result()
    # totals are the sums of the hands' points
    totals = list(g.start_totals)
    for i, h in enumerate(g.hands):
        assert h.over, f"hand {i + 1} of a finished game is not over"
        pts = list(h.result.points)
        totals = [a + b for a, b in zip(totals, pts)]
        assert res["hands"][i]["points"] == pts
        assert res["hands"][i]["totals"] == totals, f"hand {i + 1}: running totals"
        assert res["hands"][i]["end"] == h.end
        assert res["hands"][i]["leader"] == h.leader
    assert g.totals == totals, f"totals {g.totals} != sum of hand points {totals}"
    assert res["totals"] == totals
    assert res["finished"] is True
    assert res["winner"] == g.winner
    # only the last hand may be unfinished, and every hand but the last was finished normally
    for h in g.hands[:-1]:
        assert h.end in ("domino", "blocked")
    v = g.variant
    if v.scoring == "result_only":
        assert all(t == 0 for t in totals), "Billitonnen scores no points"
        assert len(g.hands) == 1
    elif v.target is not None:
        assert max(totals) >= v.target, f"game ended with totals {totals} below target {v.target}"
        if g.winner is not None:
            assert totals[g.winner] >= v.target


def check_record_round_trip(g: Game) -> None:
    doc = g.record()
    again = rec.replay(doc)
    assert again.result() == g.result(), "replay(record(game)) does not reproduce game.result()"
    text = rec.dumps(doc)
    text2 = rec.dumps(rec.replay(rec.loads(text)).record())
    assert text2 == text, "record text is not byte-stable through loads -> replay -> dumps"


# ------------------------------------------------------------------------------ properties


@pytest.mark.slow
@settings(
    max_examples=600, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)
@given(game_setups())
def test_random_games_account_for_every_tile_terminate_and_round_trip(setup):
    variant, options, seed, move_seed = setup
    g = Game.new(variant, options, seed=seed)
    check_accounting(g, "hand 1 before any move")
    play_random(g, random.Random(move_seed))
    check_finished_game(g)
    check_record_round_trip(g)


@pytest.mark.parametrize("variant,players", ALL_COMBOS, ids=[f"{v}-{n}p" for v, n in ALL_COMBOS])
def test_every_variant_and_player_count_with_defaults(variant, players):
    """A deterministic sweep so that every variant x player count is covered every run."""
    options = {"players": players} if len(PLAYER_COUNTS[variant]) > 1 else {}
    for seed in range(4):
        g = Game.new(variant, options, seed=seed)
        assert g.variant.players == players
        check_accounting(g, "hand 1 before any move")
        play_random(g, random.Random(seed))
        check_finished_game(g)
        check_record_round_trip(g)


@pytest.mark.slow
@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)
@given(game_setups())
def test_undo_then_reapply_gives_identical_state(setup):
    variant, options, seed, move_seed = setup
    g = Game.new(variant, options, seed=seed)
    rng = random.Random(move_seed)

    def step(game: Game, m: int) -> None:
        if rng.random() > 0.25:
            return
        before = snapshot(game)
        game.apply(m)
        after = snapshot(game)
        undone = game.undo()
        assert undone == m, f"undo() returned {undone}, the move applied was {m}"
        assert snapshot(game) == before, "undo() did not restore the state before the move"
        game.apply(m)
        assert snapshot(game) == after, "re-applying the undone move gave a different state"
        game.undo()  # play_random applies m itself

    play_random(g, rng, on_step=step)
    check_finished_game(g)
    check_record_round_trip(g)


@pytest.mark.slow
@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)
@given(game_setups())
def test_copy_is_independent_of_the_original(setup):
    variant, options, seed, move_seed = setup
    g = Game.new(variant, options, seed=seed)
    rng = random.Random(move_seed)

    def step(game: Game, m: int) -> None:
        if rng.random() > 0.1:
            return
        before = snapshot(game)
        c = game.copy()
        assert snapshot(c) == before, "copy() differs from the original"
        # play on the copy (possibly into later hands) ...
        for _ in range(rng.randrange(1, 40)):
            if c.over:
                break
            legal = c.legal_moves()
            c.apply(legal[rng.randrange(len(legal))])
        assert snapshot(game) == before, "applying moves to a copy changed the original"
        # ... and undo on another copy (possibly back into the previous hand)
        c2 = game.copy()
        for _ in range(min(sum(len(h.log) for h in game.hands), rng.randrange(1, 5))):
            c2.undo()
        assert snapshot(game) == before, "undo() on a copy changed the original"

    play_random(g, rng, on_step=step)
    check_finished_game(g)


# ------------------------------------------------------------------------------ hand boundaries
# Deterministic cases for undo/copy across the end of a hand (the next hand is already dealt).


def _play_until_second_hand(variant: str, options: dict, seed: int):
    g = Game.new(variant, options, seed=seed)
    rng = random.Random(seed)
    while True:
        legal = g.legal_moves()
        m = legal[rng.randrange(len(legal))]
        c = g.copy()
        c.apply(m)
        if len(c.hands) == 2:
            return g, m
        g.apply(m)


@pytest.mark.parametrize(
    "variant,options", [("block", {"players": 4}), ("passing", {"players": 3}), ("quinientos", {})]
)
def test_undo_across_hand_boundary_then_reapply_deals_the_same_next_hand(variant, options):
    g, m = _play_until_second_hand(variant, options, seed=3)
    before = snapshot(g)
    g.apply(m)
    after = snapshot(g)
    deal2 = g.hand.deal_rows
    g.undo()
    assert snapshot(g) == before, "undo of a hand-ending move did not restore the state"
    g.apply(m)
    same = g.hand.deal_rows == deal2 and snapshot(g) == after
    assert same, (
        "undo() then re-applying the same hand-ending move dealt a different next hand: "
        "undo does not restore the random generator used for the next deal"
    )


@pytest.mark.parametrize("variant,options", [("block", {"players": 4}), ("draw", {"players": 2})])
def test_undo_on_a_copy_across_hand_boundary_leaves_the_original_unchanged(variant, options):
    g, m = _play_until_second_hand(variant, options, seed=5)
    g.apply(m)
    assert len(g.hands) == 2 and not g.hand.log
    before = snapshot(g)
    c = g.copy()
    c.undo()  # takes back the last move of hand 1 in the copy
    assert len(c.hands) == 1 and not c.hand.over
    unchanged = snapshot(g) == before
    assert unchanged, (
        "undo() on a copy changed the original game: copy() shares the finished hands "
        "with the original and undo() across a hand boundary mutates them"
    )
