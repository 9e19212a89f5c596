"""A tournament played by bots (``bonepile tournament``): the format of ``tournament``, each
table a game from the round's seed played by ``runner.play_seated``, the same game loop as the
arena's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as default

from ..bots import Budget, make_bot
from ..bots.plugins import check as check_bot
from ..engine import Game, OptionError, Variant, make_variant
from ..engine import record as rec
from ..engine.deals import derive
from .matchpoints import Outcome, Scoring, outcomes_of_hand
from .runner import play_seated, unique_labels
from .tournament import (
    STANDINGS_ORDER,
    Entrant,
    Format,
    Settings,
    Standing,
    check,
    field_size,
    fill,
    played_tables,
    round_seed,
    standings,
    tables,
)

#: the level of the bots that fill the field
FILLER = "casual"


@dataclass(frozen=True)
class TournamentSpec:
    variant: str
    options: dict
    bots: tuple[str, ...]  # one level per entrant (a pair of that level in partnership games)
    format: Format = "swiss"
    rounds: int = 3
    hands: int = 1
    seed: int = 0
    scoring: Scoring = "matchpoints"
    budget: Budget | None = None

    @property
    def labels(self) -> tuple[str, ...]:
        return unique_labels(self.bots)


@dataclass
class TablePlayed:
    round: int
    table: int
    entrants: tuple[int, ...]  # entrant per side
    record: str  # the RECORD.md text
    outcomes: list[Outcome]


@dataclass
class TournamentRun:
    spec: TournamentSpec
    settings: Settings
    field: list[Entrant]
    levels: list[str]  # per entrant
    tables: list[TablePlayed] = default(default_factory=list)

    @property
    def outcomes(self) -> list[Outcome]:
        return [o for t in self.tables for o in t.outcomes]

    def standings(self) -> list[Standing]:
        seated = {(t.round, t.table): t.entrants for t in self.tables}
        return standings(self.field, seated, self.outcomes, self.settings.scoring)


def settings_of(spec: TournamentSpec, v: Variant) -> Settings:
    return Settings(spec.format, spec.rounds, spec.hands, len(v.sides), spec.scoring)


def validate(spec: TournamentSpec) -> tuple[Variant, Settings]:
    """The variant and the format, or an OptionError naming what is wrong."""
    v = make_variant(spec.variant, spec.options)
    for b in spec.bots:
        check_bot(b)
    settings = settings_of(spec, v)
    try:
        check(settings, len(spec.bots))
    except ValueError as e:
        raise OptionError(str(e)) from None
    return v, settings


def whole_round_robin(spec: TournamentSpec) -> int:
    """The rounds of a whole round robin of the spec's field (bots filling it)."""
    v = make_variant(spec.variant, spec.options)
    return field_size(len(spec.bots), settings_of(spec, v)) - 1


def play_table(
    spec: TournamentSpec, v: Variant, run: TournamentRun, number: int, table: int, entrants: tuple[int, ...]
) -> TablePlayed:
    """One table of round ``number``: a game from the round's seed, ``spec.hands`` hands at
    most, side ``j`` played by ``entrants[j]``."""
    at_seat = [entrants[v.side_of(s)] for s in range(v.players)]
    names = [run.field[e].name for e in at_seat]
    bots = [
        make_bot(run.levels[e], v, seed=derive(spec.seed, "bot", number, table, s), budget=spec.budget)
        for s, e in enumerate(at_seat)
    ]
    game = Game(v, seed=round_seed(spec.seed, number), auto_deal=False, names=names)
    play_seated(game, bots, names, hands=spec.hands)
    outcomes = []
    for n, h in enumerate(game.hands):
        assert h.result is not None
        outcomes += outcomes_of_hand(number, table, n, entrants, h.result.points)
    return TablePlayed(number, table, entrants, rec.dumps(game.record()), outcomes)


def run_tournament(spec: TournamentSpec, progress: Callable[[int, int], None] | None = None) -> TournamentRun:
    """Every round of the tournament, table after table.  ``progress(done, total)`` hears each
    table played."""
    v, settings = validate(spec)
    labels = spec.labels
    entrants = [Entrant(i, labels[i]) for i in range(len(spec.bots))]
    fld = fill(entrants, settings, lambda i: f"{FILLER} bot {i + 1}")
    levels = [*spec.bots, *[FILLER] * (len(fld) - len(entrants))]
    run = TournamentRun(spec, settings, fld, levels)
    per_round = len(fld) // settings.table_size
    for number in range(settings.rounds):
        played = [t.entrants for t in run.tables]
        for t, seated in enumerate(tables(settings, fld, played, run.outcomes)):
            run.tables.append(play_table(spec, v, run, number, t, seated))
            if progress:
                progress(len(run.tables), per_round * settings.rounds)
    return run


__all__ = [
    "TournamentSpec",
    "TournamentRun",
    "TablePlayed",
    "run_tournament",
    "validate",
    "played_tables",
    "results",
]


def results(run: TournamentRun) -> dict:
    """The tournament as JSON: its settings, the field, every table and the standings."""
    s = run.spec
    return {
        "settings": {
            "variant": s.variant,
            "options": s.options,
            "format": s.format,
            "rounds": s.rounds,
            "hands": s.hands,
            "seed": s.seed,
            "scoring": s.scoring,
            "standings_order": list(STANDINGS_ORDER),
        },
        "field": [
            {"entrant": e.number, "name": e.name, "level": run.levels[e.number], "bot": e.bot}
            for e in run.field
        ],
        "tables": [
            {
                "round": t.round + 1,
                "table": t.table + 1,
                "entrants": list(t.entrants),
                "record": f"r{t.round + 1}-t{t.table + 1}.txt",
                "results": [[o.hand + 1, o.side, o.entrant, o.points, o.against] for o in t.outcomes],
            }
            for t in run.tables
        ],
        "standings": [
            {
                "rank": r.rank,
                "entrant": r.entrant,
                "name": run.field[r.entrant].name,
                "score": r.score,
                "difference": r.difference,
                "head_to_head": r.head_to_head,
                "buchholz": r.buchholz,
                "deals": r.deals,
            }
            for r in run.standings()
        ],
    }
