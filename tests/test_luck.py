"""Luck and skill told apart (``analysis/luck.py``, docs/ANALYSIS.md#luck-and-skill): a deal's
value is the same for a deal and a seed, reads the deal and nothing played, sums to nothing
over the sides, and changes sides with the tiles; a hand's result is luck + skill + the rest."""

from __future__ import annotations

import random

import pytest

from bonepile.analysis import analyze
from bonepile.analysis.luck import deal_value, hand_luck, hand_result, net
from bonepile.bots import make_bot
from bonepile.bots.budget import Budget
from bonepile.engine import Game, make_variant
from bonepile.engine.hand import Hand
from bonepile.engine.tiles import PIP_MASK, bits

#: a small budget: the properties hold at any
PLAYOUTS = 24


def _played(name: str, options: dict, seed: int, bot_seed: int = 0) -> Game:
    """The first hand of a game played to its end by random bots."""
    g = Game.new(name, options, seed=seed)
    bots = [make_bot("random", g.variant, seed=bot_seed * 10 + s) for s in range(g.variant.players)]
    while not g.hands[0].over:
        s = g.to_move
        g.apply(bots[s].choose(g.view(s)))
    return g


def _rotated(h: Hand) -> Hand:
    """The same deal with every seat's tiles moved to the next seat (and the lead with them):
    in a game of two sides, the sides' tiles swapped."""
    n = h.v.players
    nsides = len(h.v.sides)
    return Hand(
        h.v,
        [h.deal_rows[(i - 1) % n] for i in range(n)],
        h.boneyard,
        (h.leader + 1) % n,
        must_lead=h.must_lead,
        number=h.number,
        totals=[h.totals[(i - 1) % nsides] for i in range(nsides)],
        bonus=h.bonus,
        starter_first=h.starter_first,
    )


GAMES = [
    ("block", {"players": 2}),
    ("draw", {"players": 2}),
    ("passing", {"players": 4, "teams": True}),
    ("cinque", {"players": 4}),
]


@pytest.mark.parametrize("name,options", GAMES)
def test_swapping_the_sides_tiles_negates_the_deal_value_exactly(name, options):
    for seed in range(3):
        h = Game.new(name, options, seed=seed).hands[0]
        a = deal_value(h, playouts=PLAYOUTS, seed=7).values
        b = deal_value(_rotated(h), playouts=PLAYOUTS, seed=7).values
        assert len(a) == 2 and a[0] == -a[1]
        assert b == (a[1], a[0])


def test_the_value_is_the_same_for_a_deal_and_a_seed_and_reads_nothing_played():
    g1 = _played("draw", {"players": 2}, seed=5, bot_seed=1)
    g2 = _played("draw", {"players": 2}, seed=5, bot_seed=2)
    h1, h2 = g1.hands[0], g2.hands[0]
    assert h1.log != h2.log  # the same deal played two ways
    v = deal_value(h1, playouts=PLAYOUTS, seed=3)
    assert v == deal_value(h2, playouts=PLAYOUTS, seed=3) == deal_value(h1.fresh(), playouts=PLAYOUTS, seed=3)
    assert v.playouts == PLAYOUTS and v.seed == 3
    # another seed draws other playouts (the value is a mean of them, not one line of play)
    assert any(deal_value(h1, playouts=PLAYOUTS, seed=s).values != v.values for s in (4, 5, 6))


@pytest.mark.parametrize("name,options", [("draw", {"players": 3}), ("billitonnen", {"players": 4})])
def test_with_more_sides_the_values_sum_to_nothing(name, options):
    h = Game.new(name, options, seed=2).hands[0]
    v = deal_value(h, playouts=8, seed=1).values
    assert len(v) == len(h.v.sides) and abs(sum(v)) < 0.01
    if h.v.scoring == "result_only":  # a chance to win, net of the others' mean chance
        assert all(-1.0 <= x <= 1.0 for x in v)


def test_a_deal_needs_a_playout():
    with pytest.raises(ValueError, match="at least 1 playout, not 0"):
        deal_value(Game.new("block", {"players": 2}, seed=1).hands[0], playouts=0)


