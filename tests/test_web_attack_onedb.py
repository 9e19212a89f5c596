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


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_a_link_to_the_same_file_is_refused(tmp_path, link, monkeypatch, capsys):
    """Issue 27, item 11: the lock is on the file's identity (device and inode), not its path:
    a symbolic or a hard link to a file a server holds is refused with one line, another file
    is not."""
    import typer
    from sqlalchemy.engine import make_url

    from bonepile.cli import serve

    monkeypatch.setattr(serve, "_LOCKS", [])
    first = tmp_path / "one.db"
    other = tmp_path / "elsewhere"
    other.mkdir()
    second = other / "two.db"
    first.touch()
    (os.symlink if link == "symlink" else os.link)(first, second)
    try:
        serve._lock_database(make_url(f"sqlite:///{first}"))
        capsys.readouterr()
        with pytest.raises(typer.Exit):
            serve._lock_database(make_url(f"sqlite:///{second}"))
        err = capsys.readouterr().err
        assert "another bonepile server is using" in err and "two.db" in err
        assert len(err.strip().splitlines()) == 1
        serve._lock_database(make_url(f"sqlite:///{tmp_path / 'three.db'}"))  # another file
    finally:
        for held in serve._LOCKS:
            held.close() if hasattr(held, "close") else os.close(held)
