"""Sanity checks of the peer adapters in bench/bots_peers.py (dominoes, OpenSpiel ISMCTS).

The peers are in the ``bench`` extra, so every test here is skipped without them.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
bp = pytest.importorskip("bots_peers")

from bonepile.bots import make_bot
from bonepile.engine import PASS, Game, make_variant
from bonepile.engine.tiles import HI, LO, tile_index

VARIANT = make_variant(*bp.VARIANT)


def need(*mods: str) -> None:
    for m in mods:
        pytest.importorskip(m)


def random_players(seed: int) -> list:
    return [make_bot("random", VARIANT, seed=seed * 10 + s) for s in range(4)]


def test_lockstep_random_hands_agree_in_all_engines():
    """Random play mirrored in both peer engines: same ends, turns and hand ends after
    every move (the checks raise on any disagreement)."""
    need("dominoes", "pyspiel")
    ends = Counter()
    for d in range(60):
        out = bp.play_hand(5000 + d, random_players(d), [bp.LockstepDominoes(), bp.LockstepOpenSpiel()])
        ends[out.end] += 1
        assert out.winner in (0, 1, None)
    assert set(ends) == {"domino", "blocked"}


def test_lockstep_catches_a_disagreement():
    need("dominoes")
    lock = bp.LockstepDominoes()
    game = Game.new(*bp.VARIANT, seed=3)
    hand = game.hands[0]
    lock.start([sorted(b for b in range(28) if hand.masks[s] >> b & 1) for s in range(4)], hand.leader)
    game.apply(hand.legal_moves()[0])  # bonepile moves, the mirror does not
    with pytest.raises(AssertionError):
        lock.check(hand)


class LateStarter:
    """Plays random moves for the first plays of the hand, then asks ``bot`` (keeps the
    dominoes test fast: its exhaustive alpha-beta is slow on the first moves)."""

    def __init__(self, bot, after: int, seed: int) -> None:
        self.bot, self.after = bot, after
        self.rnd = make_bot("random", VARIANT, seed=seed)
        self.asked = 0

    def choose(self, view):
        if len(view.layout.arms.get("L", ())) + len(view.layout.arms.get("R", ())) < self.after:
            return self.rnd.choose(view)
        self.asked += 1
        return self.bot.choose(view)


def test_random_vs_dominoes_hands():
    need("dominoes", "pyspiel")
    asked = 0
    for d in range(4):
        peer = LateStarter(bp.DominoesPeer(sample_size=3, seed=d), 8, d)
        rnd = make_bot("random", VARIANT, seed=d)
        players = [rnd, peer, rnd, peer] if d % 2 else [peer, rnd, peer, rnd]
        out = bp.play_hand(700 + d, players, [bp.LockstepDominoes(), bp.LockstepOpenSpiel()])
        assert out.end in ("domino", "blocked")
        asked += peer.asked
    assert asked > 0


def test_random_vs_openspiel_hands():
    need("pyspiel", "dominoes")  # the hands are mirrored in both peer engines
    for d in range(3):
        peer = bp.OpenSpielPeer(sims=20, seed=d)
        rnd = make_bot("random", VARIANT, seed=d)
        players = [peer, rnd, peer, rnd] if d % 2 else [rnd, peer, rnd, peer]
        out = bp.play_hand(800 + d, players, [bp.LockstepDominoes(), bp.LockstepOpenSpiel()])
        assert out.end in ("domino", "blocked")


def _midgame(seed: int, plies: int):
    game = Game.new(*bp.VARIANT, seed=seed)
    hand = game.hands[0]
    rng = random.Random(seed)
    for _ in range(plies):
        ms = hand.legal_moves()
        game.apply(ms[rng.randrange(len(ms))])
    return game, hand


def _find_midgame_with_passes():
    for seed in range(200):
        game, hand = _midgame(seed, 14)
        if hand.over:
            continue
        if sum(1 for _s, m, _t in hand.log if m == PASS) >= 2:
            return game, hand
    raise AssertionError("no mid-game position with passes found")


def test_public_facts_and_stand_in_deals_respect_the_record():
    game, hand = _find_midgame_with_passes()
    seat = hand.to_move
    view = game.view(seat)
    pub = bp.public_of(view)
    # the voids found are true of the real hands
    for s in range(4):
        for t in range(28):
            if hand.masks[s] >> t & 1:
                assert HI[t] not in pub.void[s] and LO[t] not in pub.void[s]
    assert any(pub.void[s] for s in range(4))
    rng = random.Random(1)
    real = [sorted(t for t in range(28) if hand.masks[s] >> t & 1) for s in range(4)]
    differs = 0
    for _ in range(200):
        hands = bp.stand_in_hands(pub, rng)
        assert hands[seat] == real[seat]
        assert sorted(t for h in hands for t in h) == sorted(t for h in real for t in h)
        for s in range(4):
            assert len(hands[s]) == len(real[s])
            assert all(HI[t] not in pub.void[s] and LO[t] not in pub.void[s] for t in hands[s])
        differs += hands != real
    assert differs > 150  # the stand-ins are samples, not the real deal


def test_exact_sampler_is_uniform_over_consistent_deals():
    unknown = [
        tile_index(6, 5),
        tile_index(5, 1),
        tile_index(2, 0),
        tile_index(3, 3),
        tile_index(4, 1),
        tile_index(6, 2),
    ]
    counts = {1: 2, 2: 2, 3: 2}
    void = {1: {6}, 2: set(), 3: {1}}
    ok = []
    for perm in itertools.permutations(unknown):
        d = {1: sorted(perm[0:2]), 2: sorted(perm[2:4]), 3: sorted(perm[4:6])}
        if all(HI[t] not in void[s] and LO[t] not in void[s] for s in d for t in d[s]):
            key = tuple(tuple(d[s]) for s in (1, 2, 3))
            if key not in ok:
                ok.append(key)
    for tries in (0, 64):  # counting sampler, and rejection
        rng = random.Random(7)
        n = 300 * len(ok)
        seen = Counter(
            tuple(
                tuple(sorted(v))
                for _s, v in sorted(bp.deal_hidden(unknown, counts, void, rng, tries=tries).items())
            )
            for _ in range(n)
        )
        assert set(seen) == set(ok)
        assert min(seen.values()) > 200 and max(seen.values()) < 400


def test_resampler_keeps_own_hand_and_history_and_passes():
    need("pyspiel")
    game, hand = _find_midgame_with_passes()
    seat = hand.to_move
    peer = bp.OpenSpielPeer(sims=5, seed=0)
    state = peer.state_from_view(game.view(seat))
    player = state.current_player()
    assert player == (seat - hand.leader) % 4
    key = state.information_state_string()
    pub = bp.public_of(game.view(seat))
    for _ in range(50):
        s = peer.resampler(state, player)
        assert s.information_state_string() == key
        for p in range(4):
            assert len(s.hands[p]) == len(state.hands[p])
            vs = pub.void[(p + hand.leader) % 4]
            assert all(int(a) not in vs and int(b) not in vs for a, b in s.hands[p])


def test_peers_choose_legal_moves_from_views_only():
    need("dominoes", "pyspiel")
    game, hand = _find_midgame_with_passes()
    view = game.view(hand.to_move)
    assert bp.DominoesPeer(sample_size=2, seed=0).choose(view) in view.legal
    assert bp.OpenSpielPeer(sims=10, seed=0).choose(view) in view.legal


def test_wilson_interval():
    lo, hi = bp.wilson(60, 100)
    assert lo == pytest.approx(0.502, abs=1e-3) and hi == pytest.approx(0.691, abs=1e-3)
    assert bp.wilson(0, 0) == (0.0, 1.0)


def test_main_runs_a_tiny_match(capsys):
    need("pyspiel")
    assert (
        bp.main(
            [
                "--hands",
                "1",
                "--peer",
                "openspiel",
                "--ismcts-sims",
                "5",
                "--bonepile-bot",
                "random",
                "--check",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1].startswith("head-to-head: random vs openspiel ")
