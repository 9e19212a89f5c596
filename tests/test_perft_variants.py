"""Perft tables for every variant, checked against an independent move generator.

Each file ``tests/perft/<variant>.json`` holds cases: the variant, its options, a fixed deal
given as data (hands, or blind rows front first; the boneyard in drawing order; the leader
and the tile it must lead, if any) and the engine's node counts for depths 1..D.  A case is
checked twice: the engine's counts against the stored ones, and the stored ones against
``perft_oracle`` (written from RULES.md alone).  On a mismatch the failure shows the
per-first-move counts ("divide") of both, so the differing move is obvious.

Regenerate the tables (engine counts, then confirmed by the oracle) with
``PYTHONPATH=src python tests/test_perft_variants.py`` (or name the variants to regenerate:
``... tests/test_perft_variants.py all-fives muggins``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import perft_oracle as oracle
from bonepile.engine import DRAW, NAME, PASS, Hand, make_variant, perft
from bonepile.engine.tiles import ARM_NAMES, arm_of, tile_index, tile_of

PERFT_DIR = Path(__file__).parent / "perft"
Case = dict[str, Any]


# ------------------------------------------------------------------ engine <-> oracle
def engine_hand(case: Case) -> Hand:
    v = make_variant(case["variant"], case["options"])
    deal = [[tile_index(*oracle.tile_of(t)) for t in row] for row in case["hands"]]
    boneyard = [tile_index(*oracle.tile_of(t)) for t in case["boneyard"]]
    must = case["must_lead"]
    return Hand(
        v,
        deal,
        boneyard,
        case["leader"],
        must_lead=-1 if must is None else tile_index(*oracle.tile_of(must)),
        totals=case.get("totals"),
    )


def oracle_state(case: Case) -> oracle.State:
    rules = oracle.rules_for(case["variant"], case["options"])
    must = case["must_lead"]
    return oracle.start(
        rules,
        [[oracle.tile_of(t) for t in row] for row in case["hands"]],
        [oracle.tile_of(t) for t in case["boneyard"]],
        case["leader"],
        None if must is None else oracle.tile_of(must),
        case.get("totals", (0, 0)),
    )


def to_oracle_move(m: int, first: bool) -> oracle.Move:
    """An engine move as the oracle writes it; ``first``: the layout is still empty."""
    if m == PASS:
        return ("pass",)
    if m == DRAW:
        return ("draw",)
    t, code = tile_of(m), arm_of(m)
    if first:
        assert code == 0, f"a lead with orientation code {code}"
        return ("lead", NAME[t])
    return ("play", NAME[t], ARM_NAMES[code])


def engine_divide(h: Hand, depth: int) -> dict[oracle.Move, int]:
    out: dict[oracle.Move, int] = {}
    first = h.placed == 0
    for m in h.legal_moves():
        h.push(m)
        out[to_oracle_move(m, first)] = perft(h, depth - 1)
        h.pop()
    return out


def show_divide(engine: dict[oracle.Move, int], ref: dict[oracle.Move, int]) -> str:
    lines = [f"{'move':<18}{'engine':>10}{'oracle':>10}"]
    for m in sorted(set(engine) | set(ref)):
        e, o = engine.get(m), ref.get(m)
        mark = "" if e == o else "   <-- differs"
        lines.append(
            f"{' '.join(m):<18}{e if e is not None else '-':>10}{o if o is not None else '-':>10}{mark}"
        )
    return "\n".join(lines)


# ------------------------------------------------------------------ the stored cases
def load_cases() -> list[Case]:
    cases: list[Case] = []
    for path in sorted(PERFT_DIR.glob("*.json")):
        cases.extend(json.loads(path.read_text())["cases"])
    return cases


CASES = load_cases()


def _param(case: Case) -> Any:
    marks = [pytest.mark.xfail(strict=True, reason=case["xfail"])] if case.get("xfail") else []
    return pytest.param(case, id=case["id"], marks=marks)


def path_to_difference(h: Hand, s: oracle.State, depth: int) -> str:
    """Follow the first move whose counts differ down to the position where the engine's and
    the oracle's legal moves differ; ``h`` is left unchanged."""
    path: list[str] = []
    pushed = 0
    try:
        while depth >= 1:
            first = not s.laid
            engine = {to_oracle_move(m, first): m for m in h.legal_moves()}
            ref = oracle.legal(s)
            if set(engine) != set(ref):
                return (
                    f"after {' / '.join(path) or 'no move'}: engine-only "
                    f"{sorted(set(engine) - set(ref))}, oracle-only {sorted(set(ref) - set(engine))}"
                )
            if depth == 1:
                break
            for m in ref:
                s2 = oracle.apply(s, m)
                h.push(engine[m])
                if perft(h, depth - 1) != oracle.perft(s2, depth - 1):
                    path.append(" ".join(m))
                    pushed += 1
                    s = s2
                    break
                h.pop()
            else:
                break
            depth -= 1
        return f"after {' / '.join(path) or 'no move'}: no difference in the legal moves"
    finally:
        for _ in range(pushed):
            h.pop()


