"""Mangled records: the reader reports a RecordError or replays them, never anything else."""

from __future__ import annotations

import copy
import json
import pathlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonepile.engine import record as rec
from bonepile.engine.errors import RecordError

EXAMPLES = sorted((pathlib.Path(__file__).resolve().parents[1] / "examples").glob("*.record.json"))
DOCS = [json.loads(p.read_text()) for p in EXAMPLES]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.floats(allow_nan=False, width=16)
    | st.text(max_size=6)
    | st.sampled_from(["6-6", "6-5@L", "pass", "draw", "0-0", "7-1", "3-3@U"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


def paths(doc, prefix=()):
    """Every path to a value inside a JSON document."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, prefix + (i,))


def mutate(doc, path, action, value):
    doc = copy.deepcopy(doc)
    if not path:
        return value
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if action == "delete":
        del parent[key]
    elif action == "replace":
        parent[key] = value
    elif action == "insert" and isinstance(parent, list):
        parent.insert(key, value)
    else:
        parent[key] = value
    return doc


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_record_mangled_anywhere_gives_record_error_or_a_valid_game(data):
    doc = data.draw(st.sampled_from(DOCS))
    all_paths = list(paths(doc))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(all_paths))
        action = data.draw(st.sampled_from(["delete", "replace", "insert"]))
        value = data.draw(json_values)
        try:
            doc = mutate(doc, path, action, value)
        except (KeyError, IndexError, TypeError):
            continue
        all_paths = list(paths(doc))
    try:
        game = rec.replay(doc)
    except RecordError as e:
        assert e.message and "\n" not in str(e)
        out = e.as_json()
        assert set(out) == {"hand", "move", "token", "message"}
        assert out["hand"] is None or isinstance(out["hand"], int)
        assert out["move"] is None or isinstance(out["move"], int)
        json.dumps(out)  # the error is reportable as JSON
    else:
        json.dumps(game.result())


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=40) | st.binary(max_size=40))
def test_record_text_that_is_not_a_record_gives_record_error(text):
    try:
        rec.replay(rec.loads(text))
    except RecordError:
        pass


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_record_moves_shuffled_or_truncated_give_record_error_or_replay(data):
    doc = copy.deepcopy(data.draw(st.sampled_from(DOCS)))
    hand = data.draw(st.integers(0, len(doc["hands"]) - 1))
    moves = doc["hands"][hand]["moves"]
    if moves:
        i = data.draw(st.integers(0, len(moves) - 1))
        j = data.draw(st.integers(0, len(moves) - 1))
        moves[i], moves[j] = moves[j], moves[i]
        del moves[data.draw(st.integers(0, len(moves) - 1)) :][: data.draw(st.integers(0, 2))]
    try:
        rec.replay(doc)
    except RecordError as e:
        assert e.hand is None or 1 <= e.hand <= len(doc["hands"])
