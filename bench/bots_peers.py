"""bonepile bots head-to-head against the strongest fair bots of two public peer engines.

Game: the 4-player partnership block game, ``make_variant("block", {"teams": True,
"players": 4})`` -- 28 tiles dealt 7 each, no stock, the 6-6 holder leads the 6-6, a seat
that cannot play passes, the hand ends on a domino or a block, side-value scoring (RULES.md
§0.7, §3.3).  Every hand is a fresh deal (the first hand of a game), so "hands won" is the
measure.  Every deal is played twice, the bonepile bot on seats 0 and 2 and then on 1 and 3
(duplicate), so both sides get the same cards.

Peers (both are in the ``bench`` extra; nothing under ``src/`` imports them):

* ``dominoes`` (PyPI, 6.1.0): ``dominoes.players.probabilistic_alphabeta(sample_size=K)``.
  For each decision it draws K deals of the hidden tiles consistent with the hand sizes and
  with the suits each seat has shown it lacks by passing (``Game.random_possible_hands``),
  solves each one with full-width alpha-beta to the end of the hand, and plays the move that
  was optimal in the most samples.
* ``openspiel`` (open-spiel 2.0.2): ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with
  random-rollout evaluation on ``python_team_dominoes``, given a resampler (below) that deals
  the hidden tiles uniformly among the deals consistent with the passes.

How the adapters keep the peers fair and in step (see ``--help`` for the knobs):

* bonepile is the referee: its ``Game`` deals, judges legality and scores the hand.
* A peer bot is asked for a move only through ``choose(view)``, with the ``View`` of its own
  seat -- exactly what a bonepile bot gets.  From the view the adapter builds a peer-engine
  state in which the seat's own tiles are real and every hidden tile is a *stand-in*: a deal
  drawn uniformly (with the adapter's own seeded RNG) among the deals consistent with the
  public record (hand sizes, tiles played, pips each seat lacks because it passed).  So the
  peer's state carries no information about the real hidden hands; both peers resample the
  hidden hands anyway (dominoes keeps only their union and sizes; our ISMCTS resampler keeps
  only the seat's own hand and the public history).
* Separately, a *lockstep* copy of the real deal runs in each peer engine (``Lockstep*``),
  fed every move bonepile applies; after every move it checks that both engines agree on
  the open ends, whose turn it is and whether/how the hand ended.  The bots never see it.
* Forced moves (a pass, or only one distinct move) are applied without asking any bot;
  decision times are measured on genuine choices only, for every bot alike.

Rule differences between the engines (the moves fed are legal in all of them):

* Seats: bonepile and dominoes both number seats in turn order with partners 0+2 / 1+3;
  seats map one to one.  OpenSpiel's game always starts with its player 0 (any tile), so
  seats are rotated: OpenSpiel player ``(seat - leader) % 4``.  Partners stay partners.
* First lead: bonepile (and dominoes' ``starting_domino``) make the 6-6 holder lead the
  6-6; OpenSpiel lets player 0 lead any tile.  The lead is a forced move here, so the peers
  never choose it; it only differs inside OpenSpiel's search tree, which starts after it.
* Ends: bonepile and dominoes keep a left and a right end; when both ends show the same pip
  bonepile lists a tile twice (``@L``/``@R``), dominoes once (left).  OpenSpiel keeps the
  ends as a sorted pair and an action names the pip it covers.  The mapping keeps ends
  identical with dominoes and equal as a multiset with OpenSpiel.
* Scoring (what the peer bots optimise, not how hands are judged here): bonepile gives the
  hand to the side whose member dominoed, else to the side with fewer pips, and scores the
  difference of the side values.  dominoes scores a domino as the pips of the other three
  hands (partner included) and a block as both sides' pips.  OpenSpiel ignores who dominoed:
  the side with fewer pips wins the other side's pips (so a domino by a seat whose partner
  holds more than both opponents counts as a loss to it) -- this is its game, kept as is.
* Passes: the peers skip a seat that cannot play inside their move function; bonepile
  records the pass as a forced action.  The adapters convert between the two.

Run:  PYTHONPATH=src .venv/bin/python bench/bots_peers.py --hands 200
      [--peer dominoes|openspiel|both] [--bonepile-bot expert] [--time auto|SECONDS]
      [--dominoes-sample-size 10] [--ismcts-sims N] [--seed S]
The last line is ``head-to-head: ...`` with the bonepile bot's share of hands per peer.
``--check`` also mirrors every hand in both peer engines and asserts they agree.

Run time: ISMCTS at 200 simulations takes ~0.2-0.6 s per decision; dominoes' exhaustive
alpha-beta takes a few seconds per sample on the first moves of a hand (median ~0.3 s, mean
~5 s per decision), so 200 deals against it run for hours: use ``--hands 20`` for a look.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from bonepile.engine import PASS, Game, View, make_variant
from bonepile.engine.tiles import HI, LO, N_TILES, NAME, arm_of, bits, move, tile_index, tile_of

VARIANT = ("block", {"teams": True, "players": 4})
SEATS = 4
ALL_TILES = tuple(range(N_TILES))


# ==========================================================================================
# public facts of a view, and dealing the hidden tiles consistently with them
# ==========================================================================================


@dataclass
class Public:
    """What a seat knows, distilled from its View: its tiles, what was played (in order, as
    (seat, tile, pip covered or None for the lead, arm index 0=L/1=R or None)), the pips each
    seat is known to lack, and how many tiles each seat holds."""

    seat: int
    leader: int
    own: tuple[int, ...]
    plays: list[tuple[int, int, int | None, int | None]]
    events: list[tuple[int, str, int | None]]  # (seat, "play"/"pass", index into plays)
    void: list[set[int]]
    counts: tuple[int, ...]
    first_left: int | None

    def unknown(self) -> list[int]:
        seen = set(self.own) | {t for _, t, _, _ in self.plays}
        return [t for t in ALL_TILES if t not in seen]


def public_of(view: View) -> Public:
    """Replay the public history of a View (line layout, 2 ends)."""
    ends: list[int] = []
    plays: list[tuple[int, int, int | None, int | None]] = []
    events: list[tuple[int, str, int | None]] = []
    void: list[set[int]] = [set() for _ in range(view.players)]
    first_left = view.layout.first_left
    for ev in view.history:
        if ev.action == "pass":
            void[ev.seat].update(ends)
            events.append((ev.seat, "pass", None))
        elif ev.action == "play":
            t = ev.tile
            assert t is not None
            if not ends:
                left = first_left if first_left is not None else HI[t]
                ends = [left, HI[t] + LO[t] - left]
                plays.append((ev.seat, t, None, None))
            else:
                arm = "LR".index(ev.arm or "L")
                pip = ends[arm]
                ends[arm] = HI[t] + LO[t] - pip
                plays.append((ev.seat, t, pip, arm))
            events.append((ev.seat, "play", len(plays) - 1))
        else:  # pragma: no cover - no draws in the 4-player block game
            raise ValueError(f"unexpected event {ev} in the block game")
    return Public(
        view.seat, view.leader, tuple(view.hand), plays, events, void, tuple(view.tile_counts), first_left
    )


def deal_hidden(
    unknown: list[int], counts: dict[int, int], void: dict[int, set[int]], rng: random.Random, tries: int = 64
) -> dict[int, list[int]]:
    """A deal of ``unknown`` to the seats in ``counts`` (that many tiles each), drawn
    uniformly among the deals in which no seat holds a pip it is known to lack.  Rejection
    first (cheap when few pips are known missing), then an exact counting sampler."""
    seats = list(counts)
    allowed = [[s for s in seats if HI[t] not in void[s] and LO[t] not in void[s]] for t in unknown]
    tiles = list(unknown)
    for _ in range(tries):
        rng.shuffle(tiles)
        out, pos, ok = {}, 0, True
        for s in seats:
            part = tiles[pos : pos + counts[s]]
            pos += counts[s]
            vs = void[s]
            if any(HI[t] in vs or LO[t] in vs for t in part):
                ok = False
                break
            out[s] = part
        if ok:
            return out
    # exact: count completions of tiles i.. given remaining capacities, sample tile by tile
    n = len(unknown)
    idx = {s: k for k, s in enumerate(seats)}
    allowed_k = [[idx[s] for s in a] for a in allowed]

    @cache
    def ways(i: int, caps: tuple[int, ...]) -> int:
        if i == n:
            return 1
        total = 0
        for k in allowed_k[i]:
            if caps[k]:
                total += ways(i + 1, caps[:k] + (caps[k] - 1,) + caps[k + 1 :])
        return total

    caps = tuple(counts[s] for s in seats)
    if ways(0, caps) == 0:
        raise ValueError("no deal of the hidden tiles is consistent with the record")
    out = {s: [] for s in seats}
    for i in range(n):
        options = []
        for k in allowed_k[i]:
            if caps[k]:
                nxt = caps[:k] + (caps[k] - 1,) + caps[k + 1 :]
                options.append((ways(i + 1, nxt), k, nxt))
        r = rng.random() * sum(w for w, _, _ in options)
        for w, k, nxt in options:
            r -= w
            if r < 0 or (w, k, nxt) == options[-1]:
                out[seats[k]].append(unknown[i])
                caps = nxt
                break
    return out


def stand_in_hands(pub: Public, rng: random.Random) -> list[list[int]]:
    """Current hands per seat: the seat's own tiles, and for the others a consistent random
    stand-in deal (independent of the real hidden hands)."""
    others = [s for s in range(SEATS) if s != pub.seat]
    dealt = deal_hidden(
        pub.unknown(), {s: pub.counts[s] for s in others}, {s: pub.void[s] for s in others}, rng
    )
    return [sorted(pub.own) if s == pub.seat else sorted(dealt[s]) for s in range(SEATS)]


def forced(game_hand: Any, legal: list[int]) -> bool:
    """True when every legal move has the same effect (a pass, or one tile that leaves the
    same pair of ends wherever it goes): no bot is asked then."""
    if len(legal) == 1:
        return True
    outcomes = set()
    pip = game_hand.pip
    for m in legal:
        t, a = tile_of(m), arm_of(m)
        if game_hand.placed == 0:
            outcomes.add((t,))
            continue
        ends = list(pip[:2])
        ends[a] = HI[t] + LO[t] - ends[a]
        outcomes.add((t, tuple(sorted(ends))))
    return len(outcomes) == 1


def find_move(view: View, tile: int, arm: int | None, pip: int | None) -> int:
    """The legal bonepile move placing ``tile`` at ``arm`` (or at an end showing ``pip``)."""
    legal = view.legal
    for m in legal:
        if m != PASS and tile_of(m) == tile and view.layout.first is None:
            return m  # the lead
    if arm is not None and move(tile, arm) in legal:
        return move(tile, arm)
    if pip is not None:
        for a, name in enumerate("LR"):
            if view.layout.ends.get(name) == pip and move(tile, a) in legal:
                return move(tile, a)
    raise RuntimeError(
        f"peer move {NAME[tile]} arm={arm} pip={pip} is not legal in bonepile: {[m for m in legal]}"
    )


# ==========================================================================================
# the dominoes package
# ==========================================================================================


def _domino(t: int, first: int | None = None):
    import dominoes

    if first is None or first == HI[t]:
        return dominoes.Domino(HI[t], LO[t])
    return dominoes.Domino(LO[t], HI[t])


def _dominoes_board(pub: Public):
    import dominoes

    board = dominoes.Board()
    moves: list[Any] = []
    for _seat, kind, k in pub.events:
        if kind == "pass":
            moves.append(None)
            continue
        _s, t, _pip, arm = pub.plays[k]  # type: ignore[index]
        if arm is None:
            d = _domino(t, pub.first_left)
            board.add(d, True)
            moves.append((d, True))
        else:
            d = _domino(t)
            board.add(d, arm == 0)
            moves.append((d, arm == 0))
    return board, moves


class DominoesPeer:
    """``dominoes.players.probabilistic_alphabeta`` playing one seat from its View."""

    name = "dominoes"

    def __init__(self, sample_size: int = 10, seed: int | None = None) -> None:
        import dominoes

        self.sample_size = sample_size
        self.player = dominoes.players.probabilistic_alphabeta(sample_size=sample_size)
        self.rng = random.Random(seed)
        self.label = f"dominoes PIMC alpha-beta (sample_size={sample_size})"

    def game_from_view(self, view: View):
        """A dominoes Game for the seat to move, holding only public facts and the seat's own
        tiles; the hidden hands are a consistent stand-in deal (the player resamples them)."""
        import dominoes

        pub = public_of(view)
        hands = stand_in_hands(pub, self.rng)
        board, moves = _dominoes_board(pub)
        g = dominoes.Game(
            board,
            [dominoes.Hand([_domino(t) for t in h]) for h in hands],
            moves,
            view.seat,
            (),
            view.leader,
            None,
        )
        g._update_valid_moves()
        return g

    def choose(self, view: View) -> int:
        if view.layout.first is None:  # the lead is the 6-6, forced (never asked in play_hand)
            return view.legal[0]
        g = self.game_from_view(view)
        # the player draws its samples with the module-level `random`: seed it from ours
        random.seed(self.rng.getrandbits(64))
        self.player(g)  # reorders g.valid_moves, best first
        d, left = g.valid_moves[0]
        t = tile_index(d.first, d.second)
        return find_move(view, t, 0 if left else 1, None)


class LockstepDominoes:
    """The real deal mirrored in a dominoes Game (referee-side consistency check only)."""

    name = "dominoes"

    def start(self, hands: list[list[int]], leader: int) -> None:
        import dominoes

        self.g = dominoes.Game(
            dominoes.Board(),
            [dominoes.Hand([_domino(t) for t in h]) for h in hands],
            [],
            leader,
            (),
            leader,
            None,
        )

    def mirror(self, seat: int, move: int, ends_before: list[int]) -> None:
        if move == PASS:
            return  # dominoes skips the seat inside make_move
        assert self.g.turn == seat, f"dominoes: turn {self.g.turn}, bonepile seat {seat}"
        t, a = tile_of(move), arm_of(move)
        if not ends_before:
            self.g.make_move(_domino(t, HI[t] if a == 0 else LO[t]), True)
        else:
            self.g.make_move(_domino(t), a == 0)

    def check(self, hand: Any) -> None:
        g = self.g
        if hand.over:
            assert g.result is not None, "dominoes: hand not over"
            res = hand.result
            if res.end == "domino":
                assert g.result.won and g.result.player == res.dominoer
            else:
                assert not g.result.won
                p = g.result.points
                want = None if p == 0 else (0 if p > 0 else 1)
                assert want == res.winner, f"dominoes block winner {want} != {res.winner}"
            return
        assert g.result is None, "dominoes: hand over early"
        assert len(g.board) == hand.placed, f"dominoes: {len(g.board)} tiles placed"
        if hand.placed == 0:
            assert len(g.board) == 0 and g.turn == hand.to_move
            return
        assert (g.board.left_end(), g.board.right_end()) == (hand.pip[0], hand.pip[1]), (
            f"dominoes ends {g.board} vs bonepile {hand.pip[:2]}"
        )
        if hand.legal_moves() != [PASS]:
            assert g.turn == hand.to_move, f"dominoes turn {g.turn} vs {hand.to_move}"


# ==========================================================================================
# OpenSpiel
# ==========================================================================================


class _OS:
    """Lazy handles on OpenSpiel's team dominoes."""

    _ready = False

    @classmethod
    def load(cls):
        if not cls._ready:
            import pyspiel
            from open_spiel.python.games import team_dominoes as td

            cls.pyspiel = pyspiel
            cls.td = td
            cls.game = pyspiel.load_game("python_team_dominoes")
            cls.deck_index = {tuple(int(x) for x in tile): i for i, tile in enumerate(td._DECK)}
            cls.action_index = {
                (a.player, tuple(int(x) for x in a.tile), None if a.edge is None else int(a.edge)): i
                for i, a in enumerate(td._ACTIONS)
            }
            cls._ready = True
        return cls

    @staticmethod
    def tile(t: int) -> tuple[int, int]:
        return (LO[t], HI[t])

    @staticmethod
    def tile_from(tile: tuple[float, float]) -> int:
        return tile_index(int(tile[0]), int(tile[1]))


