"""Storage: a table is rebuilt from its stored actions; one whose game ended just before the
server stopped (before it was marked over) is marked over when the server starts."""

from __future__ import annotations

import asyncio
import random

from bonepile.engine import Game, make_variant
from bonepile.web.server import Server
from bonepile.web.store.database import Store, TableRow


def _finished_actions(variant, seed: int) -> list[tuple[str, str, int]]:
    """The actions a server stores for a whole game (its deals come from the seed)."""
    g = Game(variant, seed=seed, auto_deal=False)
    rng = random.Random(seed)
    out: list[tuple[str, str, int]] = []
    while not g.over:
        if not g.hands or g.hand.over:
            g.next_hand()  # the seeded deal, as the server's
            if len(g.hands) > 1:
                out.append(("deal", "", 0))
        seat = g.to_move
        m = rng.choice(g.legal_moves())
        out.append(("move", g.token(m), seat))
        g.apply(m)
    return out


def test_a_finished_game_left_playing_is_marked_over_on_start(tmp_path):
    url = f"sqlite:///{tmp_path}/s.db"
    v = make_variant("block", {"players": 2, "target": 30})
    store = Store(url)
    row = TableRow(
        id="t1",
        created=1.0,
        name="t",
        variant="block",
        options=dict(v.options),
        seed=11,
        seats=[{"name": f"p{i}", "kind": "human", "level": None, "token_hash": "x"} for i in range(2)],
        settings={},
        status="playing",
    )
    store.create_table(row)
    actions = _finished_actions(v, 11)
    store.append([("t1", i, k, val, seat) for i, (k, val, seat) in enumerate(actions)])
    store.close()

    async def start() -> Server:
        server = Server(url)
        await server.start()
        await server.stop()
        return server

    server = asyncio.run(start())
    t = server.tables["t1"]
    assert t.game.over and t.status == "over" and t.seq == len(actions)
    assert Store(url).load("t1").status == "over"
