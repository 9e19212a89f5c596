"""Train the policy model (``bots/policy.py``, the ``strong`` level in open games) by
distillation from a perfect-information oracle, with PyTorch.

Positions come from games of the open variants (``MIX``: the partnership block game and
Cinque most) played by a mix of bots (``PLAYERS``).  At a position with a choice, each legal
action is labelled with its value in the *real* deal: the expert's own search run on the one
world that is the truth (``Oracle``: the game's hidden hands, read here only to label),
``--rollouts`` playouts per action with common random numbers, solved exactly near the end
of a two-sided hand.  The network's input is ``policy.inputs(variant, view)``, built from the
mover's View only.  A network fitted to these values from the view alone learns their mean
over the deals that agree with the view, weighed as real games deal them: what the expert's
search estimates with sampled worlds, at the cost of one network pass.

Loss: squared error of each action's score against its value less the position's mean value
(points), weighed by one over the variance of those targets in its game (so games of large
points do not drown the others): the network answers in points, an estimate of what the
search would find with many worlds, which the expert can add to its own (``policy`` in
``ExpertConfig``).

Data is made in chunks (``--chunk`` positions each, seeded from ``--seed`` and the chunk's
number) written under ``--data DIR`` and reused when present, so a run can be stopped and
resumed and the work spread over processes (``--jobs``).  Deterministic for a seed (one
torch thread, deterministic algorithms).

    PYTHONPATH=src nice -n 10 python bench/train_policy.py --seed 1 --positions 20000 --jobs 2 \
        --data /tmp/policy-data --out src/bonepile/bots/models/policy.npz
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import replace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # the belief trainer's export

import numpy as np
from train_beliefs import export, fit  # one training loop, one .npz layout the bots read

from bonepile.bots import Budget, ExpertBot, make_bot
from bonepile.bots.expert import preset
from bonepile.bots.policy import INPUT, inputs
from bonepile.engine import Game, Variant, View

#: (variant, options, weight): where the positions come from
MIX = [
    ("block", {"players": 4, "teams": True}, 5),
    ("cinque", {}, 4),
    ("draw", {"players": 2}, 2),
    ("quinientos", {}, 2),
    ("draw", {"players": 4}, 1),
    ("passing", {}, 1),
    ("block", {"players": 2}, 1),
    ("block", {"players": 3}, 1),
    ("block", {"players": 4}, 1),
]
#: the bots that play the games, and how often each sits at a seat (``search8``: the expert's
#: search with 8 worlds, the ``strong`` level before the policy, so that the data does not
#: depend on the policy being trained)
PLAYERS = [("greedy", 4), ("beginner", 2), ("random", 1), ("search8", 2)]


def player(name: str, v: Variant, seed: int):
    if name == "search8":
        return ExpertBot(v, seed=seed, budget=Budget(simulations=8))
    return make_bot(name, v, seed=seed)


class _Truth:
    """A 'sampler' that always draws the real deal."""

    def __init__(self, hand) -> None:
        self.hand = hand

    def sample(self, rng: random.Random):
        return self.hand.copy()


class Oracle(ExpertBot):
    """The expert's search on the real deal only: per action, its value where every hand is
    known (no greedy prior, no inference: nothing to infer)."""

    def __init__(self, variant: Variant, hand, *, rollouts: int, seed: int) -> None:
        config = replace(preset(variant), prior=0.0, infer=0, beliefs=False)
        super().__init__(variant, seed=seed, budget=Budget(simulations=rollouts), config=config)
        self.truth = hand

    def sampler(self, view: View):  # type: ignore[override]
        return _Truth(self.truth)

    def values(self, view: View) -> dict[int, float]:
        w = self.config.win_weight
        return {e.action: e.value + w * (e.win or 0.0) for e in self.evaluate(view)}


def variant_key(name: str, opts: dict) -> int:
    return next(i for i, (n, o, _) in enumerate(MIX) if n == name and o == opts)


def generate(seed: int, positions: int, *, rollouts: int, take: float = 0.3, log: bool = True):
    """``positions`` positions with a choice from games seeded from ``seed``: rows of input
    (one per legal action), their values, the position of each row, each position's game."""
    rng = random.Random(seed)
    rows: list[np.ndarray] = []
    vals: list[float] = []
    group: list[int] = []
    kind: list[int] = []
    names = [p for p, _ in PLAYERS]
    pw = [w for _, w in PLAYERS]
    k = games = 0
    t0 = time.time()
    while k < positions:
        name, opts, _ = rng.choices(MIX, weights=[w for *_, w in MIX])[0]
        g = Game.new(name, opts, seed=rng.randrange(1 << 30))
        v = g.variant
        bots = [player(rng.choices(names, pw)[0], v, rng.randrange(1 << 30)) for _ in range(v.players)]
        games += 1
        hands = 0
        while not g.over and k < positions and hands < 2:
            h = g.hand
            while not h.over and k < positions:
                s = g.to_move
                view = g.view(s)
                if len(view.legal) > 1 and rng.random() < take:
                    x = inputs(v, view)
                    q = Oracle(v, g.hand, rollouts=rollouts, seed=rng.randrange(1 << 30)).values(view)
                    rows.append(x)
                    vals.extend(q[m] for m in view.legal)
                    group.extend([k] * len(view.legal))
                    kind.append(variant_key(name, opts))
                    k += 1
                g.apply(bots[s].choose(view))
            hands += 1
        if log and games % 50 == 0:
            print(f"  seed {seed}: {games} games, {k} positions, {time.time() - t0:.0f} s", flush=True)
    x = np.concatenate(rows) if rows else np.zeros((0, INPUT), np.float32)
    return x, np.array(vals, np.float32), np.array(group, np.int32), np.array(kind, np.int8)


