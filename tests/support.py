"""Helpers shared by the tests: scenario records and their expected replay output."""

from __future__ import annotations

import json
import os
import pathlib
import random
import re
import subprocess
import traceback
from collections.abc import Callable

from typer.testing import CliRunner

from bonepile.cli import app
from bonepile.cli.common import fill_optional_values
from bonepile.engine import Game
from bonepile.engine import record as rec
from bonepile.engine.errors import RecordError
from bonepile.engine.hand import Hand
from bonepile.engine.knowledge import unseen_tiles
from bonepile.engine.tiles import NAME, PASS, parse_tile

HERE = pathlib.Path(__file__).parent
SCENARIOS = HERE / "scenarios"
EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
SRC = pathlib.Path(__file__).resolve().parents[1] / "src"


def _configurations() -> list[tuple[str, dict]]:
    from bonepile.engine.variant import PLAYER_COUNTS, VARIANT_NAMES

    return [
        (name, {"players": n} if len(counts) > 1 else {})
        for name, counts in PLAYER_COUNTS.items()
        if name in VARIANT_NAMES  # the line games (tests/test_rl_trains.py covers the train layouts)
        for n in counts
    ]


#: every variant at every player count it allows, as (name, options): the RL adapters' cases
CONFIGURATIONS = _configurations()

#: the games the bots are tried on (tests/test_bots.py) and whose positions record the
#: expert's moves (bench/expert_moves.py): every variant at every player count (the seven games
#: of RULES.md §1-§6 first), then partnership and option games, then the games added later, and
#: new settings only at the end (the bench seeds a game's positions by its index in this list)
#: Blind Hugie with every option that changes how tiles come and go (3 players, the full deal)
BLIND_HUGIE_ALL_OPTIONS = {
    "players": 3,
    "deal": "full",
    "full_deal_starter": True,
    "tiles_per_turn": "while_playable",
    "unplayable_doubles_face_up": True,
}
SEVEN = ("quinientos", "cinque", "draw", "block", "passing", "blind-hugie", "billitonnen")


def _bot_games() -> list[tuple[str, dict]]:
    from bonepile.engine.variant import PLAYER_COUNTS, VARIANT_NAMES

    def every_count(names: list[str]) -> list[tuple[str, dict]]:
        return [
            (name, {"players": n} if len(PLAYER_COUNTS[name]) > 1 else {})
            for name in names
            for n in PLAYER_COUNTS[name]
        ]

    return (
        every_count([n for n in PLAYER_COUNTS if n in SEVEN])
        + [
            ("block", {"players": 4, "teams": True}),
            ("draw", {"players": 4, "teams": True}),
            ("passing", {"players": 4, "teams": True}),
            ("passing", {"players": 3, "draw_ends_turn": False}),
            ("cinque", {"spinner_any_order": True}),
            ("draw", {"players": 3, "boneyard_reserve": 2}),
        ]
        + every_count([n for n in PLAYER_COUNTS if n not in SEVEN and n in VARIANT_NAMES])
        + [("blind-hugie", dict(BLIND_HUGIE_ALL_OPTIONS))]
    )


def _train_games() -> list[tuple[str, dict]]:
    """The train games and Chicken Foot (long: 10 to 13 rounds of about a hundred moves): two
    player counts each (2 and 5; Chicken Foot 3 and 5), one round each."""
    from bonepile.engine import make_variant
    from bonepile.engine.variant import PLAYER_COUNTS

    return [
        (v, {"players": n, "rounds": 1})
        for v, counts in PLAYER_COUNTS.items()
        if make_variant(v).layout != "line"
        for n in counts
        if n in ((3, 5) if v == "chicken-foot" else (2, 5))  # (two-player Chicken Foot: 5x slower)
    ]


#: the bots' games of the golden file (the twelve games offered everywhere)
BOT_GAMES = _bot_games()
#: the engine's train games, which the bots play too
TRAIN_GAMES = _train_games()
CONFIGURATION_IDS = [f"{v}-{o.get('players', '')}" for v, o in CONFIGURATIONS]


def tile(name: str) -> int:
    return parse_tile(name)[0]


def replay_doc(doc: dict) -> dict:
    """Replay a record document; the result, or {"error": {...}} like `replay --json`."""
    try:
        return rec.replay(doc).result()
    except RecordError as e:
        return {"error": e.as_json()}


def subset_mismatch(expected, actual, path="$"):
    """None if every key/value of `expected` is found in `actual` (lists compared item-wise)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {actual!r}"
        for k, v in expected.items():
            if k not in actual:
                return f"{path}.{k}: missing"
            bad = subset_mismatch(v, actual[k], f"{path}.{k}")
            if bad:
                return bad
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path}: expected {expected!r}, got {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            bad = subset_mismatch(e, a, f"{path}[{i}]")
            if bad:
                return bad
        return None
    if expected != actual:
        return f"{path}: expected {expected!r}, got {actual!r}"
    return None


def scenario_files(prefix: str) -> list[pathlib.Path]:
    """tests/scenarios/<prefix>*.record.json (each with a matching .expected.json)."""
    return sorted(SCENARIOS.glob(f"{prefix}*.record.json"))


def check_scenario(path: pathlib.Path) -> None:
    expected = json.loads(path.with_name(path.name.replace(".record.json", ".expected.json")).read_text())
    actual = replay_doc(json.loads(path.read_text()))
    bad = subset_mismatch(expected, actual)
    assert bad is None, f"{path.name}: {bad}"


def cli(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    """Run the `bonepile` command in this process (Typer's test runner), as the console script
    would: the same argument handling, exit status, standard output and standard error.  An
    exception the command lets through ends up on standard error as its traceback, status 1,
    as Python would print it."""
    argv = fill_optional_values(list(args))
    result = CliRunner().invoke(app, argv, input=input)
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(*result.exc_info))
    return subprocess.CompletedProcess(["bonepile", *argv], result.exit_code, result.stdout, stderr)


def cli_process(command: list[str], *args: str, input: str | None = None) -> subprocess.CompletedProcess:
    """Run ``command`` (the console script, or ``python -m bonepile``) with ``args`` as its own
    process, this checkout's package first on its path."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, input=input, env=env, timeout=120
    )


