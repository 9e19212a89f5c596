"""Train the belief model (``bots/beliefs.py``) on self-play positions, with PyTorch.

Games of the open variants (the partnership block game most, then Draw, Cinque, Quinientos,
the Passing Game, 2- and 3-player block) are played by a mix of bots (each seat one of
greedy, beginner, random and strong), and positions are taken along the way.  A position's
input is ``features(variant, view)``, built from the mover's View only; its labels are the
real holders of the unseen tiles, read from the game (the only place the hidden state is
read, and only to label).  The network is a small multilayer perceptron; its loss is the
cross-entropy of each unseen tile's real holder among the holders the hard facts allow.
The weights are written as a numpy ``.npz`` that ``BeliefModel`` reads.

Deterministic for a seed (one torch thread, deterministic algorithms).

    PYTHONPATH=src python bench/train_beliefs.py --seed 1 --positions 150000 --epochs 12
    PYTHONPATH=src python bench/train_beliefs.py --seed 1 --out src/bonepile/bots/models/beliefs.npz
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

import numpy as np

from bonepile.bots import make_bot
from bonepile.bots.beliefs import FEATURES, OUTPUTS, STOCK, constraints, features
from bonepile.engine import Game

#: (variant, options, weight): where the positions come from
MIX = [
    ("block", {"players": 4, "teams": True}, 6),
    ("draw", {"players": 2}, 1),
    ("draw", {"players": 4}, 1),
    ("cinque", {}, 1),
    ("quinientos", {}, 1),
    ("passing", {}, 1),
    ("block", {"players": 2}, 1),
    ("block", {"players": 3}, 1),
]
#: the bots that play the games, and how often each sits at a seat
PLAYERS = [("greedy", 4), ("beginner", 2), ("random", 1), ("strong", 2)]


def labels(game: Game, seat: int, cons) -> tuple[np.ndarray, np.ndarray]:
    """The real holder's column of each unseen tile (-1: not unseen) and the allowed mask,
    for the model's outputs (``OUTPUTS`` columns: next seats in turn, then the stock)."""
    n = game.variant.players
    masks = game.hand.masks
    y = np.full(28, -1, dtype=np.int8)
    allowed = np.zeros((28, OUTPUTS), dtype=bool)
    col = {h: ((h - seat) % n - 1 if h != STOCK else OUTPUTS - 1) for h in cons.holders}
    for t, row in zip(cons.tiles, cons.allowed):
        for h, ok in zip(cons.holders, row):
            allowed[t, col[h]] = ok
        y[t] = OUTPUTS - 1
        for s in range(n):
            if masks[s] >> t & 1:
                y[t] = col[s]
    return y, allowed


def generate(seed: int, positions: int, *, take: float = 0.35, mix=MIX, players=PLAYERS, log=True):
    """``positions`` positions (X, Y, M) from games seeded from ``seed``."""
    rng = random.Random(seed)
    xs = np.zeros((positions, FEATURES), dtype=np.float32)
    ys = np.zeros((positions, 28), dtype=np.int8)
    ms = np.zeros((positions, 28, OUTPUTS), dtype=bool)
    k = 0
    games = 0
    t0 = time.time()
    names = [p for p, _ in players]
    pw = [w for _, w in players]
    while k < positions:
        name, opts, _ = rng.choices(mix, weights=[w for *_, w in mix])[0]
        g = Game.new(name, opts, seed=rng.randrange(1 << 30))
        v = g.variant
        bots = [make_bot(rng.choices(names, pw)[0], v, seed=rng.randrange(1 << 30)) for _ in range(v.players)]
        games += 1
        hands = 0
        while not g.over and k < positions and hands < 3:
            h = g.hand
            while not h.over and k < positions:
                s = g.to_move
                view = g.view(s)
                if view.history and rng.random() < take:
                    cons = constraints(v, view)
                    if cons.tiles:
                        xs[k] = features(v, view, cons)
                        ys[k], ms[k] = labels(g, s, cons)
                        k += 1
                g.apply(bots[s].choose(view))
            hands += 1
        if log and games % 200 == 0:
            print(f"  {games} games, {k} positions, {time.time() - t0:.0f} s", flush=True)
    return xs[:k], ys[:k], ms[:k]


