"""The RL action ids of a game: dense over its set's tiles.

The engine's move ints leave room for the largest set (``PASS`` and ``DRAW`` come after every
tile move of the double-twelve set); an agent sees a space as small as its game's set allows:
``tile * 4 + arm`` for a play (on the first tile the low bits are its orientation), then
``4 * n_tiles`` for a pass and ``4 * n_tiles + 1`` for a draw.  In the double-six set that is
the space the seven games always had: 114 actions, pass 112, draw 113 (docs/RL.md).

The train layout (Mexican Train) names a train by where it lies *from the acting seat*, so a
policy means the same thing in every seat: ``tile * 9 + slot`` with slot ``r < 8`` the train of
the seat ``r`` places after the actor (0: its own train, 1: the next player's...) and slot 8
the Mexican train; then pass ``9 * n_tiles`` and draw ``9 * n_tiles + 1`` (821 ids in the
double-twelve set, whatever the player count: slots past the players' trains are never legal).

Each space has a version per layout and set (``space_name``), kept when another's changes."""

from __future__ import annotations

from functools import cache

from ..engine.tiles import ARM_BITS, ARM_MASK, MAX_ARMS, PASS, SETS, TRAIN_NAMES, dense_id, dense_move, move
from ..engine.variant import ENGINE_VARIANTS, VARIANT_NAMES, Variant

#: the games the RL adapters offer: the twelve line games and the train layout's
RL_VARIANTS = (*VARIANT_NAMES, *(n for n in ENGINE_VARIANTS if n not in VARIANT_NAMES))

#: the version of each (layout, set) observation and action space; a space that changes gets a
#: new version here and leaves the others' alone
SPACE_VERSIONS = {
    ("line", "double-six"): 1,
    ("line", "double-nine"): 1,
    ("line", "double-twelve"): 1,
    ("trains", "double-twelve"): 1,
    ("trains", "double-nine"): 1,
    ("trains", "double-six"): 1,
    ("chicken_foot", "double-nine"): 1,
    ("chicken_foot", "double-six"): 1,
    ("chicken_foot", "double-twelve"): 1,
}

#: the train layout's action slots: the seats' trains relative to the actor, then the Mexican
TRAIN_SLOTS = len(TRAIN_NAMES)  # 9
MEXICAN_SLOT = TRAIN_SLOTS - 1


class Actions:
    """The action ids of a set of ``n_tiles`` tiles with ``arms`` arms a tile may go on, and
    their engine moves (``tiles.dense_id``).  ``seat`` (the acting seat) is read only where
    the ids are relative to it (``TrainActions``)."""

    __slots__ = ("n", "n_tiles", "arms", "pass_id", "draw_id")

    #: the ids depend on the acting seat
    relative = False

    def __init__(self, n_tiles: int, arms: int = 4) -> None:
        self.n_tiles = n_tiles
        self.arms = arms
        self.pass_id = arms * n_tiles
        self.draw_id = self.pass_id + 1
        #: how many action ids there are
        self.n = self.pass_id + 2

    def of(self, m: int, seat: int = 0) -> int:
        """The action id of engine move ``m``."""
        return dense_id(m, self.n_tiles, self.arms)

    def move(self, a: int, seat: int = 0) -> int:
        """The engine move of action id ``a`` (0 <= a < n)."""
        return dense_move(a, self.n_tiles, self.arms)

    def describe(self, a: int, seat: int = 0) -> str:
        """An action id in words: ``6-4@R``, ``pass``, ``draw``."""
        from ..engine.tiles import NAME

        if a == self.pass_id:
            return "pass"
        if a == self.draw_id:
            return "draw"
        t, arm = divmod(a, self.arms)
        return f"{NAME[t]}@{'LRUD'[arm]}"


class TrainActions(Actions):
    """The train layout's ids: ``tile * 9 + slot``, the slot relative to the acting seat
    (module docstring); ``players`` trains belong to seats."""

    __slots__ = ("players",)

    relative = True

    def __init__(self, n_tiles: int, players: int) -> None:
        super().__init__(n_tiles, TRAIN_SLOTS)
        self.players = players

    def slot(self, arm: int, seat: int) -> int:
        """The slot of engine arm ``arm`` (a seat's train, or the Mexican train) for ``seat``."""
        n = self.players
        return (arm - seat) % n if arm < n else MEXICAN_SLOT

    def arm(self, slot: int, seat: int) -> int:
        """The engine arm of ``slot`` for ``seat`` (a slot past the players' trains gives the
        arm of the same number, which is not in the game: the engine says so)."""
        n = self.players
        return (seat + slot) % n if slot < n else slot

    def of(self, m: int, seat: int = 0) -> int:
        if m < PASS:
            return (m >> ARM_BITS) * TRAIN_SLOTS + self.slot(m & ARM_MASK, seat)
        return self.pass_id + (m - PASS)

    def move(self, a: int, seat: int = 0) -> int:
        if a < self.pass_id:
            t, slot = divmod(a, TRAIN_SLOTS)
            return move(t, self.arm(slot, seat))
        return PASS + (a - self.pass_id)

    def describe(self, a: int, seat: int = 0) -> str:
        from ..engine.tiles import NAME

        if a >= self.pass_id:
            return "pass" if a == self.pass_id else "draw"
        t, slot = divmod(a, TRAIN_SLOTS)
        where = "M" if slot == MEXICAN_SLOT else "own" if slot == 0 else f"+{slot}"
        return f"{NAME[t]}@{where}"


class FootActions(Actions):
    """The chicken foot's ids: ``tile * 32 + arm``, the arm by its code (the centre's arms
    "A".."F" are 0..5, the toes 6, 7... in the order they are made: they belong to no seat)."""

    __slots__ = ()

    def __init__(self, n_tiles: int) -> None:
        super().__init__(n_tiles, MAX_ARMS)

    def describe(self, a: int, seat: int = 0) -> str:
        from ..engine.foot import FOOT_NAMES
        from ..engine.tiles import NAME

        if a >= self.pass_id:
            return "pass" if a == self.pass_id else "draw"
        t, arm = divmod(a, self.arms)
        return f"{NAME[t]}@{FOOT_NAMES[arm]}"


@cache
def _foot_actions(n_tiles: int) -> FootActions:
    return FootActions(n_tiles)


@cache
def _actions(n_tiles: int, arms: int) -> Actions:
    return Actions(n_tiles, arms)


@cache
def _train_actions(n_tiles: int, players: int) -> TrainActions:
    return TrainActions(n_tiles, players)


def actions(variant: Variant) -> Actions:
    """The action ids of ``variant``'s set and layout."""
    if variant.layout == "trains":
        return _train_actions(variant.n_tiles, variant.players)
    if variant.layout == "chicken_foot":
        return _foot_actions(variant.n_tiles)
    return _actions(variant.n_tiles, 4)


def space_name(variant: Variant) -> str:
    """The name and version of ``variant``'s observation and action spaces:
    ``line/double-six/v1``, ``trains/double-twelve/v1``."""
    set_name = SETS[variant.pips].name
    return f"{variant.layout}/{set_name}/v{SPACE_VERSIONS[(variant.layout, set_name)]}"


__all__ = [
    "Actions",
    "TrainActions",
    "FootActions",
    "actions",
    "space_name",
    "RL_VARIANTS",
    "SPACE_VERSIONS",
    "TRAIN_SLOTS",
    "MEXICAN_SLOT",
]
