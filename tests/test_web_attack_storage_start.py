"""Issue 13, finding 8 (start-up) and finding 10's ``synchronous=NORMAL``: a ``tables`` row whose
``seats`` is not JSON stopped start-up entirely, a table that could not be rebuilt answered
500; a garbage, truncated or zeroed database file gave a 501-line traceback; a read-only file
was noticed only by every create answering 500.  Now a damaged table is skipped with one log
line (its routes answer a JSON 503), and ``bonepile serve`` refuses an unusable file in one
line.  ``--durable`` makes SQLite wait for the disk at every commit."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import sys

import pytest
import uvicorn
from typer.testing import CliRunner

from bonepile.cli import app as cli
from bonepile.web.store.database import Store, TableRow, Unusable
from bonepile.web.store.writer import DAMAGED
from webutil import SRC, InProcess, Sock, free_port, run


def _serve(db: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(
        [sys.executable, "-m", "bonepile", "serve", "--db", db, "--port", str(free_port())],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _one_line(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def test_damaged_tables_are_skipped_at_start_and_answer_a_json_error(tmp_path, caplog):
    url = f"sqlite:///{tmp_path}/db"
    people = {"variant": "block", "players": 2, "seats": [{"kind": "human"}] * 2}
    with InProcess(url) as srv:
        good = srv.create(people)
        bad_json, bad_moves, bad_over, bad_over_moves = (srv.create(people)["id"] for _ in range(4))
    with sqlite3.connect(tmp_path / "db") as c:
        c.execute("UPDATE tables SET seats = '[{\"name\": ' WHERE id = ?", (bad_json,))
        c.execute("INSERT INTO actions VALUES (?, 0, 'move', '9-9', 0, 0.0)", (bad_moves,))
        c.execute("UPDATE tables SET status = 'over', settings = 'null' WHERE id = ?", (bad_over,))
        c.execute("UPDATE tables SET status = 'over' WHERE id = ?", (bad_over_moves,))
        c.execute("INSERT INTO actions VALUES (?, 0, 'move', 'pass', 0, 0.0)", (bad_over_moves,))
    caplog.set_level(logging.INFO, "bonepile.serve")
    with InProcess(url) as srv:
        # the other table works: listed, joined, played
        assert [t["id"] for t in srv.get("/api/tables").json()["tables"]] == [good["id"]]
        joined = srv.join(good["id"], "Ann")
        assert srv.info(good["id"])["status"] == "playing"

        async def go():
            s = await Sock.open(srv.ws, good["id"], joined["token"])
            st = await s.state(lambda m: m["view"] is not None)
            assert st["table"]["id"] == good["id"]
            await s.close()
            s = await Sock.open(srv.ws, bad_json, good["token"])
            assert await s.recv() == {"type": "error", "message": DAMAGED, "code": "damaged"}
            await s.close()

        run(go(), 60)
        for tid in (bad_json, bad_moves, bad_over, bad_over_moves):
            for path in (f"/api/tables/{tid}", f"/api/tables/{tid}/replay", f"/api/tables/{tid}/record"):
                r = srv.get(path)
                assert r.status_code == 503 and r.json() == {"error": DAMAGED, "code": "damaged"}, (
                    path,
                    r.text,
                )
            r = srv.post(f"/api/tables/{tid}/join", {"name": "Bea"})
            assert r.status_code == 503 and r.json() == {"error": DAMAGED, "code": "damaged"}
    for tid, words in [
        (bad_json, "its seats are not JSON"),
        (bad_moves, "cannot be rebuilt from its stored actions"),
        (bad_over, "its settings are not a JSON object"),
        (bad_over_moves, "cannot be rebuilt from its stored actions"),
    ]:
        lines = [r for r in caplog.records if tid in r.getMessage()]
        assert len(lines) == 1, [r.getMessage() for r in lines]  # one line, however often asked
        assert words in lines[0].getMessage() and lines[0].exc_info is None


def _real_db(path) -> None:
    store = Store(f"sqlite:///{path}")
    for i in range(40):
        store.create_table(
            TableRow(f"t{i}", 1.0, "t", "block", {"players": 2}, 1, [{"name": "x" * 20}] * 2, {}, "waiting")
        )
        store.append([(f"t{i}", k, "move", "6-6", 0) for k in range(50)])
    store.close()
    assert not os.path.exists(f"{path}-wal") or os.path.getsize(f"{path}-wal") == 0


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["garbage", "zeroed", "truncated"])
def test_a_damaged_database_file_is_one_line_and_no_traceback(tmp_path, damage):
    path = tmp_path / "games.db"
    _real_db(path)
    data = path.read_bytes()
    assert len(data) > 16 * 4096
    if damage == "garbage":
        path.write_bytes(os.urandom(len(data)))
    elif damage == "zeroed":
        path.write_bytes(bytes(len(data)))
    else:
        path.write_bytes(data[: len(data) // 2])
    line = _one_line(_serve(f"sqlite:///{path}"))
    assert line.startswith("--db: cannot ") and "damaged or not a database" in line, line


def _unwritable(path) -> bool:
    """Make a file read-only even for root (chattr +i where chmod is not enough)."""
    os.chmod(path, 0o444)
    if os.access(path, os.W_OK) and shutil.which("chattr"):
        subprocess.run(["chattr", "+i", str(path)], capture_output=True)
    try:
        with open(path, "r+b"):
            return False
    except OSError:
        return True


@pytest.mark.slow
def test_a_read_only_database_is_refused_at_start_in_one_line(tmp_path):
    path = tmp_path / "games.db"
    _real_db(path)
    if not _unwritable(path):
        pytest.skip("this machine cannot make a file read-only for this user")
    try:
        line = _one_line(_serve(f"sqlite:///{path}"))
        assert "read-only" in line and "games.db" in line, line
    finally:
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)
        os.chmod(path, 0o644)


def test_store_check_refuses_a_read_only_database(tmp_path):
    path = tmp_path / "ro.db"
    _real_db(path)
    store = Store(f"sqlite:///file:{path}?mode=ro&uri=true")
    with pytest.raises(Unusable, match="read-only"):
        store.check()
    store.close()
    Store(f"sqlite:///{path}").check()  # the same file writable: no complaint


def _synchronous(store: Store) -> int:
    with store.engine.connect() as c:
        return c.exec_driver_sql("PRAGMA synchronous").scalar_one()


def test_durable_sets_synchronous_full(tmp_path, monkeypatch):
    normal, full = Store(f"sqlite:///{tmp_path}/a.db"), Store(f"sqlite:///{tmp_path}/b.db", durable=True)
    assert (_synchronous(normal), _synchronous(full)) == (1, 2)  # NORMAL, FULL
    normal.close()
    full.close()
    served = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: served.append(self.config.app))
    for args, level in [([], 1), (["--durable"], 2)]:
        db = f"sqlite:///{tmp_path}/c{level}.db"
        r = CliRunner().invoke(cli, ["serve", "--db", db, "--port", str(free_port()), *args])
        assert r.exit_code == 0, r.output
        assert _synchronous(served[-1].state.server.store) == level
        served[-1].state.server.store.close()
