"""`bonepile.bots.hint` and `bonepile hint RECORD` (issue 3)."""

from __future__ import annotations

import json
import random

import pytest

from bonepile.bots import Budget, hint
from bonepile.engine import Game
from bonepile.engine import record as rec
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
    assert sorted(tok for tok, _ in rows) == sorted(g.legal_tokens())
    assert all(0.0 <= e.win <= 1.0 for _, e in rows)
    assert rows == hint(g, budget=Budget(simulations=10))  # deterministic for a seed and a count


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
