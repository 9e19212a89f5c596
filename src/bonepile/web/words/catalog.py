"""The variant catalogue the lobby reads (``GET /api/variants``), and the facts about a
variant every page is told instead of knowing the rules: the kind of scoring, the
partnerships, the direction of play and words for every option and value."""

from __future__ import annotations

from functools import lru_cache

from ...bots import DEFAULT_LEVEL, LEVELS
from ...engine import BonepileError, make_variant
from ...engine.variant import (
    DEFAULT_PLAYERS,
    ENGINE_VARIANTS,
    OPTION_SPECS,
    PLAYER_COUNTS,
    Variant,
)
from ..messages import Catalogue, OptionInfo, Partnership, ScoreKind, VariantInfo
from .labels import (
    bot_key,
    bot_label,
    option_help,
    option_key,
    option_label,
    value_key,
    value_label,
    variant_description,
    variant_key,
    variant_label,
)


def scoring(v: Variant) -> ScoreKind:
    """ "hands": hands are won, not scored (no points on the pad); else "points"."""
    return "hands" if v.scoring == "result_only" else "points"


def sides(v: Variant) -> list[list[int]]:
    return [list(s) for s in v.sides]


def partnerships(name: str) -> list[Partnership]:
    """Who plays with whom, per player count: the sides with the default options, then every
    option value that changes them (the lobby applies the entries whose options it has)."""
    out: list[Partnership] = []
    for n in PLAYER_COUNTS[name]:
        base = sides(make_variant(name, {"players": n}))
        out.append({"players": n, "options": {}, "sides": base})
        for key, spec in OPTION_SPECS[name].items():
            for value in spec.values or ():
                if value == spec.default:
                    continue
                try:
                    other = sides(make_variant(name, {"players": n, key: value}))
                except BonepileError:
                    continue
                if other != base:
                    out.append({"players": n, "options": {key: value}, "sides": other})
    return out


def description_key(name: str, players: int) -> str:
    """The words that describe ``name`` played by ``players``: the game's own, or its ".stock"
    form where a game that deals every tile at its usual count leaves a stock to draw from at
    this one (Block for 2 or 3, RULES.md §3)."""
    usual = make_variant(name, {})
    here = make_variant(name, {"players": players})
    if here.turn == "must_play" and usual.stock == 0 and here.stock > 0:
        return variant_key(name, "description") + ".stock"
    return variant_key(name, "description")


def variant_info(name: str) -> VariantInfo:
    v = make_variant(name, {})
    opts: list[OptionInfo] = []
    for key, spec in OPTION_SPECS[name].items():
        values = list(spec.values) if spec.values is not None else None
        opts.append(
            {
                "name": key,
                "label": option_label(key, name),
                "label_key": option_key(key, "label", name),
                "help": option_help(key, name),
                "help_key": option_key(key, "help", name),
                "default": spec.default,
                "values": values,
                "labels": [value_label(x, key, name) for x in values] if values is not None else None,
                "value_keys": [value_key(x, key, name) for x in values] if values is not None else None,
                "minimum": spec.minimum,
            }
        )
    return {
        "name": name,
        "label": variant_label(name),
        "label_key": variant_key(name),
        "description": variant_description(name),
        "description_key": variant_key(name, "description"),
        "description_keys": {str(n): description_key(name, n) for n in PLAYER_COUNTS[name]},
        "players": list(PLAYER_COUNTS[name]),
        "default_players": DEFAULT_PLAYERS[name],
        "scoring": scoring(v),
        "direction": v.direction,
        "partnerships": partnerships(name),
        "options": opts,
    }


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    return {
        "variants": [variant_info(name) for name in ENGINE_VARIANTS],
        "bot_levels": list(LEVELS),
        "bot_labels": [bot_label(level) for level in LEVELS],
        "bot_keys": [bot_key(level) for level in LEVELS],
        "default_bot_level": DEFAULT_LEVEL,
    }
