"""Cuban dominoes (RULES.md §14) and the sets of tiles as data (double-nine, double-twelve):
the preset's rules, its scoring over random games, records with the ``set`` header, the
notation of two-digit pips, the view's JSON form and the RL spaces per set."""

from __future__ import annotations

import json
import random

import pytest

from bonepile.engine import Game, Hand, make_variant
from bonepile.engine.errors import IllegalMoveError, InvalidMoveError, OptionError, RecordError
from bonepile.engine.notation import normalize
from bonepile.engine.record import dumps, replay
from bonepile.engine.tiles import (
    ARM_BITS,
    DRAW,
    HI,
    LO,
    NAME,
    PASS,
    PIPS,
    SETS,
    bits,
    mask_pips,
    parse_tile,
    tile_index,
)
from bonepile.engine.view import hand_view
from bonepile.engine.viewcodec import view_from_dict, view_to_dict
from support import random_game


def tile(name: str) -> int:
    return parse_tile(name)[0]  # type: ignore[index]


# ------------------------------------------------------------------ the sets
def test_sets_are_triangular_prefixes_with_their_published_sizes():
    assert [(s.name, s.n_tiles) for s in SETS.values()] == [
        ("double-six", 28),
        ("double-nine", 55),
        ("double-twelve", 91),
    ]
    for top, s in SETS.items():
        tiles = [(HI[t], LO[t]) for t in range(s.n_tiles)]
        assert sorted(tiles) == sorted((a, b) for a in range(top + 1) for b in range(a + 1))
        assert s.all_tiles == (1 << s.n_tiles) - 1
        assert s.doubles_high_first[0] == tile_index(top, top)
    # a double-six tile has the same index in every set; the double-twelve set's pips sum to 1092
    assert tile("6-4") == 25 and tile("12-10") == 88 and NAME[88] == "12-10"
    assert sum(PIPS[t] for t in range(91)) == 1092 and mask_pips(SETS[12].all_tiles) == 1092
    assert mask_pips(SETS[9].all_tiles) == 495 and mask_pips(SETS[6].all_tiles) == 168
    # PASS and DRAW come after every tile move of the largest set
    assert PASS == 91 << ARM_BITS == 2912 and DRAW == PASS + 1


def test_mask_pips_agrees_with_the_tiles_on_random_masks():
    rng = random.Random(5)
    for _ in range(300):
        m = rng.getrandbits(91)
        assert mask_pips(m) == sum(PIPS[t] for t in bits(m))


# ------------------------------------------------------------------ the Cuban preset
def test_cuban_deal_is_ten_tiles_each_from_the_double_nine_set_with_fifteen_never_drawn():
    v = make_variant("cuban")
    assert (v.players, v.teams, v.pips, v.n_tiles, v.hand_sizes) == (4, True, 9, 55, (10,) * 4)
    assert v.stock == 0 and v.direction == "counterclockwise" and v.target == 100
    for seed in range(20):
        h = Hand.deal(v, random.Random(seed))
        dealt = [t for row in h.deal_rows for t in row]
        assert len(h.boneyard) == 15 and sorted(dealt + list(h.boneyard)) == list(range(55))
        # the first hand: the holder of the highest double dealt leads it
        best = max((t for t in dealt if HI[t] == LO[t]), key=lambda t: HI[t])
        assert h.must_lead == best and best in h.deal_rows[h.leader]


def test_cuban_never_draws_a_seat_that_cannot_play_passes():
    g = random_game("cuban", {}, 3)
    passes = 0
    for h in g.hands:
        assert all(m != DRAW for _, m, _ in h.log)
        assert h.bpos == 0
        passes += sum(m == PASS for _, m, _ in h.log)
    assert passes > 0
    h = Hand.deal(make_variant("cuban"), random.Random(1))
    h.apply(h.legal_moves()[0])
    with pytest.raises(IllegalMoveError, match="there is no drawing in cuban"):
        h.check(DRAW)


@pytest.mark.parametrize("options", [{}, {"count_all_pips": True}, {"target": 200}])
def test_cuban_hand_scores_the_other_sides_pips(options):
    """§14: the dominoer's side, or on a block the side with fewer pips, scores the pips left
    in the other side's hands (``count_all_pips``: its own too); a tied block scores nothing."""
    ends = set()
    for seed in range(12):
        g = random_game("cuban", options, seed)
        for h in g.hands:
            res = h.result
            side = [sum(mask_pips(h.masks[s]) for s in (0, 2)), sum(mask_pips(h.masks[s]) for s in (1, 3))]
            if h.end == "domino":
                win = h.log[-1][0] % 2
                assert h.masks[h.log[-1][0]] == 0
            else:
                win = None if side[0] == side[1] else (0 if side[0] < side[1] else 1)
            ends.add(h.end)
            assert res.winner == win
            want = [0, 0]
            if win is not None:
                want[win] = side[1 - win] + (side[win] if options.get("count_all_pips") else 0)
            assert list(res.points) == want
        assert max(g.scores()) >= options.get("target", 100)
    assert ends == {"domino", "blocked"}


@pytest.mark.parametrize("rule", ["winning_team_chooses", "winner", "rotate"])
def test_cuban_later_leaders(rule):
    for seed in range(6):
        g = random_game("cuban", {"lead_rule": rule}, seed)
        for prev, h in zip(g.hands, g.hands[1:]):
            assert h.must_lead == -1  # any tile after the first hand
            if rule == "rotate" or prev.result.winner is None:
                assert h.leader == (prev.leader + 1) % 4
            elif rule == "winning_team_chooses":
                assert h.leader % 2 == prev.result.winner
            else:
                assert h.leader == prev.result.next_lead


