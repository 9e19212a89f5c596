"""Figures of an arena run: per-bot statistics, ratings, results.json, records and the plot."""

from __future__ import annotations

import json
import os
from typing import Any

from ..engine import make_variant
from .runner import ArenaRun
from .stats import mean_ci, percentile, sprt, wilson


def bot_stats(run: ArenaRun) -> dict[str, dict[str, Any]]:
    """For each bot entry (by label): hands and games won with intervals, points per hand,
    decision times."""
    spec = run.spec
    v = make_variant(spec.variant, spec.options)
    labels = spec.labels
    k = len(labels)
    won = [0] * k
    points: list[list[float]] = [[] for _ in range(k)]
    games_won = [0] * k
    ms: list[list[float]] = [[] for _ in range(k)]
    hands = 0
    for g in run.games:
        sides_of: list[set[int]] = [set() for _ in range(k)]
        for s, e in enumerate(g.seats):
            sides_of[e].add(v.side_of(s))
        for winner, pts, _end in g.hands:
            hands += 1
            for e in range(k):
                if winner is not None and winner in sides_of[e]:
                    won[e] += 1
                points[e].append(sum(pts[side] for side in sides_of[e]))
        for e in range(k):
            if g.winner is not None and g.winner in sides_of[e]:
                games_won[e] += 1
            ms[e].extend(g.decision_ms[e])
    out: dict[str, dict[str, Any]] = {}
    ngames = len(run.games)
    for e, label in enumerate(labels):
        lo, hi = wilson(won[e], hands)
        glo, ghi = wilson(games_won[e], ngames)
        mean, half = mean_ci(points[e])
        times = ms[e]
        out[label] = {
            "level": spec.bots[e],
            "hands": hands,
            "hands_won": won[e],
            "hands_won_rate": won[e] / hands if hands else 0.0,
            "hands_won_ci95": [lo, hi],
            "points_per_hand": mean,
            "points_per_hand_ci95": [mean - half, mean + half],
            "points_per_hand_pm95": half,
            "games": ngames,
            "games_won": games_won[e],
            "games_won_rate": games_won[e] / ngames if ngames else 0.0,
            "games_won_ci95": [glo, ghi],
            "decisions": len(times),
            "decision_ms_mean": sum(times) / len(times) if times else 0.0,
            "decision_ms_median": percentile(times, 50),
            "decision_ms_p95": percentile(times, 95),
        }
    return out


def ratings(run: ArenaRun, per: str = "game") -> dict[str, dict[str, float]]:
    """OpenSkill (Plackett-Luce) ratings, updated in the order played: each bot entry is a
    one-member team.  ``per="game"``: once per game, ranked by (won the game, best total of
    its sides); ``per="hand"``: once per hand, ranked by (won the hand, its sides' points in
    the hand) — many more results, so narrower ratings."""
    from .skill import model as skill_model
    from .skill import ranks as skill_ranks

    if per not in ("game", "hand"):
        raise ValueError(f"ratings per game or per hand, not {per!r}")
    spec = run.spec
    v = make_variant(spec.variant, spec.options)
    labels = spec.labels
    model = skill_model()
    rating = {lab: model.rating(name=lab) for lab in labels}

    def update(keys: list[tuple]) -> None:
        new = model.rate([[rating[lab]] for lab in labels], ranks=skill_ranks(keys))
        for lab, team in zip(labels, new):
            rating[lab] = team[0]

    for g in run.games:
        sides = [{v.side_of(s) for s, x in enumerate(g.seats) if x == e} for e in range(len(labels))]
        if per == "game":
            update([(1 if g.winner in sd else 0, max(g.totals[s] for s in sd)) for sd in sides])
            continue
        for winner, pts, _end in g.hands:
            update([(1 if winner in sd else 0, sum(pts[s] for s in sd)) for sd in sides])
    return {lab: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for lab, r in rating.items()}


