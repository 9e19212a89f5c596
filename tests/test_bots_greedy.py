"""The greedy bot's club-player heuristics in hand-built positions (RULES.md sections)."""

from __future__ import annotations

from bonepile.bots import make_bot
from bonepile.engine import Game, make_variant
from bonepile.engine.tiles import parse_tile


def T(name: str) -> int:
    return parse_tile(name)[0]


def game_with(variant: str, opts: dict, deal: list[list[str]], leader: int | None = None) -> Game:
    g = Game(make_variant(variant, opts), auto_deal=False)
    g.next_hand(deal=[[T(x) for x in row] for row in deal], leader=leader)
    return g


DOUBLES = ["6-6", "0-0", "1-1", "2-2", "3-3", "4-4", "5-5"]


def greedy_tile(g: Game) -> str:
    s = g.to_move
    bot = make_bot("greedy", g.variant, seed=0)
    m = bot.choose(g.view(s))
    return g.token(m).split("@")[0]


def test_3_3_block_sheds_the_heavy_tile():
    """§3.3 Block: after the 6-6 lead, with 6-5 and 6-1 playable, shed the heavier 6-5."""
    g = game_with(
        "block",
        {"players": 4},
        [
            DOUBLES,
            ["6-5", "6-1", "1-0", "2-0", "3-0", "4-0", "5-0"],
            ["6-4", "6-3", "6-2", "6-0", "2-1", "3-1", "4-1"],
            ["5-1", "3-2", "4-2", "5-2", "4-3", "5-3", "5-4"],
        ],
    )
    g.play("6-6")
    assert greedy_tile(g) == "6-5"


def test_2_3_cinque_takes_the_multiple_of_five():
    """§2.3 Cinque count: on the 6-6 spinner, 6-3 scores 3 + 12 = 15; 6-5 (heavier) scores nothing."""
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
    assert greedy_tile(g) == "6-3"
    ev = make_bot("greedy", g.variant, seed=0).evaluate(g.view(1))
    assert "scores 15" in ev[0].reason


def test_1_3_quinientos_sheds_the_heavier_six_and_ranks_best_first():
    """§1.3 Quinientos: after the 6-6 lead, 6-5 (11 pips) goes before 6-1, and the
    evaluation is sorted best first."""
    g = game_with(
        "quinientos",
        {},
        [
            DOUBLES,
            ["6-5", "6-1", "1-0", "2-0", "2-1", "3-1", "4-1"],
            ["6-4", "6-2", "6-3", "6-0", "3-0", "4-0", "5-0"],
            ["5-1", "3-2", "4-2", "5-2", "4-3", "5-3", "5-4"],
        ],
    )
    g.play("6-6")
    ev = make_bot("greedy", g.variant, seed=0).evaluate(g.view(1))
    assert g.token(ev[0].action).startswith("6-5")
    assert all(e.value >= ev[-1].value for e in ev)