def _first_difference(case: Case, h: Hand, s: oracle.State, counts: list[int]) -> str:
    """The shallowest depth where ``counts`` differ from ``case``'s, with both divides and the
    line of play that leads to the position where the two generators disagree."""
    for d, (got, want) in enumerate(zip(counts, case["counts"]), start=1):
        if got != want:
            return (
                f"{case['id']}: depth {d}: {got} != stored {want}\n"
                + show_divide(engine_divide(h, d), oracle.divide(s, d))
                + "\n"
                + path_to_difference(h, s, d)
            )
    return ""


def engine_counts(h: Hand, depth: int) -> list[int]:
    """[perft(h, 1), ..., perft(h, depth)] in one walk of the tree (legal_moves, push, pop)."""
    if h.over:
        return [1] * depth
    moves = h.legal_moves()
    out = [len(moves)] + [0] * (depth - 1)
    if depth > 1:
        for m in moves:
            h.push(m)
            for i, c in enumerate(engine_counts(h, depth - 1), start=1):
                out[i] += c
            h.pop()
    return out


def engine_counts_by_copy(h: Hand, depth: int) -> list[int]:
    """The same walk with ``copy`` + ``apply`` instead of ``push``/``pop``."""
    if h.over:
        return [1] * depth
    moves = h.legal_moves()
    out = [len(moves)] + [0] * (depth - 1)
    if depth > 1:
        for m in moves:
            child = h.copy()
            child.apply(m)
            for i, c in enumerate(engine_counts_by_copy(child, depth - 1), start=1):
                out[i] += c
    return out


def oracle_counts(s: oracle.State, depth: int) -> list[int]:
    """The same with the independent generator."""
    if oracle.is_over(s):
        return [1] * depth
    moves = oracle.legal(s)
    out = [len(moves)] + [0] * (depth - 1)
    if depth > 1:
        for m in moves:
            for i, c in enumerate(oracle_counts(oracle.apply(s, m), depth - 1), start=1):
                out[i] += c
    return out


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_perft_engine_matches_stored_counts(case: Case) -> None:
    h = engine_hand(case)
    depth = len(case["counts"])
    counts = engine_counts(h, depth)
    assert counts == case["counts"], _first_difference(case, h, oracle_state(case), counts)
    assert perft(h, depth) == counts[-1]  # engine.hand.perft itself, at the deepest depth
    assert engine_counts_by_copy(h, depth) == counts
    assert h.log == [] and h.legal_moves() == engine_hand(case).legal_moves()  # left unchanged


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_perft_stored_counts_match_independent_generator(case: Case) -> None:
    s = oracle_state(case)
    counts = oracle_counts(s, len(case["counts"]))
    assert counts == case["counts"], _first_difference(case, engine_hand(case), s, counts)
    assert oracle.perft(s, len(counts)) == counts[-1]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_perft_deals_are_whole_sets_dealt_by_the_rules(case: Case) -> None:
    sizes = [len(row) for row in case["hands"]]
    assert sizes == oracle.deal_sizes(case["variant"], case["options"], case["leader"])
    tiles = [t for row in case["hands"] for t in row] + case["boneyard"]
    top = oracle.top_pip(case["variant"], case["options"])
    assert sorted(map(oracle.tile_of, tiles)) == [(a, b) for a in range(top + 1) for b in range(a + 1)]


