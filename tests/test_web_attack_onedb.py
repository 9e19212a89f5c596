"""Issue 13, finding 7 (in part): two servers on one SQLite file both started and diverged;
the second now exits with one line naming the file."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from webutil import SRC, Child, free_port

pytestmark = pytest.mark.slow  # two servers started as processes


def test_a_second_server_on_the_same_file_is_refused(tmp_path):
    db = f"sqlite:///{tmp_path / 'one.db'}"
    with Child(db) as first:
        env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        r = subprocess.run(
            [sys.executable, "-m", "bonepile", "serve", "--db", db, "--port", str(free_port())],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert r.returncode == 2, r.stdout + r.stderr
        assert "another bonepile server is using" in r.stderr and "one.db" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1  # one line, no traceback
        assert first.get("/api/variants").status_code == 200  # the first one goes on
    # once the first has stopped (killed), a new server starts on the file
    with Child(db) as again:
        assert again.get("/api/tables").status_code == 200
