"""Arena hands per second: the local process pool and Ray tasks, with 1 and 2 workers each,
side by side in one run on the same deal sets.

    PYTHONPATH=src nice -n 10 python bench/arena_ray.py [--hands 120] [--rounds 2]
        [--variant block --players 4 --teams] [--bots strong,greedy]

The bots' budget is a simulation count (``strong``: 8 sampled deals per decision), so every
configuration plays exactly the same games (checked: the records must be equal).  One Ray
instance with 2 CPUs is started first (its start-up is timed and printed, not counted), and
warmed up with one deal set per worker so that worker processes are running; each timed run
then includes its own scheduling and result transfer.  The pool's runs include starting the
pool (fork).  Each configuration runs ``--rounds`` times, interleaved; the median is printed.

The Ray instance's workers run at the niceness the arena gives a Ray it starts (the command's
own, ``worker_niceness`` 0); ``--ray-worker-niceness 15`` measures Ray's default instead.  The
niceness a task actually runs at is printed next to this script's.

The machine is shared: the load average at the start and the end is printed with the figures.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src")]


def main() -> None:
    import ray

    from bonepile.arena import ArenaSpec, run_arena
    from bonepile.arena.executors import Pool
    from bonepile.arena.ray_executor import RayExecutor

    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="block")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--teams", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--bots", default="strong,greedy")
    ap.add_argument("--hands", type=int, default=120)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--ray-worker-niceness",
        type=int,
        default=None,
        help="Ray's worker_niceness (default: the arena's, 0; Ray's own default is 15)",
    )
    a = ap.parse_args()
    options: dict = {"players": a.players}
    if a.teams:
        options["teams"] = True
    spec = ArenaSpec(a.variant, options, tuple(a.bots.split(",")), a.hands, seed=a.seed)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])
    )
    t0 = time.perf_counter()
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        logging_level=logging.WARNING,
        log_to_driver=False,
        _system_config={"worker_niceness": 0 if a.ray_worker_niceness is None else a.ray_worker_niceness},
    )
    print(f"Ray start-up: {time.perf_counter() - t0:.1f} s (not counted below)")
    task_nice = ray.get(ray.remote(lambda: os.nice(0)).remote())
    print(f"niceness: this script {os.nice(0)}, a Ray task {task_nice}")
    address = ray.get_runtime_context().gcs_address
    warm = ArenaSpec(spec.variant, spec.options, spec.bots, 1, seed=spec.seed + 1)
    run_arena(warm, executor=RayExecutor(address, workers=2))

    configs = {
        "process pool, 1 worker": lambda: Pool(1),
        "process pool, 2 workers": lambda: Pool(2),
        "Ray, 1 worker": lambda: RayExecutor(address, workers=1),
        "Ray, 2 workers": lambda: RayExecutor(address, workers=2),
    }
    rates: dict[str, list[float]] = {name: [] for name in configs}
    records = None
    hands = 0
    try:
        for _ in range(a.rounds):
            for name, make in configs.items():
                t = time.perf_counter()
                run = run_arena(spec, executor=make())
                rates[name].append(run.hands / (time.perf_counter() - t))
                got = [g.record for g in run.games]
                assert records is None or got == records, f"{name} played other games"
                records, hands = got, run.hands
    finally:
        ray.shutdown()
    print(f"{spec.variant} {options} {' vs '.join(spec.bots)}: {hands} hands per run, {a.rounds} round(s)")
    base = statistics.median(rates["process pool, 1 worker"])
    print(f"{'configuration':<26}{'hands/s':>10}{'vs pool, 1':>12}")
    for name, xs in rates.items():
        m = statistics.median(xs)
        print(f"{name:<26}{m:>10.1f}{m / base:>11.2f}x")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