def build_net(hidden: int, layers: int):
    import torch.nn as nn

    mods: list = []
    width = FEATURES
    for _ in range(layers):
        mods += [nn.Linear(width, hidden), nn.ReLU()]
        width = hidden
    mods.append(nn.Linear(width, 28 * OUTPUTS))
    return nn.Sequential(*mods)


def masked_loss(net, x, y, m):
    """Mean cross-entropy of the real holders among the allowed ones, over unseen tiles."""
    import torch

    logits = net(x).view(-1, 28, OUTPUTS)
    logits = logits.masked_fill(~m, -1e9)
    logp = torch.log_softmax(logits, dim=-1)
    keep = y >= 0
    picked = logp.gather(-1, y.clamp(min=0).long().unsqueeze(-1)).squeeze(-1)
    return -(picked * keep).sum() / keep.sum().clamp(min=1)


def train(x, y, m, *, seed: int, epochs: int, hidden: int, layers: int, lr: float, batch: int, log=True):
    import torch

    torch.manual_seed(seed)
    net = build_net(hidden, layers)
    data = (torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(m))
    return fit(
        net,
        data,
        lambda X, Y, M: masked_loss(net, X, Y, M),
        seed=seed,
        epochs=epochs,
        lr=lr,
        batch=batch,
        log=log,
    )


def fit(
    net, data, loss_of, *, seed: int, epochs: int, lr: float, batch: int, weight_decay: float = 0.0, log=True
):
    """Train ``net`` on the tensors ``data`` (rows alike) by Adam with a cosine schedule, in
    batches drawn in an order fixed by ``seed``; ``loss_of(*batch_tensors)`` is the batch's loss.
    Deterministic: one thread, deterministic algorithms (the policy trainer uses it too)."""
    import torch

    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, epochs))
    rows = len(data[0])
    g = torch.Generator().manual_seed(seed)
    for ep in range(epochs):
        perm = torch.randperm(rows, generator=g)
        total = 0.0
        for i in range(0, rows, batch):
            idx = perm[i : i + batch]
            loss = loss_of(*(t[idx] for t in data))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        sched.step()
        if log:
            print(f"  epoch {ep + 1}: loss {total / rows:.4f}", flush=True)
    return net


def export(net, path: str) -> None:
    """The linear layers' weights as ``w0, b0, ...`` (inputs x outputs), float32."""
    import torch.nn as nn

    arrays = {}
    i = 0
    for mod in net:
        if isinstance(mod, nn.Linear):
            arrays[f"w{i}"] = mod.weight.detach().numpy().T.astype(np.float32)
            arrays[f"b{i}"] = mod.bias.detach().numpy().astype(np.float32)
            i += 1
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    np.savez_compressed(path, **arrays)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--positions", type=int, default=150_000)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument(
        "--data",
        help="a .npz of positions to read (or write, when missing); several, comma-separated, are read",
    )
    ap.add_argument("--only-data", action="store_true", help="write the positions (--data) and stop")
    ap.add_argument("--block-only", action="store_true", help="positions of the partnership block game only")
    ap.add_argument("--out", default="beliefs.npz")
    args = ap.parse_args(argv)
    t0 = time.time()
    files = args.data.split(",") if args.data else []
    if files and all(os.path.exists(f) for f in files):
        parts = []
        for f in files:
            with np.load(f) as d:
                parts.append((d["x"], d["y"], d["m"]))
        x, y, m = (np.concatenate([p[i] for p in parts]) for i in range(3))
    else:
        x, y, m = generate(args.seed, args.positions, mix=MIX[:1] if args.block_only else MIX)
        if files:
            np.savez_compressed(files[0], x=x, y=y, m=m)
    print(f"{len(x)} positions in {time.time() - t0:.0f} s", flush=True)
    if args.only_data:
        return 0
    t1 = time.time()
    net = train(
        x,
        y,
        m,
        seed=args.seed,
        epochs=args.epochs,
        hidden=args.hidden,
        layers=args.layers,
        lr=args.lr,
        batch=args.batch,
    )
    export(net, args.out)
    print(f"trained in {time.time() - t1:.0f} s; written {args.out} ({os.path.getsize(args.out)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
