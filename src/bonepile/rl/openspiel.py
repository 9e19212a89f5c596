"""Every bonepile variant as an OpenSpiel Python game (optional extra ``openspiel``).

Importing this module registers ``python_bonepile_<variant>`` for each variant (``-`` becomes
``_``: ``python_bonepile_blind_hugie``); ``pyspiel.load_game("python_bonepile_block",
{"players": 2})`` takes the variant's options as game parameters (the defaults come from
``OPTION_SPECS``).  One episode is one hand (as in OpenSpiel's dominoes games).

Chance is explicit:

* the deal: with ``deal_from_leader`` (Billitonnen, 5 players) first the leader drawn by lot
  (outcome = seat); then tiles one at a time (outcome = tile id 0..27 in the double-six set) to seat 0 until its hand
  (or row, front first) is full, then seat 1, ...; then the starter tile when the variant turns
  one up; then, when the rules leave the leader to chance, the leader (outcome = seat).  A deal
  that the rules redeal (``no_double_lead="redeal"``) starts again.
* every draw: the player's draw action (113 in the double-six set) is followed by a chance node whose outcome is
  the tile drawn, uniform over the tiles not dealt and not drawn yet (the boneyard's order is
  the chance).

Player actions are the game's action ids (``actions.py``): 114 distinct actions in the
double-six set (222 in double-nine: Cuban).  Returns at the
end of the hand are zero-sum: with two sides, a player gets its side's points minus the other
side's; with more, its points minus the mean of the other players'.  Billitonnen (no points)
counts 1 for the winner.  Observation tensors are ``obs.Encoder`` vectors of the player's View;
information-state tensors append the order in which each tile was laid (T values, k/T for
the k-th tile laid, T the set's tile count: 28 in double-six) and the passes and draws of each
relative seat (2n values, / T).
Information-state strings hold the seat's own tiles and the whole public history as the View
shows it (perfect recall); observation strings the table, counts and own tiles.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from . import extra_missing

try:
    import pyspiel
except ModuleNotFoundError as e:
    raise extra_missing(__name__, "openspiel", e) from None

from ..bots.sampler import InconsistentView, Sampler
from ..engine import Hand, OptionError, make_variant
from ..engine.leaders import rule_leader
from ..engine.scoring import gains
from ..engine.tiles import DRAW, NAME, mask_of
from ..engine.trains import hub_of
from ..engine.variant import OPTION_SPECS, PLAYER_COUNTS, Variant
from ..engine.view import View, hand_view, observer
from .actions import RL_VARIANTS, actions
from .core import first_bonus, net
from .encoders import encoder

UTILITY_BOUND = 1000.0


def game_name(variant: str) -> str:
    return "python_bonepile_" + variant.replace("-", "_")


def _max_length(v: Variant) -> int:
    n = v.players
    T = v.n_tiles
    deal = T + 3
    if (
        v.layout != "line"
    ):  # trains, a chicken foot: each play, draw and pass; passes come after a draw or n at most between plays
        moves = 3 * T + (T + 1) * n
    elif v.turn == "blind":
        moves = T * (1 + n * 15)
    elif v.turn == "voluntary":
        moves = (2 * T) * (n + 1) + n
    else:
        moves = 2 * T + T * n
    return 2 * deal + moves + T  # a redeal, moves, the draws' chance nodes


def _param_defaults(name: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    counts = PLAYER_COUNTS[name]
    if len(counts) > 1:
        out["players"] = make_variant(name).players
    for key, spec in OPTION_SPECS[name].items():
        if spec.default is None:
            continue  # OpenSpiel parameters cannot be None; leave such options out
        out[key] = spec.default
    return out


class BonepileGame(pyspiel.Game):
    """One variant as an OpenSpiel game; ``params`` are the variant's options."""

    variant_name = "block"

    def __init__(self, params: dict | None = None):
        name = self.variant_name
        params = dict(params or {})
        try:
            v = self.variant = make_variant(name, {k: params[k] for k in params})
        except OptionError as e:  # OpenSpiel's callers expect its own error for bad parameters
            raise pyspiel.SpielError(f"{game_name(name)}: {e}") from None
        if v.turn == "voluntary" and not v.pass_cycle_ends_hand:
            raise pyspiel.SpielError("end_on_full_pass_cycle=false has no bound on a hand's length")
        n = v.players
        bound = 1.0 if v.scoring == "result_only" else UTILITY_BOUND
        game_type = _game_types[name]
        info = pyspiel.GameInfo(
            num_distinct_actions=actions(v).n,
            max_chance_outcomes=v.n_tiles,
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=_max_length(v),
        )
        super().__init__(game_type, info, params)
        self.encoder = encoder(v)

    def new_initial_state(self):
        return BonepileState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        return BonepileObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Deal:
    """The mutable part of a state.  OpenSpiel clones a Python state by deep-copying its
    attributes; this object copies itself the cheap way (``Hand.copy``), sharing the
    immutable ``Variant``."""

    def __init__(self, v: Variant):
        self.v = v
        self.acts = actions(v)
        self.actions: list[int] = []  # every action since the start (redeals included)
        self.start()

    def start(self) -> None:
        v = self.v
        # tiles not dealt (and, later, not drawn); a train game's hub double is on the table
        hub = hub_of(v, 1) if v.layout != "line" else -1
        self.pool = [t for t in range(v.n_tiles) if t != hub]
        self.rows: list[list[int]] = [[] for _ in range(v.players)]
        self.chance_leader: int | None = None
        self.sizes = None if v.deal_from_leader else v.hand_sizes
        self.dealing = 0  # seat being dealt to
        self.starter: int | None = None
        self.need_leader = False
        self.must = -1
        self.hand: Hand | None = None
        self.pending_draw = False

    def __deepcopy__(self, memo) -> _Deal:
        c = _Deal.__new__(_Deal)
        c.__dict__.update(self.__dict__)
        c.pool = self.pool[:]
        c.rows = [r[:] for r in self.rows]
        c.hand = None if self.hand is None else self.hand.copy()
        c.actions = self.actions[:]
        return c

    def __getstate__(self) -> dict:
        return {"variant": self.v.name, "options": dict(self.v.options), "actions": self.actions}

    def __setstate__(self, state: dict) -> None:
        self.v = make_variant(state["variant"], state["options"])
        self.acts = actions(self.v)
        self.actions = []
        self.start()
        for a in state["actions"]:
            self.apply(a)

    def apply(self, action: int) -> None:
        c = self
        c.actions.append(action)
        h = c.hand
        v = c.v
        if h is None:
            if c.need_leader:
                c.build(action)
            elif c.sizes is None:  # the leader by lot decides the deal's sizes
                c.chance_leader = action
                c.sizes = v.sizes_for(action)
            elif not c.done():
                c.pool.remove(action)
                c.rows[c.dealing].append(action)
                while c.dealing < v.players and len(c.rows[c.dealing]) >= c.sizes[c.dealing]:
                    c.dealing += 1
                if c.done() and not v.starter:
                    c.finish()
            else:  # the starter tile
                c.pool.remove(action)
                c.starter = action
                c.finish()
            return
        if c.pending_draw:
            # the chance outcome is the tile drawn: put it next in the boneyard, then draw it
            rest = list(h.boneyard[h.bpos :])
            rest.remove(action)
            h.boneyard = h.boneyard[: h.bpos] + (action,) + tuple(rest)
            c.pending_draw = False
            h.apply(DRAW)
            return
        if action == c.acts.draw_id:
            c.pending_draw = True
            return
        h.apply(c.acts.move(action, h.to_move))

    def done(self) -> bool:
        return self.sizes is not None and self.dealing >= self.v.players

    def finish(self) -> None:
        v = self.v
        masks = list(map(mask_of, self.rows))
        leader, must, how = rule_leader(v, masks, None, None, True)
        if how == "redeal":
            self.start()
            return
        self.must = must
        if leader is None and v.deal_from_leader:
            leader = self.chance_leader
        if leader is None:
            self.need_leader = True
            return
        self.build(leader)

    def build(self, leader: int) -> None:
        v = self.v
        boneyard = ([self.starter] if self.starter is not None else []) + self.pool
        self.hand = Hand(v, self.rows, boneyard, leader, must_lead=self.must, number=1, bonus=first_bonus(v))
        self.need_leader = False


