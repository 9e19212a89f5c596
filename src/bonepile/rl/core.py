"""What the adapters share: one episode of bonepile (a hand or a whole game), its rewards, a
text rendering.  Agents only ever get ``View``-derived data (see ``obs.py``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..engine import Game, Hand, IllegalMoveError, OptionError, Variant, make_variant
from ..engine.scoring import gains
from ..engine.tiles import NAME
from ..engine.view import Observer, View, hand_view, observer
from .actions import actions

EPISODES = ("hand", "game")
#: points: the agent's side's points; net: those minus the other side's (zero-sum, as
#: OpenSpiel's returns); win_loss: +1 / -1 / 0 at the episode's end
REWARDS = ("points", "net", "win_loss")
#: render modes the adapters accept: "ansi" returns the text, "human" prints it; frameworks
#: that ask for "rgb_array" (Stable-Baselines3's make_vec_env) get a warning and no picture
RENDER_MODES = ("ansi", "human")
ACCEPTED_RENDER_MODES = (*RENDER_MODES, "rgb_array")


def variant_from(variant: str | Variant, options: Mapping[str, Any] | None = None) -> Variant:
    """A ``Variant`` from a name and options (``players``, ``teams``... as for ``make_variant``);
    a variant name may use ``_`` for ``-`` (``blind_hugie``)."""
    if isinstance(variant, Variant):
        if options:
            raise OptionError("options go with a variant name, not with a built Variant")
        return variant
    return make_variant(str(variant).replace("_", "-"), dict(options or {}))


def check_choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise OptionError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if an adapter accepts it (``rgb_array`` with a warning: bonepile draws
    text only); ValueError otherwise."""
    if render_mode is None or render_mode in RENDER_MODES:
        return render_mode
    if render_mode == "rgb_array":
        import warnings

        warnings.warn(
            "bonepile renders text only: render_mode='rgb_array' gives no picture"
            " (render() returns None); use 'ansi' or 'human'",
            stacklevel=3,
        )
        return render_mode
    raise ValueError(
        f"render_mode must be one of {', '.join(ACCEPTED_RENDER_MODES)} or None, not {render_mode!r}"
    )


def render_as(render_mode: str | None, text: str) -> str | None:
    """What ``render()`` gives in ``render_mode`` for the table's ``text``."""
    if render_mode == "ansi":
        return text
    if render_mode == "human":
        print(text)
    return None


def net(side_points: list[float] | list[int], side: int) -> float:
    """A side's net points: its points minus the other side's (two sides), or minus the mean of
    the others' (more sides).  Zero-sum over the sides; OpenSpiel's returns and ``reward="net"``."""
    k = len(side_points)
    if k == 2:
        return float(side_points[side] - side_points[1 - side])
    total = sum(side_points)
    return side_points[side] - (total - side_points[side]) / (k - 1)


def forced(hand: Hand) -> bool:
    """The seat to move has exactly one legal action (a forced draw, pass or play)."""
    legal = hand.legal_moves()
    return len(legal) == 1 or len(set(legal)) == 1


def first_bonus(v: Variant) -> int:
    """Quinientos' round bonus of a game's first hand (0 elsewhere)."""
    return v.round_bonuses[0] if v.scoring == "quinientos" and v.round_bonuses else 0


