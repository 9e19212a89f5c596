"""Random-play throughput: bonepile vs. peer domino engines, on one core.

Measures FULL HANDS PER SECOND of the 4-player partnership block game
(double-six set, all 28 tiles dealt 7 each, nobody draws, a player who cannot
play passes, the hand ends on domino or block), playing uniformly random legal
moves, dealing included, for:

* bonepile            -- ``Hand.deal(make_variant("block", teams, 4 players))``
* dominoes 6.1.0      -- ``dominoes.Game.new(starting_domino=Domino(6, 6))``;
                         one ``Game`` object is exactly one hand (the package's
                         ``Series`` is what chains hands into a match)
* OpenSpiel           -- ``pyspiel.load_game("python_team_dominoes")``;
                         the deal is 28 explicit chance actions

Every engine runs sequentially in this process for the same wall time
(``--seconds``), after a short untimed warm-up.  The process is pinned to a
single CPU.  The very last line is ``bonepile/fastest-peer: R.RRx`` (or
``n/a`` when bonepile or every peer is unavailable).

Peer rule differences worth knowing when reading the numbers:

* dominoes: ``Game.new(starting_domino=...)`` plays the 6-6 itself (from the
  holder's hand) before returning; passes are taken automatically inside
  ``make_move`` and recorded as ``None`` in ``game.moves``; the deal uses the
  module-level ``random`` (seeded here with ``--seed``).
* OpenSpiel: player 0 always leads, with ANY tile (no 6-6 rule, no option to
  set one); passes are taken automatically (never an action).

"Actions" below = tiles placed + passes (the peers skip passes internally, so
their passes are reconstructed; trailing passes at a block are not counted for
any peer).

Run:  .venv/bin/python bench/engine.py [--seconds 3] [--seed 20240601]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

# A hand player returns the number of actions (tiles placed + passes) it took.
HandPlayer = Callable[[], int]


# --------------------------------------------------------------------------
# adapters: each make_* returns a zero-arg callable that plays ONE full hand
# (deal included) and returns its action count; raises ImportError when the
# engine is not available.
# --------------------------------------------------------------------------


def make_bonepile(seed: int, variant: str = "block", options: dict | None = None) -> HandPlayer:
    from bonepile.engine import Hand, make_variant

    v = make_variant(variant, {"teams": True, "players": 4} if options is None else options)
    rng = random.Random(seed)
    rnd = rng.random

    def play_hand() -> int:
        h = Hand.deal(v, rng)
        n = 0
        while not h.over:
            ms = h.legal_moves()
            h.apply(ms[int(rnd() * len(ms))])
            n += 1
        return n

    return play_hand


def make_dominoes(seed: int) -> HandPlayer:
    import dominoes

    # Game.new() shuffles with the module-level `random`; seed it for
    # reproducibility (the move choices use our own Random).
    random.seed(seed)
    rng = random.Random(seed + 1)
    rnd = rng.random
    six_six = dominoes.Domino(6, 6)
    new = dominoes.Game.new

    def play_hand() -> int:
        # Deals 4 x 7 and has the 6-6 holder play the 6-6 (one hand).
        g = new(starting_domino=six_six)
        while g.result is None:
            ms = g.valid_moves
            g.make_move(*ms[int(rnd() * len(ms))])
        # g.moves = every tile placed (incl. the opening 6-6) + a None per pass.
        return len(g.moves)

    return play_hand


def make_openspiel(seed: int) -> HandPlayer:
    import pyspiel

    try:  # registers "python_team_dominoes" on import
        from open_spiel.python.games import team_dominoes  # noqa: F401
    except ImportError:
        import open_spiel.python.games  # noqa: F401  (older layouts)

    game = pyspiel.load_game("python_team_dominoes")
    rng = random.Random(seed)
    rnd = rng.random
    new_state = game.new_initial_state

    def play_hand() -> int:
        s = new_state()
        # Deal: 28 chance nodes, uniformly random among the remaining tiles.
        while s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(outs[int(rnd() * len(outs))][0])
        n = 0
        prev = -1
        while not s.is_terminal():
            p = s.current_player()
            if prev >= 0:
                n += (p - prev - 1) % 4  # seats skipped = passes
            prev = p
            ms = s.legal_actions()
            s.apply_action(ms[int(rnd() * len(ms))])
            n += 1
        return n

    return play_hand


ENGINES: list[tuple[str, Callable[[int], HandPlayer], str]] = [
    ("bonepile", make_bonepile, "not importable"),
    ("dominoes", make_dominoes, "not installed (pip install -e '.[bench]')"),
    ("openspiel", make_openspiel, "not installed (pip install -e '.[bench]')"),
]


# --------------------------------------------------------------------------


def pin_to_one_cpu() -> str:
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        try:
            cpu = min(os.sched_getaffinity(0))
            os.sched_setaffinity(0, {cpu})
            return f"pinned to CPU {cpu}"
        except OSError as exc:  # pragma: no cover - exotic sandboxes
            return f"not pinned ({exc})"
    return "not pinned (no sched_setaffinity on this platform)"


def measure(play_hand: HandPlayer, seconds: float) -> tuple[int, float, int]:
    """Play hands until `seconds` of wall time elapse; (hands, elapsed, actions)."""
    clock = time.perf_counter
    hands = actions = 0
    t0 = clock()
    deadline = t0 + seconds
    while True:
        actions += play_hand()
        hands += 1
        t = clock()
        if t >= deadline:
            return hands, t - t0, actions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="wall time per engine (default: 3.0)")
    ap.add_argument("--seed", type=int, default=20240601, help="RNG seed (default: 20240601)")
    ap.add_argument(
        "--variants", action="store_true", help="also report bonepile's random-play rate for every variant"
    )
    ap.add_argument("--rounds", type=int, default=6, help="interleaved rounds per engine (default: 6)")
    ap.add_argument(
        "--warmup", type=float, default=0.3, help="untimed warm-up per engine, seconds (default: 0.3)"
    )
    args = ap.parse_args(argv)

    print(
        f"bench/engine.py: 4-player partnership block, random play, "
        f"{args.seconds:g} s/engine, seed {args.seed}, "
        f"Python {sys.version.split()[0]}, {pin_to_one_cpu()}"
    )

    players: dict[str, HandPlayer] = {}
    for name, make, missing in ENGINES:
        try:
            players[name] = make(args.seed)
        except ImportError as exc:
            if name == "bonepile":
                print(f"{name}: {missing} ({exc})")
            else:
                print(f"{name}: {missing}")
        except Exception as exc:  # e.g. engine mid-edit, game not registered
            print(f"{name}: unavailable ({type(exc).__name__}: {exc})")
    for play_hand in players.values():
        if args.warmup > 0:
            measure(play_hand, args.warmup)
    # Interleave the engines in rounds and take each one's median rate, so that drift in
    # the machine's speed during the run hits every engine alike.
    per_round = args.seconds / args.rounds
    samples: dict[str, list[float]] = {name: [] for name in players}
    totals: dict[str, list[float]] = {name: [0, 0.0, 0] for name in players}
    for _ in range(args.rounds):
        for name, play_hand in players.items():
            hands, elapsed, actions = measure(play_hand, per_round)
            samples[name].append(hands / elapsed)
            tot = totals[name]
            tot[0] += hands
            tot[1] += elapsed
            tot[2] += actions
    rates: dict[str, float] = {}
    for name in players:
        rate = statistics.median(samples[name])
        rates[name] = rate
        hands, elapsed, actions = totals[name]
        print(
            f"{name:>9}: {rate:10,.0f} hands/s  (median of {args.rounds} rounds; {hands:,} hands "
            f"in {elapsed:.2f} s, {actions / hands:.1f} actions/hand)"
        )

    if args.variants and "bonepile" in players:
        from bonepile.engine.variant import PLAYER_COUNTS

        print("bonepile, every variant (random play, hands/s):")
        for name, counts in PLAYER_COUNTS.items():
            for n in counts:
                play = make_bonepile(args.seed, name, {"players": n} if len(counts) > 1 else {})
                hands, elapsed, actions = measure(play, args.seconds / 6)
                print(f"  {name:>11} {n}p: {hands / elapsed:9,.0f}  ({actions / hands:.1f} actions/hand)")

    peers = {k: v for k, v in rates.items() if k != "bonepile"}
    if "bonepile" in rates and peers:
        fastest = max(peers, key=peers.__getitem__)
        print(f"bonepile/fastest-peer: {rates['bonepile'] / peers[fastest]:.2f}x")
    else:
        print("bonepile/fastest-peer: n/a")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
