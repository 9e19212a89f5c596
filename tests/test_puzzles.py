"""Puzzles (issue 30): the View's JSON form, Glicko-2 against Glickman's worked example,
mining a known puzzle from a recorded game, judging answers, the shipped set (consistent
views, legal solutions and replies), nothing hidden in a puzzle, and `bonepile puzzles` on a
scripted standard input."""

from __future__ import annotations

import dataclasses
import datetime
import json
import pathlib
import random

import pytest

from bonepile.analysis.exact import Solver
from bonepile.bots.budget import Budget
from bonepile.bots.sampler import Sampler, agrees
from bonepile.engine import Game, make_variant
from bonepile.engine import record as rec
from bonepile.engine.knowledge import layout_tiles
from bonepile.engine.notation import parse
from bonepile.engine.tiles import NAME, tile_of
from bonepile.engine.variant import ENGINE_VARIANTS
from bonepile.engine.view import hand_view
from bonepile.engine.viewcodec import view_from_dict, view_to_dict
from bonepile.puzzles import glicko2, store
from bonepile.puzzles.judge import judge
from bonepile.puzzles.mine import mine
from bonepile.puzzles.model import THEMES, Puzzle
from bonepile.puzzles.moves import PuzzleError, choices, move_of
from support import CONFIGURATION_IDS, CONFIGURATIONS, cli, tiles_named, unseen_set

FIXTURE = pathlib.Path(__file__).parent / "fixtures" / "puzzles" / "block-game.record.json"


# ------------------------------------------------------------------ the View's JSON form
@pytest.mark.parametrize(("variant", "options"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_view_json_round_trip_over_random_games(variant, options):
    rng = random.Random(f"codec {variant} {options}")
    g = Game.new(variant, options, seed=rng.randrange(10**6))
    seen = 0
    while not g.over and seen < 400:
        if g.hand.over:
            g.next_hand()
            continue
        for seat in range(g.variant.players):
            v = g.view(seat)
            d = view_to_dict(v)
            assert view_from_dict(json.loads(json.dumps(d))) == v
            seen += 1
        ms = g.legal_moves()
        g.apply(ms[rng.randrange(len(ms))])
    # the hand's end, with every seat's tiles revealed, round-trips too
    v = g.view(0)
    assert view_from_dict(json.loads(json.dumps(view_to_dict(v)))) == v


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("hand"), "missing key 'hand'"),
        (lambda d: d.update(hand=["7-7"]), "hand[0] must be a tile"),
        (lambda d: d.update(seat="0"), "seat must be an integer"),
        (lambda d: d.update(legal=[999]), "legal move 999"),
        (lambda d: d["layout"].update(arms={"X": []}), "layout.arms' key must be one of"),
        (lambda d: d.update(format=2), "format must be 1"),
    ],
)
def test_a_bad_view_json_names_the_field(change, words):
    d = view_to_dict(Game.new("draw", {"players": 2}, seed=3).view(0))
    change(d)
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        view_from_dict(d)


# ------------------------------------------------------------------ Glicko-2
def test_glicko2_matches_the_papers_worked_example():
    # Glickman, "Example of the Glicko-2 system": a 1500 (RD 200) player beats a 1400 (RD 30),
    # loses to a 1550 (RD 100) and to a 1700 (RD 300); tau 0.5
    p = glicko2.Rating(1500, 200, 0.06)
    games = [
        (glicko2.Rating(1400, 30), 1.0),
        (glicko2.Rating(1550, 100), 0.0),
        (glicko2.Rating(1700, 300), 0.0),
    ]
    new = glicko2.rate(p, games)
    assert new.r == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.vol == pytest.approx(0.05999, abs=1e-5)


def test_glicko2_update_moves_both_sides_the_right_way():
    player, puzzle = glicko2.Rating(1500, 200), glicko2.Rating(1600, 150)
    p1, z1 = glicko2.update(player, puzzle, True)
    assert p1.r > player.r and z1.r < puzzle.r and p1.rd < player.rd
    p2, z2 = glicko2.update(player, puzzle, False)
    assert p2.r < player.r and z2.r > puzzle.r
    # beating a far weaker puzzle is worth less than beating a far stronger one
    gain_easy = glicko2.update(player, glicko2.Rating(1000, 60), True)[0].r - player.r
    gain_hard = glicko2.update(player, glicko2.Rating(2000, 60), True)[0].r - player.r
    assert 0 < gain_easy < gain_hard
    # without games only the deviation grows
    idle = glicko2.rate(glicko2.Rating(1500, 50, 0.06), [])
    assert idle.r == 1500 and idle.rd > 50