def test_a_hands_result_is_luck_plus_skill_plus_the_rest():
    g = _played("block", {"players": 2}, seed=9)
    h = g.hands[0]
    v = deal_value(h, playouts=PLAYOUTS, seed=1)
    lk = hand_luck(1, h, v, [(0, 5.0), (1, 1.0), (0, 2.0)])
    assert lk.lost == (7.0, 1.0) and lk.skill == (-6.0, 6.0)
    p = h.result.points
    assert lk.result == hand_result(g.variant, h) == (p[0] - p[1], p[1] - p[0])
    for i in range(2):
        assert lk.result[i] == pytest.approx(lk.luck[i] + lk.skill[i] + lk.noise[i], abs=0.002)
    # without the decisions judged: no skill, the rest is the result less the luck
    bare = hand_luck(1, h, v, None)
    assert bare.skill is None and bare.lost is None
    assert bare.noise == tuple(round(r - x, 3) for r, x in zip(bare.result, bare.luck))
    assert net([6, 0, 0]) == (6.0, -3.0, -3.0)


def test_the_analysis_tells_luck_from_skill_only_where_every_seat_is_judged():
    g = _played("block", {"players": 2}, seed=4)
    fast = Budget(simulations=2, nodes=2000)
    a = analyze(g, budget=fast, ways=("knew",), playouts=PLAYOUTS, seed=1)
    lk = a.hands[0].luck
    assert lk is not None and lk.skill is not None
    assert lk.luck == deal_value(g.hands[0], playouts=PLAYOUTS, seed=1 + 1).values
    # the points lost: what each decision lost in the hand's points, summed per side
    lost = [0.0, 0.0]
    for d in a.hands[0].decisions:
        pts = {m.move: m.knew_points for m in d.moves}
        lost[d.side] += max(0.0, pts[d.knew.best] - pts[d.played])
    assert lk.lost == pytest.approx(tuple(lost), abs=0.01)
    one = analyze(g, seats=[0], budget=fast, ways=("knew",), playouts=PLAYOUTS, seed=1)
    assert one.hands[0].luck.luck == lk.luck and one.hands[0].luck.skill is None
    assert analyze(g, budget=fast, ways=("shown",), playouts=PLAYOUTS).hands[0].luck.skill is None
    assert analyze(g, budget=fast, ways=("knew",), playouts=0).hands[0].luck is None


def test_a_deal_of_every_six_is_worth_much_to_its_holder():
    """Seat 0 is dealt every tile with a 6 and leads: the other seat can never follow a 6,
    so the deal is clearly worth points to seat 0, whatever the rest and the seed."""
    v = make_variant("block", {"players": 2})
    sixes = list(bits(PIP_MASK[6] & v.all_tiles))  # (PIP_MASK spans the largest set)
    rest = [t for t in range(28) if t not in sixes]
    rng = random.Random(1)
    for _ in range(3):
        rng.shuffle(rest)
        h = Hand(v, [sixes, rest[:7]], rest[7:], 0)
        assert deal_value(h, playouts=PLAYOUTS, seed=rng.randrange(100)).values[0] > 10


def test_no_live_path_of_the_server_reaches_a_deal_value():
    """The deal's value knows every hand: the server computes it only inside a finished
    game's analysis (``web/jobs/analyses.py``, whose route refuses a table in play with 409,
    tests/test_web_analysis.py), never for a table, a seat's state or a spectator."""
    import ast
    from pathlib import Path

    import bonepile

    src = Path(bonepile.__file__).parent.parent
    reach = set()
    for path in (src / "bonepile" / "web").rglob("*.py"):
        package = path.relative_to(src).with_suffix("").parts[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else ()
                mods = [".".join((*base, *(node.module or "").split("."))).strip(".")]
            elif isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            else:
                continue
            if any(m == "bonepile.analysis" or m.startswith("bonepile.analysis.") for m in mods):
                reach.add(path.relative_to(src / "bonepile" / "web").as_posix())
    assert reach == {"jobs/analyses.py"}
