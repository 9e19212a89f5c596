"""The expert plays the same moves for a seed: its evaluations (and the strong level's and the
hint's) on fixed positions of every variant match a committed record
(``bench/expert_moves.py --quick``; regenerate it only for a change meant to alter play)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _record():
    spec = importlib.util.spec_from_file_location("expert_moves", ROOT / "bench" / "expert_moves.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.record


def test_expert_moves_match_the_golden_record():
    golden = json.loads((ROOT / "tests" / "golden" / "expert_moves.json").read_text())
    got = json.loads(json.dumps(_record()(quick=True)))
    assert got.keys() == golden.keys()
    for label in golden:
        assert got[label] == golden[label], label
