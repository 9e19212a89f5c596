"""Fresh starts of ``bonepile serve --workers N`` on an empty PostgreSQL database: how many
serve (every worker registered, the server still running ``--hold`` seconds later) out of
``--starts``.  ``--old REV`` runs the same starts with the source of an older commit too
(exported with ``git archive``), side by side.  A throwaway cluster (``pgtemp.py``).

    PYTHONPATH=src python bench/cluster_start.py [--starts 20] [--workers 2] [--old 380b444]
"""

from __future__ import annotations

import argparse
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of k successes in n."""
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def one_start(admin_url: str, name: str, src: str, workers: int, hold: float) -> tuple[bool, str]:
    """Start the server on the new database ``name``; (it served, why not)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    admin = create_engine(admin_url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = admin_url.rsplit("/", 1)[0] + "/" + name
    env = dict(os.environ, PYTHONPATH=src)
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bonepile", "serve", "--db", url, "--port", str(free_port()),
         "--workers", str(workers), "--lease", "3"],
        env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    engine = create_engine(url, poolclass=NullPool)
    try:
        end = time.monotonic() + 90
        while time.monotonic() < end:
            if proc.poll() is not None:
                break
            try:
                with engine.connect() as c:
                    n = c.execute(text("SELECT count(*) FROM workers")).scalar()
            except Exception:  # the schema is not there yet
                n = 0
            if n == workers:
                time.sleep(hold)
                if proc.poll() is None:
                    return True, ""
                break
            time.sleep(0.2)
        log.seek(0)
        lines = [ln for ln in log.read().decode(errors="replace").splitlines() if ln.strip()]
        why = f"exit {proc.poll()}: {lines[-1][:160] if lines else ''}"
        return False, why if proc.poll() is not None else "no workers serving within 90 s"
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        engine.dispose()


def main() -> None:
    from pgtemp import throwaway

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--starts", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--hold", type=float, default=3.0, help="seconds the server must stay up")
    ap.add_argument("--old", default=None, help="also the commit REV's source (e.g. 380b444)")
    a = ap.parse_args()
    sources = [("this", str(ROOT / "src"))]
    if a.old:
        where = tempfile.mkdtemp(prefix="bonepile-old-")
        archive = subprocess.run(["git", "archive", a.old, "src"], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", where], input=archive.stdout, check=True)
        sources.append((a.old, os.path.join(where, "src")))
    with throwaway() as (admin, _pid):
        for label, src in sources:
            ok, whys = 0, []
            for i in range(a.starts):
                served, why = one_start(admin, f"fresh_{label}_{i}", src, a.workers, a.hold)
                ok += served
                if not served:
                    whys.append(why)
            lo, hi = wilson(ok, a.starts)
            print(f"{label:8s} {ok:2d} of {a.starts} fresh starts served (95% {lo:.0%}-{hi:.0%})")
            for why in whys[:3]:
                print(f"           {why}")


if __name__ == "__main__":
    main()
