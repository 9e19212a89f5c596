"""The arena on Ray (issue 16): deal sets as Ray tasks give the process pool's results hand for
hand, a worker killed mid-run is retried without counting a hand twice, a bot's error stays
that error, the command joins a cluster by address or starts its own, and says in one line
when Ray is missing or out of reach.

One local Ray instance (two CPUs) serves the module; it is shut down at the end."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import ray

from bonepile.arena import ArenaSpec, run_arena
from bonepile.arena.executors import make_executor
from bonepile.arena.ray_executor import RayExecutor
from bonepile.bots import BotError, Budget
from bonepile.rl.selfplay import run_selfplay

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
TESTS = ROOT / "tests"

pytestmark = pytest.mark.cluster  # a local Ray instance and its worker processes

#: a deterministic search budget: the expert's play depends on its seed only
SPEC = ArenaSpec("block", {"players": 2}, ("expert", "greedy"), 16, seed=7, budget=Budget(simulations=2))


def ray_processes() -> set[int]:
    """The ids of Ray's processes running on this machine: its servers and its workers."""
    out = set()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if any(name in cmd for name in (b"raylet", b"gcs_server", b"ray::", b"default_worker.py")):
            out.add(int(pid))
    return out


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A local Ray instance whose workers import this checkout's bonepile and test bots;
    yields its address."""
    tmp = tmp_path_factory.mktemp("ray")
    saved = {k: os.environ.get(k) for k in ("PYTHONPATH", *ENV_KEYS)}
    os.environ["PYTHONPATH"] = os.pathsep.join([str(SRC), str(TESTS)])
    os.environ["BONEPILE_KILL_MARKER"] = str(tmp / "killed")
    os.environ["BONEPILE_KILL_SPARE"] = str(os.getpid())
    os.environ["BONEPILE_SEED_LOG"] = str(tmp / "seeds")
    before = ray_processes()
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        logging_level=logging.WARNING,
        log_to_driver=False,
    )
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    assert wait_until_gone(ray_processes() - before), "Ray left processes running"


ENV_KEYS = ("BONEPILE_KILL_MARKER", "BONEPILE_KILL_SPARE", "BONEPILE_SEED_LOG")


def wait_until_gone(pids: set[int], seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not any(Path(f"/proc/{p}").exists() for p in pids):
            return True
        time.sleep(0.2)
    return False


def outcome(run):
    """Everything an arena run decides, game by game (not the timings)."""
    return (
        run.deal_sets,
        run.hands,
        run.stopped_by,
        run.sprt_scores,
        [(g.deal_set, g.rotation, g.seats, g.hands, g.winner, g.totals, g.record) for g in run.games],
    )


# ------------------------------------------------------------------------------ results


def test_ray_gives_the_process_pool_results_hand_for_hand(cluster):
    pool = run_arena(SPEC, workers=2)
    seen: list[int] = []
    on_ray = run_arena(SPEC, workers=2, ray=cluster, progress=lambda done, total: seen.append(done))
    one = run_arena(SPEC, executor=RayExecutor(cluster, workers=1))
    assert pool.hands >= SPEC.hands and pool.deal_sets >= 2
    assert outcome(on_ray) == outcome(pool)
    assert outcome(one) == outcome(pool)
    # the progress bar heard of every deal set as it finished, each once
    assert len(seen) >= on_ray.deal_sets and seen == sorted(seen) and seen[-1] == SPEC.hands


def test_the_sprt_stops_at_the_same_deal_set_on_ray(cluster):
    spec = ArenaSpec("draw", {}, ("random", "random"), 5000, seed=4, sprt=(0, 400))
    pool = run_arena(spec, workers=2)
    on_ray = run_arena(spec, ray=cluster)
    assert pool.stopped_by == "sprt" and pool.hands < 5000
    assert outcome(on_ray) == outcome(pool)


def test_a_killed_worker_is_retried_and_no_hand_is_counted_twice(cluster):
    marker = Path(os.environ["BONEPILE_KILL_MARKER"])
    log = Path(os.environ["BONEPILE_SEED_LOG"])
    assert not marker.exists()
    spec = ArenaSpec("block", {"players": 2}, ("raybots:KillOnce", "greedy"), 30, seed=2)
    seen: list[int] = []
    on_ray = run_arena(spec, ray=cluster, workers=2, progress=lambda done, total: seen.append(done))
    killed = int(marker.read_text())
    assert killed != os.getpid() and not Path(f"/proc/{killed}").exists()
    lines = log.read_text().split()
    seeds, pids = lines[0::2], lines[1::2]
    assert str(killed) in pids
    # the killed attempt built its bots again in another process: a seed built twice
    assert len(seeds) > len(set(seeds))
    # the marker now exists: here the same bots play without killing anything
    here = run_arena(spec, workers=1)
    assert outcome(on_ray) == outcome(here)
    assert sorted((g.deal_set, g.rotation) for g in on_ray.games) == sorted(
        {(g.deal_set, g.rotation) for g in on_ray.games}
    )
    assert on_ray.hands == sum(len(g.hands) for g in on_ray.games)
    assert seen == sorted(seen) and len(seen) >= on_ray.deal_sets


def test_a_bot_error_on_ray_is_the_bot_error(cluster):
    spec = ArenaSpec("block", {"players": 2}, ("raybots:Illegal", "greedy"), 5, seed=1)
    with pytest.raises(BotError) as e:
        run_arena(spec, ray=cluster)
    assert type(e.value) is BotError
    assert "chose 999, which is not a legal action" in str(e.value)
    assert "Traceback" not in str(e.value)


def test_an_executor_made_for_an_existing_ray_leaves_it_running(cluster):
    ex = make_executor(None, cluster)
    assert ex.workers == 2 and not ex.owns  # the cluster's CPUs
    ex.close([])
    assert ray.is_initialized()
    # --workers caps the deal sets submitted at once, whatever the cluster's size
    assert make_executor(1, cluster).ahead == 1


# ------------------------------------------------------------------------------ the commands


def cli(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bonepile.cli", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(SRC), **(env or {})),
        cwd=cwd,
        timeout=300,
    )


def one_line_error(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def test_the_arena_command_joins_a_cluster_by_address(cluster, tmp_path):
    r = cli(
        "arena",
        "block",
        "--players",
        "2",
        "--bots",
        "expert,greedy",
        "--simulations",
        "2",
        "--hands",
        "16",
        "--seed",
        "7",
        "--out",
        str(tmp_path / "o"),
        "--ray",
        cluster,
    )
    assert r.returncode == 0, r.stderr
    assert "on 2 worker(s) (Ray)" in r.stdout
    pool = run_arena(SPEC, workers=2)
    files = sorted((tmp_path / "o" / "records").iterdir())
    assert [p.read_text() for p in files] == [g.record for g in pool.games]


def test_selfplay_on_its_own_ray_writes_the_pool_files_and_stops_its_ray(cluster, tmp_path):
    """``--ray`` alone starts a Ray instance for the command (its own, not the module's) and
    shuts it down; the files are the pool's, byte for byte."""
    before = ray_processes()
    args = ["selfplay", "draw", "--bots", "greedy,random", "--hands", "12", "--seed", "3", "--obs"]
    r = cli(*args, "--workers", "2", "--out", str(tmp_path / "ray"), "--ray")
    assert r.returncode == 0, r.stderr
    assert "(Ray)" in r.stdout
    assert wait_until_gone(ray_processes() - before), "the command's Ray is still running"
    spec = ArenaSpec("draw", {}, ("greedy", "random"), 12, seed=3)
    run_selfplay(spec, str(tmp_path / "pool"), obs=True, workers=2)
    ray_files = sorted(p.relative_to(tmp_path / "ray") for p in (tmp_path / "ray").rglob("*") if p.is_file())
    pool_files = sorted(
        p.relative_to(tmp_path / "pool") for p in (tmp_path / "pool").rglob("*") if p.is_file()
    )
    assert ray_files == pool_files and any(p.suffix == ".npz" for p in ray_files)
    for p in ray_files:
        assert (tmp_path / "ray" / p).read_bytes() == (tmp_path / "pool" / p).read_bytes(), p


@pytest.mark.parametrize("command", ["arena", "selfplay"])
def test_ray_missing_is_one_line(tmp_path, command):
    fake = tmp_path / "noray"
    (fake / "ray").mkdir(parents=True)
    (fake / "ray" / "__init__.py").write_text("raise ImportError('No module named ray')\n")
    r = subprocess.run(
        [sys.executable, "-m", "bonepile.cli", command, "draw", "--bots", "random,random"]
        + ["--hands", "3", "--out", str(tmp_path / "o"), "--ray"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(fake), str(SRC)])),
        timeout=120,
    )
    line = one_line_error(r)
    assert "--ray needs Ray, which is not installed" in line and "bonepile[ray]" in line
    # without --ray the command never imports Ray: it plays on this machine as before
    r = subprocess.run(
        [sys.executable, "-m", "bonepile.cli", command, "draw", "--bots", "random,random"]
        + ["--hands", "3", "--out", str(tmp_path / "o2"), "--workers", "2", "-q"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(fake), str(SRC)])),
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert list((tmp_path / "o2" / "records").iterdir())


