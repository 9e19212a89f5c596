"""Self-play data (issue 16): ``bonepile selfplay`` writes records that ``bonepile replay``
reads and, with ``--obs``, shards whose rows are the RL environment's own observations,
masks and rewards for the same games; the same seed gives the same bytes; bad input is one
line with exit status 2."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from bonepile.arena import ArenaSpec, run_arena
from bonepile.engine import OptionError
from bonepile.rl import shards
from bonepile.rl.pettingzoo import raw_env
from bonepile.rl.selfplay import run_selfplay
from support import cli


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def replay_in_the_env(data: shards.SelfPlayData, variant: str, options: dict) -> int:
    """Replay every game of ``data`` in the PettingZoo environment from its game seed with its
    actions, checking each row against what the environment gives; returns the rows checked."""
    checked = 0
    for e, seed in zip(data.episodes["id"], data.episodes["seed"]):
        env = raw_env(variant, episode="game", **options)
        env.reset(options={"game_seed": int(seed)})
        rows = data.steps_of(int(e))
        for r in rows:
            agent = env.agent_selection
            assert agent == f"player_{data.seat[r]}"
            seen = env.observe(agent)
            assert np.array_equal(seen["observation"], data.obs[r])
            assert np.array_equal(seen["action_mask"], data.mask[r])
            assert data.mask[r][data.action[r]] == 1
            # the forced flag and the hand index: the environment's own hand before the step
            assert bool(data.forced[r]) == (len(set(env.match.legal())) == 1) == (data.mask[r].sum() == 1)
            assert data.hand[r] == env.match.hand.number
            env.step(int(data.action[r]))
            rewards = np.array([env.rewards[a] for a in env.possible_agents], np.float32)
            assert np.array_equal(rewards, data.reward[r]), (variant, r)
            assert bool(data.done[r]) == all(env.terminations.values())
            checked += 1
        assert data.done[rows[-1]] == data.episodes["finished"][e]
    return checked


@pytest.mark.parametrize(
    "variant, options",
    [
        ("quinientos", {}),  # partnerships, round bonuses at a hand's start
        ("block", {"players": 3}),
        ("billitonnen", {}),  # blind, win/loss rewards
        ("passing", {"players": 2}),
        ("mexican-train", {"players": 3, "rounds": 2}),  # trains; penalties: negative rewards
    ],
)
def test_shards_are_the_environments_own_observations_and_rewards(tmp_path, variant, options):
    spec = ArenaSpec(variant, options, ("greedy", "random"), 4, seed=5)
    manifest = run_selfplay(spec, str(tmp_path / "o"), obs=True, workers=1, shard_steps=60)
    data = shards.load(str(tmp_path / "o"))
    assert len(data) == manifest["obs"]["steps"] == manifest["decisions"] > 0
    assert data.obs.dtype == np.float32 and data.obs.shape[1] == manifest["obs"]["size"]
    assert replay_in_the_env(data, variant, options) == len(data)
    # win/loss only where the game scores no points
    assert manifest["obs"]["reward"] == ("win_loss" if variant == "billitonnen" else "points")
    if variant == "quinientos":
        assert data.reward.sum() > 0
    if variant == "mexican-train":
        assert data.reward.min() < 0 and data.reward.max() <= 0  # the pips left are penalties


def test_records_replay_and_match_the_arena(tmp_path):
    spec = ArenaSpec("draw", {}, ("greedy", "random"), 10, seed=2)
    out = tmp_path / "o"
    manifest = run_selfplay(spec, str(out), workers=1)
    arena = run_arena(spec, workers=1)
    paths = shards.record_paths(str(out))
    assert [Path(p).read_text() for p in paths] == [g.record for g in arena.games]
    assert manifest["hands"] == arena.hands and manifest["games"] == len(arena.games)
    assert manifest["obs"] is None and not (out / "shards").exists()
    games = list(shards.records(str(out)))
    assert [len(g.hands) for g in games] == [len(g.hands) for g in arena.games]
    r = cli("replay", paths[0], "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["finished"] is True
    with pytest.raises(shards.NotSelfPlay, match="without --obs"):
        shards.load(str(out))


def test_several_shards_join_into_one_table(tmp_path):
    spec = ArenaSpec("block", {"players": 4, "teams": True}, ("greedy", "random"), 30, seed=9)
    manifest = run_selfplay(spec, str(tmp_path / "o"), obs=True, workers=2, shard_steps=100)
    info = manifest["obs"]
    assert len(info["shards"]) >= 2
    data = shards.load(str(tmp_path / "o"))
    parts = list(shards.iter_shards(str(tmp_path / "o")))
    assert [len(p["action"]) for p in parts] == [s["steps"] for s in info["shards"]]
    eps = data.episodes
    assert list(eps["id"]) == list(range(manifest["games"]))
    assert list(zip(eps["deal_set"], eps["rotation"])) == [
        (g, r) for g in range(manifest["deal_sets"]) for r in range(2)
    ]
    assert eps["bots"].shape == (manifest["games"], 4)
    # every step belongs to a game; the steps of a game are contiguous and in order
    assert list(np.unique(data.episode)) == list(eps["id"])
    assert np.all(np.diff(data.episode) >= 0)
    assert int(data.done.sum()) == int(eps["finished"].sum())
    for name, (at, size) in info["fields"].items():
        assert 0 <= at and at + size <= info["size"], name
    # the records are those games, in the same order
    for e, game in enumerate(shards.records(str(tmp_path / "o"))):
        assert len(game.hands) == eps["hands"][e]
        assert sum(len(h.log) for h in game.hands) == len(data.steps_of(e))


def test_the_same_seed_writes_the_same_bytes(tmp_path):
    spec = ArenaSpec("cinque", {}, ("greedy", "random"), 6, seed=1)
    run_selfplay(spec, str(tmp_path / "a"), obs=True, workers=1)
    run_selfplay(spec, str(tmp_path / "b"), obs=True, workers=2)
    a, b = files(tmp_path / "a"), files(tmp_path / "b")
    assert a == b and any(name.endswith(".npz") for name in a)
    # a shard is an ordinary numpy archive, with no clock in it
    shard = next(tmp_path.glob("a/shards/*.npz"))
    with zipfile.ZipFile(shard) as z:
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    with np.load(shard) as z:
        assert set(z.files) == set(shards.STEP_ARRAYS) | set(shards.EPISODE_ARRAYS)
    other = ArenaSpec("cinque", {}, ("greedy", "random"), 6, seed=2)
    run_selfplay(other, str(tmp_path / "c"), obs=True, workers=1)
    assert files(tmp_path / "c") != a


def test_the_command_writes_records_shards_and_a_manifest(tmp_path):
    out = tmp_path / "o"
    args = ["selfplay", "block", "--players", "2", "--bots", "greedy,random", "--hands", "8"]
    r = cli(*args, "--seed", "4", "--out", str(out), "--obs", "--workers", "1")
    assert r.returncode == 0, r.stderr
    assert "hands in" in r.stdout and "shard" in r.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["format"] == "bonepile-selfplay/1" and manifest["seed"] == 4
    assert manifest["hands"] >= 8 and len(list((out / "records").iterdir())) == manifest["games"]
    spec = ArenaSpec("block", {"players": 2}, ("greedy", "random"), 8, seed=4)
    run_selfplay(spec, str(tmp_path / "lib"), obs=True, workers=1)
    assert files(out) == files(tmp_path / "lib")
    # an earlier run is replaced only when asked
    r = cli(*args, "--seed", "5", "--out", str(out), "--obs")
    assert "is not empty (--force replaces an earlier run there)" in one_line_error(r)
    (out / "notes.txt").write_text("mine")
    r = cli(*args, "--seed", "5", "--out", str(out), "--force", "-q")
    assert r.returncode == 0, r.stderr
    assert json.loads((out / "manifest.json").read_text())["seed"] == 5
    assert not (out / "shards").exists() and (out / "notes.txt").read_text() == "mine"


def one_line_error(r) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


@pytest.mark.parametrize(
    "args, message",
    [
        (["nope", "--bots", "random,random", "--hands", "3"], "unknown variant"),
        (["draw", "--bots", "random,nope", "--hands", "3"], "unknown bot 'nope'"),
        (["draw", "--bots", "random,random", "--hands", "0"], "--hands must be at least 1"),
        (["draw", "--bots", "random,random", "--hands", "-4"], "--hands must be at least 1"),
        (["draw", "--bots", "random", "--hands", "3"], "at least two bots"),
        (
            ["draw", "--bots", "random,random", "--hands", "3", "--workers", "0"],
            "--workers must be at least 1",
        ),
        (["draw", "--bots", "random,random", "--hands", "3", "--shard-steps", "0"], "--shard-steps must be"),
        (["draw", "--bots", "random,random", "--hands", "3", "--option", "foo=1"], "unknown option 'foo'"),
    ],
)
def test_command_errors_are_one_line(tmp_path, args, message):
    r = cli("selfplay", *args, "--out", str(tmp_path / "o"))
    assert message in one_line_error(r)
    assert not (tmp_path / "o").exists()


def test_an_out_that_is_a_file_is_one_line(tmp_path):
    (tmp_path / "f").write_text("x")
    r = cli("selfplay", "draw", "--bots", "random,random", "--hands", "3", "--out", str(tmp_path / "f"))
    assert "is a file, not a folder" in one_line_error(r)


def test_the_loader_refuses_what_selfplay_did_not_write(tmp_path):
    with pytest.raises(shards.NotSelfPlay, match="no manifest.json"):
        shards.load(str(tmp_path))
    (tmp_path / "manifest.json").write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(shards.NotSelfPlay, match="is not a bonepile-selfplay/1 manifest"):
        shards.load(str(tmp_path))
    with pytest.raises(OptionError, match="is not empty"):
        run_selfplay(ArenaSpec("draw", {}, ("random", "random"), 3), str(tmp_path), workers=1)


def test_the_environment_plays_a_given_game_seed_only_in_game_episodes():
    e = raw_env("block", episode="game", players=2)
    e.reset(options={"game_seed": 12345})
    assert e.match.game.seed == 12345
    with pytest.raises(ValueError, match='needs episode="game"'):
        raw_env("block", players=2).reset(options={"game_seed": 1})
