"""The expert's choices on fixed positions, to check that a refactor changes no move.

Positions are drawn from random games of every variant and player count (and the partnership
and option games the tests use), with a fixed seed; on each, the expert (a fixed number of
simulations, never a time: time is not reproducible), the strong level, the hint (with its
reasons) and the analysis's exact search (a small and a large node budget) give their
evaluations, written to a JSON file.  Run it before and after a change and compare:

    PYTHONPATH=src python bench/expert_moves.py --out /tmp/before.json
    PYTHONPATH=src python bench/expert_moves.py --out /tmp/after.json
    cmp /tmp/before.json /tmp/after.json

``--quick`` keeps one position per game and a smaller budget (the test's golden file,
``tests/golden/expert_moves.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.analysis.exact import Solver
from bonepile.bots import Budget, hint, make_bot
from bonepile.engine import Game
from bonepile.engine.variant import PLAYER_COUNTS, VARIANT_NAMES
from bonepile.rl.actions import Actions, actions

#: every variant and player count, plus the partnership and option games of the bot tests
#: (the seven games of RULES.md §1-§6 first and the games added later last, so that a new
#: game leaves the positions of the others, seeded by their index, as they were)
SEVEN = ("quinientos", "cinque", "draw", "block", "passing", "blind-hugie", "billitonnen")


def _every_count(names: list[str]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (name, {"players": n} if len(PLAYER_COUNTS[name]) > 1 else {})
        for name in names
        for n in PLAYER_COUNTS[name]
    ]


GAMES: list[tuple[str, dict[str, Any]]] = (
    _every_count([n for n in PLAYER_COUNTS if n in SEVEN])
    + [
        ("block", {"players": 4, "teams": True}),
        ("draw", {"players": 4, "teams": True}),
        ("passing", {"players": 4, "teams": True}),
        ("passing", {"players": 3, "draw_ends_turn": False}),
        ("cinque", {"spinner_any_order": True}),
        ("draw", {"players": 3, "boneyard_reserve": 2}),
    ]
    + _every_count(
        [n for n in PLAYER_COUNTS if n not in SEVEN and n in VARIANT_NAMES]
    )  # (the golden file's games)
)


def positions(name: str, options: dict[str, Any], seed: int, count: int) -> list[Game]:
    """``count`` positions with a choice, spread over a random game (its later hands too, so
    that the scores before a hand are not all zero)."""
    rng = random.Random(seed)
    seen: list[Game] = []
    for k in range(20):  # games until enough (a hand of Billitonnen often has no choice)
        game = Game.new(name, options, seed=seed + 1000 * k)
        while not game.over and len(seen) < 400:
            if len(game.legal_moves()) > 1 and game.hand.log:
                seen.append(game.copy())
            ms = game.legal_moves()
            game.apply(ms[rng.randrange(len(ms))])
        if len(seen) >= 4 * count:
            break
    if len(seen) <= count:
        return seen
    step = len(seen) / count
    return [seen[int(i * step + step / 2)] for i in range(count)]


def evals(rows: list[Any], acts: Actions) -> list[list[Any]]:
    # moves as the game's dense action ids (rl/actions.py): in double-six games the ints
    # they always were (pass 112, draw 113)
    return [[acts.of(e.action), e.value, e.win, e.game] for e in rows]


def record(quick: bool) -> dict[str, Any]:
    sims = 4 if quick else 12
    out: dict[str, Any] = {}
    for k, (name, options) in enumerate(GAMES):
        label = name + "".join(f"-{key}={x}" for key, x in options.items())
        rows = []
        for game in positions(name, options, 100 + k, 1 if quick else 5):
            seat = game.to_move
            view = game.view(seat)
            v = game.variant
            row: dict[str, Any] = {"history": len(view.history), "seat": seat}
            acts = actions(v)
            row["expert"] = evals(
                make_bot("expert", v, seed=5, budget=Budget(simulations=sims)).evaluate(view), acts
            )
            row["strong"] = acts.of(make_bot("strong", v, seed=5).choose(view))
            row["hint"] = [
                [tok, e.value, e.win, e.game, list(map(dict, e.reasons))]
                for tok, e in hint(game, budget=Budget(simulations=sims), seed=3)
            ]
            if not quick:
                for nodes in (300, 50_000):
                    shown = Solver(v, nodes=nodes, seed=1).values(game.hand.copy())
                    row[f"shown{nodes}"] = sorted(
                        [acts.of(m), s.points, s.won, s.game, s.score, s.kind] for m, s in shown.items()
                    )
            rows.append(row)
        out[label] = rows
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="the JSON file to write")
    ap.add_argument("--quick", action="store_true", help="one position per game, a smaller budget")
    args = ap.parse_args()
    got = record(args.quick)
    with open(args.out, "w") as f:  # one game a line: a diff names the games that changed
        f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(got[k])}" for k in sorted(got)) + "\n}\n")


if __name__ == "__main__":
    main()
