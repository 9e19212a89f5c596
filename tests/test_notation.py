"""Move notation (RECORD.md "Tiles and move tokens"): ``bonepile.engine.notation``.

Every legal move of many random positions of every variant and player count survives
move -> token -> move exactly, in the canonical form and in the always-with-arm form the web
client sends; the spellings a person may type come back as the canonical token; bad tokens get
the same error messages as before the module existed."""

from __future__ import annotations

import random

import pytest

from bonepile import Game, make_variant
from bonepile.engine import notation
from bonepile.engine.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
)
from bonepile.engine.hand import Hand
from bonepile.engine.tiles import ARM_NAMES, DRAW, HI, LO, NAME, PASS, arm_of, parse_tile, tile_of
from bonepile.engine.variant import PLAYER_COUNTS, VARIANT_NAMES
from bonepile.web.protocol import move_token as web_move_token

CONFIGS = [(v, n) for v in VARIANT_NAMES for n in PLAYER_COUNTS[v]]


def positions(variant: str, players: int, games: int = 4):
    """(game, hand) at every decision of a few random games."""
    for seed in range(games):
        g = Game.new(variant, {"players": players} if len(PLAYER_COUNTS[variant]) > 1 else {}, seed=seed)
        rng = random.Random(1000 + seed)
        while not g.over:
            yield g, g.hand
            moves = g.legal_moves()
            g.apply(moves[rng.randrange(len(moves))])


def both_ways(h: Hand, moves: list[int]) -> list[int]:
    """The legal moves, plus each first tile laid the other way round (also legal)."""
    if h.placed:
        return moves
    return moves + [m ^ 1 for m in moves if m < PASS and HI[tile_of(m)] != LO[tile_of(m)]]


@pytest.mark.parametrize("variant,players", CONFIGS)
def test_every_legal_move_round_trips_through_its_tokens(variant, players):
    seen = 0
    for g, h in positions(variant, players):
        for m in both_ways(h, g.legal_moves()):
            tok = notation.token(h, m)
            assert notation.parse(h, tok) == m, (tok, m)
            assert g.token(m) == tok and g.parse(tok) == m
            first = h.placed == 0
            explicit = notation.move_token(m, first=first)
            assert notation.parse(h, explicit) == m, (explicit, m)
            view = g.view(h.to_move)
            assert web_move_token(view, m) == explicit
            if m < PASS:
                t = tile_of(m)
                if first:  # written as laid: the first number faces L
                    a = HI[t] if arm_of(m) == 0 else LO[t]
                    assert tok == f"{a}-{HI[t] + LO[t] - a}"
                else:  # @E exactly where two or more arms take the tile
                    assert ("@" in tok) == (len(h.fits(t)) > 1)
                    assert tok.split("@")[0] == NAME[t]
                    assert explicit == f"{NAME[t]}@{ARM_NAMES[arm_of(m)]}"
            seen += 1
    assert seen > 80


def test_pass_and_draw():
    g = Game.new("draw", {"players": 2}, seed=1)
    for first in (True, False):
        assert notation.move_token(PASS, first=first) == "pass"
        assert notation.move_token(DRAW, first=first) == "draw"
    assert notation.token(g.hand, PASS) == "pass" and notation.token(g.hand, DRAW) == "draw"
    assert notation.parse(g.hand, "pass") == PASS and notation.parse(g.hand, "draw") == DRAW


def test_hand_tokens_are_the_tokens_played_and_the_canonical_ones_otherwise():
    for variant, players in CONFIGS:
        g = Game.new(variant, {"players": players} if len(PLAYER_COUNTS[variant]) > 1 else {}, seed=7)
        rng = random.Random(7)
        played: list[str] = []
        while not g.over and len(g.hands) == 1:
            tokens = g.legal_tokens()
            tok = tokens[rng.randrange(len(tokens))]
            played.append(tok)
            g.play(tok)
        h = g.hands[0]
        assert notation.hand_tokens(h) == played
        h.given_tokens = None  # as for a hand played by move ints
        assert notation.hand_tokens(h) == played
        assert g.record()["hands"][0]["moves"] == played


# ------------------------------------------------------------------------------ spellings


def spellings(tok: str) -> list[str]:
    """Ways a person may type the token ``tok``."""
    if tok in ("draw", "pass"):
        return [tok, tok.upper(), tok.capitalize(), f"  {tok} ", tok.swapcase()]
    tile, _, arm = tok.partition("@")
    a, b = tile.split("-")
    out = []
    for sep in ("-", " ", "", "|", "/", " - ", " | "):
        for a_sep in ["@", " ", "", " @ ", "@ "] if arm else [""]:
            for case in [arm, arm.lower()] if arm else [""]:
                out.append(f"{a}{sep}{b}{a_sep}{case}")
    return out + [f"  {out[0]}\t"]


@pytest.mark.parametrize(
    "variant,players", [("cinque", 4), ("block", 2), ("draw", 3), ("passing", 4), ("blind-hugie", 2)]
)
def test_every_spelling_of_every_legal_move_normalizes_to_its_token(variant, players):
    for g, h in positions(variant, players, games=1):
        for m in both_ways(h, g.legal_moves()):
            for tok in {notation.token(h, m), notation.move_token(m, first=h.placed == 0)}:
                for typed in spellings(tok):
                    assert notation.normalize(typed) == tok, (typed, tok)
                    assert notation.parse(h, notation.normalize(typed)) == m


