"""Golden scenarios of Mexican Train (RULES.md §15) from published rules' worked examples:
each hand is scripted tile by tile to the situation a source describes, and its outcome is
asserted exactly.  The sources are named per scenario; the wording here is our own."""

from __future__ import annotations

import pytest

from bonepile.engine import NAME, PASS, Game, Hand, make_variant, notation
from bonepile.engine.tiles import TRAIN_NAMES, arm_of, tile_index, tile_of


def T(name: str) -> int:
    a, b = (int(x) for x in name.split("-"))
    return tile_index(a, b)


def hand_of(rows: list[list[str]], stock: list[str], *, leader: int = 0, number: int = 1) -> Hand:
    v = make_variant("mexican-train", {"players": len(rows)})
    return Hand(v, [[T(x) for x in r] for r in rows], [T(x) for x in stock], leader, number=number)


def play(h: Hand, *tokens: str) -> None:
    for tok in tokens:
        h.apply(h.check(notation.parse(h, tok)))


def moves(h: Hand) -> list[tuple[str, str]]:
    """The legal moves as (tile, train), or ("draw", "") / ("pass", "")."""
    out = []
    for m in h.legal_moves():
        if m >= PASS:
            out.append(("pass" if m == PASS else "draw", ""))
        else:
            out.append((NAME[tile_of(m)], TRAIN_NAMES[arm_of(m)]))
    return out


@pytest.mark.parametrize(("players", "size"), [(2, 15), (4, 15), (5, 12), (6, 12), (7, 10), (8, 10)])
def test_golden_deal_sizes(players, size):
    # htfbw.com, "Mexican Train" (games-cards/Games/76098): 15 tiles each for four players or
    # fewer, 12 for five or six, 10 for seven or eight; the rest is the boneyard
    v = make_variant("mexican-train", {"players": players})
    h = Game(v, seed=players).hand
    assert [m.bit_count() for m in h.masks] == [size] * players
    assert len(h.boneyard) == 91 - 1 - size * players  # the set less the hub less the deal


def test_golden_every_train_starts_with_the_rounds_double():
    # mexicantrain.com, "Official rules": every train of a round starts with a tile carrying
    # the number of that round's double.  Round 3 of a double-twelve game uses 10-10: of
    # 9-9, 10-3 and 12-12 only 10-3 can be laid, on one's own train or the Mexican train
    h = hand_of([["9-9", "10-3", "12-12"], ["10-1", "4-4"]], ["6-0"], number=3)
    assert h.ends() == {"1": 10, "2": 10, "M": 10}
    assert moves(h) == [("10-3", "1"), ("10-3", "M")]


def test_golden_anyone_may_start_the_mexican_train():
    # htfbw.com (games-cards/Games/74972): any player can start the Mexican train, which is
    # open to everyone; seat 1 starts it on its first turn, before its own train
    h = hand_of([["12-5", "5-1", "3-3"], ["12-9", "0-0"]], ["7-7"])
    play(h, "12-5@1")
    assert moves(h) == [("12-9", "2"), ("12-9", "M")]
    play(h, "12-9@M")
    assert h.ends() == {"1": 5, "2": 12, "M": 9}
    assert moves(h) == [("5-1", "1")]  # seat 0: its own train (nothing else fits the Mexican 9)


def test_golden_a_double_left_uncovered_after_a_draw():
    # htfbw.com (games-cards/Games/76098): the player who lays 2-2 must cover it with a 2 if
    # able; unable even after drawing one tile, they put their marker on their own train, and
    # the next player must cover the double before playing anything else
    h = hand_of(
        [["12-2", "2-2", "9-8", "7-6"], ["12-5", "5-3", "4-2"], ["12-1", "1-0", "4-0"]],
        ["8-1", "11-11", "10-10"],
    )
    play(h, "12-2@1", "12-5@2", "12-1@3", "2-2")
    assert h.to_move == 0 and moves(h) == [("draw", "")]  # it plays again: only the 2-2 counts
    play(h, "draw")
    assert moves(h) == [("pass", "")]  # 8-1 drawn: no 2 either
    play(h, "pass")
    assert h.marks == 0b001 and h.to_move == 1
    # seat 1 holds 5-3 for its own train, but the double comes first
    assert moves(h) == [("4-2", "1")]
    play(h, "4-2")
    assert h.ends() == {"1": 4, "2": 5, "3": 1, "M": 12}
    # the marker stays on train 1 (its owner has not played on it): open to seat 2 now
    assert h.marks == 0b001 and ("4-0", "1") in moves(h)
    play(h, "4-0@1")
    assert h.to_move == 0 and h.ends()["1"] == 0


def test_golden_going_out_scores_zero_and_the_others_count_their_dots():
    # htfbw.com (games-cards/Games/74972): the hand ends when a player has laid every tile;
    # that player scores 0, every other player the dots left in their hand, and the lowest
    # total after the rounds wins.  Seat 0 goes out; seat 1 keeps 0-0 and 5-4 (9 dots),
    # seat 2 keeps 11-10 (21)
    h = hand_of([["12-6", "6-1"], ["12-11", "0-0", "5-4"], ["12-3", "11-10"]], ["9-2", "8-8"])
    play(h, "12-6@1", "12-11@2", "12-3@3", "6-1")
    assert h.over and h.end == "domino"
    assert h.result.points == (0, 9, 21) and h.result.winner == 0