# ------------------------------------------------------------------ mining
@pytest.fixture(scope="module")
def mined():
    stats: dict[str, int] = {}
    found = list(mine([str(FIXTURE)], budget=Budget(simulations=40), seed=0, stats=stats))
    return found, stats


def test_mining_finds_the_known_puzzle_of_a_recorded_game(mined):
    found, stats = mined
    by_source = {p.source: p for p in found}
    # hand 5: seat 3 holds 2-0 and 0-0 with 1 and 0 open; the next seat has shown it has no 0:
    # the double blank blocks it and wins the game, 2-0 lets it play
    p = by_source["block-game.record.json hand 5 move 21"]
    step = p.steps[0]
    assert step.solution == "0-0" and p.seat == 3
    assert set(step.view.hand) == {tile_of(move_of(step.view, "0-0")), tile_of(move_of(step.view, "2-0"))}
    assert "block_next" in p.themes
    assert p.facts["agree"] >= 0.9 and p.facts["lower"] > 5
    # and with every hand shown, in the game's real deal, the double blank is the best move
    game = rec.read(str(FIXTURE))
    h = game.hands[4].fresh()
    for _seat, m, _ in game.hands[4].log[:20]:
        h.apply(m)
    vals = Solver(game.variant).values(h)
    best = max(vals, key=lambda m: vals[m].score)
    assert best == move_of(step.view, "0-0") and vals[best].score > vals[move_of(step.view, "2-0")].score
    assert stats["positions"] >= stats["choices"] >= stats["puzzles"] == len(found) > 0
    # deterministic for a seed
    again = list(mine([str(FIXTURE)], budget=Budget(simulations=40), seed=0))
    assert [q.to_dict() for q in again] == [q.to_dict() for q in found]


def test_a_mined_step_is_the_censored_view_of_its_source_position(mined):
    found, _ = mined
    game = rec.read(str(FIXTURE))
    for p in found:
        hand_no, move_no = (int(x) for x in p.source.split(" hand ")[1].split(" move "))
        h = game.hands[hand_no - 1].fresh()
        for _seat, m, _ in game.hands[hand_no - 1].log[: move_no - 1]:
            h.apply(m)
        assert p.steps[0].view == hand_view(h, p.seat, hand_no)
        # every tile the puzzle names is one the seat could see: its own, or played
        text = json.dumps(p.to_dict())
        v = p.steps[0].view
        visible = set(v.hand) | {t for t in range(28) if layout_tiles(v.layout) >> t & 1}
        hidden = {NAME[t] for t in range(28) if t not in visible}
        for name in hidden:
            assert f'"{name}"' not in text, (p.id, name)


def test_puzzle_json_round_trip(mined):
    found, _ = mined
    for p in found:
        back = Puzzle.from_dict(json.loads(json.dumps(p.to_dict())))
        assert back == p and back.id == p.id


# ------------------------------------------------------------------ judging
def test_judge_right_wrong_and_bad_answers(mined):
    found, _ = mined
    p = next(q for q in found if q.source.endswith("hand 5 move 21"))
    right = judge(p, 0, "0-0")
    assert right.correct and right.done and right.better == ""
    wrong = judge(p, 0, "2-0")
    assert not wrong.correct and wrong.done and wrong.better == "0-0"
    assert wrong.loss is not None and wrong.loss > 5
    assert "next_lacks" in {r["code"] for r in wrong.reasons}
    assert wrong.words.startswith("0-0 was better")
    # a person's looser spelling is the same move
    assert judge(p, 0, " 0 0 ").correct
    with pytest.raises(PuzzleError) as e:
        judge(p, 0, "6-6")
    assert e.value.code == "puzzle.not_legal" and "legal: " in str(e.value)
    with pytest.raises(PuzzleError) as e:
        judge(p, 1, "0-0")
    assert e.value.code == "puzzle.bad_step"


# ------------------------------------------------------------------ the shipped set
SHIPPED = store.shipped()