def sprt_summary(run: ArenaRun) -> dict | None:
    spec = run.spec
    if spec.sprt is None:
        return None
    s = run.sprt_scores
    w = sum(1 for x in s if x == 1.0)
    lo = sum(1 for x in s if x == 0.0)
    state = sprt(w, len(s) - w - lo, lo, *spec.sprt)
    labels = spec.labels
    verdict = {
        "H1": f"{labels[0]} is stronger than {labels[1]} by at least {spec.sprt[1]:g} Elo",
        "H0": f"{labels[0]} is not stronger than {labels[1]} by more than {spec.sprt[0]:g} Elo",
        None: "inconclusive: the hand budget ran out first",
    }[state.decision]
    return {
        "elo0": spec.sprt[0],
        "elo1": spec.sprt[1],
        "alpha": 0.05,
        "beta": 0.05,
        "model": "trinomial GSPRT on hands (win 1, no winner 1/2, loss 0) of "
        f"{labels[0]} against {labels[1]}",
        **state.as_json(),
        "verdict": verdict,
        "stopped_early": run.stopped_by == "sprt",
    }


def results(run: ArenaRun, workers: int) -> dict[str, Any]:
    spec = run.spec
    stats = bot_stats(run)
    rates = ratings(run)
    for label, r in rates.items():
        stats[label]["rating"] = r
    return {
        "settings": {
            "variant": spec.variant,
            "options": dict(spec.options),
            "bots": list(spec.bots),
            "labels": list(spec.labels),
            "hands": spec.hands,
            "seed": spec.seed,
            "workers": workers,
            "budget": spec.budget.as_dict() if spec.budget else {},
            "sprt": list(spec.sprt) if spec.sprt else None,
            "rotations": len(spec.bots),
        },
        "totals": {
            "deal_sets": run.deal_sets,
            "games": len(run.games),
            "hands": run.hands,
            "decisions": sum(s["decisions"] for s in stats.values()),
            "elapsed_s": round(run.elapsed, 3),
            "stopped_by": run.stopped_by,
        },
        "bots": stats,
        "ratings": rates,
        "ratings_per_hand": ratings(run, per="hand"),
        "sprt": sprt_summary(run),
    }


def record_name(deal_set: int, rotation: int) -> str:
    return f"game-{deal_set:05d}-r{rotation}.record.json"


def write_outputs(run: ArenaRun, out_dir: str, workers: int) -> dict[str, Any]:
    """Write results.json, records/ and winrates.png into out_dir; returns the results."""
    os.makedirs(os.path.join(out_dir, "records"), exist_ok=True)
    res = results(run, workers)
    for g in run.games:
        with open(
            os.path.join(out_dir, "records", record_name(g.deal_set, g.rotation)), "w", encoding="utf-8"
        ) as f:
            f.write(g.record)
    res["files"] = {"results": "results.json", "records": "records/", "plot": "winrates.png"}
    with open(os.path.join(out_dir, "results.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, indent=2)
        f.write("\n")
    plot(res, os.path.join(out_dir, "winrates.png"))
    return res


def plot(res: dict[str, Any], path: str) -> None:
    """Hand win rate of each bot with its Wilson 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(res["bots"])
    rates = [res["bots"][b]["hands_won_rate"] for b in labels]
    lows = [r - res["bots"][b]["hands_won_ci95"][0] for b, r in zip(labels, rates)]
    highs = [res["bots"][b]["hands_won_ci95"][1] - r for b, r in zip(labels, rates)]
    fig, ax = plt.subplots(figsize=(6, 1.2 + 0.6 * len(labels)))
    ys = list(range(len(labels)))
    ax.barh(ys, rates, color="#6a9fb5", height=0.5)
    ax.errorbar(rates, ys, xerr=[lows, highs], fmt="none", ecolor="black", capsize=5)
    for y, r, h in zip(ys, rates, highs):
        ax.text(min(r + h + 0.02, 0.9), y, f"{r:.1%}", va="center", fontsize=9)
    ax.set_yticks(ys, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("hands won (Wilson 95% interval)")
    s = res["settings"]
    ax.set_title(
        f"{s['variant']}: {res['totals']['hands']} hands, {res['totals']['games']} games, seed {s['seed']}",
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
