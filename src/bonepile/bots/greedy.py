"""One-ply heuristics of a decent club player, read off the View only.

Each legal action gets a score from features a player sees at a glance; the highest wins
(ties broken by the seed).  The effects of a move on the table (new ends, the Cinque count,
going out) are computed in a world rebuilt from the view: every world that agrees with the
view shows the same public effects, so nothing hidden leaks into the choice.

Features, switched on by the variant's fields rather than its name:
* every line game: shed heavy tiles (pips), play doubles early (they fit one pip only),
  keep suits varied (distinct pips left in hand) and keep a follow-up for the new ends;
  make ends the next opponent has shown it lacks, avoid ends the partner lacks;
* ``in_play`` set (Cinque, All Fives, Muggins: fives; Fives and Threes): take the most points
  now, and avoid leaving a count the next player can turn into points with a tile it may
  hold; a point weighs what the rule makes it worth against pips (``_POINT_WEIGHT``);
* ``capicu``/``chuchazo`` (Quinientos): with two tiles left, keep a last tile that fits both
  ends (capicú) or the 0-0 (chuchazo), and go out when the chance is there;
* ``turn == "voluntary"`` (Passing Game): play the best tile; with nothing worth playing,
  pass on purpose when the seat's side is likely lowest already (a pass cycle ends the hand),
  otherwise draw while the boneyard allows;
* blind games: the only choice is the end for the turned tile: prefer ends that the peeked
  next tile, and the seat's own known tiles, will fit.
"""

from __future__ import annotations

import math

from ..engine import Variant, View
from ..engine.tiles import DRAW, HI, IS_DOUBLE, LO, NAME, PASS, PIP_MASK, PIPS, bits, tile_of
from .base import Bot, Evaluation
from .playout import reply_points
from .sampler import Sampler
from .seat_knowledge import SeatKnowledge

#: what one point scored during play weighs, by in-play rule: a fives point is one pip of
#: the count; a Fives and Threes point stands for three to five of it, and its hands end
#: with no pip count, so points are all that matter there
_POINT_WEIGHT = {"fives": 4.0, "fives_and_threes": 16.0}


def _ends(h) -> list[int]:
    return [h.pip[a] for a in h.open_arms]


