"""Where RULES.md is silent, the engine decides (docs/RULES_DECISIONS.md); each decision here."""

from __future__ import annotations

import random

import pytest

from bonepile import Game, OptionError, make_variant, replay
from bonepile.engine import DRAW, PASS, Hand
from bonepile.engine.tiles import NAME, tile_of
from bonepile.engine.variant import PLAYER_COUNTS
from support import tile


def T(*names: str) -> list[int]:
    return [tile(n) for n in names]


def rest_of(*groups: list[int]) -> list[int]:
    used = {t for g in groups for t in g}
    return [t for t in range(28) if t not in used]


def game_with(variant: str, options: dict, deal, boneyard=(), leader=None) -> Game:
    g = Game(make_variant(variant, options), auto_deal=False)
    g.next_hand(deal=deal, boneyard=list(boneyard), leader=leader)
    return g


# A 4-player line hand that blocks after ten tiles with every six on the table and ends [6|6].
BLOCK_MOVES = ["6-6", "6-5@L", "5-4", "6-4@L", "6-3@R", "3-2", "6-2@R", "6-1@L", "1-0", "6-0@L"]
BLOCK_DEAL = [
    T("6-6", "6-3", "1-0", "3-3", "4-0", "3-1", "3-0"),  # P0 keeps 17 pips
    T("6-5", "3-2", "6-0", "5-5", "5-3", "5-2", "5-1"),  # P1 keeps 31
    T("5-4", "6-2", "0-0", "1-1", "2-0", "2-1", "2-2"),  # P2 keeps 11
    T("6-4", "6-1", "4-1", "4-2", "4-3", "4-4", "5-0"),  # P3 keeps 31
]


def play_all(g: Game, tokens) -> None:
    for tok in tokens:
        g.play(tok)


def test_d3_3_block_teams_blocked_hand_winning_member_with_fewer_pips_leads_next():
    g = game_with("block", {"teams": True}, BLOCK_DEAL)
    play_all(g, BLOCK_MOVES)
    res = g.hand.result
    assert res.end == "blocked" and res.pips == (17, 31, 11, 31)
    assert res.winner == 0 and res.points == (62 - 28, 0)  # side values 28 vs 62
    deal2 = [list(range(s * 7, s * 7 + 7)) for s in range(4)]
    h2 = g.next_hand(deal=deal2)
    assert h2.leader == 2  # P2 (11 pips) rather than P0 (17), any tile
    assert h2.must_lead == -1


def test_d3_3_block_teams_domino_player_leads_next():
    # after a domino the player who went out leads (not merely someone of the winning side)
    rng = random.Random(5)
    g = Game(make_variant("block", {"teams": True}), seed=3)
    while len(g.hands) == 1:
        ms = g.legal_moves()
        g.apply(ms[rng.randrange(len(ms))])
    first = g.hands[0].result
    if first.end == "domino":
        assert g.hand.leader == first.dominoer
    else:
        members = g.variant.sides[first.winner]
        assert g.hand.leader == min(members, key=lambda s: (first.pips[s], s))


def test_q1_4_count_partner_pips_also_in_a_blocked_round():
    plain = game_with("quinientos", {}, BLOCK_DEAL)
    play_all(plain, BLOCK_MOVES)
    assert plain.hand.result.points == (62, 0)  # losers' pips, no bonus in a blocked round
    every = game_with("quinientos", {"count_partner_pips": True}, BLOCK_DEAL)
    play_all(every, BLOCK_MOVES)
    assert every.hand.result.points == (62 + 28, 0)  # every pip left on the table


def test_d3_3_block_with_three_players_draws_from_the_stock():
    deal = [
        T("6-6", "0-0", "1-1", "2-2", "3-3", "4-4", "5-5"),
        T("1-0", "2-0", "2-1", "3-0", "3-1", "3-2", "4-0"),
        T("4-1", "4-2", "4-3", "5-0", "5-1", "5-2", "5-3"),
    ]
    stock = T("5-4", "6-0", "6-1", "6-2", "6-3", "6-4", "6-5")
    g = game_with("block", {"players": 3}, deal, stock)
    assert g.hand.leader == 0 and g.legal_tokens() == ["6-6"]  # highest double
    g.play("6-6")
    assert g.legal_moves() == [DRAW]  # P1 has no six: draw, not pass
    g.play("draw")  # 5-4 does not fit
    assert g.to_move == 1 and g.legal_moves() == [DRAW]
    g.play("draw")  # 6-0 fits both ends
    assert g.to_move == 1 and sorted(g.legal_tokens()) == ["6-0@L", "6-0@R"]


