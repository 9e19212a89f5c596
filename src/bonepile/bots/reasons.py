"""Why a move is good or bad, in facts that are true of the position.

``explain(variant, view, action)`` lists reasons as small dicts, a ``code`` and its
parameters (``{"code": "next_lacks", "pips": 3}``), read off the seat's ``View`` and the
engine's public knowledge only: the voids a seat has shown by passing or drawing, the points
a play scores now, the count it leaves, the tiles still unseen.  The effects of a move on the
table are computed in a world rebuilt from the view: every world that agrees with the view
shows the same public effects (the seat's own hand is its real one).  Interfaces put the
reasons into words (``english`` here; the web client its own catalogues, ``hint.<code>``).

Codes and parameters:

* ``goes_out``: the move plays the seat's last tile and ends the hand;
* ``scores`` ``points``: it scores that many points now (in-play fives);
* ``next_can_score`` ``points`` ``seat``: the next player (an opponent, that seat) could score
  up to that many at once with a tile it may hold (one not yet seen, not of a suit it has
  shown it lacks);
* ``next_lacks`` ``pips`` ``seat``: it leaves that number open and the next player (an
  opponent, that seat) has shown it holds none: it blocks that player (in the train games,
  where a player may play on several trains: the next player is to move and has shown it
  holds none of the numbers open to it; ``pips`` is the lowest of them);
* ``partner_lacks`` ``pips``: it leaves that number open and the partner has shown it holds
  none (a risk: the partner may have to pass);
* ``keeps_suit`` ``pips``: the seat keeps tiles of that number that fit the ends left;
* ``sheds_heavy`` ``pips``: it gets rid of one of the heaviest tiles in hand (that many pips);
* ``double_early`` ``pips``: it plays a double while it can (a double fits one number only);
* ``keeps_capicu``: with one tile left after it, that tile fits both ends (capicú);
* ``keeps_chuchazo``: the tile left after it is the double blank (chuchazo);
* ``next_tile_fits``: the tile the seat peeked at, its next one, fits an end left;
* ``draws``, ``passes``: the move is a draw, a pass;
* ``only_move``: no other move is legal.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine import Variant, View
from ..engine.tiles import DRAW, HI, IS_DOUBLE, LO, PASS, PIP_MASK, PIPS, bits, tile_of
from .playout import reply_points
from .sampler import InconsistentView, Sampler
from .seat_knowledge import SeatKnowledge

Reason = dict[str, Any]

#: the codes ``explain`` may give, in the order they are listed
CODES = (
    "goes_out",
    "scores",
    "next_can_score",
    "next_lacks",
    "partner_lacks",
    "keeps_suit",
    "sheds_heavy",
    "double_early",
    "keeps_capicu",
    "keeps_chuchazo",
    "next_tile_fits",
    "draws",
    "passes",
    "only_move",
)


class Explainer:
    """Reasons for each legal action of one view (one rebuilt world, shared by the actions)."""

    def __init__(self, variant: Variant, view: View, seed: int = 0) -> None:
        self.v = variant
        self.view = view
        self.k = SeatKnowledge(variant, view)
        try:
            self.world: Any = Sampler(variant, view, public=self.k.public).sample(random.Random(seed))
        except InconsistentView:  # never expected (the sampler's tests): reasons need a world
            self.world = None

    def explain(self, m: int) -> list[Reason]:
        view, k, v = self.view, self.k, self.v
        if m not in view.legal:
            raise ValueError(f"action {m} is not legal for seat {view.seat}")
        if m == DRAW:
            return [{"code": "draws"}]
        if m == PASS:
            return [{"code": "passes"}] if len(view.legal) > 1 else [{"code": "only_move"}]
        out: list[Reason] = [] if len(view.legal) > 1 else [{"code": "only_move"}]
        w = self.world
        if w is None:
            return out
        t = tile_of(m)
        my_side = k.my_side
        before = w.inplay[my_side] if w.inplay else 0
        rest = k.own & ~(1 << t)
        w.push(m)
        try:
            if w.over:
                res = w.result
                if res.dominoer == view.seat:
                    out.append({"code": "goes_out"})
                if v.in_play is not None and w.inplay[my_side] > before:
                    out.insert(0, {"code": "scores", "points": w.inplay[my_side] - before})
                return out
            ends = [w.pip[a] for a in w.open_arms]
            if v.in_play is not None:
                gained = w.inplay[my_side] - before
                if gained > 0:
                    out.append({"code": "scores", "points": gained})
            if view.blind:
                if view.peek is not None and any(p in (HI[view.peek], LO[view.peek]) for p in ends):
                    out.append({"code": "next_tile_fits"})
                return out
            nxt = k.next_seat(1)
            if v.in_play is not None and not k.is_partner(nxt) and w.to_move == nxt:
                threat = self._best_reply(nxt)
                if threat > 0:
                    out.append({"code": "next_can_score", "points": threat, "seat": nxt})
            open_pips = sorted(set(ends))
            if k.public.tracks_voids and v.layout != "line":
                # trains: the next player may play on several trains (its own, the public one,
                # the marked ones), so it is blocked only if it is the one to move and has shown
                # it lacks every number open to it
                if w.to_move == nxt and all(k.voids[nxt] >> p & 1 for p in open_pips):
                    out.append({"code": "next_lacks", "pips": open_pips[0], "seat": nxt})
            elif k.public.tracks_voids:
                if not k.is_partner(nxt):
                    for p in open_pips:
                        if k.voids[nxt] >> p & 1:
                            out.append({"code": "next_lacks", "pips": p, "seat": nxt})
                            break
                for s in range(view.players):
                    if k.is_partner(s):
                        for p in open_pips:
                            if k.voids[s] >> p & 1:
                                out.append({"code": "partner_lacks", "pips": p})
                                break
            fit = 0
            for p in ends:
                fit |= PIP_MASK[p]
            follow = bits(rest & fit)
            if follow:
                counts = {p: sum(1 for u in follow if p in (HI[u], LO[u])) for p in open_pips}
                best = max(open_pips, key=lambda p: (counts[p], p))
                if counts[best]:
                    out.append({"code": "keeps_suit", "pips": best})
            if IS_DOUBLE[t]:
                out.append({"code": "double_early", "pips": HI[t]})
            elif PIPS[t] >= 8 and PIPS[t] >= max(PIPS[u] for u in bits(k.own)):
                out.append({"code": "sheds_heavy", "pips": PIPS[t]})
            left = bits(rest)
            if len(left) == 1:
                last = left[0]
                if v.chuchazo and last == 0:
                    out.append({"code": "keeps_chuchazo"})
                elif (
                    v.capicu
                    and not IS_DOUBLE[last]
                    and len(ends) == 2
                    and all(p in (HI[last], LO[last]) for p in ends)
                ):
                    out.append({"code": "keeps_capicu"})
        finally:
            w.pop()
        return out

    def _best_reply(self, nxt: int) -> int:
        """The most the next seat could score at once with one tile it may hold (unseen and
        not of a suit it has shown it lacks), in the world after the move."""
        w, k = self.world, self.k
        return max((reply_points(w, t) for t in bits(k.unseen & ~k.public.void_tiles(nxt))), default=0)


def explain(variant: Variant, view: View, action: int, seed: int = 0) -> list[Reason]:
    """The reasons for one legal action of ``view`` (see the module's list of codes)."""
    return Explainer(variant, view, seed).explain(action)


#: short phrases that read one after another ("keeps your 5s, blocks the next player"); the web
#: client's English is the same with the next player's name in place of "the next player"
_WORDS = {
    "goes_out": "plays your last tile",
    "scores": "scores {points} now",
    "next_can_score": "the next player could reply with {points}",
    "next_lacks": "blocks the next player (no {pips}s)",
    "partner_lacks": "may block your partner (no {pips}s)",
    "keeps_suit": "keeps your {pips}s",
    "sheds_heavy": "sheds a heavy tile ({pips} pips)",
    "double_early": "plays the double while it fits",
    "keeps_capicu": "keeps a last tile for both ends (capicú)",
    "keeps_chuchazo": "keeps the double blank for last (chuchazo)",
    "next_tile_fits": "your next tile will fit",
    "draws": "draws a tile",
    "passes": "passes",
    "only_move": "your only move",
}


def english(r: Reason) -> str:
    """A reason in plain English words (the web client's English, which names the seat)."""
    try:
        words = _WORDS[r["code"]]
    except KeyError:
        raise ValueError(f"unknown reason code {r['code']!r}") from None
    return words.format(**{k: v for k, v in r.items() if k != "code"})


__all__ = ["CODES", "Explainer", "Reason", "english", "explain"]
