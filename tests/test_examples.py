"""Every example record, replayed by the real command line, gives its .expected.json exactly."""

from __future__ import annotations

import json
import re

import pytest

from support import EXAMPLES, cli, subset_mismatch

RECORDS = sorted(EXAMPLES.glob("*.record.json"))


def expected_for(path):
    return json.loads(path.with_name(path.name.replace(".record.json", ".expected.json")).read_text())


def test_there_are_examples_each_with_expected_output():
    assert RECORDS, f"no example records in {EXAMPLES}"
    for p in RECORDS:
        assert p.with_name(p.name.replace(".record.json", ".expected.json")).exists(), p.name


@pytest.mark.parametrize("path", RECORDS, ids=[p.name[: -len(".record.json")] for p in RECORDS])
def test_example_replays_to_its_expected_output(path):
    r = cli("replay", str(path), "--json")
    assert r.returncode == 0, f"{path.name}: exit {r.returncode}: {r.stdout} {r.stderr}"
    assert "Traceback" not in r.stderr
    text = r.stdout.strip()
    actual, end = json.JSONDecoder().raw_decode(text)
    assert end == len(text), f"{path.name}: more than one JSON value on stdout"
    expected = expected_for(path)
    bad = subset_mismatch(expected, actual)
    assert bad is None, f"{path.name}: {bad}"
    # the contract's keys are all there
    assert {"variant", "sides", "hands", "totals", "winner", "finished"} <= set(actual)
    for h in actual["hands"]:
        assert {"leader", "end", "winner", "points", "totals"} <= set(h)


@pytest.mark.parametrize("path", RECORDS, ids=[p.name[: -len(".record.json")] for p in RECORDS])
def test_example_replays_for_people(path):
    r = cli("replay", str(path))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    expected = expected_for(path)
    for i in range(1, len(expected["hands"]) + 1):
        assert re.search(rf"\bHand {i}\b", r.stdout), f"{path.name}: hand {i} not shown"