def chunk(args: tuple[int, int, int, str]) -> str:
    seed, size, rollouts, path = args
    if not os.path.exists(path):
        x, q, grp, kind = generate(seed, size, rollouts=rollouts, log=False)
        tmp = path + ".tmp.npz"
        np.savez_compressed(tmp, x=x, q=q, g=grp, k=kind)
        os.replace(tmp, path)
    return path


def load(paths: list[str]):
    xs, qs, gs, ks = [], [], [], []
    base = 0
    for p in paths:
        with np.load(p) as d:
            xs.append(d["x"])
            qs.append(d["q"])
            gs.append(d["g"] + base)
            ks.append(d["k"])
            base += len(d["k"])
    return np.concatenate(xs), np.concatenate(qs), np.concatenate(gs), np.concatenate(ks)


def targets(q: np.ndarray, grp: np.ndarray, kind: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each action's value less its position's mean value (in points), and the weight of its
    squared error: one over the variance of its game's targets, so that games of large points
    (Quinientos) do not drown the others while the network still answers in points."""
    n = len(kind)
    sums = np.bincount(grp, weights=q, minlength=n)
    counts = np.bincount(grp, minlength=n)
    adv = q - (sums / np.maximum(counts, 1))[grp]
    rk = kind[grp]
    w = np.zeros_like(adv)
    for v in np.unique(rk):
        sel = rk == v
        w[sel] = 1.0 / max(float(adv[sel].var()), 1e-3)
    return adv.astype(np.float32), (w / w.mean()).astype(np.float32)


def build_net(hidden: int, layers: int, width: int = INPUT):
    import torch.nn as nn

    mods: list = []
    for _ in range(layers):
        mods += [nn.Linear(width, hidden), nn.ReLU()]
        width = hidden
    mods.append(nn.Linear(width, 1))
    return nn.Sequential(*mods)


def train(x, y, w, *, seed: int, epochs: int, hidden: int, layers: int, lr: float, batch: int, log=True):
    """Fit the network's score of each row to its target (squared error, weighed by ``w``)."""
    import torch

    torch.manual_seed(seed)
    net = build_net(hidden, layers, x.shape[1])
    data = (torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(w))
    return fit(
        net,
        data,
        lambda X, Y, W: (W * (net(X)[:, 0] - Y) ** 2).mean(),
        seed=seed,
        epochs=epochs,
        lr=lr,
        batch=batch,
        weight_decay=1e-5,
        log=log,
    )


def picks(scores: np.ndarray, q: np.ndarray, grp: np.ndarray) -> tuple[float, float]:
    """How a scorer's top action fares against the oracle: the share of positions where it
    has the oracle's best value, and the mean value it leaves (oracle's best less its pick)."""
    n = int(grp.max()) + 1 if len(grp) else 0
    best_q = np.full(n, -np.inf)
    np.maximum.at(best_q, grp, q)
    best_s = np.full(n, -np.inf)
    pick = np.full(n, np.nan)
    for i in range(len(scores)):
        j = grp[i]
        if scores[i] > best_s[j]:
            best_s[j], pick[j] = scores[i], q[i]
    return float(np.mean(pick >= best_q - 1e-6)), float(np.mean(best_q - pick))


def report(net, x, q, grp, kind) -> None:
    """Per game of held-out positions: the network's picks and the greedy player's (the
    greedy score is the input's last column) against the oracle's values."""
    import torch

    with torch.no_grad():
        s = net(torch.from_numpy(x))[:, 0].numpy()
    g = x[:, -1]
    rk = kind[grp]
    for v in [None, *np.unique(kind)]:
        sel = np.ones(len(grp), bool) if v is None else rk == v
        if not sel.any():
            continue
        _, grp_sel = np.unique(grp[sel], return_inverse=True)
        na, nr = picks(s[sel], q[sel], grp_sel)
        ga, gr = picks(g[sel], q[sel], grp_sel)
        label = "all" if v is None else f"{MIX[v][0]} {MIX[v][1]}"
        print(
            f"  {label}: {grp_sel.max() + 1} positions; best action picked: network {100 * na:.1f}%, "
            f"greedy {100 * ga:.1f}%; value left: network {nr:.2f}, greedy {gr:.2f}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--positions", type=int, default=20_000)
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--rollouts", type=int, default=6, help="playouts of each action in the real deal")
    ap.add_argument("--jobs", type=int, default=1, help="processes making data")
    ap.add_argument("--data", default="policy-data", help="folder of the data chunks (reused when present)")
    ap.add_argument("--only-data", action="store_true")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--out", default="policy.npz")
    args = ap.parse_args(argv)
    t0 = time.time()
    os.makedirs(args.data, exist_ok=True)
    n_chunks = -(-args.positions // args.chunk)
    jobs = [
        (args.seed * 100_003 + c, args.chunk, args.rollouts, os.path.join(args.data, f"s{args.seed}-{c}.npz"))
        for c in range(n_chunks)
    ]
    if args.jobs > 1:
        from multiprocessing import Pool

        with Pool(args.jobs) as pool:
            for i, p in enumerate(pool.imap(chunk, jobs)):
                print(f"  chunk {i + 1}/{n_chunks} {p} ({time.time() - t0:.0f} s)", flush=True)
        paths = [j[3] for j in jobs]
    else:
        paths = []
        for i, j in enumerate(jobs):
            paths.append(chunk(j))
            print(f"  chunk {i + 1}/{n_chunks} ({time.time() - t0:.0f} s)", flush=True)
    x, q, grp, kind = load(paths)
    print(f"{len(kind)} positions, {len(x)} actions, data in {time.time() - t0:.0f} s", flush=True)
    if args.only_data:
        return 0
    # the last tenth of the positions is held out to report the agreement with the oracle
    cut = int(len(kind) * 0.9)
    y, w = targets(q, grp, kind)
    tr = grp < cut
    t1 = time.time()
    net = train(
        x[tr],
        y[tr],
        w[tr],
        seed=args.seed,
        epochs=args.epochs,
        hidden=args.hidden,
        layers=args.layers,
        lr=args.lr,
        batch=args.batch,
    )
    held = ~tr
    print("held-out positions (values in the real deal, the oracle's):", flush=True)
    report(net, x[held], q[held], grp[held] - cut, kind[cut:])
    export(net, args.out)
    print(f"trained in {time.time() - t1:.0f} s; written {args.out} ({os.path.getsize(args.out)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
