"""`bonepile serve` on the command line: bad options are one clear line and exit status 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parent.parent / "src")


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=SRC)
    return subprocess.run(
        [sys.executable, "-m", "bonepile", "serve", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def test_serve_port_in_use_is_one_line_and_exit_2(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = run("--port", str(port), "--db", f"sqlite:///{tmp_path}/x.db")
    assert r.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_serve_bad_db_url(tmp_path):
    r = run("--port", "0", "--db", "not a url")
    assert r.returncode == 2
    assert "--db: not a database URL" in r.stderr
    assert "Traceback" not in r.stderr


def test_serve_unsupported_backend():
    r = run("--port", "0", "--db", "mysql://u@localhost/x")
    assert r.returncode == 2
    assert "mysql is not supported" in r.stderr


def test_serve_unwritable_sqlite_file(tmp_path):
    r = run("--port", "0", "--db", f"sqlite:///{tmp_path}/no/such/dir/x.db")
    assert r.returncode == 2
    assert "--db: cannot open" in r.stderr
    assert "Traceback" not in r.stderr


def test_serve_bad_number():
    r = run("--bot-delay", "-1")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr


@pytest.mark.slow
def test_serve_chat_filter_errors_are_one_line_and_exit_2(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("# only comments\n\n", encoding="utf-8")
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("gro\xdf\n".encode("latin-1"))
    cases = [
        (tmp_path / "missing.txt", "cannot read"),
        (tmp_path, "cannot read"),  # a directory
        (empty, "has no word in it"),
        (latin, "is not UTF-8 text"),
    ]
    for path, words in cases:
        r = run("--port", "0", "--db", f"sqlite:///{tmp_path}/x.db", "--chat-filter", str(path))
        assert r.returncode == 2, r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("--chat-filter: ") and words in lines[0], r.stderr
        assert "Traceback" not in r.stderr + r.stdout


@pytest.mark.slow
def test_serve_with_a_chat_filter_says_how_many_words_it_masks(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("# the table's rude words\nfrack\nson of a gun  # a phrase\n\n", encoding="utf-8")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=SRC)
    args = ["--port", str(port), "--db", f"sqlite:///{tmp_path}/x.db", "--chat-filter", str(words)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "bonepile", "serve", *args], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]
    finally:
        proc.terminate()
        proc.wait(20)
    assert lines[0].startswith(f"bonepile is serving on http://127.0.0.1:{port}/")
    assert lines[2].strip() == f"chat filter: 2 words and phrases from {words}"


@pytest.mark.slow
def test_serve_analysis_time_is_the_budget_of_the_post_game_analysis(tmp_path):
    from bonepile import Game, dump_record
    from webutil import Child, wait_until

    game = Game.new("block", seed=3, options={"players": 2, "target": 1})
    while not game.over:
        game.apply(game.legal_moves()[-1])
    record = dump_record(game.record()).encode()
    with Child(f"sqlite:///{tmp_path}/x.db", "--analysis-time", "0.03") as srv:
        r = srv.post("/api/analysis", content=record)
        assert r.status_code == 202, r.text
        job = r.json()["job"]
        done = wait_until(lambda: (b := srv.get(f"/api/analysis/{job}").json())["status"] == "done" and b, 60)
    assert done["analysis"]["budget"]["time"] == 0.03
    assert done["analysis"]["hands"][0]["decisions"]


def test_serve_analysis_time_must_be_positive(tmp_path):
    r = run("--port", "0", "--db", f"sqlite:///{tmp_path}/x.db", "--analysis-time", "0")
    assert r.returncode == 2 and "--analysis-time" in r.stderr
    assert "Traceback" not in r.stderr


def test_serve_puzzle_mining_is_an_option_and_may_be_off(tmp_path):
    r = run("--port", "0", "--db", f"sqlite:///{tmp_path}/x.db", "--puzzle-mining", "-1")
    assert r.returncode == 2 and "--puzzle-mining" in r.stderr
    assert "Traceback" not in r.stderr
    from webutil import Child

    with Child(f"sqlite:///{tmp_path}/y.db", "--puzzle-mining", "0") as srv:  # 0: no mining
        assert srv.get("/api/puzzles").status_code == 200
