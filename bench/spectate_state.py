"""What a table's state messages cost with spectators: per action, the state of every seat
and of N spectators (``LiveTable.state_text``), over random games of one variant.  A
spectator's view is built once per action and its JSON text shared, so each extra spectator
costs the table info and the small per-socket part only.

    PYTHONPATH=src python bench/spectate_state.py [--variant cinque] [--watchers 64] [--games 20]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))


def main() -> None:
    from bonepile.engine import make_variant
    from bonepile.web.play.table import LiveTable, begin, deal
    from bonepile.web.server import Server
    from bonepile.web.store.database import TableRow

    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="cinque")
    ap.add_argument("--watchers", type=int, default=64)
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    players = make_variant(args.variant, {}).players
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{tmp}/db")
        seat_time = watch_time = 0.0
        actions = 0
        for n in range(args.games):
            row = TableRow(
                id=f"b{n}", created=time.time(), name="bench", variant=args.variant, options={},
                seed=n, seats=[{"name": f"P{i}", "kind": "human"} for i in range(players)],
                settings={}, status="playing",
            )  # fmt: skip
            t = LiveTable(row, server)
            g = t.game
            rng = random.Random(n)
            begin(g, deal(g))
            while not g.over:
                if g.hand.over:
                    begin(g, deal(g))
                ms = g.legal_moves()
                g.apply(ms[rng.randrange(len(ms))])
                t.seq += 1
                t._common = None
                a = time.perf_counter()
                for s in range(players):
                    t.state_text(s)
                b = time.perf_counter()
                for _ in range(args.watchers):
                    t.state_text(None)
                c = time.perf_counter()
                seat_time += b - a
                watch_time += c - b
                actions += 1
        server.store.close()
    print(f"{args.variant}: {actions} actions over {args.games} games")
    print(f"  {players} seats' states: {seat_time / actions * 1e6:.0f} us an action "
          f"({seat_time / actions / players * 1e6:.0f} us a seat)")  # fmt: skip
    print(f"  {args.watchers} spectators' states: {watch_time / actions * 1e6:.0f} us an action "
          f"({watch_time / actions / args.watchers * 1e6:.1f} us a spectator)")  # fmt: skip


if __name__ == "__main__":
    main()