def names(tiles) -> list[str]:
    return [NAME[t] for t in tiles]


# ------------------------------------------------------------------ building records by hand

FORMAT = "bonepile-record/1"
ALL_NAMES = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]


def T(token: str) -> int:
    """The tile a tile name or play token names ("4-6", "6-4@L" -> the same tile)."""
    return parse_tile(token.split("@")[0])[0]


def norm(name: str) -> str:
    """A tile name written high end first."""
    return NAME[T(name)]


def rest(*groups) -> list[str]:
    """Every tile name not in the given groups of names."""
    used = {norm(t) for g in groups for t in g}
    return [t for t in ALL_NAMES if t not in used]


def record_doc(variant: str, hands: list, options: dict | None = None, start: dict | None = None) -> dict:
    doc = {"format": FORMAT, "variant": variant, "options": options or {}, "hands": hands}
    if start is not None:
        doc["start"] = start
    return doc


def deal_for(moves, left, leader, players: int = 4, size: int = 7):
    """The deal (by seat) for a hand template: move i is made by the seat i places after the
    leader, which must hold that tile; ``left[r]`` are the tiles that seat keeps."""
    rel: list[list[str]] = [[] for _ in range(players)]
    for i, m in enumerate(moves):
        if m != "pass":
            rel[i % players].append(NAME[T(m)])
    for r in range(players):
        rel[r] += [NAME[T(x)] for x in left[r]]
    deal: list = [None] * players
    for r in range(players):
        deal[(leader + r) % players] = rel[r]
    assert sorted(T(x) for row in deal for x in row) == list(range(28)), "template is not a full deal"
    assert all(len(row) == size for row in deal)
    return deal


def template_hand(tpl, leader, *, give_leader=True, moves=None) -> dict:
    """A record hand from a template (moves, leftovers per relative seat)."""
    mv, left = tpl
    h = {"deal": deal_for(mv, left, leader), "boneyard": [], "moves": list(mv if moves is None else moves)}
    if give_leader:
        h["leader"] = leader
    return h


def replay_ok(doc: dict) -> dict:
    out = replay_doc(doc)
    assert "error" not in out, f"unexpected record error: {out.get('error')}"
    return out


def replay_err(doc: dict) -> dict:
    out = replay_doc(doc)
    assert "error" in out, f"expected a record error, got a valid game: {out}"
    return out["error"]


def err_at(result: dict) -> tuple:
    assert "error" in result, f"expected a record error, got a valid replay: {result}"
    e = result["error"]
    return e["hand"], e["move"]


def hands_of(result: dict) -> list[dict]:
    assert "error" not in result, f"unexpected record error: {result['error']}"
    return result["hands"]


# ------------------------------------------------------------------ random play
# (tests/test_properties.py's ``play_random`` plays the same way and checks every move)


def play_out_hand(h: Hand, rng: random.Random, after: Callable[[Hand], None] | None = None) -> Hand:
    """Play hand ``h`` to its end: a random tile when one can be played, else the first legal
    move (a pass or a draw), so that hands end with tiles laid; ``after(h)`` after each move."""
    while not h.over:
        legal = h.legal_moves()
        plays = [m for m in legal if m < PASS]
        h.apply(rng.choice(plays) if plays else legal[0])
        if after is not None:
            after(h)
    return h


def random_hand(name: str, seed: int, after: Callable[[Hand], None] | None = None) -> Hand:
    """The first hand of a new game of ``name`` (default options), dealt and played with
    ``seed`` as ``play_out_hand`` plays."""
    return play_out_hand(Game.new(name, seed=seed).hand, random.Random(seed), after)


def random_game(name: str, options: dict, seed: int) -> Game:
    """A whole game of ``name`` with ``options``, dealt with ``seed``, every move a uniformly
    random legal one (passes and draws included) from the same seed."""
    rng = random.Random(seed)
    g = Game.new(name, options, seed=seed)
    while not g.over:
        ms = g.legal_moves()
        g.apply(ms[rng.randrange(len(ms))])
    return g


_TILE = re.compile(r"(?<![0-9])(\d{1,2})-(\d{1,2})(?![0-9])")


def tiles_named(text: str, n_tiles: int) -> set[int]:
    """The tiles of a set of ``n_tiles`` a text names ("a-b" in either order): what a puzzle,
    a verdict or an answer lets a reader know."""
    out = set()
    for a, b in _TILE.findall(text):
        t = parse_tile(f"{a}-{b}")
        if t is not None and t[0] < n_tiles:
            out.add(t[0])
    return out


def unseen_set(view) -> set[int]:
    """The tiles a view's seat has not seen (the ones nothing it is shown may name)."""
    mask = unseen_tiles(view)
    return {t for t in range(mask.bit_length()) if mask >> t & 1}
