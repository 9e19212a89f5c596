"""Game records (RECORD.md): read, check by replaying, write, and describe for people."""

from __future__ import annotations

import json
from typing import Any, NoReturn

from .commit import read_seal
from .errors import BonepileError, OptionError, RecordError
from .game import FORMAT, Game
from .notation import hand_tokens
from .tiles import DRAW, NAME, PASS, SET_NAMES, parse_tile
from .trains import hub_of
from .variant import ENGINE_VARIANTS, PLAYER_COUNTS, Variant, make_variant
from .view import observer


def loads(text: str | bytes) -> dict[str, Any]:
    """Parse a record's JSON text (RecordError if it is not JSON or not an object)."""
    try:
        doc = json.loads(text, parse_constant=_not_json, parse_int=_parse_int)
    except json.JSONDecodeError as e:
        raise RecordError(f"not JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
    except UnicodeDecodeError:
        raise RecordError("not JSON: the text is not UTF-8") from None
    except RecursionError:
        raise RecordError("not JSON that can be read: nested too deeply") from None
    except ValueError as e:
        raise RecordError(f"not JSON: {e}") from None
    if not isinstance(doc, dict):
        raise RecordError("a record must be a JSON object")
    return doc


def _not_json(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON value")


def _parse_int(digits: str) -> int | float:
    # JSON allows any number of digits; a number this long is never a valid value here,
    # and Python refuses to convert it, so it becomes a value every check rejects.
    return int(digits) if len(digits) <= 100 else float("inf")


def read(path: str) -> Game:
    """Read and replay a record file."""
    try:
        with open(path, "rb") as f:
            text = f.read()
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    return replay(loads(text))


def _doc_error(msg: str) -> RecordError:
    return RecordError(msg)


def replay(doc: dict[str, Any]) -> Game:
    """Check a record against the rules move by move; return the game it describes.
    Raises RecordError naming the hand, move and token of the first problem."""
    if not isinstance(doc, dict):
        raise _doc_error("a record must be a JSON object")
    if "format" not in doc:
        raise _doc_error('missing key "format"')
    if doc["format"] != FORMAT:
        raise _doc_error(f'format must be "{FORMAT}", not {json.dumps(doc["format"])}')
    if "variant" not in doc:
        raise _doc_error('missing key "variant"')
    name = doc["variant"]
    if not isinstance(name, str) or name not in ENGINE_VARIANTS:
        raise _doc_error(f"unknown variant {json.dumps(name)} (known: {', '.join(ENGINE_VARIANTS)})")
    if "hands" not in doc:
        raise _doc_error('missing key "hands"')
    hands = doc["hands"]
    if not isinstance(hands, list):
        raise _doc_error('"hands" must be a list')
    options = doc.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _doc_error('"options" must be an object')
    options = dict(options)
    if (
        "players" not in options
        and len(PLAYER_COUNTS[name]) > 1
        and hands
        and isinstance(hands[0], dict)
        and isinstance(hands[0].get("deal"), list)
    ):
        n = len(hands[0]["deal"])  # the player count is implied by the first hand's deal
        if n in PLAYER_COUNTS[name]:
            options["players"] = n
    try:
        variant = make_variant(name, options)
    except OptionError as e:
        raise _doc_error(str(e)) from None
    if "set" in doc:
        given = doc["set"]
        if not isinstance(given, str) or given not in SET_NAMES:
            known = ", ".join(SET_NAMES)
            raise _doc_error(f'"set" must be one of {known}, not {json.dumps(given)}')
        if given != variant.tile_set.name:
            raise _doc_error(
                f'"set" is {given}, but {name} with these options is played with the '
                f"{variant.tile_set.name} set"
            )
    nsides = len(variant.sides)
    names = doc.get("players")
    if names is not None:
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            raise _doc_error('"players" must be a list of names')
        if len(names) != variant.players:
            raise _doc_error(f'"players" names {len(names)} seats; the game has {variant.players}')
    start = doc.get("start")
    start_hand, start_totals, start_bonus = 1, None, None
    if start is not None:
        if not isinstance(start, dict):
            raise _doc_error('"start" must be an object')
        start_hand = start.get("hand", 1)
        if type(start_hand) is not int or start_hand < 1:
            raise _doc_error('"start.hand" must be an integer >= 1')
        start_totals = start.get("totals")
        if start_totals is not None and (
            not isinstance(start_totals, list)
            or len(start_totals) != nsides
            or not all(type(x) is int for x in start_totals)
        ):
            raise _doc_error(f'"start.totals" must be a list of {nsides} integers (one per side)')
        start_bonus = start.get("bonus_rounds")
        if start_bonus is not None and (type(start_bonus) is not int or start_bonus < 0):
            raise _doc_error('"start.bonus_rounds" must be an integer >= 0')
    seal = read_seal(doc)
    game = Game(
        variant,
        seed=seal.seed if seal is not None and seal.seed is not None else None,
        names=names,
        start_hand=start_hand,
        start_totals=start_totals,
        start_bonus_rounds=start_bonus,
        auto_deal=False,
    )
    game.record_options = dict(doc.get("options") or {})  # written back as the record gave them
    game.seal = seal
    for hi, hand in enumerate(hands, 1):
        _replay_hand(game, variant, hi, hand)
    return game


def _replay_hand(game: Game, variant: Variant, hi: int, hand: Any) -> None:
    def err(msg: str) -> RecordError:
        return RecordError(msg, hand=hi)

    if game.hands and not game.hand.over:
        raise err("the previous hand is unfinished; no hand may follow it")
    if game.over:
        raise err("the game is already over; no hand may follow")
    if not isinstance(hand, dict):
        raise err("a hand must be an object")
    for key in ("deal", "moves"):
        if key not in hand:
            raise err(f'missing key "{key}"')
    deal = hand["deal"]
    n = variant.players
    if not isinstance(deal, list) or not all(isinstance(r, list) for r in deal):
        raise err('"deal" must be a list of lists of tiles')
    if len(deal) != n:
        raise err(f'"deal" has {len(deal)} seats; this game has {n} players')
    boneyard = hand.get("boneyard", [])
    if boneyard is None:
        boneyard = []
    if not isinstance(boneyard, list):
        raise err('"boneyard" must be a list of tiles')
    tset = variant.tile_set
    n_tiles, top = tset.n_tiles, tset.pips
    seen: dict[int, str] = {}
    if variant.layout in ("trains", "chicken_foot"):  # the round's hub double is on the table, not dealt
        seen[hub_of(variant, game.start_hand + len(game.hands))] = "the hub"
    rows: list[list[int]] = []
    for where, tiles in [(f"seat {s}", r) for s, r in enumerate(deal)] + [("boneyard", boneyard)]:
        out = []
        for tok in tiles:
            parsed = parse_tile(tok)
            if parsed is None:
                raise err(f"{json.dumps(tok)} in {where} is not a tile (expected a-b with pips 0-{top})")
            t = parsed[0]
            if t >= n_tiles:
                raise err(f"tile {tok} in {where} is not in the {tset.name} set (pips 0-{top})")
            if t in seen:
                again = "twice in " + where if seen[t] == where else f"in {seen[t]} and in {where}"
                raise err(f"tile {NAME[t]} appears {again}")
            seen[t] = where
            out.append(t)
        rows.append(out)
    bone = rows.pop()
    if len(seen) != n_tiles:
        missing = ", ".join(NAME[t] for t in range(n_tiles) if t not in seen)
        raise err(f"tiles missing from deal and boneyard: {missing}")
    leader = hand.get("leader")
    if leader is not None and (type(leader) is not int or not 0 <= leader < n):
        raise err(f'"leader" must be a seat number from 0 to {n - 1}')
    if variant.deal_from_leader and leader is None:
        raise err("leader is required (the rules draw it by lot)")
    sizes = variant.sizes_for(leader if leader is not None else 0)
    for s, r in enumerate(rows):
        if len(r) != sizes[s]:
            raise err(f"seat {s} is dealt {len(r)} tiles; {variant.name} with {n} players deals {sizes[s]}")
    starter_first = None
    if variant.starter:
        starter_first = parse_tile(boneyard[0])[1]  # type: ignore[index]
    moves = hand["moves"]
    if not isinstance(moves, list):
        raise err('"moves" must be a list of move tokens')
    try:
        h = game.next_hand(rows, bone, leader, starter_first)
    except ValueError as e:
        raise err(str(e)) from None
    for mi, tok in enumerate(moves, 1):
        shown = tok if isinstance(tok, str) else json.dumps(tok)
        if h.over:
            what = {
                "domino": f"seat {h.result.dominoer} went out",  # type: ignore[union-attr]
                "blocked": "it is blocked",
                "unfinished": "the game was won during it",
            }[h.end]  # type: ignore[index]
            raise RecordError(f"the hand is already over ({what}); no move may follow", hi, mi, shown)
        if not isinstance(tok, str):
            raise RecordError("a move token must be a string", hi, mi, shown)
        try:
            game.play(tok)
        except BonepileError as e:
            raise RecordError(str(e), hi, mi, tok) from None


# ------------------------------------------------------------------------------ writing


def game_record(game: Game) -> dict[str, Any]:
    """The record document of a game (``Game.record()``)."""
    return game.record()


def dumps(doc: dict[str, Any]) -> str:
    """Stable text of a record: same document, same bytes."""

    def j(x: Any) -> str:
        return json.dumps(x, ensure_ascii=False)

    lines = ["{"]
    keys = [k for k in doc if k != "hands"]
    for k in keys:
        lines.append(f"  {j(k)}: {j(doc[k])},")
    lines.append('  "hands": [')
    for i, h in enumerate(doc.get("hands", [])):
        lines.append("    {")
        hk = list(h)
        for ki, k in enumerate(hk):
            comma = "," if ki < len(hk) - 1 else ""
            if k == "deal":
                lines.append('      "deal": [')
                for ri, row in enumerate(h[k]):
                    lines.append(f"        {j(row)}" + ("," if ri < len(h[k]) - 1 else ""))
                lines.append("      ]" + comma)
            else:
                lines.append(f"      {j(k)}: {j(h[k])}{comma}")
        lines.append("    }" + ("," if i < len(doc["hands"]) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ for people


def describe(game: Game) -> str:
    """The game hand by hand: deal, every move with the open ends after it, the score."""
    v = game.variant
    names = game.names or [f"P{s}" for s in range(v.players)]
    side_names = ["+".join(names[s] for s in side) for side in v.sides]
    out = [f"{v.name} ({v.players} players" + (", partnerships" if v.teams else "") + ")"]
    if v.options:
        out.append("options: " + ", ".join(f"{k}={json.dumps(x)}" for k, x in v.options.items()))
    totals = list(game.start_totals)
    for _idx, h in enumerate(game.hands, 1):
        out.append("")
        out.append(f"Hand {h.number}: {names[h.leader]} leads")
        for s, row in enumerate(h.deal_rows):
            label = "row" if h.rows is not None else "hand"
            out.append(f"  {names[s]:>6} {label}: " + " ".join(NAME[t] for t in row))
        if h.boneyard:
            out.append("  boneyard: " + " ".join(NAME[t] for t in h.boneyard))
        g = h.fresh()
        tokens = hand_tokens(h)
        know = observer(h).knowledge()
        for i, ((s, m, t), tok, scored, side) in enumerate(zip(h.log, tokens, know.points, know.scorer), 1):
            g.apply(m)
            if m == DRAW:
                what = f"draws {NAME[t]}"
            elif m == PASS:
                what = "passes" + (f" ({NAME[t]} back to the row)" if t >= 0 else "")
            else:
                what = f"plays {tok}"
            sep = ":" if g.v.layout == "trains" else ""  # a train's name is a number: "1:12"
            ends = " ".join(f"{k}{sep}{p}" for k, p in g.ends().items())
            extra = f"  +{scored}" if scored else ""
            if scored and side != v.side_of(s):  # a pase redondo: every other player passed
                extra += f" to {side_names[side]}, all the others passed"
            out.append(f"  {i:3}. {names[s]:>6} {what:<28} ends {ends}{extra}")
        res = h.current_result()
        totals = [a + b for a, b in zip(totals, res.points)]
        if res.end == "domino":
            out.append(f"  {names[res.dominoer]} goes out (domino).")  # type: ignore[index]
        elif res.end == "blocked":
            out.append("  Blocked: nobody can play.")
        else:
            out.append("  Unfinished.")
        out.append("  pips left: " + ", ".join(f"{names[s]} {p}" for s, p in enumerate(res.pips)))
        bd = {k: x for k, x in res.breakdown.items() if k != "pips" and x}
        if bd:
            out.append("  breakdown: " + ", ".join(f"{k} {x}" for k, x in bd.items()))
        win = (
            "nobody"
            if res.winner is None
            else (names[res.winner] if v.scoring == "result_only" else side_names[res.winner])
        )
        if v.scoring == "result_only":  # Billitonnen: a winner, no points
            out.append(f"  winner: {win}")
            continue
        out.append(
            f"  winner: {win}; points " + ", ".join(f"{side_names[i]} {p}" for i, p in enumerate(res.points))
        )
        out.append("  totals: " + ", ".join(f"{side_names[i]} {x}" for i, x in enumerate(totals)))
    out.append("")
    if game.over:
        if game.winner is None:
            out.append("Game over: no single winner.")
        else:
            w = names[game.winner] if v.scoring == "result_only" else side_names[game.winner]
            out.append(f"Game over: {w} wins.")
    else:
        out.append("Game not finished.")
    return "\n".join(out) + "\n"
