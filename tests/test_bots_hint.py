"""`bonepile.bots.hint` and `bonepile hint RECORD` (issue 3)."""

from __future__ import annotations

import json
import random

import pytest

from bonepile.bots import Budget, hint
from bonepile.engine import Game
from bonepile.engine import record as rec
from bonepile.engine.tiles import PASS, tile_of
from support import cli


def mid_game(seed=3, moves=9) -> Game:
    g = Game.new("block", {"teams": True}, seed=seed)
    r = random.Random(1)
    for _ in range(moves):
        ms = g.legal_moves()
        g.apply(ms[r.randrange(len(ms))])
    return g


def test_hint_api_lists_every_legal_action_best_first():
    g = mid_game()
    rows = hint(g, budget=Budget(simulations=10))
    h = g.hand
    decisions = {h.mirror_key(m) for m in h.legal_moves()}
    assert len(rows) == len(decisions)
    assert {h.mirror_key(g.parse(tok)) for tok, _ in rows} == decisions
    assert all(0.0 <= e.win <= 1.0 for _, e in rows)
    assert rows == hint(g, budget=Budget(simulations=10))  # deterministic for a seed and a count


def _positions(name, options, want, seed=0):
    """Positions of random games of ``name`` where the seat to move has a choice."""
    r = random.Random(seed)
    out = []
    for game_seed in range(40):
        g = Game.new(name, options, seed=game_seed)
        while not g.over and len(out) < want:
            if len(g.hand.choices()) > 1:
                out.append(g.copy())
            ms = g.legal_moves()
            g.apply(ms[r.randrange(len(ms))])
            if r.random() < 0.3:
                break
        if len(out) >= want:
            break
    return out


@pytest.mark.parametrize(
    "name,options,figure", [("draw", {"players": 2}, "value"), ("billitonnen", {}, "win")]
)
def test_hint_is_ranked_by_the_one_figure_it_shows_and_lists_a_decision_once(name, options, figure):
    """The order never contradicts the figure shown (points expected; the chance to win the
    hand where a hand is only won or lost), and a tile whose ends are alike is listed once."""
    alike = 0
    for g in _positions(name, options, 12):
        rows = hint(g, budget=Budget(simulations=12))
        shown = [getattr(e, figure) for _, e in rows]
        assert shown == sorted(shown, reverse=True), rows
        keys = [g.hand.mirror_key(g.parse(tok)) for tok, _ in rows]
        assert len(keys) == len(set(keys)), rows
        alike += len(g.legal_moves()) - len(rows)
    if name == "draw":
        assert alike > 0  # positions with two alike ends were met


def test_hint_lists_the_reply_to_a_lone_double_once():
    """After a lone double both ends show its number: the hint lists each tile once."""
    for seed in range(200):
        g = Game.new("draw", {"players": 2}, seed=seed)
        g.apply(g.legal_moves()[0])
        tiles = [tile_of(m) for m in g.legal_moves() if m < PASS]
        if len(tiles) != len(set(tiles)):
            break
    else:
        raise AssertionError("no deal opened with a double: the test checks nothing")
    rows = hint(g, budget=Budget(simulations=4))
    tiles = [tok.split("@")[0] for tok, _ in rows]
    assert len(tiles) == len(set(tiles)), rows


def test_hint_api_errors():
    g = mid_game()
    with pytest.raises(ValueError, match="not to move"):
        hint(g, seat=(g.to_move + 1) % 4, budget=Budget(simulations=2))


@pytest.fixture()
def record_file(tmp_path):
    g = mid_game()
    p = tmp_path / "mid.record.json"
    p.write_text(rec.dumps(g.record()))
    return str(p), g


def test_hint_cli_text_and_json(record_file):
    path, g = record_file
    r = cli("hint", path, "--simulations", "8")
    assert r.returncode == 0, r.stderr
    assert f"seat {g.to_move} to move" in r.stdout
    for tok in g.legal_tokens():
        assert tok in r.stdout
    r = cli("hint", path, "--simulations", "8", "--json", "--seat", str(g.to_move))
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["seat"] == g.to_move
    assert {a["token"] for a in doc["actions"]} == set(g.legal_tokens())
    assert all({"token", "value", "win", "reason"} <= set(a) for a in doc["actions"])


def _clean_error(r):
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    return r.stderr.strip()


def test_hint_cli_errors(tmp_path, record_file):
    path, g = record_file
    assert "cannot read" in _clean_error(cli("hint", str(tmp_path / "missing.json")))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert "record error" in _clean_error(cli("hint", str(bad)))
    assert "is not to move" in _clean_error(cli("hint", path, "--seat", str((g.to_move + 1) % 4)))
    assert "no seat 9" in _clean_error(cli("hint", path, "--seat", "9"))
    done = Game.new("block", {"teams": True}, seed=2)
    r = random.Random(0)
    while not done.over:
        ms = done.legal_moves()
        done.apply(ms[r.randrange(len(ms))])
    fin = tmp_path / "done.json"
    fin.write_text(rec.dumps(done.record()))
    assert "finished" in _clean_error(cli("hint", str(fin)))
