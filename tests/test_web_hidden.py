"""Hidden information, the headline promise of `bonepile serve`: every message a seat's
socket gets names no tile hidden from that seat at that moment, and every message a
spectator's socket (no seat token) gets names no tile of any hand before that hand is over.

Whole games are played by SeatClients (one per seat, keeping every message).  The ground
truth is the server's own Game and stored actions: for each state, the position at its
sequence number is rebuilt, and the tiles of other seats, the boneyard and (in blind games)
the seat's face-down row are the hidden ones.  Every tile name anywhere in a message is
checked against them; no message may carry a deal, a seed, a token hash or the boneyard as a
list."""

from __future__ import annotations

import asyncio
import json

import pytest

from bonepile.engine.tiles import NAME
from bonepile.web.client import SeatClient
from webutil import (
    InProcess,
    bad_keys,
    check_messages,
    hidden_from,
    run,
    secret_free_text,
    tiles_in,
    timeline_of,
)

# (variant, players, options): 24 games
GAMES = [
    ("draw", 4, {}),
    ("draw", 2, {}),
    ("draw", 3, {"lead_rule": "winner"}),
    ("block", 4, {}),
    ("block", 2, {"teams": False}),
    ("block", 4, {"teams": True}),
    ("passing", 4, {}),
    ("passing", 3, {"draw_ends_turn": False}),
    ("passing", 2, {}),
    ("cinque", 4, {}),
    ("cinque", 4, {"spinner_any_order": True, "target": 60}),
    ("cinque", 4, {"target": 40}),
    ("quinientos", 4, {"target": 150}),
    ("quinientos", 4, {"target": 250, "lead_rotation": "winning_team_chooses"}),
    ("quinientos", 4, {"target": 100, "lead_rotation": "winning_team_chooses", "first_lead": "any"}),
    ("blind-hugie", 4, {}),
    ("blind-hugie", 3, {"tiles_per_turn": "while_playable"}),
    ("blind-hugie", 2, {"unplayable_doubles_face_up": True}),
    ("blind-hugie", 3, {"deal": "full", "full_deal_starter": True}),
    ("billitonnen", 4, {}),
    ("billitonnen", 3, {}),
    ("billitonnen", 5, {"blocked_winner": "fewest_tiles"}),
    ("draw", 4, {"teams": True, "boneyard_reserve": 2}),
    ("block", 3, {}),
]


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("hidden") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000, rate=10000) as s:
        yield s


class Watcher:
    """A spectator's socket (no token): keeps every message until it sees the game over."""

    def __init__(self, base_ws: str, table_id: str):
        self.url = f"{base_ws}/ws/tables/{table_id}"
        self.messages: list[dict] = []
        self.texts: list[str] = []
        self.here = asyncio.Event()  # the first state came: the socket is counted

    async def watch(self, timeout: float = 240) -> None:
        import websockets

        async with websockets.connect(self.url, max_size=1 << 22, open_timeout=30, ping_interval=None) as ws:
            while True:
                text = await asyncio.wait_for(ws.recv(), timeout)
                msg = json.loads(text)
                self.texts.append(text)
                self.messages.append(msg)
                if msg["type"] == "state":
                    self.here.set()
                    if msg["phase"] == "over":
                        return


async def _watched(watchers: list[Watcher], players):
    """Run the watchers, and the players once every watcher is counted at its table."""
    tasks = [asyncio.create_task(w.watch()) for w in watchers]
    await asyncio.gather(*(w.here.wait() for w in watchers))
    out = await players
    await asyncio.gather(*tasks)
    return out


async def _play(srv, tables: list[tuple[str, list[str]]], seed: int) -> list[list[SeatClient]]:
    clients = [
        [
            SeatClient(srv.ws, tid, tok, seed=seed + 10 * k + i, keep=True, retry_errors=False)
            for i, tok in enumerate(toks)
        ]
        for k, (tid, toks) in enumerate(tables)
    ]
    await asyncio.gather(*(c.play(timeout=240) for row in clients for c in row))
    return clients


def _check_watcher(w: Watcher, t, timeline) -> int:
    """The spectator saw the game to its end, every finished hand revealed as it ended, and
    no tile of any hand before that hand was over."""
    assert w.messages[-1]["phase"] == "over"
    assert not [m for m in w.messages if m["type"] == "error"]
    states = [m for m in w.messages if m["type"] == "state"]
    assert all(m["you"] is None and m["table"]["watching"] >= 1 for m in states)
    views = [m["view"] for m in states if m["view"] is not None]
    assert all(
        v["seat"] is None and v["hand"] == [] and v["legal"] == [] and v["peek"] is None for v in views
    )
    ended = {v["hand_number"]: v["revealed"] for v in views if v["over"]}
    assert ended, "the spectator saw no hand end"
    for h in t.game.hands:
        if h.number in ended:
            assert ended[h.number] == [[NAME[x] for x in h.held(s)] for s in range(h.n)]
    for text in w.texts:
        assert secret_free_text(text) and "token" not in text.replace("token_hash", "")
    return check_messages(w.messages, None, timeline)


