"""How to play, as data: the picker lists every game, each game has its page, and every
worked example is a legal position whose numbers are the engine's (checked here again from the
tiles shown, not from the engine's word), with words for it in every language."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from fastapi.testclient import TestClient

from bonepile.engine.variant import ENGINE_VARIANTS, make_variant
from bonepile.web.app import create_app
from bonepile.web.words import howto
from bonepile.web.words.i18n import LANGUAGES, catalogue

PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("howto") / "db.sqlite"
    with TestClient(create_app(f"sqlite:///{db}")) as c:
        yield c


def _pips(name: str) -> tuple[int, int]:
    a, b = name.split("-")
    return int(a), int(b)


def _eval(formula: str) -> int:
    """The value of a sum written on a page ("12 + (30 − 15)")."""
    assert re.fullmatch(r"[0-9 +()−]+", formula), formula
    return eval(formula.replace("−", "-"))  # digits, signs and brackets only (checked above)


def _check_layout(board: dict) -> list[str]:
    """The layout is a legal table: every tile once, each tile touching the one before it
    with the same number, the open ends as the arms' outer numbers.  Returns the tiles."""
    first = board["first"]
    tiles = [first]
    a, b = _pips(first)
    left = board["first_left"]
    right = b if left == a else a
    spinner = board["spinner"]
    start = {"L": left, "R": right}
    if board["spinner_at"] == ["C", 0]:
        assert a == b == spinner
        start = {arm: spinner for arm in "LRUD"}
    if board.get("kind") == "trains":  # every train starts at the hub double, the first tile
        assert a == b
        start = {arm: a for arm in board["arms"]}
    if board.get("kind") == "foot":  # an arm starts at the centre double, a toe at its own double
        assert a == b
        parents = board.get("parents") or {}
        arms = board["arms"]
        start = {
            arm: arms[parents[arm][0]][parents[arm][1]]["outer"] if parents.get(arm) else a for arm in arms
        }
        for toe, (parent, i) in ((k, v) for k, v in parents.items() if v):
            double = arms[parent][i]
            assert double["inner"] == double["outer"], (toe, double)  # toes grow from doubles only
    for arm, placed in board["arms"].items():
        pip = start[arm] if arm in start else spinner
        for p in placed:
            assert p["inner"] == pip, (arm, p)
            assert sorted(_pips(p["tile"])) == sorted((p["inner"], p["outer"]))
            pip = p["outer"]
            tiles.append(p["tile"])
        if arm in board["ends"]:
            assert board["ends"][arm] == pip, arm
    assert len(set(tiles)) == len(tiles), Counter(tiles).most_common(2)
    return tiles


def _row_pips(row: dict) -> int:
    return sum(sum(_pips(x["tile"])) for x in row["tiles"])


# ---------------------------------------------------------------------------- routes
def test_the_picker_lists_every_game(client):
    res = client.get("/api/howto")
    assert res.status_code == 200
    games = res.json()["games"]
    assert [g["name"] for g in games] == list(ENGINE_VARIANTS) and len(games) >= 7
    assert set(howto.PAGES) == set(ENGINE_VARIANTS)  # a page for every game
    for g in games:
        assert g["default_players"] in g["players"]
    page = client.get("/how-to-play")
    assert page.status_code == 200 and 'src="/static/howto.js"' in page.text