def test_normalize_examples():
    assert notation.normalize("Draw") == "draw"
    assert notation.normalize(" PASS ") == "pass"
    assert notation.normalize("6-4 l") == "6-4@L"
    assert notation.normalize("6-4@r") == "6-4@R"
    assert notation.normalize("6 4") == "6-4"
    assert notation.normalize("64") == "6-4"
    assert notation.normalize("4 6 u") == "4-6@U"  # the order as typed (it matters on a first tile)
    assert notation.normalize("6-4@xyz") == "6-4@xyz"  # not a spelling: back as typed
    assert notation.normalize("12-3@m") == "12-3@M"  # a train's name (Mexican Train)
    assert notation.normalize("9-4 @ ab") == "9-4@AB"  # a chicken foot's arm
    assert notation.normalize("12-3@1") == "12-3@1"
    assert notation.normalize("6 4 1") == "6 4 1"  # after a space, a line's arm only
    assert notation.normalize("  hello ") == "hello"
    assert notation.normalize("6-4-L") == "6-4-L"
    assert notation.normalize("") == ""


def test_a_reversed_tile_names_the_same_later_move():
    g = Game.new("block", {"players": 4}, seed=3)
    g.apply(g.legal_moves()[0])
    h = g.hand
    for m in g.legal_moves():
        if m < PASS:
            t = tile_of(m)
            tok = notation.token(h, m)
            rev = f"{LO[t]}-{HI[t]}" + tok[3:]
            assert notation.parse(h, rev) == m


# ------------------------------------------------------------------------------ errors

DEAL = [
    ["6-6", "6-5", "5-5", "4-3", "2-1", "1-0", "0-0"],
    ["6-4", "5-4", "3-3", "2-0", "1-1", "5-0", "3-1"],
    ["6-3", "5-3", "4-4", "4-1", "2-2", "6-0", "3-0"],
    ["6-2", "5-2", "4-2", "6-1", "5-1", "4-0", "3-2"],
]
NOT_A_TOKEN = 'not a move token (expected "a-b", "a-b@E" with E one of L R U D, "draw" or "pass")'


def block_hand(before: list[str]) -> Hand:
    g = Game(make_variant("block", {"players": 4}), auto_deal=False)
    g.next_hand(deal=[[parse_tile(t)[0] for t in row] for row in DEAL], boneyard=[])  # type: ignore[index]
    for tok in before:
        g.play(tok)
    return g.hand


@pytest.mark.parametrize(
    "before,text,error,message",
    [
        ([], "6-6@L", InvalidMoveError, "@L on the first tile: no arm exists yet"),
        (["6-6"], "6-4", AmbiguousMoveError, "ambiguous: 6-4 fits arms L and R; write 6-4@L or 6-4@R"),
        (["6-6"], "6-4@U", IllegalMoveError, "arm U does not exist yet (no spinner on the table)"),
        (["6-6"], 5, InvalidMoveError, "a move token must be a string, not 5"),
        (["6-6"], None, InvalidMoveError, "a move token must be a string, not None"),
        (["6-6", "6-4@R"], "5-3", IllegalMoveError, "5-3 fits no open end (L 6, R 4)"),
        (["6-6", "6-4@R"], "4-4@L", IllegalMoveError, "4-4 does not fit arm L (open end 6)"),
        (["6-6", "6-4@R"], "4-4@U", IllegalMoveError, "arm U does not exist yet (no spinner on the table)"),
        (
            ["6-6"],
            "6-7",
            InvalidMoveError,
            "not a move token of this game: 6-7 is not a tile of the double-six set (pips 0-6)",
        ),
        (
            ["6-6"],
            "12-10@L",
            InvalidMoveError,
            "not a move token of this game: 12-10 is not a tile of the double-six set (pips 0-6)",
        ),
    ]
    + [
        (["6-6"], text, InvalidMoveError, NOT_A_TOKEN)
        for text in (
            "6-13",
            "66",
            "6-6@X",
            "Pass",
            "DRAW",
            " 6-4@R",
            "",
            "6-4@",
            "6-4@LR",
            "@L",
            "6-4@l",
            "6 4",
        )
    ],
)
def test_bad_tokens_get_the_messages_they_always_had(before, text, error, message):
    h = block_hand(before)
    with pytest.raises(error) as info:
        notation.parse(h, text)
    assert str(info.value) == message


def test_an_arm_of_a_spinner_before_its_sides_are_played():
    for seed in range(50):
        g = Game.new("cinque", seed=seed)
        rng = random.Random(seed)
        while not g.over and not (g.hand.spin >= 0 and g.hand.pip[2] < 0):
            moves = g.legal_moves()
            g.apply(moves[rng.randrange(len(moves))])
        if not g.over:
            break
    with pytest.raises(IllegalMoveError) as info:
        notation.parse(g.hand, "6-6@U")
    assert str(info.value) == ("arm U does not exist yet (the spinner's L and R sides must be played first)")