class BonepileState(pyspiel.State):
    def __init__(self, game: BonepileGame):
        super().__init__(game)
        self.c = _Deal(game.variant)

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        c = self.c
        h = c.hand
        if h is None or c.pending_draw:
            return pyspiel.PlayerId.CHANCE
        if h.over:
            return pyspiel.PlayerId.TERMINAL
        return h.to_move

    def is_terminal(self) -> bool:
        c = self.c
        return c.hand is not None and c.hand.over

    def _legal_actions(self, player: int) -> list[int]:
        c = self.c
        h = c.hand
        if h is None or h.over or c.pending_draw or player != h.to_move:
            return []
        of = c.acts.of
        return sorted({of(m, player) for m in h.legal_moves()})

    def chance_outcomes(self) -> list[tuple[int, float]]:
        c = self.c
        h = c.hand
        v = c.v
        if h is not None:  # a draw: any tile not dealt and not drawn yet
            rest = h.boneyard[h.bpos :]
            p = 1.0 / len(rest)
            return [(t, p) for t in sorted(rest)]
        if c.sizes is None or c.need_leader:
            p = 1.0 / v.players
            return [(s, p) for s in range(v.players)]
        p = 1.0 / len(c.pool)
        return [(t, p) for t in sorted(c.pool)]

    def _apply_action(self, action: int) -> None:
        self.c.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        c = self.c
        if player == pyspiel.PlayerId.CHANCE:
            h = c.hand
            if h is None and (c.sizes is None or c.need_leader):
                return f"leader {action}"
            return f"tile {NAME[action]}"
        return c.acts.describe(action, player)

    def returns(self) -> list[float]:
        c = self.c
        n = c.v.players
        h = c.hand
        if h is None or not h.over:
            return [0.0] * n
        return _utilities(c.v, h)

    def __str__(self) -> str:
        c = self.c
        h = c.hand
        if h is None:
            return "dealing: " + " | ".join(" ".join(NAME[t] for t in r) for r in c.rows)
        rows = " | ".join(" ".join(NAME[t] for t in h.held(s)) for s in range(c.v.players))
        ends = " ".join(f"{a}={p}" for a, p in h.ends().items())
        return f"seats: {rows}\nends: {ends}\nlog: {len(h.log)} moves"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> BonepileState:
        """A state the player cannot tell from this one: the same own tiles and public history,
        the hidden tiles (other hands, the boneyard's order) drawn again by the engine's
        sampler (``bots.sampler``: every world consistent with the player's View, uniformly
        over the constraint fill).  ``probability_sampler`` (OpenSpiel's, a callable giving a
        float in [0, 1)) seeds the draw; without it, Python's ``random``.  The new state is
        built by replaying its chance outcomes and actions from the start, so its history is
        its own, not this state's."""
        seed = int(probability_sampler() * 2**53) if probability_sampler is not None else None
        rng = random.Random(seed)
        c = self.c
        game = self.get_game()
        if c.hand is None:
            return self._resample_deal(player_id, rng)
        view = hand_view(c.hand, player_id)
        sampler = Sampler(c.v, view)
        for _ in range(20):
            try:
                world = sampler.sample(rng)
            except InconsistentView:
                break
            state = game.new_initial_state()
            if state._replay_world(world, c.chance_leader, pending_draw=c.pending_draw):
                return state
        raise pyspiel.SpielError("resample_from_infostate: no hidden deal agrees with this player's view")

    def _replay_world(self, w: Hand, chance_leader: int | None, pending_draw: bool) -> bool:
        """Play the chance outcomes and actions that lead to world ``w`` (dealt, then its log);
        False if this game's dealing does not reach it (a world the rules would redeal)."""
        v = self.c.v
        if v.deal_from_leader:
            self.apply_action(chance_leader if chance_leader is not None else w.leader)
        for row in w.deal_rows:
            for t in row:
                self.apply_action(t)
        if v.starter:
            self.apply_action(w.boneyard[0])
        if self.c.need_leader:
            self.apply_action(w.leader)
        h = self.c.hand
        if h is None or h.leader != w.leader:
            return False
        acts = self.c.acts
        for seat, move, tile in w.log:
            self.apply_action(acts.of(move, seat))
            if move == DRAW:
                self.apply_action(tile)
        if pending_draw:
            self.apply_action(acts.draw_id)
        return True

    def _resample_deal(self, player_id: int, rng: random.Random) -> BonepileState:
        """While dealing: the player's tiles so far kept, the other tiles dealt so far drawn again."""
        c = self.c
        state = self.get_game().new_initial_state()
        own = set(c.rows[player_id])
        for a in c.actions:
            st = state.c
            dealing_tile = st.hand is None and st.sizes is not None and not st.need_leader and not st.done()
            if dealing_tile and st.dealing != player_id:
                a = rng.choice([t for t in st.pool if t not in own])
            state.apply_action(a)
        return state

    # ------------------------------------------------------------------ views
    def view(self, player: int) -> View | None:
        """The player's View (None while dealing)."""
        c = self.c
        if c.hand is None:
            return None
        return hand_view(c.hand, player)


