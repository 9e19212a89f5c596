"""How to play for the games of issue 31 (All Fives, Muggins, Fives and Threes, Cuban and
Dominican pairs): each worked example's numbers checked again from the tiles it shows (the
table's ends, the rows of tiles), not from the engine's word."""

from __future__ import annotations

import pytest

from bonepile.engine.variant import VARIANT_NAMES
from bonepile.web.words import howto
from test_web_howto import _eval, _pips, _row_pips


def _examples(game: str) -> dict[str, dict]:
    if game not in VARIANT_NAMES:  # (the engine's presets land separately)
        pytest.skip(f"the engine has no {game} yet")
    return {ex["id"]: ex for ex in howto.examples(game)}


def _ends_count(board: dict) -> int:
    """The ends' count read off the table: each open end (of a line both, of a spinner the
    arms holding a tile), a double at an end twice."""
    arms = board["arms"] if board["spinner"] is not None else board["ends"]
    return sum(
        board["ends"][arm] * (2 if arm in board["double_ends"] else 1) for arm in arms if arm in board["ends"]
    )


def _round5(x: int) -> int:
    return (x + 2) // 5 * 5


@pytest.mark.parametrize("game", ["all-fives", "muggins"])
def test_the_fives_count_and_going_out(game):
    ex = _examples(game)
    count = ex["count"]
    v = count["values"]
    assert _eval(v["formula"]) == v["points"] == _ends_count(count["board"]) and v["points"] % 5 == 0
    assert count["last"] == v["tile"] and count["board"]["double_ends"]
    if game == "all-fives":
        assert count["board"]["spinner"] is not None and len(count["board"]["ends"]) >= 3
    else:
        assert count["board"]["spinner"] is None and set(count["board"]["ends"]) == {"L", "R"}
    out = ex["domino"]
    v = out["values"]
    pips = [_row_pips(r) for r in out["rows"]]
    assert len(pips) == 3  # the three other hands (the game's default: four players)
    assert v["pips"] == sum(pips) == _eval(v["parts"]) and v["pips"] % 5 != 0
    assert v["points"] == _round5(v["pips"])  # the nearest five (1-2 down, 3-4 up)
    assert all(r["params"]["player"] != v["player"] for r in out["rows"])


def test_fives_and_threes_count_fives_and_threes():
    ex = _examples("fives-and-threes")
    both, double = ex["count"], ex["double"]
    v = both["values"]
    assert _eval(v["ends"]) == v["total"] == _ends_count(both["board"]) and v["total"] % 15 == 0
    assert (v["fives"], v["threes"]) == (v["total"] // 5, v["total"] // 3)
    assert _eval(v["formula"]) == v["points"] == v["fives"] + v["threes"]
    v = double["values"]
    total = v["total"]
    assert _eval(v["ends"]) == total == _ends_count(double["board"]) and total % 15 != 0
    assert double["board"]["double_ends"] and "(" in v["ends"]
    want = (total // 5 if total % 5 == 0 else 0) + (total // 3 if total % 3 == 0 else 0)
    assert v["points"] == want > 0


def test_cuban_is_a_double_nine_partnership_game():
    ex = _examples("cuban")
    out, blocked = ex["domino"], ex["blocked"]
    shown = [x["tile"] for e in (out, blocked) for r in e["rows"] for x in r["tiles"]]
    assert max(max(_pips(t)) for t in shown) <= 9
    v = out["values"]
    assert all(r["params"]["team"] != v["team"] for r in out["rows"]) and len(out["rows"]) == 2
    assert v["points"] == sum(map(_row_pips, out["rows"])) == _eval(v["formula"])
    v = blocked["values"]
    other = [r for r in blocked["rows"] if r["params"]["team"] != v["team"]]
    assert v["points"] == sum(map(_row_pips, other)) == _eval(v["formula"]) and v["low"] < v["high"]


def test_dominican_capicua_counts_every_hand_and_pase_redondo():
    ex = _examples("dominican")
    capicu, pase = ex["capicu"], ex["pase"]
    v = capicu["values"]
    last, *hands = capicu["rows"]
    assert last["tiles"] == [{"tile": v["tile"], "mark": True}]
    # every other hand counts, the partner's too
    assert len(hands) == 3 and {r["params"]["team"] for r in hands} == {1, 2}
    assert v["base"] == sum(map(_row_pips, hands)) and v["extra"] == 25 == v["total"] - v["base"]
    assert {v["left"], v["right"]} <= set(_pips(v["tile"])) and capicu["marks"] == ["L", "R"]
    v = pase["values"]
    assert v["points"] == 25 and pase["last"] == v["tile"]
    on_table = [pase["board"]["first"]] + [p["tile"] for arm in pase["board"]["arms"].values() for p in arm]
    assert v["tile"] in on_table
