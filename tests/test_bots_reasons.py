"""Hints in plain words (issue 11): every reason a hint gives is a fact of the position,
checked here against the real game (which knows every hidden tile), over random games of
every variant; every code has words in English and in every language of the web client."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bonepile.bots import Budget, hint
from bonepile.bots.reasons import CODES, Explainer, english
from bonepile.engine import Game, make_variant
from bonepile.engine.knowledge import unseen_tiles
from bonepile.engine.tiles import DRAW, HI, IS_DOUBLE, LO, PASS, PIPS, bits, mask_of, tile_of
from bonepile.engine.variant import PLAYER_COUNTS

CASES = [(name, {"players": n}) for name, counts in PLAYER_COUNTS.items() for n in counts] + [
    ("block", {"players": 4, "teams": True}),
    ("draw", {"players": 4, "teams": True}),
]
I18N = Path(__file__).resolve().parents[1] / "src" / "bonepile" / "web" / "static" / "i18n"


def positions(name, opts, seed, count):
    rng = random.Random(seed)
    out = []
    for k in range(60):
        game = Game.new(name, opts, seed=seed + k)
        while not game.over and len(out) < count:
            if len(game.legal_moves()) > 1 and game.hand.log:
                out.append(game.copy())
            ms = game.legal_moves()
            # mostly heavy plays, so that voids and scores show up
            plays = [m for m in ms if m < PASS]
            game.apply(
                max(plays, key=lambda m: PIPS[tile_of(m)]) if plays and rng.random() < 0.5 else rng.choice(ms)
            )
        if len(out) >= count:
            break
    return out


def has_pip(tiles, p):
    return any(p in (HI[t], LO[t]) for t in tiles)


def check_reason(game: Game, seat: int, m: int, r: dict, seen: set) -> None:
    """One reason against the truth."""
    v = game.variant
    view = game.view(seat)
    code = r["code"]
    seen.add(code)
    after = game.copy()
    after.apply(m)
    h = after.hands[len(game.hands) - 1]  # (a game may deal the next hand at once)
    nxt = (seat + 1) % v.players
    partner = lambda s: s != seat and v.side_of(s) == v.side_of(seat)  # noqa: E731
    hand_after = [t for t in view.hand if t != tile_of(m)]
    ends = set(h.ends().values()) if not h.over else set()
    shown_by = {e.seat for e in view.history if e.action in ("pass", "draw")}
    if code == "goes_out":
        assert h.over and h.result.dominoer == seat
    elif code == "scores":
        side = v.side_of(seat)
        gained = after.view(seat).hand_points[side] - view.hand_points[side] if not h.over else None
        assert r["points"] > 0 and (v.in_play != "fives" or r["points"] % 5 == 0)
        if gained is not None:
            assert gained == r["points"]
    elif code == "next_lacks":
        p = r["pips"]
        assert not partner(nxt) and p in ends
        assert nxt in shown_by  # it showed it, by a pass or a draw
        assert not has_pip(bits(h.masks[nxt]), p)  # and it is true: it holds none
        if v.layout != "line":  # a train game: every train open to it, it cannot play on
            assert h.to_move == nxt and not any(h.fits(t) for t in bits(h.masks[nxt]))
    elif code == "partner_lacks":
        p = r["pips"]
        mates = [s for s in range(v.players) if partner(s)]
        assert p in ends and mates
        assert any(s in shown_by and not has_pip(bits(h.masks[s]), p) for s in mates)
    elif code == "keeps_suit":
        p = r["pips"]
        assert p in ends and has_pip(hand_after, p)
    elif code == "sheds_heavy":
        t = tile_of(m)
        assert PIPS[t] == r["pips"] >= 8 and PIPS[t] == max(PIPS[u] for u in view.hand)
    elif code == "double_early":
        assert IS_DOUBLE[tile_of(m)] and HI[tile_of(m)] == r["pips"]
    elif code == "keeps_capicu":
        (last,) = hand_after
        assert len(ends) <= 2 and all(p in (HI[last], LO[last]) for p in h.ends().values())
    elif code == "keeps_chuchazo":
        assert hand_after == [0]
    elif code == "next_tile_fits":
        assert view.peek is not None and (HI[view.peek] in ends or LO[view.peek] in ends)
    elif code == "next_can_score":
        assert not partner(nxt) and r["points"] > 0 and (v.in_play != "fives" or r["points"] % 5 == 0)
        # some tile the seat has not seen, laid next, would score that much
        assert unseen_tiles(view) & ~mask_of(view.hand)
    elif code == "draws":
        assert m == DRAW
    elif code == "passes":
        assert m == PASS
    elif code == "only_move":
        assert len(view.legal) == 1
    else:
        raise AssertionError(f"unknown code {code}")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0] + "".join(f"-{k}={x}" for k, x in c[1].items()))
def test_every_reason_is_true_of_the_position(case):
    name, opts = case
    v = make_variant(name, opts)
    seen: set = set()
    for game in positions(name, opts, 5, 25):
        seat = game.to_move
        why = Explainer(v, game.view(seat), seed=1)
        for m in game.legal_moves():
            for r in why.explain(m):
                assert r["code"] in CODES
                check_reason(game, seat, m, r, seen)
    if name in ("block", "draw") and opts.get("players", 0) == 4:
        assert {"next_lacks", "keeps_suit"} <= seen, seen  # the checks were exercised
    if name == "cinque":
        assert {"scores", "next_can_score"} <= seen, seen


def test_next_lacks_only_after_the_next_player_showed_the_void():
    """In a partnership block game: before anyone passed, no move says the next player lacks
    a number; once the next player passed on a 6 and a 3, a move that leaves a 6 or a 3 open
    says so."""
    v = make_variant("block", {"players": 4, "teams": True})
    for seed in range(200):
        g = Game.new("block", {"players": 4, "teams": True}, seed=seed)
        found = False
        while not g.over and not g.hand.over:
            seat = g.to_move
            view = g.view(seat)
            nxt = (seat + 1) % 4
            passed = any(e.seat == nxt and e.action == "pass" for e in view.history)
            why = Explainer(v, view, seed=0)
            for m in view.legal:
                for r in why.explain(m):
                    if r["code"] == "next_lacks":
                        assert passed
                        found = True
            ms = g.legal_moves()
            g.apply(max(ms, key=lambda x: PIPS[tile_of(x)] if x < PASS else -1))
        if found:
            return
    raise AssertionError("no position with a shown void in 200 games")


def test_every_code_has_words_in_every_language():
    sample = {"pips": 3, "points": 10, "seat": 1}
    for code in CODES:
        words = english({"code": code, **sample})
        assert words and "_" not in words
    en = json.loads((I18N / "en" / "hints.json").read_text())
    people = {**sample, "player": "the next player"}
    for code in CODES:  # the terminal's words are the web client's English, without names
        filled = re.sub(r"\{(\w+)\}", lambda x: str(people[x.group(1)]), en[f"hint.{code}"])
        assert english({"code": code, **sample}).startswith(filled)
    for lang_dir in sorted(I18N.iterdir()):
        cat = json.loads((lang_dir / "hints.json").read_text())
        for code in CODES:
            text = cat[f"hint.{code}"]
            assert set(re.findall(r"\{(\w+)\}", text)) <= {"pips", "points", "player"}, (lang_dir.name, code)


def test_the_hint_reports_plain_words_and_the_game_chance():
    """The hint's words name no search machinery; near the target the chance to win the
    game in this hand is given, and it is a probability."""
    g = Game.new("block", {"teams": True, "target": 10}, seed=4)
    r = random.Random(2)
    for _ in range(8):
        ms = g.legal_moves()
        g.apply(ms[r.randrange(len(ms))])
    rows = hint(g, budget=Budget(simulations=20))
    assert all("sampled" not in e.reason and "deal" not in e.reason for _, e in rows)
    assert all(e.reason == "; ".join(english(x) for x in e.reasons) for _, e in rows)
    games = [e.game for _, e in rows]
    assert all(x is not None and 0.0 <= x <= 1.0 for x in games)
    assert any(x > 0 for x in games)
    far = Game.new("block", {"teams": True, "target": 500}, seed=4)
    assert all(e.game is None for _, e in hint(far, budget=Budget(simulations=5)))