@pytest.mark.parametrize(
    "address, message",
    [
        ("127.0.0.1:1", "cannot reach the Ray cluster at 127.0.0.1:1"),
        ("nowhere", "--ray expects host:port (or auto), not 'nowhere'"),
    ],
)
def test_a_cluster_out_of_reach_is_one_line(tmp_path, address, message):
    r = cli(
        "arena", "draw", "--bots", "random,random", "--hands", "3", "--out", str(tmp_path), "--ray", address
    )
    assert message in one_line_error(r)


NICENESS_PROBE = """
import os, ray
from bonepile.arena.ray_executor import RayExecutor
ex = RayExecutor("local", workers=1)
stats = ray.get(ray.remote(lambda: os.environ.get("RAY_USAGE_STATS_ENABLED", "unset")).remote())
print(stats, os.nice(0), ray.get(ray.remote(lambda: os.nice(0)).remote()))
ex.close([])
"""


def test_a_ray_started_by_the_arena_runs_tasks_at_the_commands_niceness_and_sends_no_usage_statistics():
    """Ray's default would run them 15 steps nicer than the command, several times slower than
    the process pool on a loaded machine, and report usage statistics (issue 28)."""
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_worker_niceness", "RAY_USAGE_STATS_ENABLED")}
    env["PYTHONPATH"] = str(SRC)
    r = subprocess.run(
        ["nice", "-n", "2", sys.executable, "-c", NICENESS_PROBE],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    assert r.returncode == 0, r.stderr
    stats, driver, task = r.stdout.split()[-3:]
    assert int(task) == int(driver) >= 2
    assert stats == "0"


def test_ray_worker_niceness_set_by_hand_wins(monkeypatch):
    from bonepile.arena.ray_executor import local_worker_niceness

    monkeypatch.delenv("RAY_worker_niceness", raising=False)
    assert local_worker_niceness() == 0
    monkeypatch.setenv("RAY_worker_niceness", "15")
    assert local_worker_niceness() is None