def _check_table(srv, tid: str, clients: dict[int, SeatClient], watcher: Watcher | None = None) -> int:
    t = srv.server.tables[tid]
    assert t.game.over and t.status == "over"
    timeline = timeline_of(srv.server, tid)
    checked = 0
    if watcher is not None:
        watched = _check_watcher(watcher, t, timeline)
        assert watched > 0
        checked += watched
    for seat, c in clients.items():
        assert c.messages and c.messages[-1]["phase"] == "over"
        # both players of the winning side may pick the leader: the second one is refused
        assert all(e["message"] == "no leader is to be chosen now" for e in c.errors), c.errors[:3]
        checked += check_messages(c.messages, seat, timeline)
        for text in c.texts:  # the text itself, not just what JSON makes of it
            assert secret_free_text(text)
    return checked


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(4))
def test_no_seat_is_sent_a_tile_hidden_from_it(srv, batch):
    games = GAMES[batch::4]
    tables = [srv.people_table(v, n, opts) for v, n, opts in games]
    watchers = [Watcher(srv.ws, tid) for tid, _toks in tables]
    clients = run(_watched(watchers, _play(srv, tables, 100 * batch)), timeout=280)
    total = 0
    for (tid, _toks), row, (variant, _n, opts), w in zip(tables, clients, games, watchers):
        got = _check_table(srv, tid, dict(enumerate(row)), w)
        assert got > 0, variant
        total += got
        if opts.get("lead_rotation") == "winning_team_chooses" and len(srv.server.tables[tid].game.hands) > 1:
            # the choosers were shown their new tiles (and those were checked too)
            assert any(
                m["type"] == "state" and m["pending"] and "hand" in m["pending"]
                for c in row
                for m in c.messages
            )
    assert total > 1000


@pytest.mark.slow
def test_with_three_server_bots_and_one_person(srv):
    for variant, opts in [
        ("cinque", {"target": 60}),
        ("blind-hugie", {}),
        ("quinientos", {"target": 100, "lead_rotation": "winning_team_chooses"}),
    ]:
        made = srv.create(
            {
                "variant": variant,
                "players": 4,
                "options": opts,
                "seats": [
                    {"kind": "bot", "level": "random"},
                    {"kind": "bot", "level": "greedy"},
                    {"kind": "human"},
                    {"kind": "bot", "level": "expert"},
                ],
            }
        )
        assert made["seat"] == 2
        c = SeatClient(srv.ws, made["id"], made["token"], seed=1, keep=True, retry_errors=False)
        w = Watcher(srv.ws, made["id"])
        run(_watched([w], c.play(timeout=240)), timeout=280)
        assert _check_table(srv, made["id"], {2: c}, w) > 0


def test_the_checker_catches_a_leak():
    """The checker itself: a state naming another seat's tile, or carrying a deal, fails."""
    from bonepile.engine import Game
    from bonepile.engine.tiles import NAME
    from bonepile.web.protocol import view_json
    from webutil import Timeline

    g = Game.new("draw", {"players": 2}, seed=4)
    g.apply(g.legal_moves()[0])
    timeline = Timeline(g, [("move", g.token(g.hand.log[0][1]), g.hand.log[0][0])])
    view = view_json(g.view(0))
    state = {
        "type": "state",
        "seq": 1,
        "ack": None,
        "you": 0,
        "phase": "play",
        "pending": None,
        "view": view,
        "pad": [],
        "ready": [],
        "table": {},
    }
    assert check_messages([state], 0, timeline) > 0
    other = NAME[g.hand.held(1)[0]]
    assert other in hidden_from(g.hand, 0) and other not in tiles_in(view)
    leaky = dict(state, view=dict(view, hand=view["hand"] + [other]))
    with pytest.raises(AssertionError, match="hidden tiles"):
        check_messages([leaky], 0, timeline)
    boneyard = NAME[g.hand.boneyard[-1]]
    with pytest.raises(AssertionError, match="hidden tiles"):
        check_messages([state, {"type": "error", "message": f"illegal move '{boneyard}@L'"}], 0, timeline)
    assert bad_keys({"a": {"deal": [["6-6"]]}, "boneyard": 3}) == ["$.a.deal"]
    assert bad_keys({"view": {"boneyard": ["6-6"]}}) == ["$.view.boneyard"]
    with pytest.raises(AssertionError, match="forbidden"):
        check_messages([dict(state, seed=5)], 0, timeline)
    # a spectator: the public view passes; any seat's own tile in it fails
    from bonepile.web.protocol import public_view_json

    public = public_view_json(g.public_view())
    watched = dict(state, you=None, view=public)
    assert check_messages([watched], None, timeline) > 0
    for seat in (0, 1):
        own = NAME[g.hand.held(seat)[0]]
        assert own not in tiles_in(public)
        with pytest.raises(AssertionError, match="hidden tiles"):
            check_messages([dict(watched, view=dict(public, hand=[own]))], None, timeline)
    with pytest.raises(AssertionError):  # a seat's view sent to a spectator
        check_messages([dict(state, you=None)], None, timeline)