@pytest.mark.parametrize(
    "options,message",
    [
        ({"target": 150}, "option target must be one of 100, 200, not 150"),
        ({"players": 2}, "option players must be one of 4 for cuban, not 2"),
        ({"set": "double-six"}, "unknown option 'set' for cuban"),
    ],
)
def test_cuban_bad_options_are_named(options, message):
    with pytest.raises(OptionError, match=message):
        make_variant("cuban", options)


# ------------------------------------------------------------------ records
def test_cuban_record_names_its_set_and_replays_exactly():
    g = random_game("cuban", {}, 7)
    doc = g.record()
    assert doc["set"] == "double-nine"
    text = dumps(doc)
    again = replay(json.loads(text))
    assert again.result() == g.result() and dumps(again.record()) == text
    # absent, the set is the variant's own
    del doc["set"]
    assert replay(doc).result() == g.result()


def test_double_six_records_carry_no_set_and_a_larger_set_option_does():
    assert "set" not in random_game("block", {}, 1).record()
    doc = random_game("block", {"set": "double-twelve", "players": 2}, 2).record()
    assert doc["set"] == "double-twelve" and doc["options"]["set"] == "double-twelve"
    assert replay(doc).result()["finished"]


def test_a_set_that_contradicts_the_variant_is_an_error():
    doc = random_game("cuban", {}, 4).record()
    doc["set"] = "double-six"
    with pytest.raises(
        RecordError,
        match='"set" is double-six, but cuban with these options is played with the double-nine set',
    ):
        replay(doc)
    doc["set"] = "double-seven"
    with pytest.raises(RecordError, match='"set" must be one of double-six, double-nine, double-twelve'):
        replay(doc)


def test_a_tile_outside_the_set_names_the_tile_the_seat_and_the_hand():
    doc = random_game("cuban", {}, 4).record()
    doc["hands"][0]["deal"][2][3] = "10-3"
    with pytest.raises(RecordError) as info:
        replay(doc)
    assert "tile 10-3 in seat 2 is not in the double-nine set (pips 0-9)" in str(info.value)
    assert info.value.as_json()["hand"] == 1
    block = random_game("block", {}, 4).record()
    block["hands"][0]["deal"][1][0] = "7-2"
    with pytest.raises(RecordError, match="tile 7-2 in seat 1 is not in the double-six set"):
        replay(block)


def test_two_digit_pips_in_tokens():
    g = Game.new("block", {"set": "double-twelve"}, seed=5)
    h = g.hand
    top = max(t for row in h.deal_rows for t in row if HI[t] == LO[t])
    assert NAME[h.must_lead] == NAME[top] and HI[top] >= 10  # 28 of the 91 tiles dealt
    g.play(NAME[top])
    assert normalize("12 10 l") == "12-10@L" and normalize("64") == "6-4" and normalize("9|0") == "9-0"
    with pytest.raises(InvalidMoveError, match="not a move token"):
        g.play("13-1")
    c = Game.new("cuban", seed=5)
    with pytest.raises(InvalidMoveError, match="10-2 is not a tile of the double-nine set"):
        c.play("10-2")


# ------------------------------------------------------------------ views and RL
def test_cuban_view_json_round_trip_with_its_set():
    g = Game.new("cuban", seed=2)
    rng = random.Random(2)
    while not g.over and not any(PASS in g.view(s).legal for s in range(4)):
        ms = g.legal_moves()
        g.apply(ms[rng.randrange(len(ms))])
    view = g.view(g.to_move)
    d = view_to_dict(view)
    assert d["pips"] == 9 and view_from_dict(json.loads(json.dumps(d))) == view
    if PASS in view.legal:
        assert 220 in d["legal"]  # 4 * 55: the pass, dense after the set's tiles
    # a double-six view has no "pips" key and its pass is 112 as it always was
    six = hand_view(Hand.deal(make_variant("block"), random.Random(0)), 0)
    assert "pips" not in view_to_dict(six)
    bad = dict(d, hand=["10-3"])
    with pytest.raises(
        ValueError, match=r"hand\[0\] must be a tile of the view's set \(pips 0-9\), not '10-3'"
    ):
        view_from_dict(bad)


def test_rl_spaces_per_set_leave_the_double_six_games_unchanged():
    from bonepile.rl.actions import actions
    from bonepile.rl.obs import Encoder, obs_size

    assert actions(make_variant("block")).n == 114 and obs_size(4) == 426
    v = make_variant("cuban")
    enc = Encoder(v)
    assert enc.actions.n == 222 and enc.size == obs_size(4, 9) == 777
    assert actions(make_variant("draw", {"set": "double-twelve"})).n == 366
    h = Hand.deal(v, random.Random(3))
    rng = random.Random(3)
    from bonepile.engine.view import observer

    while not h.over:
        for s in range(4):
            x, mask = enc.observe(observer(h), s)
            view = hand_view(h, s)
            assert (x == enc.encode(view)).all() and (mask == enc.mask(view)).all()
            assert sorted(mask.nonzero()[0]) == sorted(enc.actions.of(m) for m in view.legal)
        ms = h.legal_moves()
        h.apply(ms[rng.randrange(len(ms))])