def test_d3_4_heaviest_tile_lead_ties_go_to_the_higher_end():
    # no doubles dealt; 6-5 and 6-4 in the boneyard: 6-3 and 5-4 both have 9 pips
    deal = [
        T("5-4", "5-3", "5-2", "5-1", "5-0", "4-3", "4-2"),
        T("6-3", "6-2", "6-1", "6-0", "4-1", "4-0", "3-2"),
    ]
    bone = rest_of(*deal)
    g = game_with("draw", {"players": 2, "no_double_lead": "heaviest_tile"}, deal, bone)
    assert g.hand.leader == 1
    assert g.legal_tokens() == ["6-3"]


def test_s4_4_draw_ends_turn_false_one_draw_then_play_or_pass():
    deal = [
        T("6-6", "0-0", "1-0", "2-0", "1-1", "2-1", "3-0"),
        T("6-5", "5-5", "5-4", "5-3", "5-2", "5-1", "5-0"),
    ]
    bone = rest_of(*deal)
    g = game_with("passing", {"players": 2, "draw_ends_turn": False}, deal, bone, leader=0)
    g.play("6-6")
    assert DRAW in g.legal_moves() and PASS in g.legal_moves()
    g.play("draw")
    assert g.to_move == 1  # still P1's turn
    legal = g.legal_moves()
    assert DRAW not in legal and PASS in legal
    assert any(NAME[tile_of(m)] == "6-5" for m in legal if m < PASS)
    with pytest.raises(ValueError, match="already drawn"):
        g.play("draw")
    g.play("pass")
    assert g.to_move == 0 and DRAW in g.legal_moves()


def _lowest_individual_hand(team_scoring: str) -> Game:
    deal = [
        T("6-6", "4-0", "3-1", "2-2", "5-0", "4-1"),  # P0 keeps 22 after leading 6-6
        T("4-3", "4-4", "5-1", "5-2", "5-3", "5-4"),  # P1 45
        T("0-0", "1-0", "2-0", "1-1", "6-5", "3-3"),  # P2 22
        T("5-5", "6-0", "6-1", "6-2", "6-3", "6-4"),
    ]  # P3 50
    bone = T("2-1", "3-0", "3-2", "4-2")
    g = game_with("passing", {"teams": True, "team_scoring": team_scoring}, deal, bone, leader=0)
    play_all(g, ["6-6", "pass", "pass", "pass", "pass"])  # a full cycle of passes ends it
    return g


def test_s4_4_lowest_individual_partners_tied_for_lowest_win_as_a_side():
    g = _lowest_individual_hand("lowest_individual")
    res = g.hand.result
    assert res.end == "blocked" and res.pips == (22, 45, 22, 50)
    assert res.winner == 0 and res.points == (45 + 50 - 22, 0)
    side = _lowest_individual_hand("side_value").hand.result
    assert side.winner == 0 and side.points == (95 - 44, 0)


def test_q1_4_start_bonus_rounds_tells_how_many_bonuses_were_paid():
    # a Quinientos domino hand, replayed as round 3 and as round 9 of a game
    src = replay(_quinientos_domino_doc(9, None, True))
    base = src.hands[0].result.points[src.hands[0].result.winner]
    assert src.hands[0].result.breakdown["round_bonus"] == 0

    def points(hand: int, bonus_rounds, by_index: bool) -> int:
        g = replay(_quinientos_domino_doc(hand, bonus_rounds, by_index))
        r = g.hands[0].result
        return r.points[r.winner]

    assert points(3, None, True) == base + 50  # round 3
    assert points(3, None, False) == base + 50  # assume rounds 1-2 used the 100 and 75
    assert points(3, 1, False) == base + 75  # only one bonus paid before
    assert points(3, 0, False) == base + 100


def _quinientos_domino_doc(hand: int, bonus_rounds, by_index: bool) -> dict:
    import json
    import pathlib

    ex = json.loads(
        (pathlib.Path(__file__).resolve().parents[1] / "examples" / "quinientos.record.json").read_text()
    )
    h = dict(ex["hands"][0])
    h["leader"] = 0
    start = {"hand": hand, "totals": [0, 0]}
    if bonus_rounds is not None:
        start["bonus_rounds"] = bonus_rounds
    return {
        "format": "bonepile-record/1",
        "variant": "quinientos",
        "options": {"bonus_by_round_index": by_index},
        "start": start,
        "hands": [h],
    }


def test_d3_preset_option_accepts_only_the_variants_own_name():
    assert make_variant("draw", {"preset": "draw"}).name == "draw"
    with pytest.raises(OptionError, match="preset"):
        make_variant("draw", {"preset": "block"})
    with pytest.raises(OptionError, match="preset"):
        make_variant("block", {"preset": "draw"})


def test_default_player_counts():
    assert {n: make_variant(n).players for n in PLAYER_COUNTS} == {
        "quinientos": 4,
        "cinque": 4,
        "draw": 4,
        "block": 4,
        "passing": 4,
        "blind-hugie": 4,
        "billitonnen": 4,
        "all-fives": 4,
        "muggins": 4,
        "fives-and-threes": 4,
        "dominican": 4,
        "cuban": 4,
        "mexican-train": 4,
        "chicken-foot": 4,
    }