def os_state(hands_by_player: list[list[int]], actions: list[tuple[int, int, int | None]]):
    """An OpenSpiel state with these hands (by OpenSpiel player, at the deal) after these
    plays ((player, tile, pip covered))."""
    os_ = _OS.load()
    s = os_.game.new_initial_state()
    for k in range(7):
        for p in range(SEATS):
            s.apply_action(os_.deck_index[_OS.tile(hands_by_player[p][k])])
    for p, t, pip in actions:
        assert s.current_player() == p, f"openspiel: player {s.current_player()} to move, not {p}"
        s.apply_action(os_.action_index[(p, _OS.tile(t), pip)])
    return s


class PassResampler:
    """ISMCTS resampler: keeps the searching player's own hand and the public history of an
    OpenSpiel state and deals the other hands uniformly among the deals consistent with the
    hand sizes and the passes (a seat skipped by the game lacked every open pip)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._key: Any = None
        self._facts: Any = None

    def facts(self, state, player: int):
        hist = state.actions_history
        key = (player, len(hist), tuple(state.hands[player]))
        if key != self._key:
            void: list[set[int]] = [set() for _ in range(SEATS)]
            edges: list[int] = []
            played = set()
            prev = None
            for a in hist:
                if prev is not None:  # the seats skipped between two plays passed
                    for k in range(1, (a.player - prev - 1) % SEATS + 1):
                        void[(prev + k) % SEATS].update(edges)
                if a.edge is None:
                    edges = [int(a.tile[0]), int(a.tile[1])]
                else:
                    edges = edges_after(edges, a)
                played.add(_OS.tile_from(a.tile))
                prev = a.player
            cur = state.current_player()
            if prev is not None:
                for k in range(1, (cur - prev - 1) % SEATS + 1):
                    void[(prev + k) % SEATS].update(edges)
            own = {_OS.tile_from(t) for t in state.hands[player]}
            unknown = [t for t in ALL_TILES if t not in played and t not in own]
            others = [q for q in range(SEATS) if q != player]
            counts = {q: len(state.hands[q]) for q in others}
            self._key = key
            self._facts = (unknown, counts, {q: void[q] for q in others})
        return self._facts

    def __call__(self, state, player: int):
        unknown, counts, void = self.facts(state, player)
        dealt = deal_hidden(unknown, counts, void, self.rng)
        s = state.clone()
        for q, tiles in dealt.items():
            s.hands[q] = sorted((float(LO[t]), float(HI[t])) for t in tiles)  # as dealt
        return s


def edges_after(edges: list[int], a) -> list[int]:
    e = list(edges)
    e.remove(int(a.edge))
    t = (int(a.tile[0]), int(a.tile[1]))
    e.append(t[1] if t[0] == int(a.edge) else t[0])
    return e


class OpenSpielPeer:
    """OpenSpiel's ISMCTS playing one seat from its View, on ``python_team_dominoes``."""

    name = "openspiel"

    def __init__(
        self, sims: int = 200, uct_c: float = 10.0, seed: int | None = None, rollouts: int = 1
    ) -> None:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        os_ = _OS.load()
        self.rng = random.Random(seed)
        nprs = np.random.RandomState(self.rng.getrandbits(32))
        self.bot = ismcts.ISMCTSBot(
            game=os_.game,
            evaluator=mcts.RandomRolloutEvaluator(rollouts, nprs),
            uct_c=uct_c,
            max_simulations=sims,
            random_state=nprs,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        self.resampler = PassResampler(self.rng)
        self.bot.set_resampler(self.resampler)
        self.label = f"OpenSpiel ISMCTS ({sims} sims, uct_c={uct_c:g}, {rollouts} rollout)"

    def state_from_view(self, view: View):
        """An OpenSpiel state for the seat to move from its View only: its own tiles, the
        public plays, and a consistent stand-in deal for the hidden tiles."""
        pub = public_of(view)
        now = stand_in_hands(pub, self.rng)
        lead = view.leader
        initial = [list(h) for h in now]
        for s, t, _pip, _arm in pub.plays:
            initial[s].append(t)
        by_player = [sorted(initial[(p + lead) % SEATS]) for p in range(SEATS)]
        acts = [((s - lead) % SEATS, t, pip) for s, t, pip, _arm in pub.plays]
        return os_state(by_player, acts)

    def choose(self, view: View) -> int:
        if view.layout.first is None:  # OpenSpiel would lead any tile; bonepile's lead is forced
            return view.legal[0]
        os_ = _OS.load()
        state = self.state_from_view(view)
        assert state.current_player() == (view.seat - view.leader) % SEATS
        action = self.bot.step(state)
        a = os_.td._ACTIONS[action]
        t = _OS.tile_from(a.tile)
        return find_move(view, t, None, None if a.edge is None else int(a.edge))


class LockstepOpenSpiel:
    """The real deal mirrored in an OpenSpiel state, seats rotated so the leader is player 0
    (referee-side consistency check only)."""

    name = "openspiel"

    def start(self, hands: list[list[int]], leader: int) -> None:
        self.lead = leader
        self.s = os_state([sorted(hands[(p + leader) % SEATS]) for p in range(SEATS)], [])

    def mirror(self, seat: int, move: int, ends_before: list[int]) -> None:
        if move == PASS:
            return
        p = (seat - self.lead) % SEATS
        assert self.s.current_player() == p, f"openspiel: player {self.s.current_player()} != {p}"
        t, a = tile_of(move), arm_of(move)
        pip = None if not ends_before else ends_before[a]
        self.s.apply_action(_OS.load().action_index[(p, _OS.tile(t), pip)])

    def check(self, hand: Any) -> None:
        s = self.s
        if hand.over:
            assert s.is_terminal(), "openspiel: hand not over"
            if hand.result.end != "domino":  # a block: both give it to the lighter side
                r = s.returns()
                want = None if r[0] == 0 else (0 if r[0] > 0 else 1)  # OS player 0's team
                want = None if want is None else (want + self.lead) % 2
                assert want == hand.result.winner, f"openspiel block {want} vs {hand.result.winner}"
            return
        assert not s.is_terminal(), "openspiel: hand over early"
        assert len(s.actions_history) == hand.placed, "openspiel: tiles placed differ"
        if hand.placed == 0:
            assert not s.open_edges and s.current_player() == 0
            return
        assert sorted(int(x) for x in s.open_edges) == sorted(hand.pip[:2]), (
            f"openspiel edges {s.open_edges} vs {hand.pip[:2]}"
        )
        if hand.legal_moves() != [PASS]:
            assert s.current_player() == (hand.to_move - self.lead) % SEATS


PEERS: dict[str, tuple[Callable[..., Any], type]] = {
    "dominoes": (DominoesPeer, LockstepDominoes),
    "openspiel": (OpenSpielPeer, LockstepOpenSpiel),
}


# ==========================================================================================
# playing hands
# ==========================================================================================


class Chooser(Protocol):
    def choose(self, view: View) -> int: ...


@dataclass
class HandOutcome:
    winner: int | None
    points: tuple[int, ...]
    end: str
    times: dict[int, list[float]] = field(default_factory=dict)  # seat -> seconds per decision
    moves: int = 0


def play_hand(deal_seed: int, players: list[Chooser], lockstep: list[Any] = ()) -> HandOutcome:
    """One fresh hand of the block game dealt from ``deal_seed``; ``players[seat]`` choose
    from their views; every lockstep engine mirrors each move and is checked after it."""
    game = Game.new(VARIANT[0], VARIANT[1], seed=deal_seed)
    hand = game.hands[0]
    deal = [bits(m) for m in hand.masks]
    for ls in lockstep:
        ls.start(deal, hand.leader)
        ls.check(hand)
    times: dict[int, list[float]] = {s: [] for s in range(SEATS)}
    moves = 0
    clock = time.perf_counter
    while not hand.over:
        seat = hand.to_move
        legal = hand.legal_moves()
        if forced(hand, legal):
            move = legal[0]
        else:
            view = game.view(seat)
            t0 = clock()
            move = players[seat].choose(view)
            times[seat].append(clock() - t0)
            if move not in legal:
                raise RuntimeError(f"seat {seat} chose an illegal move {move}")
        ends_before = [] if hand.placed == 0 else list(hand.pip[:2])
        game.apply(move)
        moves += 1
        for ls in lockstep:
            ls.mirror(seat, move, ends_before)
            ls.check(hand)
    res = hand.result
    return HandOutcome(res.winner, tuple(res.points), res.end, times, moves)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


@dataclass
class Match:
    """bonepile bot (``ours``) vs a peer bot, duplicate deals."""

    ours: str
    peer: str
    hands: int = 0
    ours_won: int = 0
    peer_won: int = 0
    ties: int = 0
    net_points: list[int] = field(default_factory=list)  # ours - peer, per hand
    ours_ms: list[float] = field(default_factory=list)
    peer_ms: list[float] = field(default_factory=list)

    def add(self, out: HandOutcome, our_side: int) -> None:
        self.hands += 1
        if out.winner is None:
            self.ties += 1
        elif out.winner == our_side:
            self.ours_won += 1
        else:
            self.peer_won += 1
        self.net_points.append(out.points[our_side] - out.points[1 - our_side])
        for seat, ts in out.times.items():
            (self.ours_ms if seat % 2 == our_side else self.peer_ms).extend(t * 1000 for t in ts)

    def rate(self) -> tuple[float, float, float]:
        lo, hi = wilson(self.ours_won, self.hands)
        return (self.ours_won / max(1, self.hands), lo, hi)


def run_match(
    ours_factory: Callable[[int], Chooser],
    peer_factory: Callable[[int], Chooser],
    ours: str,
    peer: str,
    deals: int,
    seed: int,
    lockstep: list[Any] = (),
    progress: Callable[[str], None] | None = None,
) -> Match:
    """``deals`` deals, each played twice: ours on seats 0,2 then on 1,3."""
    m = Match(ours, peer)
    rng = random.Random(seed)
    for d in range(deals):
        deal_seed = rng.getrandbits(48)
        for our_side in (0, 1):
            bot_seed = rng.getrandbits(32)
            a, b = ours_factory(bot_seed), peer_factory(bot_seed + 1)
            players = [a if s % 2 == our_side else b for s in range(SEATS)]
            m.add(play_hand(deal_seed, players, lockstep), our_side)
        if progress:
            progress(f"  {ours} vs {peer}: {d + 1}/{deals} deals")
    return m


# ==========================================================================================
# command line
# ==========================================================================================


def _ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"{statistics.median(xs):7.1f} /{statistics.fmean(xs):7.1f}"


def _row(m: Match) -> str:
    r, lo, hi = m.rate()
    plo, phi = wilson(m.peer_won, m.hands)
    pts = statistics.fmean(m.net_points) if m.net_points else 0.0
    half = (
        1.96 * statistics.stdev(m.net_points) / math.sqrt(len(m.net_points)) if len(m.net_points) > 1 else 0.0
    )
    return (
        f"{m.ours:>12} vs {m.peer:<9} {m.hands:6d}  {100 * r:5.1f}% [{100 * lo:4.1f},{100 * hi:5.1f}]"
        f"  {100 * m.peer_won / max(1, m.hands):5.1f}% [{100 * plo:4.1f},{100 * phi:5.1f}]"
        f"  {m.ties:4d}  {pts:+6.1f} ±{half:4.1f}  {_ms(m.ours_ms)}  {_ms(m.peer_ms)}"
    )


HEADER = (
    f"{'bonepile':>12} vs {'peer':<9} {'hands':>6}  {'bonepile won [95% CI]':<22}"
    f"  {'peer won [95% CI]':<22}  {'ties':>4}  {'net pts/hand':<12}"
    f"  {'ms bonepile med/mean':<17}  {'ms peer med/mean'}"
)


def main(argv: list[str] | None = None) -> int:
    from bonepile.bots import BOT_LEVELS, EXPERT_BUDGET, Budget, make_bot

    strongest = next(lvl for lvl in ("expert", "greedy", "random") if lvl in BOT_LEVELS)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--hands",
        type=int,
        default=200,
        help="deals per match; each is played twice, sides swapped (default 200)",
    )
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument(
        "--bonepile-bot",
        default=strongest,
        help=f"bonepile level(s), comma separated, from {','.join(BOT_LEVELS)} (default: {strongest})",
    )
    ap.add_argument("--no-baseline", action="store_true", help="skip the uniform random bot vs each peer")
    ap.add_argument(
        "--time",
        default="auto",
        help="seconds per move for the expert; 'auto' = 90%% of the peer's median "
        "ms per decision measured in the random baseline (default)",
    )
    ap.add_argument("--peer", choices=("dominoes", "openspiel", "both"), default="both")
    ap.add_argument("--dominoes-sample-size", type=int, default=10)
    ap.add_argument("--ismcts-sims", type=int, default=200)
    ap.add_argument(
        "--ismcts-uct-c",
        type=float,
        default=10.0,
        help="UCT exploration constant (returns are in pips, up to ~100)",
    )
    ap.add_argument(
        "--check", action="store_true", help="also mirror every hand in the peer engines and check they agree"
    )
    args = ap.parse_args(argv)

    levels = [x.strip() for x in args.bonepile_bot.split(",") if x.strip()]
    for lvl in levels:
        if lvl not in BOT_LEVELS:
            ap.error(f"unknown bonepile bot {lvl!r}; choose from {', '.join(BOT_LEVELS)}")
    if args.time != "auto":
        try:
            float(args.time)
        except ValueError:
            ap.error("--time must be 'auto' or a number of seconds")
    peers = ["dominoes", "openspiel"] if args.peer == "both" else [args.peer]
    variant = make_variant(*VARIANT)

    def progress(msg: str) -> None:
        if sys.stderr.isatty():
            print(f"\r{msg}   ", end="", file=sys.stderr, flush=True)

    print(
        f"bench/bots_peers.py: 4-player partnership block, {args.hands} deals x 2 seatings "
        f"per match, seed {args.seed}, Python {sys.version.split()[0]}"
    )
    print("decisions = genuine choices only (forced moves and passes are not timed)")
    rows: list[Match] = []
    summary: list[str] = []
    for peer in peers:
        make_peer, make_lock = PEERS[peer]
        try:
            if peer == "dominoes":

                def peer_factory(s: int, _m=make_peer) -> Chooser:
                    return _m(sample_size=args.dominoes_sample_size, seed=s)
            else:

                def peer_factory(s: int, _m=make_peer) -> Chooser:
                    return _m(sims=args.ismcts_sims, uct_c=args.ismcts_uct_c, seed=s)

            label = peer_factory(0).label
        except ImportError as exc:
            print(f"{peer}: not installed ({exc}); pip install -e '.[bench]'")
            continue
        print(f"\n{peer}: {label}")
        lock = [make_lock()] if args.check else []
        todo = list(levels)
        if not args.no_baseline and "random" not in todo:
            todo.insert(0, "random")
        peer_ms: float | None = None
        print(HEADER)
        for lvl in todo:
            budget: Budget | None = None
            if lvl == "expert":
                if args.time == "auto":
                    budget = Budget(time=0.9 * peer_ms / 1000) if peer_ms else EXPERT_BUDGET
                else:
                    budget = Budget(time=float(args.time))

            def ours_factory(s: int, _l=lvl, _b=budget) -> Chooser:
                return make_bot(_l, variant, seed=s, budget=_b)

            name = lvl if budget is None else f"{lvl}@{1000 * (budget.time or 0):.0f}ms"
            m = run_match(ours_factory, peer_factory, name, peer, args.hands, args.seed, lock, progress)
            if sys.stderr.isatty():
                print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
            if lvl == "random" and m.peer_ms:
                peer_ms = statistics.median(m.peer_ms)
            print(_row(m), flush=True)
            if lvl == "expert" and m.ours_ms and m.peer_ms:
                mine, theirs = statistics.median(m.ours_ms), statistics.median(m.peer_ms)
                verdict = "within" if mine <= theirs else "OVER"
                print(
                    f"    median ms per decision {mine:.1f} vs the peer's {theirs:.1f}: {verdict} the peer's median"
                )
            rows.append(m)
            if lvl in levels:
                r, lo, hi = m.rate()
                summary.append(f"{name} vs {peer} {100 * r:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
    print("head-to-head: " + ("; ".join(summary) if summary else "n/a"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
