"""Sealed deals (RECORD.md, "Extensions"): the commitment scheme, the record's "deals" object,
and `bonepile verify` catching a changed deal, seed or salt, naming the hand."""

from __future__ import annotations

import hashlib
import json

import pytest

from bonepile.cli.random import random_game
from bonepile.engine import Game, RecordError
from bonepile.engine import record as rec
from bonepile.engine.commit import Seal, check, commitment, new_salt, read_seal, seeded_salt
from bonepile.engine.deals import hand_rng
from bonepile.engine.hand import deal_attempt
from bonepile.engine.verify import verify
from support import EXAMPLES, cli, subset_mismatch

SEALED = sorted((EXAMPLES / "sealed").glob("*.record.json"))
SALT = "0123456789abcdef0123456789abcdef"


def sealed_game(variant="draw", options=None, seed=11):
    game = random_game(variant, options or {}, seed)
    game.seal = Seal.make(game.seed, seeded_salt(seed))
    return game


def sealed_doc(variant="draw", options=None, seed=11):
    return json.loads(rec.dumps(sealed_game(variant, options, seed).record()))


# ------------------------------------------------------------------ the scheme


def test_commitment_is_the_sha256_of_the_documented_bytes():
    # what an outside tool computes with any SHA-256 (RECORD.md, "Extensions")
    text = b"bonepile-deals/sha256-v1:42:" + SALT.encode()
    assert commitment(42, SALT) == hashlib.sha256(text).hexdigest()
    assert check(42, SALT, commitment(42, SALT))
    assert not check(43, SALT, commitment(42, SALT))
    assert not check(42, SALT[:-1] + "0", commitment(42, SALT))


def test_seed_and_salt_out_of_range_are_refused_not_hashed():
    for seed, salt in [
        (-1, SALT),
        (1 << 64, SALT),
        (True, SALT),
        (1, "ABCDEF" * 6),
        (1, "ab"),
        (1, SALT + ":"),
    ]:
        with pytest.raises(ValueError):
            commitment(seed, salt)  # type: ignore[arg-type]
        assert not check(seed, salt, "0" * 64)  # type: ignore[arg-type]


def test_fresh_salts_are_32_hex_digits_and_differ():
    salts = {new_salt() for _ in range(20)}
    assert len(salts) == 20 and all(len(s) == 32 and int(s, 16) >= 0 for s in salts)


def test_the_seed_is_revealed_only_once_the_game_is_over():
    game = Game.new("draw", {"players": 3}, seed=5)
    game.seal = Seal.make(5, SALT)
    live = game.record()
    assert live["deals"] == {"scheme": "sha256-v1", "commitment": commitment(5, SALT)}
    finished = sealed_game()
    assert finished.over and finished.record()["deals"]["seed"] == 11


# ------------------------------------------------------------------ the record's "deals"


@pytest.mark.parametrize(
    "deals,field",
    [
        ("x", '"deals"'),
        ({"commitment": "0" * 64}, "deals.scheme"),
        ({"scheme": "sha256-v1", "commitment": "0" * 63}, "deals.commitment"),
        ({"scheme": "sha256-v1", "commitment": "A" * 64}, "deals.commitment"),
        ({"scheme": "sha256-v1", "commitment": "0" * 64, "seed": -3, "salt": SALT}, "deals.seed"),
        ({"scheme": "sha256-v1", "commitment": "0" * 64, "seed": 3, "salt": "xyz"}, "deals.salt"),
        ({"scheme": "sha256-v1", "commitment": "0" * 64, "seed": 3}, "deals.salt"),
    ],
)
def test_a_malformed_deals_object_is_a_record_error_naming_the_field(deals, field):
    doc = sealed_doc()
    doc["deals"] = deals
    with pytest.raises(RecordError, match=field.replace(".", r"\.")):
        rec.replay(doc)
    r = cli("replay", "-", "--json", input=json.dumps(doc))
    assert r.returncode == 2 and field in json.loads(r.stdout)["error"]["message"]


def test_records_with_and_without_deals_replay_alike():
    doc = sealed_doc()
    plain = {k: v for k, v in doc.items() if k != "deals"}
    assert rec.replay(doc).result() == rec.replay(plain).result()
    assert read_seal(plain) is None
    # written back as read
    assert rec.replay(doc).record()["deals"] == doc["deals"]


# ------------------------------------------------------------------ verify