def test_first_tile_may_be_written_either_way_round():
    deal = [
        T("6-5", "0-0", "1-0", "2-0", "1-1", "2-1", "3-0"),
        T("6-6", "5-5", "5-4", "5-3", "5-2", "5-1", "5-0"),
    ]
    g = game_with("passing", {"players": 2}, deal, rest_of(*deal), leader=0)
    assert "6-5" in g.legal_tokens() and "5-6" not in g.legal_tokens()  # listed once
    g.play("5-6")  # the other way round is accepted and laid as written
    assert g.hand.ends() == {"L": 5, "R": 6}


def test_d3_4_heaviest_tile_is_led_even_when_any_lead_is_allowed():
    deal = [
        T("5-4", "5-3", "5-2", "5-1", "5-0", "4-3", "4-2"),
        T("6-3", "6-2", "6-1", "6-0", "4-1", "4-0", "3-2"),
    ]
    g = game_with(
        "draw",
        {"players": 2, "no_double_lead": "heaviest_tile", "lead_highest_double": False},
        deal,
        rest_of(*deal),
    )
    assert g.hand.leader == 1 and g.legal_tokens() == ["6-3"]


def _random_hands(variant, count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        h = Hand.deal(variant, rng)
        while not h.over:
            ms = h.legal_moves()
            h.apply(ms[rng.randrange(len(ms))])
        yield h


def test_t6_3_fewest_tiles_blocked_winner_and_tie_means_no_winner():
    v = make_variant("billitonnen", {"players": 4, "blocked_winner": "fewest_tiles"})
    seen_unique = seen_tie = False
    for h in _random_hands(v, 3000, 1):
        if h.end != "blocked":
            continue
        counts = [len(r) for r in h.rows]
        fewest = [s for s, c in enumerate(counts) if c == min(counts)]
        if len(fewest) == 1:
            assert h.result.winner == fewest[0]
            seen_unique = True
        else:
            assert h.result.winner is None
            seen_tie = True
        if seen_unique and seen_tie:
            break
    assert seen_unique and seen_tie


def test_c2_4_immediate_target_reached_by_the_last_tile_keeps_the_domino_end():
    # find a hand whose going-out tile is its side's first score, then replay it with that
    # side just short of the target
    v_free = make_variant("cinque", {"target": 10_000})
    for h in _random_hands(v_free, 400, 2):
        if h.end != "domino":
            continue
        side = h.result.dominoer % 2
        replayed = h.fresh()
        scores = []
        for _s, m, _t in h.log:
            before = replayed.inplay[side]
            replayed.apply(m)
            scores.append(replayed.inplay[side] - before)
        if scores[-1] and not any(scores[:-1]):
            break
    else:
        pytest.fail("no suitable hand found")
    last = scores[-1]
    v = make_variant("cinque", {"target_rule": "immediate"})
    totals = [0, 0]
    totals[side] = 100 - last
    g = Game(v, auto_deal=False, start_totals=totals)
    g.next_hand(deal=h.deal_rows, leader=h.leader)
    for _s, m, _t in h.log:
        g.apply(m)
    res = g.hands[0].result
    assert res.end == "domino" and res.winner == side
    assert g.over and g.winner == side and g.totals[side] == 100


def test_d3_4_no_double_lead_redeal_deals_again_in_random_games():
    from bonepile.engine.tiles import DOUBLE_MASK

    by_lot = make_variant("draw", {"players": 2})
    redeal = make_variant("draw", {"players": 2, "no_double_lead": "redeal"})
    found = 0
    for seed in range(4000):
        h = Hand.deal(by_lot, random.Random(seed))
        if any(m & DOUBLE_MASK for m in h.masks):
            continue
        found += 1
        again = Hand.deal(redeal, random.Random(seed))
        assert any(m & DOUBLE_MASK for m in again.masks)  # a new deal, with a double
        assert again.must_lead >= 0 and again.masks[again.leader] >> again.must_lead & 1
    assert found >= 3  # about 0.3% of 2-player deals hold no double


def test_0_2_each_game_is_played_in_its_direction():
    """RULES.md: Quinientos (§1.3), Block (§3.3, S22), Dominican pairs (§12) and Cuban (§14) go
    counterclockwise, the others clockwise (Cinque §2.3, Draw §3.3, Passing §4.3, Blind Hugie
    §5.3, Billitonnen §6.2, All Fives §9, Muggins §10, Fives and Threes §11)."""
    from bonepile.engine import make_variant
    from bonepile.engine.variant import PLAYER_COUNTS

    ccw = {"quinientos", "block", "dominican", "cuban"}
    for name, counts in PLAYER_COUNTS.items():
        for n in counts:
            v = make_variant(name, {"players": n})
            assert v.direction == ("counterclockwise" if name in ccw else "clockwise"), (name, n)