def test_a_line_of_several_steps_is_judged_step_by_step():
    p = next(q for q in SHIPPED if len(q.steps) > 1)
    first = judge(p, 0, p.steps[0].solution)
    assert first.correct and not first.done and first.next_step == 1
    assert first.replies == p.steps[0].replies
    last = len(p.steps) - 1
    end = judge(p, last, p.steps[last].solution)
    assert end.correct and end.done and end.next_step is None and end.replies == ()
    # a wrong move at the second step ends the line, with the second step's solution
    view = p.steps[1].view
    wrong = next(t for t in choices(make_variant(p.variant, p.options), view) if t != p.steps[1].solution)
    w = judge(p, 1, wrong)
    assert not w.correct and w.done and w.better == p.steps[1].solution


def test_the_shipped_set_has_puzzles_of_every_game_with_choices():
    variants = {p.variant for p in SHIPPED}
    assert variants == set(ENGINE_VARIANTS)  # the train layouts too
    assert len({p.id for p in SHIPPED}) == len(SHIPPED)
    for p in SHIPPED:
        assert set(p.themes) <= set(THEMES)
        assert 800 <= p.rating <= 2500
    assert store.by_id(SHIPPED[0].id) == SHIPPED[0]
    assert store.by_id("nope") is None
    assert all(p.variant == "block" for p in store.load("block"))
    themed = store.load(theme="block_next")
    assert themed and all("block_next" in p.themes for p in themed)
    day = datetime.date(2026, 12, 3)
    assert store.daily(day) == store.daily(day)
    assert len({store.daily(day + datetime.timedelta(days=i)).id for i in range(30)}) > 10


def _check_line(p: Puzzle) -> None:
    """A deal agrees with the last step's view (so with the whole line); replayed from its
    start, it passes through every step's view, where the solution is legal, and the replies
    are legal moves that lead to the next step."""
    v = make_variant(p.variant, p.options)
    last = p.steps[-1].view
    world = Sampler(v, last).sample(random.Random(p.id))
    assert agrees(world, last)
    moves = [m for _, m, _ in world.log]
    h = world.fresh()
    for step in p.steps:
        view = step.view
        assert view.seat == p.seat and view.to_move == p.seat and not view.over
        # nothing hidden: no hand revealed, no other seat's drawn tile, no face-down tile
        assert view.revealed is None
        assert all(e.tile is None for e in view.history if e.action == "draw" and e.seat != p.seat)
        assert not (view.blind and view.hand)
        while len(h.log) < len(view.history):
            h.apply(moves[len(h.log)])
        assert hand_view(h, p.seat, view.hand_number) == view
        m = move_of(view, step.solution)
        assert h.check(m) == m
        for alt in step.alternatives:
            assert h.mirror_key(move_of(view, alt)) == h.mirror_key(m)
        if step is p.steps[-1]:
            break
        assert h.mirror_key(moves[len(h.log)]) == h.mirror_key(m)  # the line's move
        h.apply(moves[len(h.log)])
        for tok in step.replies:
            assert h.to_move != p.seat
            r = h.check(parse(h, tok))
            assert h.mirror_key(r) == h.mirror_key(moves[len(h.log)])
            h.apply(moves[len(h.log)])


@pytest.mark.parametrize("variant", sorted({p.variant for p in SHIPPED}))
def test_every_shipped_puzzle_is_consistent_and_its_line_legal(variant):
    for p in store.load(variant):
        _check_line(p)