class Match:
    """One episode: a single hand (``episode="hand"``) or a whole game to the target."""

    def __init__(
        self,
        variant: Variant,
        episode: str = "hand",
        seed: int | None = None,
        rng: random.Random | None = None,
    ):
        """``rng`` (hand episodes): deal with this generator instead of one seeded by ``seed``."""
        self.variant = variant
        self.actions = actions(variant)
        self.episode = episode
        if episode == "hand":
            self.game = None
            self.hand = Hand.deal(
                variant, rng if rng is not None else random.Random(seed), bonus=first_bonus(variant)
            )
        else:
            self.game = Game(variant, seed=seed)
            self.hand = self.game.hand

    @property
    def over(self) -> bool:
        return self.hand.over if self.game is None else self.game.over

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.hand.to_move

    def view(self, seat: int) -> View:
        return hand_view(self.hand, seat)

    def observer(self) -> Observer:
        """The current hand's observer (what each seat may know; see ``engine.view``)."""
        return observer(self.hand)

    def legal(self) -> list[int]:
        """The legal action ids (``rl/actions.py``)."""
        if self.over:
            return []
        of, seat = self.actions.of, self.hand.to_move
        return [of(m, seat) for m in self.hand.legal_moves()]

    def apply(self, action: int) -> None:
        """Apply a legal action id (``rl/actions.py``: dense over the game's set; on trains
        relative to the seat to move); raises
        IllegalMoveError otherwise."""
        if type(action) is not int:
            action = int(action)
        acts = self.actions
        if not 0 <= action < acts.n:
            if self.over:
                raise IllegalMoveError("the episode is over")
            raise IllegalMoveError(f"action {action} is not an action id (0..{acts.n - 1})")
        self.apply_move(acts.move(action, self.hand.to_move))

    def apply_move(self, m: int) -> None:
        """Apply a legal engine move (a bot's choice, ``Hand.legal_moves()``'s); raises
        IllegalMoveError otherwise."""
        if self.game is None:
            h = self.hand
            if h.over:
                raise IllegalMoveError("the episode is over")
            h.apply(h.check(m))
            return
        if self.game.over:
            raise IllegalMoveError("the episode is over")
        self.game.apply(m)
        self.hand = self.game.hand

    def scores(self) -> list[int]:
        """Points per side so far in the episode."""
        if self.game is None:
            h = self.hand
            return list(h.inplay if h.result is None else h.result.points)
        return self.game.scores()

    def gains(self) -> list[int]:
        """Points per side so far as rewards, more being better (``scoring.gains``: the points,
        or their negation where they are penalties, as in Mexican Train)."""
        return list(gains(self.variant, self.scores()))

    @property
    def winner(self) -> int | None:
        """The winning side once the episode is over (Billitonnen: the winning seat)."""
        if not self.over:
            return None
        if self.game is None:
            return self.hand.result.winner  # type: ignore[union-attr]
        return self.game.winner

    def win_loss(self, side: int) -> float:
        w = self.winner
        if w is None:
            return 0.0
        return 1.0 if w == side else -1.0

    def render(self, seat: int | None = None) -> str:
        """A text picture of the table (as seat ``seat`` sees it; default: the seat to move)."""
        if seat is None:
            seat = self.to_move if self.to_move is not None else 0
        return render_view(self.view(seat))


def render_view(v: View) -> str:
    lay = v.layout
    lines = [f"{v.variant} {v.players}p, hand {v.hand_number}, seen by seat {v.seat}"]
    if lay.kind == "trains" and lay.hub is not None:
        lines.append(f"table: hub {NAME[lay.hub]}; ends " + " ".join(f"{a}={p}" for a, p in lay.ends.items()))
        if lay.open:
            lines.append("markers on trains: " + " ".join(sorted(lay.open)))
        if lay.pending is not None:
            lines.append(f"double to cover on train {lay.pending}")
        for arm, placed in lay.arms.items():
            lines.append(f"  {arm}: " + " ".join(NAME[p.tile] for p in placed))
    elif lay.first is None:
        lines.append("table: empty")
    else:
        lines.append(
            f"table: first {NAME[lay.first]}; ends " + " ".join(f"{a}={p}" for a, p in lay.ends.items())
        )
        for arm, placed in lay.arms.items():
            lines.append(f"  {arm}: " + " ".join(NAME[p.tile] for p in placed))
    lines.append(
        "tiles held: "
        + " ".join(f"s{s}={c}" for s, c in enumerate(v.tile_counts))
        + f"; boneyard {v.drawable}"
    )
    if v.hand:
        lines.append("own tiles: " + " ".join(NAME[t] for t in v.hand))
    if v.turned_up is not None:
        lines.append(f"turned up: {NAME[v.turned_up]}")
    lines.append(
        "totals: " + " ".join(map(str, v.totals)) + "; this hand: " + " ".join(map(str, v.hand_points))
    )
    if v.over:
        lines.append(f"hand over ({v.end})")
    else:
        lines.append(f"to move: seat {v.to_move}")
    return "\n".join(lines)


def seed_stream(seed: int | None) -> random.Random:
    return random.Random(seed)


__all__ = [
    "Match",
    "EPISODES",
    "REWARDS",
    "net",
    "forced",
    "check_render_mode",
    "render_as",
    "variant_from",
    "render_view",
    "first_bonus",
]