def test_perft_tables_cover_every_variant() -> None:
    from bonepile.engine import VARIANT_NAMES

    per_variant: dict[str, int] = {}
    for case in CASES:
        per_variant[case["variant"]] = per_variant.get(case["variant"], 0) + 1
    assert set(per_variant) == set(VARIANT_NAMES)
    assert all(k >= 2 for k in per_variant.values()), per_variant  # default + another setting


# ------------------------------------------------------------------ random positions
#: (variant, options): every setting the tables use, and a few more
SETTINGS: list[tuple[str, dict[str, Any]]] = [
    ("quinientos", {}),
    ("quinientos", {"first_lead": "any"}),
    ("cinque", {}),
    ("cinque", {"spinner_any_order": True}),
    ("cinque", {"target_rule": "immediate"}),
    ("draw", {}),
    ("draw", {"players": 2}),
    ("draw", {"players": 3, "boneyard_reserve": 2}),
    ("draw", {"lead_highest_double": False}),
    ("block", {}),
    ("block", {"players": 2}),
    ("block", {"players": 3}),
    ("passing", {}),
    ("passing", {"players": 2}),
    ("passing", {"draw_ends_turn": False}),
    ("passing", {"players": 3, "end_on_full_pass_cycle": False}),
    ("passing", {"teams": True}),
    ("blind-hugie", {}),
    ("blind-hugie", {"players": 2}),
    ("blind-hugie", {"tiles_per_turn": "while_playable"}),
    ("blind-hugie", {"players": 3, "deal": "full", "full_deal_starter": True}),
    ("blind-hugie", {"players": 2, "deal": "full", "tiles_per_turn": "while_playable"}),
    ("billitonnen", {}),
    ("billitonnen", {"players": 3}),
    ("billitonnen", {"players": 5}),
    ("all-fives", {}),
    ("all-fives", {"players": 3, "target_rule": "immediate"}),
    ("muggins", {"players": 2}),
    ("muggins", {"teams": True}),
    ("fives-and-threes", {}),
    ("fives-and-threes", {"players": 2, "teams": False}),
    ("dominican", {}),
    ("cuban", {}),
    ("cuban", {"lead_rule": "rotate"}),
    ("block", {"set": "double-twelve"}),
    ("draw", {"players": 2, "set": "double-nine"}),
]
POSITIONS = 50  # per setting
#: game scores before the hand, per case (Cinque: the immediate target is close)
TOTALS = {
    "s2_4_Ce_cinque_target_immediate": [95, 90],
    "s11_fives_and_threes_first_to_61_at_once": [55, 58],
}
#: random positions: game scores before the hand near an immediate target
NEAR_TARGET = {"cinque": (70, 100), "all-fives": (220, 250), "fives-and-threes": (45, 61)}


SECTION = {
    "quinientos": "s1",
    "cinque": "s2",
    "draw": "s3",
    "block": "s3",
    "passing": "s4",
    "blind-hugie": "s5",
    "billitonnen": "s6",
    "all-fives": "s9",
    "muggins": "s10",
    "fives-and-threes": "s11",
    "dominican": "s12",
    "cuban": "s14",
}


def _setting_id(setting: tuple[str, dict[str, Any]]) -> str:
    name, options = setting
    return "-".join([SECTION[name], name, *(f"{k}={v}" for k, v in options.items())])