@pytest.mark.parametrize("path", SEALED, ids=[p.name.split(".")[0] for p in SEALED])
def test_every_sealed_example_verifies_and_replays_to_its_expected_output(path):
    r = cli("verify", str(path), "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["status"] == "verified" and out["commitment_ok"] and out["hands"] == out["hands_ok"] > 0
    expected = json.loads(path.with_name(path.name.replace(".record.json", ".expected.json")).read_text())
    assert subset_mismatch(expected, json.loads(cli("replay", str(path), "--json").stdout)) is None


def test_an_unsealed_record_says_there_is_nothing_to_verify():
    # not wrong, merely unsealed: a status of its own (3), said in words, and in --help
    r = cli("verify", str(EXAMPLES / "block.record.json"))
    assert r.returncode == 3 and "no commitment: nothing to verify" in r.stdout
    assert "the record is valid, only not sealed" in r.stdout and r.stderr == ""
    j = cli("verify", str(EXAMPLES / "block.record.json"), "--json")
    assert j.returncode == 3 and json.loads(j.stdout)["status"] == "none"
    assert "3 nothing to verify" in cli("verify", "--help").stdout


def test_with_several_records_the_status_is_the_worst_one_s(tmp_path):
    unsealed = str(EXAMPLES / "block.record.json")
    good = sealed_doc()
    changed = sealed_doc()
    changed["deals"]["salt"] = "0" * 32
    files = {}
    for name, doc in (("good", good), ("changed", changed)):
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(json.dumps(doc))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert cli("verify", str(files["good"])).returncode == 0
    assert cli("verify", str(files["good"]), unsealed).returncode == 3
    assert cli("verify", unsealed, str(files["changed"]), str(files["good"])).returncode == 1
    assert cli("verify", str(files["changed"]), str(bad), unsealed).returncode == 2


def test_a_sealed_but_unrevealed_record_cannot_be_checked_yet():
    doc = sealed_doc()
    del doc["deals"]["seed"], doc["deals"]["salt"]
    r = cli("verify", "-", input=json.dumps(doc))
    assert r.returncode == 3 and "not revealed yet" in r.stdout and "once the game is over" in r.stdout


def test_a_tile_swapped_between_seats_is_caught_naming_hand_seat_and_tile():
    doc = sealed_doc("block", {"players": 4}, seed=21)
    assert len(doc["hands"]) >= 2
    # hand 2 with one tile swapped between seats 0 and 2, its moves cut so that the record stays
    # valid (a record's moves are checked by replay; only the deal check can catch the swap)
    doc["hands"] = doc["hands"][:2]
    hand = doc["hands"][1]
    hand["moves"] = []
    a, b = hand["deal"][0][3], hand["deal"][2][5]
    hand["deal"][0][3], hand["deal"][2][5] = b, a
    rec.replay(doc)
    r = cli("verify", "-", input=json.dumps(doc))
    assert r.returncode == 1
    assert f"hand 2, seat 0: the record deals {b} where the seed deals {a}" in r.stdout
    assert f"hand 2, seat 2: the record deals {a} where the seed deals {b}" in r.stdout
    assert "matches the revealed seed" in r.stdout and "1 of 2 hands" in r.stdout
    assert r.stdout.rstrip().endswith("NOT verified")
    # the same deal, tiles in another order within a hand, is the same deal
    doc["hands"][1]["deal"][0][3], doc["hands"][1]["deal"][2][5] = a, b
    doc["hands"][1]["deal"][0].reverse()
    assert cli("verify", "-", input=json.dumps(doc)).returncode == 0


def test_a_tile_swapped_in_a_played_hand_is_named_even_though_the_moves_then_break_the_rules():
    doc = sealed_doc("draw", {"players": 2}, seed=12)
    assert len(doc["hands"]) >= 3
    hand = doc["hands"][1]
    first = hand["moves"][0].split("@")[0]  # the leader's first tile: move it to the other seat
    leader = next(s for s, row in enumerate(hand["deal"]) if first in row)
    other = 1 - leader
    i = hand["deal"][leader].index(first)
    hand["deal"][leader][i], hand["deal"][other][0] = hand["deal"][other][0], first
    with pytest.raises(RecordError):
        rec.replay(doc)
    r = cli("verify", "-", "--json", input=json.dumps(doc))
    out = json.loads(r.stdout)
    assert r.returncode == 1 and out["status"] == "mismatch" and out["commitment_ok"]
    assert {(f["hand"], f["seat"]) for f in out["findings"]} == {(2, 0), (2, 1)}
    assert out["record_error"].startswith("hand 2, move ") and out["hands_ok"] == 1
    # a record that breaks a rule with the seed's own deals: the record error stands
    doc = sealed_doc("draw", {"players": 2}, seed=12)
    doc["hands"][1]["moves"][0] = "pass"
    r = cli("verify", "-", input=json.dumps(doc))
    assert r.returncode == 2 and r.stderr.startswith("record error: hand 2, move 1")


def test_a_swapped_tile_in_a_blind_row_is_caught_with_its_place():
    doc = sealed_doc("blind-hugie", {"players": 2}, seed=4)
    h = doc["hands"][0]
    h["moves"] = []
    doc["hands"] = [h]
    h["deal"][1][0], h["deal"][1][1] = h["deal"][1][1], h["deal"][1][0]  # the order is the row
    v = verify(doc)
    assert v.status == "mismatch" and v.commitment_ok
    assert [(f.hand, f.seat, f.position) for f in v.findings] == [(1, 1, 1), (1, 1, 2)]


def test_a_changed_boneyard_order_is_caught_with_its_place():
    doc = sealed_doc("draw", {"players": 2}, seed=9)
    h = doc["hands"][0]
    h["moves"] = []
    doc["hands"] = [h]
    h["boneyard"][-1], h["boneyard"][-2] = h["boneyard"][-2], h["boneyard"][-1]
    v = verify(doc)
    n = len(h["boneyard"])
    assert v.status == "mismatch"
    assert [(f.hand, f.seat, f.position) for f in v.findings] == [(1, None, n - 1), (1, None, n)]


def test_a_changed_seed_is_caught():
    doc = sealed_doc()
    doc["deals"]["seed"] += 1
    r = cli("verify", "-", "--json", input=json.dumps(doc))
    out = json.loads(r.stdout)
    assert r.returncode == 1 and out["status"] == "mismatch" and out["commitment_ok"] is False
    assert out["findings"] and out["findings"][0]["hand"] == 1  # the other seed deals other tiles


def test_a_changed_salt_is_caught_by_the_commitment_alone():
    doc = sealed_doc()
    doc["deals"]["salt"] = SALT
    r = cli("verify", "-", input=json.dumps(doc))
    assert r.returncode == 1 and "does NOT match" in r.stdout
    out = json.loads(cli("verify", "-", "--json", input=json.dumps(doc)).stdout)
    assert out["commitment_ok"] is False and out["findings"] == [] and out["hands_ok"] == out["hands"]


@pytest.mark.parametrize(
    "variant,options", [("draw", {"players": 3}), ("quinientos", {}), ("blind-hugie", {"players": 2})]
)
def test_a_record_that_starts_later_is_checked_with_the_game_s_hand_numbers(variant, options):
    game = sealed_game(variant, options, seed=31)
    doc = json.loads(rec.dumps(game.record()))
    assert len(doc["hands"]) >= 3, "pick a seed with a longer game"
    totals = game.result()["hands"][1]["totals"]
    cut = dict(doc, start={"hand": 3, "totals": totals}, hands=doc["hands"][2:])
    cut["hands"][0]["leader"] = game.hands[2].leader
    v = verify(cut)
    assert v.ok and v.hands == len(doc["hands"]) - 2, v.lines()
    # the same hands read as hands 4, 5... are not what the seed deals
    bad = verify(dict(cut, start={"hand": 4, "totals": totals}))
    assert not bad.ok and bad.findings[0].hand == 1 and bad.findings[0].number == 4
    assert bad.findings[0].message.startswith("hand 1 (hand 4 of the game), ")


def test_a_redealt_hand_verifies_and_its_first_shuffle_does_not():
    # a seed whose first shuffle of hand 1 deals no double: the rules redeal it
    opts = {"players": 2, "no_double_lead": "redeal"}
    seed = next(s for s in range(5000) if _no_double_first(s, opts))
    game = Game.new("block", opts, seed=seed)
    game.seal = Seal.make(seed, SALT)
    doc = game.record(reveal=True)
    assert verify(doc).ok
    deal, bone, _ = deal_attempt(game.variant, hand_rng(seed, 1))
    from bonepile.engine.tiles import NAME

    doc["hands"][0]["deal"] = [[NAME[t] for t in row] for row in deal]
    doc["hands"][0]["boneyard"] = [NAME[t] for t in bone]
    with pytest.raises(RecordError, match="redealt"):
        verify(doc)


def _no_double_first(seed, opts):
    from bonepile.engine import make_variant
    from bonepile.engine.tiles import IS_DOUBLE

    deal, _, _ = deal_attempt(make_variant("block", opts), hand_rng(seed, 1))
    return not any(IS_DOUBLE[t] for row in deal for t in row)


def test_cli_errors_are_one_line_without_traceback():
    r = cli("verify", "/no/such/record.json")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "cannot read" in r.stderr
    r = cli("verify", "-", input="{")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "not JSON" in r.stderr


# ------------------------------------------------------------------ every record the project writes


def test_arena_and_selfplay_records_are_sealed_revealed_and_verify():
    from bonepile.arena.runner import ArenaSpec, play_deal_set

    spec = ArenaSpec("draw", {"players": 2, "target": 30}, ("random", "greedy"), hands=1, seed=5)
    docs = [rec.loads(g.record) for g in play_deal_set(spec, 3)]  # self-play writes these same records
    assert len(docs) == 2 and docs[0]["deals"]["commitment"] == docs[1]["deals"]["commitment"]
    for doc in docs:
        v = verify(doc)
        assert v.ok and v.hands == len(doc["hands"]), v.lines()


def test_the_terminal_game_s_record_verifies_even_when_left_mid_game(tmp_path):
    import io
    import random

    from rich.console import Console

    from bonepile.cli.play import PlaySession

    path = tmp_path / "t.record.json"
    console = Console(file=io.StringIO(), width=200, color_system=None)
    s = PlaySession("draw", {"players": 2}, 0, ["you", "random"], 77, str(path), console)
    rng = random.Random(1)
    for _ in range(12):  # a few moves of the first hand, then leave
        if not s.game.hands:
            s.game.next_hand()
        s.game.apply(rng.choice(s.game.legal_moves()))
    s.save()
    doc = json.loads(path.read_text())
    assert doc["deals"]["seed"] == 77 and verify(doc).ok
