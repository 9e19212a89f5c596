"""Puzzles for the web tests, built here from a real game (examples/block.record.json) so that
the tests know each step's hidden truth: the position behind every step's view.  A puzzle's
solution is the move the game's player made; its replies, the moves that followed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from fastapi.testclient import TestClient

from bonepile.engine import make_variant
from bonepile.engine.knowledge import PublicKnowledge
from bonepile.engine.record import replay
from bonepile.engine.tiles import PASS
from bonepile.engine.view import hand_view
from bonepile.puzzles.model import Puzzle, Step, puzzle_id
from bonepile.puzzles.moves import token_of
from bonepile.web.app import create_app


@contextmanager
def puzzle_client(tmp_path: Path) -> Iterator[TestClient]:
    """A test client of a server with its own database and no worker processes or miner (the
    puzzles it offers are the ones a test puts in ``routes._shipped``)."""
    app = create_app(
        f"sqlite:///{tmp_path}/db",
        bot_processes=False,
        analysis_processes=False,
        puzzle_processes=False,
        puzzle_mining=0,
    )
    with TestClient(app) as c:
        yield c


def sign_in(page, stored: str, lang: str) -> None:
    """Every page the browser page opens from now on belongs to the profile ``stored`` (its
    id and key, as the lobby keeps them) and speaks ``lang``."""
    page.context.add_init_script(
        f"localStorage.setItem('bonepile:profile', {json.dumps(stored)});"
        f"localStorage.setItem('bonepile:lang', {json.dumps(lang)});"
    )


RECORD = Path(__file__).resolve().parents[1] / "examples" / "block.record.json"


@dataclass
class Built:
    puzzle: Puzzle
    positions: list  # the Hand behind each step's view (the hidden truth)
    wrong: list[str]  # per step, a legal move that is another decision than the solution


def _choices(v, view) -> int:
    return len(set(PublicKnowledge.from_view(v, view).decisions(list(view.legal))))


def build(
    steps: int, skip: int = 0, themes: tuple[str, ...] = ("block_next",), rating: float = 1500.0
) -> Built:
    """A puzzle of ``steps`` steps: the ``skip``-th run of ``steps`` decisions of one seat in a
    row (each with a choice of two decisions or more) in the example game's first hand."""
    doc = json.loads(RECORD.read_text())
    game = replay(doc)
    v = game.variant
    h = game.hands[0]
    pos = h.fresh()
    seat = h.log[0][0]
    runs: list[list[tuple]] = [[]]
    for s, m, _t in h.log:
        if s == seat:
            view = hand_view(pos, seat)
            if _choices(v, view) >= 2 and m < PASS:
                runs[-1].append((pos.copy(), view, m))
            elif runs[-1]:
                runs.append([])
        pos.apply(m)
    found = [r[i : i + steps] for r in runs for i in range(len(r) - steps + 1)]
    chosen = found[skip]
    out_steps = []
    wrong = []
    for i, (p, view, m) in enumerate(chosen):
        # the others' moves between this step and the next
        replies: list[str] = []
        if i + 1 < len(chosen):
            q = p.copy()
            q.apply(m)
            while q.to_move != seat:
                mv = h.log[len(q.log)][1]
                replies.append(token_of(hand_view(q, q.to_move), mv))
                q.apply(mv)
        decisions = PublicKnowledge.from_view(v, view).decisions(list(view.legal))
        mine = decisions[list(view.legal).index(m)]
        other = next(x for x, d in zip(view.legal, decisions) if d != mine)
        from bonepile.web.protocol import move_token

        wrong.append(move_token(view, other))
        out_steps.append(Step(view=view, solution=token_of(view, m), replies=tuple(replies)))
    opts = dict(v.options)
    st = tuple(out_steps)
    pid = puzzle_id(v.name, opts, seat, st)
    puzzle = Puzzle(pid, v.name, opts, seat, themes, rating, st, "examples/block.record.json")
    assert make_variant(v.name, opts).name == v.name
    return Built(puzzle, [c[0] for c in chosen], wrong)
