"""A small PPO trainer (PyTorch, extra ``train``): one seat of a variant against bonepile bots.

``bonepile train block --players 2 --steps N`` runs ``train()``.  The agent plays in the
Gymnasium environment (``gym.BonepileEnv``) with net rewards (its side's points minus the other
side's), auto-played forced moves (every step is a real choice) and the action mask.  Its policy
scores each *legal action* rather than all 114 ids at once: a small network reads the seat's
observation (``obs.Encoder``: only what the seat may know, with the public knowledge the engine
derives, such as the pips a seat proved it lacks) next to the features of one action (the
tile, the arm, the pip it leaves open, how many of the agent's other tiles and of the tiles on
the table carry that pip...), and the softmax of those scores over the legal actions is the
policy.  A value head reads the observation.  Training is PPO (clipped ratio, GAE) over
batches of whole hands played by several environments in lock step.

``evaluate()`` plays the agent (its most likely action) against a bot on fixed deals, each deal
twice with the seats swapped, and counts hands won.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from . import extra_missing

try:
    import torch
    from torch import nn
except ModuleNotFoundError as e:
    raise extra_missing(__name__, "train", e) from None

from ..arena.stats import wilson
from ..bots import Bot, make_bot
from ..bots.sampler import InconsistentView
from ..engine import OptionError, Variant
from ..engine.tiles import HI, IS_DOUBLE, LO, PIP_MASK, PIPS
from ..engine.view import observer
from .core import Match, forced, variant_from
from .gym import BonepileEnv
from .obs import Encoder

#: per action: tile one-hot (28), arm one-hot (4), pips/12, double, the pip left open one-hot
#: (7), own other tiles with that pip /7, tiles on the table with that pip /7, lead, pass, draw
N_ACTION_FEATURES = 28 + 4 + 1 + 1 + 7 + 1 + 1 + 1 + 1 + 1


def action_features(enc: Encoder, x: np.ndarray, actions: list[int]) -> np.ndarray:
    """The features of each legal action, read from the observation ``x`` only."""
    f = enc.describe(x)
    own = f["hand"]
    played = f["played"]
    ends = f["ends"].reshape(4, 7)
    empty = bool(f["empty_table"][0])
    out = np.zeros((len(actions), N_ACTION_FEATURES), np.float32)
    for i, a in enumerate(actions):
        row = out[i]
        if a == enc.actions.pass_id:
            row[-2] = 1.0
            continue
        if a == enc.actions.draw_id:
            row[-1] = 1.0
            continue
        t, arm = a >> 2, a & 3
        row[t] = 1.0
        row[28 + arm] = 1.0
        row[32] = PIPS[t] / 12.0
        row[33] = float(IS_DOUBLE[t])
        if empty:
            left = LO[t]
            row[-3] = 1.0
        else:
            pip = int(np.argmax(ends[arm]))
            left = HI[t] if LO[t] == pip else LO[t]
        row[34 + left] = 1.0
        with_pip = PIP_MASK[left]
        row[41] = sum(own[u] for u in range(28) if u != t and with_pip >> u & 1) / 7.0
        row[42] = sum(played[u] for u in range(28) if with_pip >> u & 1) / 7.0
    return out


class Policy(nn.Module):
    """Scores (observation, action) pairs; a value head on the observation."""

    def __init__(self, obs_size: int, hidden: int = 128):
        super().__init__()
        self.obs_size = obs_size
        self.hidden = hidden
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh())
        self.score = nn.Sequential(
            nn.Linear(hidden + N_ACTION_FEATURES, hidden), nn.Tanh(), nn.Linear(hidden, 1)
        )
        self.value = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, obs: torch.Tensor, feats: torch.Tensor, valid: torch.Tensor):
        """``obs`` (B, size), ``feats`` (B, K, F), ``valid`` (B, K) bool: logits (B, K), values (B,)."""
        h = self.body(obs)
        k = feats.shape[1]
        joined = torch.cat([h.unsqueeze(1).expand(-1, k, -1), feats], dim=2)
        logits = self.score(joined).squeeze(2).masked_fill(~valid, -1e9)
        return logits, self.value(h).squeeze(1)


@dataclass
class TrainConfig:
    variant: str = "block"
    players: int = 2
    steps: int = 200_000
    seed: int = 0
    opponents: str = "greedy"
    envs: int = 16
    hands_per_batch: int = 256
    epochs: int = 4
    minibatch: int = 512
    lr: float = 3e-4
    clip: float = 0.2
    gae_lambda: float = 0.95
    entropy: float = 0.01
    reward_scale: float = 0.02
    hidden: int = 128
    #: PyTorch's threads (set for the whole process): one is fastest on a shared machine
    threads: int = 1
    #: stop after this many wall-clock minutes even if ``steps`` are not done (None: no limit)
    minutes: float | None = None
    options: dict[str, Any] = field(default_factory=dict)


class Agent:
    """A trained policy that plays one seat from what that seat may know."""

    def __init__(self, variant: Variant, policy: Policy):
        self.variant = variant
        self.policy = policy
        self.encoder = Encoder(variant)

    def act(self, x: np.ndarray, mask: np.ndarray, greedy: bool = True) -> int:
        actions = [int(a) for a in np.flatnonzero(mask)]
        if len(actions) == 1:
            return actions[0]
        feats = torch.from_numpy(action_features(self.encoder, x, actions)).unsqueeze(0)
        with torch.no_grad():
            logits, _ = self.policy(
                torch.from_numpy(x).unsqueeze(0), feats, torch.ones(1, len(actions), dtype=torch.bool)
            )
        if greedy:
            return actions[int(torch.argmax(logits[0]))]
        return actions[int(torch.distributions.Categorical(logits=logits[0]).sample())]

    def save(self, folder: str, meta: dict[str, Any]) -> str:
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "policy.pt")
        torch.save(
            {
                "state": self.policy.state_dict(),
                "obs_size": self.policy.obs_size,
                "hidden": self.policy.hidden,
                "variant": self.variant.name,
                "options": dict(self.variant.options),
            },
            path,
        )
        with open(os.path.join(folder, "train.json"), "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=2, sort_keys=True)
        return path

    @classmethod
    def load(cls, folder: str) -> Agent:
        doc = torch.load(os.path.join(folder, "policy.pt"), weights_only=True)
        v = variant_from(doc["variant"], doc["options"])
        p = Policy(doc["obs_size"], doc["hidden"])
        p.load_state_dict(doc["state"])
        return cls(v, p)


def _pad(rows: list[np.ndarray]) -> tuple[torch.Tensor, torch.Tensor]:
    k = max(len(r) for r in rows)
    out = np.zeros((len(rows), k, N_ACTION_FEATURES), np.float32)
    valid = np.zeros((len(rows), k), bool)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
        valid[i, : len(r)] = True
    return torch.from_numpy(out), torch.from_numpy(valid)


def train(cfg: TrainConfig, log: Callable[[str], None] = print) -> tuple[Agent, dict[str, Any]]:
    """Train for ``cfg.steps`` agent decisions; returns the agent and what the run measured."""
    if cfg.steps < 1:
        raise OptionError(f"steps must be at least 1, not {cfg.steps}")
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    rng = np.random.default_rng(cfg.seed)
    options = {"players": cfg.players, **cfg.options}
    v = variant_from(cfg.variant, options)
    if v.layout != "line":  # the action features read a line's four arms
        raise OptionError(
            f"the trainer's action features are for line games; {v.name} is played on trains"
            " (train it with Stable-Baselines3's MaskablePPO on its Gymnasium env: docs/RL.md)"
        )
    if v.pips != 6:  # the action features are the double-six set's
        raise OptionError(
            f"the trainer's action features are for double-six games; {v.name} uses {v.tile_set.name}"
        )
    # the agent takes every seat in turn (env i: seat i mod players)
    envs = [
        BonepileEnv(v, opponents=cfg.opponents, reward="net", auto_forced=True, seat=i % v.players)
        for i in range(cfg.envs)
    ]
    scale = 1.0 if v.scoring == "result_only" else cfg.reward_scale
    enc = Encoder(v)  # (a line game's: the environments' encoder is this one)
    policy = Policy(enc.size, cfg.hidden)
    opt = torch.optim.Adam(policy.parameters(), lr=cfg.lr)
    state = [e.reset(seed=int(rng.integers(2**31)))[0] for e in envs]
    done_steps = 0
    skipped = 0
    hands = 0
    started = time.process_time()
    wall = time.monotonic()
    history: list[dict[str, Any]] = []
    deadline = None if cfg.minutes is None else wall + 60 * cfg.minutes
    while done_steps < cfg.steps and (deadline is None or time.monotonic() < deadline):
        # ---- collect whole hands
        traj: list[list[dict[str, Any]]] = [[] for _ in envs]
        finished: list[list[dict[str, Any]]] = []
        batch_hands = batch_won = 0
        while batch_hands < cfg.hands_per_batch:
            xs = [s["observation"] for s in state]
            acts = [[int(a) for a in np.flatnonzero(s["action_mask"])] for s in state]
            feats = [action_features(enc, x, a) for x, a in zip(xs, acts)]
            f, valid = _pad(feats)
            with torch.no_grad():
                logits, values = policy(torch.from_numpy(np.stack(xs)), f, valid)
                dist = torch.distributions.Categorical(logits=logits)
                choice = dist.sample()
                logp = dist.log_prob(choice)
            for i, e in enumerate(envs):
                k = int(choice[i])
                try:
                    obs, reward, term, trunc, info = e.step(acts[i][k])
                except InconsistentView:
                    # an opponent's sampler found no world for its view (rare, a bots/ bug):
                    # the hand is dropped and counted
                    skipped += 1
                    traj[i] = []
                    state[i] = e.reset(seed=int(rng.integers(2**31)))[0]
                    continue
                traj[i].append(
                    {
                        "x": xs[i],
                        "f": feats[i],
                        "k": k,
                        "logp": float(logp[i]),
                        "v": float(values[i]),
                        "r": reward * scale,
                    }
                )
                done_steps += 1
                if term or trunc:
                    w = info.get("winner")
                    hands += 1
                    batch_hands += 1
                    batch_won += int(w is not None and w == v.side_of(e.seat))
                    finished.append(traj[i])
                    traj[i] = []
                    obs, _ = e.reset(seed=int(rng.integers(2**31)))
                state[i] = obs
        # ---- advantages (GAE, gamma 1: a hand is short and its net points are the objective)
        rows: list[dict[str, Any]] = []
        for ep in finished:
            adv = 0.0
            nxt = 0.0
            for step in reversed(ep):
                delta = step["r"] + nxt - step["v"]
                adv = delta + cfg.gae_lambda * adv
                step["adv"] = adv
                step["ret"] = adv + step["v"]
                nxt = step["v"]
            rows.extend(ep)
        x_all = torch.from_numpy(np.stack([r["x"] for r in rows]))
        f_all, valid_all = _pad([r["f"] for r in rows])
        k_all = torch.tensor([r["k"] for r in rows])
        logp_old = torch.tensor([r["logp"] for r in rows])
        adv_all = torch.tensor([r["adv"] for r in rows], dtype=torch.float32)
        ret_all = torch.tensor([r["ret"] for r in rows], dtype=torch.float32)
        adv_all = (adv_all - adv_all.mean()) / (adv_all.std() + 1e-8)
        n = len(rows)
        for _ in range(cfg.epochs):
            perm = torch.randperm(n)
            for lo in range(0, n, cfg.minibatch):
                idx = perm[lo : lo + cfg.minibatch]
                logits, values = policy(x_all[idx], f_all[idx], valid_all[idx])
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(k_all[idx])
                ratio = torch.exp(logp - logp_old[idx])
                a = adv_all[idx]
                loss_pi = -torch.min(ratio * a, torch.clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * a).mean()
                loss_v = ((values - ret_all[idx]) ** 2).mean()
                loss = loss_pi + 0.5 * loss_v - cfg.entropy * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        history.append({"steps": done_steps, "hands": hands, "won": batch_won, "of": batch_hands})
        log(
            f"steps {done_steps:,}  hands {hands:,}  won {batch_won / batch_hands:.3f} of this batch's"
            f" hands (sampled actions)  cpu {time.process_time() - started:,.0f}s"
        )
    meta = {
        "config": asdict(cfg),
        "steps": done_steps,
        "hands": hands,
        "skipped_hands": skipped,
        "cpu_seconds": round(time.process_time() - started, 1),
        "wall_seconds": round(time.monotonic() - wall, 1),
        "history": history,
    }
    return Agent(v, policy), meta


@dataclass
class Evaluation:
    opponent: str
    hands: int
    won: int
    skipped: int = 0

    @property
    def rate(self) -> float:
        return self.won / self.hands if self.hands else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.won, self.hands)

    def line(self, who: str = "agent") -> str:
        lo, hi = self.interval
        return (
            f"{who} vs {self.opponent}: won {self.won} of {self.hands} hands,"
            f" {100 * self.rate:.1f}% (95% {100 * lo:.1f}-{100 * hi:.1f})"
            + (f"; {self.skipped} hands dropped (a bot found no world for its view)" if self.skipped else "")
        )


def evaluate(
    player: Agent | str, variant: Variant, opponent: str, deals: int, seed: int = 1_000_003
) -> Evaluation:
    """``player`` (an Agent or a bot level) against ``opponent`` on ``deals`` deals, each dealt
    once per seat of the player (the others: the opponent); hands won by the player's side."""
    enc = Encoder(variant)
    won = hands = skipped = 0
    rng = random.Random(seed)
    for _ in range(deals):
        deal_seed = rng.getrandbits(62)
        for seat in range(variant.players):
            m = Match(variant, "hand", deal_seed)
            bots = {
                s: make_bot(opponent, variant, seed=deal_seed + s)
                for s in range(variant.players)
                if s != seat
            }
            me = player if isinstance(player, Agent) else make_bot(player, variant, seed=deal_seed + seat)
            try:
                _play_out(m, seat, me, bots, enc)
            except InconsistentView:  # a bot's sampler found no world (rare, a bots/ bug)
                skipped += 1
                continue
            hands += 1
            won += int(m.winner == variant.side_of(seat))
    return Evaluation(opponent, hands, won, skipped)


def _play_out(m: Match, seat: int, me: Agent | Bot, bots: dict[int, Bot], enc: Encoder) -> None:
    while not m.over:
        s = m.to_move
        assert s is not None
        if s != seat:
            m.apply_move(bots[s].choose(m.view(s)))
        elif isinstance(me, Agent):
            if forced(m.hand):
                m.apply_move(m.hand.legal_moves()[0])
            else:
                x, mask = enc.observe(observer(m.hand), seat)
                m.apply(me.act(x, mask))
        else:
            m.apply_move(me.choose(m.view(s)))


__all__ = [
    "Agent",
    "Evaluation",
    "Policy",
    "TrainConfig",
    "action_features",
    "evaluate",
    "train",
]
