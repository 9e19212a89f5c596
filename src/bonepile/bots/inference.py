"""Policy-based inference: how likely a hidden world makes the plays the other seats made.

The sampler's worlds respect only hard facts (counts, the table, proven voids).  But players
choose: in Cinque a player who could have scored 15 and played a blank probably had no
tile that scored.  ``PlayModel`` weighs a world by the probability of every observed play of
the other seats (partners too) under a simple model of how players choose: each tile that
fits is chosen with probability proportional to ``exp(beta * score)``, where the score is
the most points the tile scores now for the mover's side on any open end (Cinque), plus
``pips`` times its pips, 3 more for a double (players shed heavy tiles and doubles early).  A play's candidates are the tiles the
mover held at that moment in the world.

``pips`` may be several values (``mixture``): each seat is then one of several kinds of
player, unknown and not assumed alike, and a world is weighed by the average over the kinds of
the probability of that seat's plays (Bayesian model averaging per seat).  With 0 among them,
a seat that plays any tile that fits (a beginner, a random bot) is recognised by its own plays
as well as one that sheds its heavy tiles: the model need not know who sits where.

Everything the model reads is public: the table after each move of the public history
(rebuilt once from any consistent world, since every world shows the same table) and the
tiles each seat played.  A world enters only through the hands it deals.  Only games where
all tiles are dealt (no boneyard, no draws) are modelled; elsewhere every world weighs 1.
The first tile of a hand is not modelled.
"""

from __future__ import annotations

import math

from ..engine import Hand, Variant, View
from ..engine.tiles import BIT, IS_DOUBLE, PASS, PIPS, bits, mask_of, tile_of
from .playout import reply_points


class PlayModel:
    """Built once per decision from the view and one consistent world's deal."""

    def __init__(
        self,
        variant: Variant,
        view: View,
        moves: list[int],
        start: Hand,
        *,
        beta: float = 0.3,
        pips: float = 0.0,
        mixture: tuple[float, ...] = (),
    ) -> None:
        """``start``: the hand as dealt in some world that agrees with the view (its hidden
        tiles are never read: only the public table it goes through).  ``mixture``: the
        ``pips`` values of the kinds of player each seat may be (empty: ``pips`` alone)."""
        self.n = view.players
        kinds = tuple(mixture) or (pips,)
        self.kinds = len(kinds)
        me = view.seat
        own = mask_of(view.hand)
        h = start
        # per modelled decision: (seat, index of the move, tile played, per kind {tile: weight})
        self.decisions: list[tuple[int, int, int, list[dict[int, float]]]] = []
        for i, m in enumerate(moves):
            s = h.to_move
            if s != me and m < PASS and h.placed:
                # candidates: any tile this seat may hold now (not mine, not on the table)
                table = _table_tiles(moves[:i])
                cand = variant.all_tiles & ~own & ~table
                weights: list[dict[int, float]] = [{} for _ in kinds]
                for t in bits(cand):
                    if not h.fits(t):
                        continue
                    best = reply_points(h, t)
                    heavy = PIPS[t] + (3 if IS_DOUBLE[t] else 0)
                    for k, p in enumerate(kinds):
                        weights[k][t] = math.exp(beta * (best + p * heavy))
                self.decisions.append((s, i, tile_of(m), weights))
            h.apply(m)
        self.moves = moves
        # per decision: (seat, mask of the fitting candidates, tile played, per kind a weight
        # per tile, 0 off the candidates)
        self._tables: list[tuple[int, int, int, list[list[float]]]] = [
            (
                s,
                mask_of(per_kind[0]),
                t,
                [[ws.get(c, 0.0) for c in range(variant.n_tiles)] for ws in per_kind],
            )
            for s, _i, t, per_kind in self.decisions
        ]

    def weight(self, deal: list[list[int]]) -> float:
        """The probability of the observed plays of the other seats in the world dealt
        ``deal`` (the hands as dealt), under the model (per seat averaged over the kinds of
        player).  The same numbers as ``kind_factors`` multiplied out, from tables built once:
        the tiles a seat could have played at a decision are those it was dealt among the
        decision's fitting candidates (a tile it played earlier is on the table, so never a
        candidate)."""
        held = [mask_of(d) for d in deal]
        if self.kinds == 1:
            w = 1.0
            for s, fit, t, per_kind in self._tables:
                wk = per_kind[0]
                x = held[s] & fit
                z = 0.0
                while x:
                    low = x & -x
                    z += wk[low.bit_length() - 1]
                    x ^= low
                w *= wk[t] / z if z > 0 else 1.0
            return w
        per = [[1.0] * self.kinds for _ in range(self.n)]
        for s, fit, t, per_kind in self._tables:
            row = per[s]
            mine = held[s] & fit
            for k, wk in enumerate(per_kind):
                x = mine
                z = 0.0
                while x:
                    low = x & -x
                    z += wk[low.bit_length() - 1]
                    x ^= low
                row[k] *= wk[t] / z if z > 0 else 1.0
        w = 1.0
        for row in per:
            w *= sum(row) / self.kinds
        return w

    def factors(self, deal: list[list[int]]) -> list[float]:
        """Per modelled decision (``decisions``), the probability of the observed play
        (under the first kind of player)."""
        return [fs[0] for fs in self.kind_factors(deal)]

    def kind_factors(self, deal: list[list[int]]) -> list[list[float]]:
        """Per modelled decision, the probability of the observed play under each kind."""
        held = [mask_of(d) for d in deal]
        out: list[list[float]] = []
        k = 0
        dec = self.decisions
        nd = len(dec)
        for i, m in enumerate(self.moves):
            if k < nd and dec[k][1] == i:
                s, _i, t, per_kind = dec[k]
                k += 1
                hs = held[s]
                fs = []
                for weights in per_kind:
                    z = 0.0
                    for c, x in weights.items():
                        if hs >> c & 1:
                            z += x
                    fs.append(weights.get(t, 0.0) / z if z > 0 else 1.0)
                out.append(fs)
            if m < PASS:
                # the mover is the seat whose hand holds the tile
                t = tile_of(m)
                for s in range(self.n):
                    if held[s] >> t & 1:
                        held[s] &= ~BIT[t]
                        break
        return out


def _table_tiles(moves: list[int]) -> int:
    x = 0
    for m in moves:
        if m < PASS:
            x |= BIT[tile_of(m)]
    return x


def models(variant: Variant, view: View) -> bool:
    """Does ``PlayModel`` apply to this view (all tiles dealt, nothing drawn)?"""
    return (
        not view.blind
        and view.boneyard_size == 0
        and not variant.starter
        and not any(e.action == "draw" for e in view.history)
    )


__all__ = ["PlayModel", "models"]