@pytest.mark.parametrize("setting", SETTINGS, ids=[_setting_id(s) for s in SETTINGS])
def test_random_positions_legal_moves_match_independent_generator(
    setting: tuple[str, dict[str, Any]],
) -> None:
    """§0.5-§6.2: in positions reached by random play from random deals, the engine's legal
    moves are the independent generator's (as sets), and both agree when the hand is over."""
    name, options = setting
    v = make_variant(name, options)
    rules = oracle.rules_for(name, options)
    rng = random.Random(_setting_id(setting))
    seen = 0
    while seen < POSITIONS:
        near = NEAR_TARGET.get(name)
        totals = [rng.randrange(*near) for _ in v.sides] if near else None
        h = Hand.deal(v, rng, totals=totals)
        hands = [[oracle.tile_of(NAME[t]) for t in row] for row in h.deal_rows]
        assert list(map(len, hands)) == oracle.deal_sizes(name, options, h.leader)
        assert len({*h.boneyard, *(t for row in h.deal_rows for t in row)}) == v.n_tiles
        leader, must = oracle.first_lead(name, options, hands)
        if leader is not None:  # §1.3, §2.3, §3.3: who leads the first hand, with which tile
            assert (h.leader, h.must_lead) == (leader, -1 if must is None else tile_index(*must))
        if must is not None and rng.random() < 0.5:  # as in a later hand: lead any tile
            must = None
            h = Hand(v, h.deal_rows, h.boneyard, h.leader, totals=totals)
        s = oracle.start(
            rules, hands, [oracle.tile_of(NAME[t]) for t in h.boneyard], h.leader, must, totals or (0, 0)
        )
        for _ in range(rng.randrange(1, 40)):
            got = {to_oracle_move(m, not s.laid) for m in h.legal_moves()}
            want = set(oracle.legal(s))
            assert got == want, (
                f"{_setting_id(setting)} after {[m for _, m, _ in h.log]}: "
                f"engine-only {got - want}, oracle-only {want - got}"
            )
            assert h.over == oracle.is_over(s)
            assert h.end == oracle.end_kind(s)
            assert h.to_move == s.to_move or h.over
            seen += 1
            if h.over:
                break
            m = rng.choice(h.legal_moves())
            s = oracle.apply(s, to_oracle_move(m, not s.laid))
            h.apply(m)


