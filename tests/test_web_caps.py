"""Issue 27, item 9: what one anonymous client can make is bounded.  Tables of bots only per
client address (429 ``bot_tables_many``), and such a table nobody watches closes after
``bots_unwatched`` seconds; a profile's mutes (409 ``mutes_full``).  Profiles made per
address and link codes are in test_web_profile_devices.py."""

from __future__ import annotations

import asyncio

from bonepile.web.play import moderation
from webutil import InProcess, Sock, run, wait_until

SLOW_BOTS = {
    "variant": "draw",
    "players": 2,
    "options": {"target": 500},
    "seats": [{"kind": "bot", "level": "random"}] * 2,
}


def test_tables_of_bots_only_are_capped_per_address(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", bot_delay=0.5, address_bot_tables=2, bots_unwatched=1000) as s:
        first = [s.create(SLOW_BOTS)["id"] for _ in range(2)]
        r = s.post("/api/tables", SLOW_BOTS)
        assert r.status_code == 429
        assert r.json()["code"] == "bot_tables_many" and r.json()["params"] == {"n": 2}
        assert len(s.server.tables) == 2  # nothing made
        # a table with a person's seat is not one of them
        people = {"variant": "block", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]}
        assert s.post("/api/tables", people).status_code == 200
        # once one of them closes, another may be made
        t = s.server.tables[first[0]]
        asyncio.run_coroutine_threadsafe(s.server.expire(t), t.task.get_loop()).result(30)
        assert s.post("/api/tables", SLOW_BOTS).status_code == 200


def test_a_table_of_bots_only_that_nobody_watches_closes(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", bot_delay=0.2, bots_unwatched=1.0) as s:
        watched = s.create(SLOW_BOTS)["id"]
        alone = s.create(SLOW_BOTS)["id"]

        async def go():
            eye = await Sock.open(s.ws, watched, None)
            await eye.state()
            wait_until(lambda: alone not in s.server.tables, 30, "the unwatched table to close")
            assert s.server.store.load(alone).status == "over"  # stored as over, no winner
            assert s.server.tables[watched].status == "playing"  # watched: it plays on
            await eye.close()
            await asyncio.sleep(0)

        run(go(), 60)
        wait_until(lambda: watched not in s.server.tables, 30, "the table to close once nobody watches")
        assert s.server.store.load(watched).status == "over"


def test_a_profiles_mutes_are_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(moderation, "MAX_MUTES", 2)
    with InProcess(f"sqlite:///{tmp_path}/db") as s, s.client() as c:
        me, *others = [c.post("/api/profiles", json={"name": f"P{i}"}).json() for i in range(4)]
        key = {"Authorization": f"Bearer {me['key']}"}
        assert c.put(f"/api/profiles/me/mutes/{others[0]['id']}", headers=key).status_code == 200
        assert c.put(f"/api/profiles/me/mutes/{others[1]['id']}", headers=key).status_code == 200
        assert c.put(f"/api/profiles/me/mutes/{others[1]['id']}", headers=key).status_code == 200  # again
        r = c.put(f"/api/profiles/me/mutes/{others[2]['id']}", headers=key)
        assert r.status_code == 409 and r.json()["code"] == "mutes_full" and r.json()["params"] == {"n": 2}
        assert len(c.get("/api/profiles/me/mutes", headers=key).json()["muted"]) == 2
        c.delete(f"/api/profiles/me/mutes/{others[0]['id']}", headers=key)
        assert c.put(f"/api/profiles/me/mutes/{others[2]['id']}", headers=key).status_code == 200