def _side_points(h, side: int) -> int:
    return h.inplay[side]


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, variant: Variant, *, seed: int | None = None, temperature: float = 0.0) -> None:
        """``temperature`` > 0 chooses among the scored actions at random with weights
        ``exp(score / temperature)`` (a player who often misses the best move); 0 always
        plays the best one."""
        super().__init__(variant, seed=seed)
        if not (isinstance(temperature, (int, float)) and temperature >= 0 and math.isfinite(temperature)):
            raise ValueError(f"temperature must be a number >= 0, not {temperature!r}")
        self.temperature = float(temperature)

    def choose(self, view: View) -> int:
        evals = self.evaluate(view)
        if self.temperature <= 0 or len(evals) == 1:
            return evals[0].action
        top = evals[0].value
        weights = [math.exp((e.value - top) / self.temperature) for e in evals]
        x = self.rng.random() * sum(weights)
        for e, w in zip(evals, weights):
            x -= w
            if x < 0:
                return e.action
        return evals[-1].action

    def evaluate(self, view: View) -> list[Evaluation]:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} is not to move")
        if len(legal) == 1:
            return [Evaluation(legal[0], 0.0, None, "the only legal action")]
        k = SeatKnowledge(self.variant, view)
        world = Sampler(self.variant, view, public=k.public).sample(self.rng)
        scored = []
        for m in legal:
            score, why = self._score(view, k, world, m)
            scored.append((score, self.rng.random(), m, why))
        scored.sort(key=lambda x: (-x[0], x[1]))
        return [Evaluation(m, round(s, 3), None, why) for s, _r, m, why in scored]

    # ------------------------------------------------------------------ scoring
    def _score(self, view: View, k: SeatKnowledge, world, m: int) -> tuple[float, str]:
        v = self.variant
        if view.blind:
            return self._score_blind(view, k, world, m)
        if m in (PASS, DRAW):
            return self._score_wait(view, k, m)
        t = tile_of(m)
        reasons = []
        score = float(PIPS[t])
        reasons.append(f"sheds {PIPS[t]} pips")
        if IS_DOUBLE[t]:
            score += 3.0
            reasons.append("double early")
        my_side = k.my_side
        before = world.inplay[my_side] if world.inplay else 0
        world.push(m)
        try:
            if world.over:
                res = world.result
                won = res.winner is not None and (res.winner == my_side)
                bonus = 0.0
                if won:
                    bonus = 100.0 + res.points[my_side]
                    reasons.insert(0, f"goes out for {res.points[my_side]}")
                return score + bonus, ", ".join(reasons)
            ends = _ends(world)
            rest = k.own & ~(1 << t)
            # keep a follow-up and varied suits
            fit_mask = 0
            for p in ends:
                fit_mask |= PIP_MASK[p]
            follow = len(bits(rest & fit_mask))
            suits = len({x for u in bits(rest) for x in (HI[u], LO[u])})
            score += 1.0 * min(follow, 3) + 0.5 * suits
            if follow:
                reasons.append(f"keeps {follow} to follow")
            # next opponent void, partner void
            nxt = k.next_seat(1)
            end_pips = set(ends)
            if not k.is_partner(nxt):
                hit = sum(1 for p in end_pips if k.voids[nxt] >> p & 1)
                if hit:
                    score += 2.0 * hit
                    reasons.append(f"ends P{nxt} lacks")
            for s in range(view.players):
                if k.is_partner(s):
                    miss = sum(1 for p in end_pips if k.voids[s] >> p & 1)
                    score -= 1.0 * miss
            if v.in_play is not None:
                weight = _POINT_WEIGHT[v.in_play]
                gained = world.inplay[my_side] - before
                score += weight * gained
                if gained:
                    reasons.insert(0, f"scores {gained}")
                risk = self._fives_risk(view, k, world, nxt)
                score -= 0.75 * weight * risk
                if risk >= 1:
                    reasons.append(f"gives P{nxt} ~{risk:.0f}")
            if (v.capicu or v.chuchazo) and len(bits(rest)) == 1:
                last = bits(rest)[0]
                if last == 0 and v.chuchazo:
                    score += 8.0
                    reasons.append("keeps 0-0 for chuchazo")
                elif (
                    not IS_DOUBLE[last]
                    and all(HI[last] == p or LO[last] == p for p in ends)
                    and len(ends) == 2
                    and v.capicu
                ):
                    score += 8.0
                    reasons.append("keeps a capicu tile")
        finally:
            world.pop()
        return score, ", ".join(reasons)

    def _fives_risk(self, view: View, k: SeatKnowledge, world, nxt: int) -> float:
        """Expected points the next seat could score at once (if an opponent), over the
        tiles it may hold."""
        if k.is_partner(nxt) or world.over or world.to_move != nxt:
            return 0.0
        unseen = bits(k.unseen & ~self._void_mask(k.voids[nxt]))
        if not unseen:
            return 0.0
        total = 0.0
        for t in unseen:
            total += reply_points(world, t)
        # chance it holds a given tile ~ its count / unseen
        p = min(1.0, view.tile_counts[nxt] / max(1, len(unseen)))
        return total * p

    @staticmethod
    def _void_mask(voids: int) -> int:
        m = 0
        for p in range(voids.bit_length()):
            if voids >> p & 1:
                m |= PIP_MASK[p]
        return m

    def _score_wait(self, view: View, k: SeatKnowledge, m: int) -> tuple[float, str]:
        """Passing Game: drawing or passing on purpose (scored against plays' pips)."""
        v = self.variant
        my_pips = sum(PIPS[t] for t in view.hand)
        mean = k.mean_unseen_pips()
        sides = v.sides
        mine = sum(my_pips if s == view.seat else view.tile_counts[s] * mean for s in sides[k.my_side])
        others = [
            sum(view.tile_counts[s] * mean for s in side) for i, side in enumerate(sides) if i != k.my_side
        ]
        lowest = bool(others) and mine < min(others) - 2
        if m == PASS:
            if lowest:
                return 6.0, "passes on purpose: this side is likely lowest"
            return -1.0, "passes"
        # draw: worth it when nothing fits and the side is behind
        playable = any(x < PASS for x in view.legal)
        if playable:
            return -2.0, "draws instead of playing"
        return (0.5 if not lowest else -3.0), "draws for a tile that fits"

    def _score_blind(self, view: View, k: SeatKnowledge, world, m: int) -> tuple[float, str]:
        if m >= PASS:
            return 0.0, "nothing fits"
        t = tile_of(m)
        world.push(m)
        try:
            if world.over:
                return 100.0, f"plays {NAME[t]} and ends the hand"
            ends = _ends(world)
        finally:
            world.pop()
        fit = 0
        for p in ends:
            fit |= PIP_MASK[p]
        score = 0.0
        reasons = []
        if view.peek is not None and fit >> view.peek & 1:
            score += 5.0
            reasons.append(f"the next tile {NAME[view.peek]} fits")
        # own tiles known to be in the row (turned before and put back)
        known = self._own_known(view)
        n_known = len(bits(known & fit))
        score += 1.0 * n_known
        if n_known:
            reasons.append(f"{n_known} known own tiles fit")
        score += 0.05 * len(bits(k.unseen & fit))
        return score, ", ".join(reasons) or f"plays {NAME[t]}"

    @staticmethod
    def _own_known(view: View) -> int:
        """Tiles of the seat's own row it has seen (turned and put back, not played since)."""
        held = 0
        for e in view.history:
            if e.seat != view.seat or e.tile is None:
                continue
            if e.action == "pass":
                held |= 1 << e.tile
            else:
                held &= ~(1 << e.tile)
        if view.turned_up is not None and view.to_move == view.seat:
            held &= ~(1 << view.turned_up)
        return held