# ------------------------------------------------------------------ the terminal
def test_solving_in_the_terminal(tmp_path, mined):
    found, _ = mined
    p = next(q for q in found if q.source.endswith("hand 5 move 21"))
    path = tmp_path / "p.json"
    store.write_file(path, found)
    r = cli("puzzles", "--file", str(path), "--id", p.id, input="9\nhelp\n0-0\n")
    assert r.returncode == 0, r.stderr
    assert "No move 9" in r.stdout and "Commands:" in r.stdout
    assert "Solved!" in r.stdout and "Solved 1 of 1" in r.stdout
    # what is drawn is the seat's own: its tiles, never another seat's
    assert "Your hand: [2|0]*[0|0]*" in r.stdout
    r = cli("puzzles", "--file", str(path), "--id", p.id, input="2-0\n")
    assert "Not the best. 0-0 was better" in r.stdout and "Solved 0 of 1" in r.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["puzzles", "--theme", "nope"], "--theme must be one of"),
        (["puzzles", "--variant", "chess"], "--variant must be one of"),
        (["puzzles", "--file", "/nonexistent.json"], "cannot read /nonexistent.json"),
        (["puzzles", "--id", "zzz"], "no puzzle 'zzz'"),
        (["puzzles", "mine", "/nonexistent.json", "--out", "/tmp/x.json"], "cannot read /nonexistent.json"),
    ],
)
def test_puzzle_command_errors_are_one_line(args, message):
    r = cli(*args)
    assert r.returncode == 2
    assert message in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_mine_command_writes_a_puzzle_file(tmp_path, mined):
    # the recorded game's first hand alone (a record of a game not over): its puzzles are the
    # first hand's puzzles of the whole game
    doc = json.loads(FIXTURE.read_text())
    doc["hands"] = doc["hands"][:1]
    one = tmp_path / "one.record.json"
    one.write_text(json.dumps(doc))
    out = tmp_path / "found.json"
    r = cli("puzzles", "mine", str(one), "--out", str(out), "--simulations", "40")
    assert r.returncode == 0, r.stderr
    got = store.read_file(out)
    expected = [p for p in mined[0] if " hand 1 move " in p.source]
    assert [p.steps for p in got] == [p.steps for p in expected] and got
    assert f"{len(got)} puzzles from" in r.stdout


def _no_peeking(p: Puzzle) -> None:
    """Every answer to every step of ``p`` names only tiles its seat could see when it is told:
    a wrong answer (and the last step's) from that step's view; a right answer that goes on
    tells the others' replies, so from the next step's view, where they are on the table."""
    v = make_variant(p.variant, p.options)
    for k, step in enumerate(p.steps):
        for tok in choices(v, step.view):
            verdict = judge(p, k, tok)
            told = p.steps[k + 1].view if verdict.correct and not verdict.done else step.view
            leaked = tiles_named(json.dumps(verdict.to_dict()), v.n_tiles) & unseen_set(told)
            assert not leaked, (p.id, k, tok, [NAME[t] for t in leaked], verdict.to_dict())
            if verdict.correct and not verdict.done:
                assert verdict.replies == step.replies  # the stored line, as the seat saw it


@pytest.mark.parametrize("variant", ENGINE_VARIANTS)
def test_no_verdict_names_a_tile_the_seat_could_not_see(variant):
    # every shipped puzzle of the game, every answer to every step (all games: about 2 s)
    for p in store.load(variant):
        _no_peeking(p)


def _draw_line() -> Puzzle:
    """A shipped Draw puzzle whose line goes on after the others drew from the boneyard."""
    return next(p for p in store.load("draw") if len(p.steps) > 1 and "draw" in p.steps[0].replies)


def test_a_line_with_an_opponents_draw_tells_it_drew_never_its_tile(tmp_path):
    p = _draw_line()
    _no_peeking(p)
    # a puzzle file whose line names what the others drew (a file written by another
    # miner, or altered): nothing told comes from the stored line, only from the views
    view1 = p.steps[1].view
    hidden = sorted(unseen_set(view1))
    named = tuple(
        NAME[hidden[i % len(hidden)]] if r == "draw" else r for i, r in enumerate(p.steps[0].replies)
    )
    altered = Puzzle(
        p.id,
        p.variant,
        p.options,
        p.seat,
        p.themes,
        p.rating,
        (dataclasses.replace(p.steps[0], replies=named), *p.steps[1:]),
        p.source,
    )
    verdict = judge(altered, 0, p.steps[0].solution)
    assert verdict.replies == p.steps[0].replies and "draw" in verdict.replies
    assert not tiles_named(json.dumps(verdict.to_dict()), 28) & unseen_set(view1)
    # and in the terminal: "seat N drew", never a tile the seat does not hold
    path = tmp_path / "p.json"
    store.write_file(path, [altered])
    r = cli("puzzles", "--file", str(path), "--id", p.id, input=p.steps[0].solution + "\nquit\n")
    assert r.returncode == 0, r.stderr
    then = next(line for line in r.stdout.splitlines() if line.startswith("Then: "))
    assert "drew" in then and not tiles_named(then, 28) & unseen_set(view1), then


def test_the_daily_puzzle_in_the_terminal():
    today = store.daily(datetime.date.today())
    r = cli("puzzles", "--daily", input="quit\n")
    assert r.returncode == 0, r.stderr
    assert f"Puzzle {today.id}" in r.stdout and "Solved 0 of 0" in r.stdout