# ------------------------------------------------------------------ regenerating the tables
#: (id named after the RULES.md section, variant, options, deal seed, depth, lead override)
SPECS: list[tuple[str, str, dict[str, Any], int, int, str | None]] = [
    ("s1_3_quinientos_double_six_leads", "quinientos", {}, 1, 9, None),
    ("s1_4_Qa_quinientos_first_lead_any", "quinientos", {"first_lead": "any"}, 2, 6, None),
    ("s2_3_cinque_spinner_led", "cinque", {}, 1, 8, None),
    ("s2_3_cinque_spinner_played_later", "cinque", {}, 3, 6, "any"),
    ("s2_4_Ca_cinque_spinner_any_order", "cinque", {"spinner_any_order": True}, 1, 7, None),
    ("s2_4_Ce_cinque_target_immediate", "cinque", {"target_rule": "immediate"}, 1, 8, None),
    ("s3_3_draw_until_playable", "draw", {}, 1, 12, None),
    ("s3_3_draw_2_players", "draw", {"players": 2}, 2, 10, None),
    ("s3_4_Df_draw_boneyard_reserve", "draw", {"players": 3, "boneyard_reserve": 2}, 3, 12, None),
    ("s3_3_block_4_players", "block", {}, 5, 9, None),
    ("s3_3_block_2_players_stock", "block", {"players": 2}, 6, 10, None),
    ("s4_3_passing_play_draw_or_pass", "passing", {}, 1, 6, None),
    ("s4_3_passing_2_players_pass_cycle", "passing", {"players": 2}, 2, 6, None),
    ("s4_4_Pd_passing_draw_does_not_end_turn", "passing", {"draw_ends_turn": False}, 3, 6, None),
    (
        "s4_4_Pf_passing_no_pass_cycle_rule",
        "passing",
        {"players": 2, "end_on_full_pass_cycle": False},
        2,
        6,
        None,
    ),
    ("s5_3_blind_hugie_one_tile_per_turn", "blind-hugie", {}, 37, 41, None),
    ("s5_3_blind_hugie_2_players", "blind-hugie", {"players": 2}, 17, 21, None),
    ("s5_4_Bb_blind_hugie_while_playable", "blind-hugie", {"tiles_per_turn": "while_playable"}, 33, 35, None),
    (
        "s5_4_Ba_blind_hugie_full_deal_starter",
        "blind-hugie",
        {"players": 3, "deal": "full", "full_deal_starter": True},
        15,
        60,
        None,
    ),
    ("s6_2_billitonnen_4_players", "billitonnen", {}, 4, 45, None),
    ("s6_2_billitonnen_3_players_starter", "billitonnen", {"players": 3}, 19, 68, None),
    ("s6_2_billitonnen_5_players", "billitonnen", {"players": 5}, 19, 55, None),
    ("s9_all_fives_spinner_and_drawing", "all-fives", {}, 1, 8, None),
    ("s9_all_fives_2_players", "all-fives", {"players": 2}, 2, 6, None),
    ("s10_muggins_2_players_reserve", "muggins", {"players": 2}, 1, 10, None),
    ("s10_muggins_4_players_double_leads", "muggins", {}, 2, 8, None),
    ("s11_fives_and_threes_league", "fives-and-threes", {}, 1, 8, None),
    ("s11_fives_and_threes_first_to_61_at_once", "fives-and-threes", {"players": 2}, 2, 8, None),
    ("s12_dominican_double_six_leads", "dominican", {}, 1, 9, None),
    ("s12_dominican_later_hand", "dominican", {}, 2, 7, "any"),
    ("s14_cuban_highest_double_leads", "cuban", {}, 1, 10, None),
    ("s14_cuban_later_hand_any_lead", "cuban", {}, 2, 7, "any"),
    ("s3_4_block_double_twelve", "block", {"set": "double-twelve"}, 3, 10, None),
]


def _deal_case(case_id: str, name: str, options: dict[str, Any], seed: int, must_lead: str | None) -> Case:
    h = Hand.deal(make_variant(name, options), random.Random(seed))
    must = NAME[h.must_lead] if h.must_lead >= 0 else None
    if must_lead == "any":  # a later hand: the leader may lead any tile
        must = None
    return {
        "id": case_id,
        "variant": name,
        "options": options,
        "hands": [[NAME[t] for t in row] for row in h.deal_rows],
        "boneyard": [NAME[t] for t in h.boneyard],
        "leader": h.leader,
        "must_lead": must,
    }


def regenerate(only: list[str] | None = None) -> None:
    """Rewrite the tables (of the variants ``only`` names, default all)."""
    import time

    by_variant: dict[str, list[Case]] = {}
    for case_id, name, options, seed, depth, lead in SPECS:
        if only and name not in only:
            continue
        case = _deal_case(case_id, name, options, seed, lead)
        if case_id in TOTALS:
            case["totals"] = TOTALS[case_id]
        h = engine_hand(case)
        t0 = time.perf_counter()
        case["counts"] = counts = engine_counts(h, depth)
        assert perft(h, depth) == counts[-1]
        t1 = time.perf_counter()
        s = oracle_state(case)
        ref = oracle_counts(s, depth)
        t2 = time.perf_counter()
        status = "ok" if ref == counts else f"DIFFERS: oracle {ref}"
        print(f"{case_id}: {counts} engine {t1 - t0:.2f}s oracle {t2 - t1:.2f}s {status}")
        if ref != counts:
            print(_first_difference(case, h, s, ref))
        by_variant.setdefault(name, []).append(case)
    for name, cases in by_variant.items():
        text = json.dumps({"variant": name, "cases": cases}, indent=1)
        (PERFT_DIR / f"{name}.json").write_text(text + "\n")


if __name__ == "__main__":
    import sys

    regenerate(sys.argv[1:] or None)
