"""Helpers shared by the tests: scenario records and their expected replay output."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

from bonepile.engine import record as rec
from bonepile.engine.errors import RecordError
from bonepile.engine.tiles import NAME, parse_tile

HERE = pathlib.Path(__file__).parent
SCENARIOS = HERE / "scenarios"
EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def tile(name: str) -> int:
    return parse_tile(name)[0]


def replay_doc(doc: dict) -> dict:
    """Replay a record document; the result, or {"error": {...}} like `replay --json`."""
    try:
        return rec.replay(doc).result()
    except RecordError as e:
        return {"error": e.as_json()}


def subset_mismatch(expected, actual, path="$"):
    """None if every key/value of `expected` is found in `actual` (lists compared item-wise)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {actual!r}"
        for k, v in expected.items():
            if k not in actual:
                return f"{path}.{k}: missing"
            bad = subset_mismatch(v, actual[k], f"{path}.{k}")
            if bad:
                return bad
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path}: expected {expected!r}, got {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            bad = subset_mismatch(e, a, f"{path}[{i}]")
            if bad:
                return bad
        return None
    if expected != actual:
        return f"{path}: expected {expected!r}, got {actual!r}"
    return None


def scenario_files(prefix: str) -> list[pathlib.Path]:
    """tests/scenarios/<prefix>*.record.json (each with a matching .expected.json)."""
    return sorted(SCENARIOS.glob(f"{prefix}*.record.json"))


def check_scenario(path: pathlib.Path) -> None:
    expected = json.loads(path.with_name(path.name.replace(".record.json", ".expected.json")).read_text())
    actual = replay_doc(json.loads(path.read_text()))
    bad = subset_mismatch(expected, actual)
    assert bad is None, f"{path.name}: {bad}"


def cli(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    """Run the `bonepile` command (as `python -m bonepile.cli`)."""
    return subprocess.run([sys.executable, "-m", "bonepile.cli", *args], capture_output=True,
                          text=True, input=input, timeout=120)


def names(tiles) -> list[str]:
    return [NAME[t] for t in tiles]