def _utilities(v: Variant, h: Hand) -> list[float]:
    n = v.players
    res = h.result
    assert res is not None
    if v.scoring == "result_only":
        side_points = [1.0 if k == res.winner else 0.0 for k in range(len(v.sides))]
    else:
        side_points = [float(p) for p in gains(v, res.points)]
    return [net(side_points, v.side_of(s)) for s in range(n)]


#: the observation fields only the player knows (a train encoder has no ``peek``)
_PRIVATE_FIELDS = ("hand", "peek")


class BonepileObserver:
    """The PyObserver of OpenSpiel: observation and information-state tensors and strings."""

    def __init__(self, game: BonepileGame, iig_obs_type):
        self.game = game
        self.enc = game.encoder
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        n = game.variant.players
        size = self.enc.size + ((self.enc.T + 2 * n) if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BonepileState, player: int) -> None:
        t = self.tensor
        t.fill(0.0)
        enc = self.enc
        if state.c.hand is None:  # dealing: only the player's own tiles so far (not in blind games)
            if self.private and not state.c.v.blind:
                for tile in state.c.rows[player]:
                    t[enc.offsets["hand"] + tile] = 1.0
            return
        # the fast path: equal to enc.encode(state.view(player)) (tests/test_rl_obs.py)
        ob = observer(state.c.hand)
        x, _mask = enc.observe(ob, player)
        if not self.private:
            for name in _PRIVATE_FIELDS:
                if name in enc.offsets:
                    o = enc.offsets[name]
                    x[o : o + enc.sizes[name]] = 0.0
        if not self.public:
            keep = x.copy()
            x[:] = 0.0
            if self.private:
                for name in _PRIVATE_FIELDS:
                    if name in enc.offsets:
                        o = enc.offsets[name]
                        x[o : o + enc.sizes[name]] = keep[o : o + enc.sizes[name]]
        t[: enc.size] = x
        if self.perfect_recall and self.public:
            n = state.c.v.players
            base = enc.size
            T = enc.T
            k = 0
            for e in ob.history(player):
                r = (e.seat - player) % n
                if e.action == "play":
                    k += 1
                    t[base + e.tile] = k / T  # type: ignore[operator]  # a play has a tile
                elif e.action == "pass":
                    t[base + T + r] += 1.0 / T
                else:
                    t[base + T + n + r] += 1.0 / T

    def string_from(self, state: BonepileState, player: int) -> str:
        view = state.view(player)
        if view is None:
            own = (
                " ".join(NAME[t] for t in state.c.rows[player])
                if (self.private and not state.c.v.blind)
                else ""
            )
            return f"p{player} dealing; own: {own}"
        parts = [f"p{player}"]
        if self.private:
            parts.append("own: " + " ".join(NAME[t] for t in view.hand))
            if view.peek is not None:
                parts.append(f"peek: {NAME[view.peek]}")
        if self.public:
            parts.append(f"leader: {view.leader}")
            if view.turned_up is not None:
                parts.append(f"up: {NAME[view.turned_up]}")
            fu = [f"{s}:" + ",".join(NAME[t] for _, t in row) for s, row in enumerate(view.face_up) if row]
            if fu:
                parts.append("face up: " + " ".join(fu))
            if self.perfect_recall:
                parts.append("history: " + " ".join(f"{e.seat}:{e}" for e in view.history))
            else:
                lay = view.layout
                parts.append("ends: " + " ".join(f"{a}={p}" for a, p in lay.ends.items()))
                parts.append("counts: " + " ".join(map(str, view.tile_counts)))
                parts.append(f"boneyard: {view.drawable}")
                parts.append("points: " + " ".join(map(str, view.hand_points)))
                if view.history:
                    e = view.history[-1]
                    parts.append(f"last: {e.seat}:{e}")
        return " ".join(parts)


_game_types: dict[str, Any] = {}
GAME_NAMES: dict[str, str] = {}


def _register(name: str) -> None:
    short = game_name(name)
    v = make_variant(name)
    counts = PLAYER_COUNTS[name]
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"bonepile {name} (one hand)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_param_defaults(name),
    )
    _game_types[name] = game_type
    cls = type(f"Bonepile_{name.replace('-', '_')}_Game", (BonepileGame,), {"variant_name": name})
    GAME_NAMES[name] = short
    if short not in pyspiel.registered_names():
        pyspiel.register_game(game_type, cls)
    del v


for _name in RL_VARIANTS:
    _register(_name)

__all__ = ["BonepileGame", "BonepileState", "BonepileObserver", "GAME_NAMES", "game_name"]
