"""A tournament's format, pure: the field, the tables of each round, the round's seed and the
standings.  Nothing here plays: ``tournament_play`` plays the tables with bots (the
``bonepile tournament`` command) and the server plays them with people; both call these
functions, so the format is the same wherever it runs.

- **The field**: entrants (one player, or one pair in partnership games).  When the field does
  not fill whole tables (or, in a round robin, is odd), bots are added; they play like anyone
  and their results count on the boards, but they are never ranked.
- **Rounds**: Swiss (similar scores meet, no rematch while one can be avoided, see
  ``pairing.swiss``) or round robin (circle method, tables of two entrants).
- **Deals**: every table of round ``r`` is a game with the seed ``round_seed(seed, r)``, so hand
  ``n`` deals side ``j`` the same tiles at every table (``matchpoints``).
- **Standings** (``STANDINGS_ORDER``): the sum of the scores on every deal played, then the
  total points difference, then head-to-head (the points difference on the deals played at a
  table with another entrant still tied), then Buchholz (the sum of the scores of the opponents
  met, once per round met), then the order of entry.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..engine.deals import derive
from . import pairing
from .matchpoints import SCORINGS, Outcome, Scoring, score

Format = Literal["swiss", "round-robin"]
FORMATS: tuple[Format, ...] = ("swiss", "round-robin")
STANDINGS_ORDER = ("score", "difference", "head_to_head", "buchholz", "entry")


@dataclass(frozen=True)
class Entrant:
    number: int  # the order of entry, from 0
    name: str
    bot: bool = False  # filled in by the tournament: plays, never ranked


@dataclass(frozen=True)
class Settings:
    """What the creator chose."""

    format: Format
    rounds: int
    hands: int  # hands per round (a table stops early when its game is over)
    table_size: int  # entrants per table: the game's number of sides
    scoring: Scoring = "matchpoints"


def check(fmt: Settings, entrants: int) -> None:
    """ValueError naming what is wrong with a format for a field of ``entrants``."""
    if fmt.format not in FORMATS:
        raise ValueError(f"unknown format {fmt.format!r}: one of {', '.join(FORMATS)}")
    if fmt.scoring not in SCORINGS:
        raise ValueError(f"unknown scoring {fmt.scoring!r}: one of {', '.join(SCORINGS)}")
    if type(fmt.rounds) is not int or fmt.rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {fmt.rounds}")
    if type(fmt.hands) is not int or fmt.hands < 1:
        raise ValueError(f"hands per round must be at least 1, not {fmt.hands}")
    if fmt.format == "round-robin":
        if fmt.table_size != 2:
            raise ValueError(
                f"a round robin needs tables of two entrants; this game seats {fmt.table_size} sides"
            )
        most = field_size(entrants, fmt) - 1
        if fmt.rounds > most:
            raise ValueError(
                f"a round robin of {entrants} entrants has at most {most} round{'s' if most != 1 else ''}, not {fmt.rounds}"
            )
    if entrants < 2:
        raise ValueError(f"a tournament needs at least two entrants, not {entrants}")


def field_size(entrants: int, fmt: Settings) -> int:
    """The field once bots have filled it: whole tables (and an even field for a round robin)."""
    k = fmt.table_size
    n = max(entrants, k)
    n += -n % k
    if fmt.format == "round-robin" and n % 2:
        n += 1
    return n


def fill(entrants: Sequence[Entrant], fmt: Settings, bot_name: Callable[[int], str]) -> list[Entrant]:
    """The field: the entrants and the bots that fill it (``bot_name(i)`` names the i-th bot)."""
    field = list(entrants)
    for i in range(field_size(len(entrants), fmt) - len(entrants)):
        field.append(Entrant(len(field), bot_name(i), bot=True))
    return field


def round_seed(seed: int, number: int) -> int:
    """The seed every table of round ``number`` (0-based) is dealt from."""
    return derive(seed, "round", number)


def seat_order(table: Sequence[int], number: int) -> tuple[int, ...]:
    """The side each entrant of a Swiss table takes: turned by the round's number, so the
    better placed entrant does not always sit first."""
    k = number % len(table)
    return tuple(table[k:]) + tuple(table[:k])


def tables(
    fmt: Settings, field: Sequence[Entrant], played: Sequence[Sequence[int]], outcomes: Sequence[Outcome]
) -> list[tuple[int, ...]]:
    """The tables of the next round (its number: how many rounds the tables ``played``
    cover, ``played`` listing every table of the rounds before, in order)."""
    number = _round_count(played, len(field), fmt.table_size)
    if fmt.format == "round-robin":
        return pairing.round_robin(len(field), number)
    order = [
        s.entrant
        for s in standings(
            field, played_tables(played, len(field), fmt.table_size), outcomes, fmt.scoring, rank_bots=True
        )
    ]
    met = pairing.met_from([tuple(t) for t in played])
    return [seat_order(t, number) for t in pairing.swiss(order, met, fmt.table_size)]


def _round_count(played: Sequence[Sequence[int]], n: int, k: int) -> int:
    return len(played) // (n // k)


def played_tables(played: Sequence[Sequence[int]], n: int, k: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """``(round, table) -> entrants`` of the tables played, listed round by round."""
    per = n // k
    return {(i // per, i % per): tuple(t) for i, t in enumerate(played)}


@dataclass(frozen=True)
class Standing:
    entrant: int
    rank: int | None  # None for bots
    score: float
    difference: int
    head_to_head: int
    buchholz: float
    deals: int


def standings(
    field: Sequence[Entrant],
    seated: dict[tuple[int, int], tuple[int, ...]],
    outcomes: Sequence[Outcome],
    scoring: Scoring = "matchpoints",
    rank_bots: bool = False,
) -> list[Standing]:
    """Everyone in standings order (``STANDINGS_ORDER``); bots after the ranked entrants, with
    no rank (``rank_bots``: bots placed among the others, as the Swiss pairing needs).
    ``seated[(round, table)]``: the entrants of that table."""
    scores = score(outcomes, scoring)
    total: dict[int, float] = defaultdict(float)
    diff: dict[int, int] = defaultdict(int)
    deals: dict[int, int] = defaultdict(int)
    for o, s in zip(outcomes, scores, strict=True):
        total[o.entrant] += s
        diff[o.entrant] += o.result
        deals[o.entrant] += 1
    opponents: dict[int, list[int]] = defaultdict(list)
    for t in seated.values():
        for a in t:
            opponents[a].extend(b for b in t if b != a)
    buchholz = {e.number: sum(total[b] for b in opponents[e.number]) for e in field}
    # head-to-head among the entrants tied on score and difference
    tied: dict[tuple[float, int], set[int]] = defaultdict(set)
    for e in field:
        tied[(round(total[e.number], 9), diff[e.number])].add(e.number)
    h2h: dict[int, int] = defaultdict(int)
    for o in outcomes:
        group = tied[(round(total[o.entrant], 9), diff[o.entrant])]
        if len(group) > 1 and any(b in group for b in seated.get((o.round, o.table), ()) if b != o.entrant):
            h2h[o.entrant] += o.result
    ranked = [e for e in field if rank_bots or not e.bot]
    ranked.sort(
        key=lambda e: (-total[e.number], -diff[e.number], -h2h[e.number], -buchholz[e.number], e.number)
    )
    bots = [] if rank_bots else [e for e in field if e.bot]
    out = []
    for i, e in enumerate([*ranked, *bots]):
        n = e.number
        out.append(
            Standing(
                n,
                i + 1 if i < len(ranked) and not e.bot else None,
                total[n],
                diff[n],
                h2h[n],
                buchholz[n],
                deals[n],
            )
        )
    return out