@pytest.mark.parametrize("game", ENGINE_VARIANTS)
def test_each_game_has_its_page(client, game):
    page = client.get(f"/how-to-play/{game}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    data = client.get(f"/api/howto/{game}").json()
    assert data["name"] == game and data["examples"]


def test_an_unknown_game_is_a_clear_404(client):
    assert client.get("/how-to-play/chess").status_code == 404
    res = client.get("/api/howto/chess")
    assert res.status_code == 404
    assert "chess" in res.json()["error"]


def test_the_headers_link_to_how_to_play(client):
    for page in ("/", "/replay", "/t/x"):
        assert 'href="/how-to-play"' in client.get(page).text, page


# ---------------------------------------------------------------------------- the examples
@pytest.mark.parametrize("game", ENGINE_VARIANTS)
def test_every_example_is_a_legal_table(game):
    for ex in howto.examples(game):
        tiles = _check_layout(ex["board"])
        shown = [x["tile"] for r in ex["rows"] for x in r["tiles"] if x["tile"]]
        # a tile on the table is in nobody's hand (a row may show the same tile twice: before
        # and after a turn)
        if ex["id"] not in ("flip",):
            assert not set(shown) & set(tiles), ex["id"]
        for arm in ex["marks"]:
            assert arm in ex["board"]["ends"]
        values = ex["values"]
        if "formula" in values and "points" in values:
            assert _eval(values["formula"]) == values["points"], (game, ex["id"])


def test_quinientos_bonuses_add_up():
    capicu, chuchazo, blocked = howto.examples("quinientos")
    for ex in (capicu, chuchazo):
        v = ex["values"]
        assert v["bonus"] == 100 and v["extra"] == 100  # the first hand, +100
        assert v["total"] == v["base"] + v["bonus"] + v["extra"]
        opponents = [r for r in ex["rows"] if r["label"] == "howto.row.player_team"]
        assert len(opponents) == 2 and all(r["params"]["team"] != v["team"] for r in opponents)
        assert sum(_row_pips(r) for r in opponents) == v["base"]
        # the last tile fits the ends marked (both of them for a capicú)
        a, b = _pips(v["tile"])
        for arm in ex["marks"]:
            assert ex["board"]["ends"][arm] in (a, b)
    v = capicu["values"]
    assert {v["left"], v["right"]} <= set(_pips(v["tile"])) and capicu["marks"] == ["L", "R"]
    assert capicu["values"]["tile"].split("-")[0] != capicu["values"]["tile"].split("-")[1]
    assert chuchazo["values"]["tile"] == "0-0"
    v = blocked["values"]
    team = [r for r in blocked["rows"] if r["params"]["team"] == v["team"]]
    other = [r for r in blocked["rows"] if r["params"]["team"] != v["team"]]
    assert sum(map(_row_pips, team)) == v["low"] < v["high"] == sum(map(_row_pips, other)) == v["points"]
    # nobody holds a tile that fits either end
    ends = set(blocked["board"]["ends"].values())
    assert not any(set(_pips(x["tile"])) & ends for r in blocked["rows"] for x in r["tiles"])


def test_the_cinque_count_is_a_multiple_of_five_of_the_ends_shown():
    spinner, count = howto.examples("cinque")
    assert spinner["board"]["spinner"] is not None and set(spinner["board"]["arms"]) == set("LRUD")
    v = count["values"]
    board = count["board"]
    expected = sum(
        board["ends"][arm] * (2 if arm in board["double_ends"] else 1)
        for arm in board["arms"]
        if arm in board["ends"]
    )
    assert _eval(v["formula"]) == v["count"] == expected and v["count"] % 5 == 0
    assert count["last"] == v["tile"]


def test_drawing_until_a_tile_fits():
    ex = howto.examples("draw")[0]
    v = ex["values"]
    hand, drawn = ex["rows"]
    ends = {v["left"], v["right"]}
    assert not any(set(_pips(x["tile"])) & ends for x in hand["tiles"])
    assert [bool(set(_pips(x["tile"])) & ends) for x in drawn["tiles"]] == [False] * (v["drawn"] - 1) + [True]
    assert drawn["tiles"][-1]["tile"] == v["tile"] and drawn["tiles"][-1]["mark"]


def test_blocked_and_lowest_scores_follow_the_rules():
    for game in ("draw", "block", "passing", "blind-hugie"):
        for ex in howto.examples(game):
            if "low" not in ex["values"]:
                continue
            v = ex["values"]
            pips = [_row_pips(r) for r in ex["rows"]]
            assert pips == [r["params"]["pips"] for r in ex["rows"]]
            w = v["player"] - 1
            assert pips[w] == v["low"] == min(pips) and pips.count(min(pips)) == 1
            others = [p for i, p in enumerate(pips) if i != w]
            formula = make_variant(game, {}).formula
            want = sum(o - pips[w] for o in others) if formula == "each" else sum(others) - pips[w]
            assert v["points"] == want, game
            assert [r.get("won") for r in ex["rows"]] == [i == w for i in range(len(pips))]


def test_block_going_out_scores_every_pip_left():
    ex = howto.examples("block")[0]
    assert ex["values"]["points"] == sum(map(_row_pips, ex["rows"])) and len(ex["rows"]) == 3


def test_the_passing_game_turn_offers_three_choices():
    ex = howto.examples("passing")[0]
    v = ex["values"]
    (hand,) = ex["rows"]
    marked = [x["tile"] for x in hand["tiles"] if x["mark"]]
    assert marked == [v["tile"]] and set(_pips(v["tile"])) & {v["left"], v["right"]}
    assert v["drawable"] == v["boneyard"] - 2 > 0


def test_blind_hugie_flip_goes_to_the_back():
    ex = howto.examples("blind-hugie")[0]
    v = ex["values"]
    before, after = ex["rows"]
    assert before["tiles"][0] == {"tile": v["tile"], "mark": True}
    assert all(x["tile"] is None for x in before["tiles"][1:])
    assert after["tiles"][-1] == {"tile": None, "mark": True}  # face down again, at the back
    assert all(x == {"tile": None, "mark": False} for x in after["tiles"][:-1])
    assert len(after["tiles"]) == len(before["tiles"])
    assert not set(_pips(v["tile"])) & {v["left"], v["right"]}


def test_billitonnen_keeps_turning_while_tiles_fit():
    ex = howto.examples("billitonnen")[0]
    v = ex["values"]
    (row,) = ex["rows"]
    tiles = [_pips(x["tile"]) for x in row["tiles"]]
    assert len(tiles) == v["played"] + 1 >= 3 and row["tiles"][-1] == {"tile": v["tile"], "mark": True}
    # every way the tiles could have been laid: each fits an end in turn, the last none
    states = {(v["left"], v["right"])}
    for a, b in tiles[:-1]:
        nxt = set()
        for left, right in states:
            if left in (a, b):
                nxt.add((b if left == a else a, right))
            if right in (a, b):
                nxt.add((left, b if right == a else a))
        assert nxt, (a, b)
        states = nxt
    a, b = tiles[-1]
    assert a == b and any(a not in st for st in states)


def test_billitonnen_peek_decides_the_end():
    ex = howto.examples("billitonnen")[1]
    v = ex["values"]
    (row,) = ex["rows"]
    assert [x["tile"] for x in row["tiles"][:2]] == [v["tile"], v["next"]]
    assert all(x["tile"] is None for x in row["tiles"][2:])
    a, b = _pips(v["tile"])
    assert {v["left"], v["right"]} == {a, b} or {v["left"], v["right"]} <= {a, b}
    # placed on the end showing the other number, the tile leaves `end` open; the next fits it
    assert v["end"] in (a, b) and v["end"] in _pips(v["next"])
    other_end = b if v["end"] == a else a
    assert other_end not in _pips(v["next"])  # the other choice would have stopped the turn


def test_the_examples_are_the_same_every_time():
    first = {g: howto.examples(g) for g in ENGINE_VARIANTS}
    howto.examples.cache_clear()
    assert {g: howto.examples(g) for g in ENGINE_VARIANTS} == first


# ---------------------------------------------------------------------------- the words
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_and_example_has_words(lang):
    cat = catalogue(lang)
    for game in ENGINE_VARIANTS:
        for k in ("name", "where", "players", "length", "special", "intro.1"):
            assert cat.get(f"howto.{game}.{k}"), (lang, game, k)
        for part in ("deal", "turn", "end", "score"):
            assert cat.get(f"howto.{game}.{part}.1"), (lang, game, part)
        for ex in howto.examples(game):
            base = f"howto.{game}.ex.{ex['id']}"
            assert cat.get(f"{base}.title"), (lang, base)
            used = set(PLACEHOLDER.findall(cat[f"{base}.text"]))
            assert used and used <= set(ex["values"]), (lang, base, used - set(ex["values"]))
            for row in ex["rows"]:
                assert set(PLACEHOLDER.findall(cat[row["label"]])) <= set(row["params"]), (lang, row["label"])
    for part in ("deal", "turn", "end", "score"):
        assert cat.get(f"howto.part.{part}")
