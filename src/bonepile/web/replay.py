"""Replay frames: every position of finished hands, with every seat's tiles (all public once a
hand is over).  Used by the replay page for a finished game or an uploaded record."""
from __future__ import annotations

from typing import Any

from ..engine import Game
from ..engine.hand import Hand
from ..engine.tiles import NAME
from ..engine.view import hand_view
from . import knowledge
from .catalog import scoring, sides
from .messages import Replay, ReplayFrame, ReplayHand
from .protocol import hand_result_json, view_json


def frames(game: Game, *, finished_only: bool = True) -> Replay:
    """The frames of a game's hands (only the finished ones unless ``finished_only`` is
    false, which callers use for records, where everything is already public)."""
    v = game.variant
    hands: list[ReplayHand] = []
    totals = list(game.start_totals)
    tokens_of = game.record()["hands"]
    for i, h in enumerate(game.hands):
        if finished_only and not h.over:
            break
        res = h.current_result()
        totals = [a + b for a, b in zip(totals, res.points)]
        pos = h.fresh()
        seq: list[ReplayFrame] = []
        tokens = tokens_of[i]["moves"]
        points = knowledge.move_points(h)

        def frame(move: str | None, seat: int | None, pos: Hand = pos,
                  points: list[int | None] = points) -> ReplayFrame:
            view: dict[str, Any] = dict(view_json(hand_view(pos, 0), points=points, count=knowledge.count(pos)))
            view["hands"] = [[NAME[t] for t in pos.held(s)] for s in range(v.players)]
            return {"move": move, "seat": seat, "view": view}

        seq.append(frame(None, None))
        for k, (seat, m, _t) in enumerate(h.log):
            pos.apply(m)
            seq.append(frame(tokens[k], seat))
        hands.append({"hand": h.number, "leader": h.leader,
                      "deal": [[NAME[t] for t in row] for row in h.deal_rows],
                      "frames": seq, "finished": h.over,
                      "result": hand_result_json(h.number, h.leader, res, totals)})
    return {"variant": v.name, "players": v.players, "sides": sides(v), "scoring": scoring(v),
            "names": list(game.names) if game.names else [f"Seat {i}" for i in range(v.players)],
            "hands": hands, "totals": totals, "winner": game.winner, "finished": game.over}
