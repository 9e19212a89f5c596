"""The devices of a profile (docs/PROTOCOL.md, "Profiles"): each device that plays as a
profile has its own key; the profile lists them (``GET /api/profiles/me/devices``) and signs
one out (``DELETE /api/profiles/me/devices/{id}``): a lost phone, or this shared computer.  A
device signed out is refused at once everywhere its key was used; nobody can list or remove
another profile's devices; every bad request changes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, update

from bonepile.web.store.database import profile_keys_t, profile_links_t, profiles_t
from test_web_browser import ARTIFACTS, browser  # noqa: F401  (the fixture sized uses)
from webutil import InProcess

pytest_plugins = ["pages"]  # the sized page fixture

BOTS = [{"kind": "human"}, {"kind": "bot", "level": "random"}]


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("devices") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000) as s:
        yield s


def second_device(c, key: str) -> dict:
    code = c.post("/api/profiles/me/link", headers=auth(key)).json()["code"]
    return c.post("/api/profiles/claim", json={"code": code}).json()


def keys(srv) -> list[tuple]:
    with srv.server.store.engine.connect() as c:
        return sorted(tuple(r) for r in c.execute(select(profile_keys_t)))


def test_a_profile_lists_its_devices_and_removes_another_one(srv):
    with srv.client() as c:
        laptop = c.post("/api/profiles", json={"name": "Ana"}).json()
        phone = second_device(c, laptop["key"])
        seen = c.get("/api/profiles/me/devices", headers=auth(laptop["key"])).json()["devices"]
        assert [d["this"] for d in seen] == [True, False]  # oldest first: this laptop, then the phone
        assert [d["removable"] for d in seen] == [True, True]
        assert all(len(d["id"]) == 16 and d["created"] > 0 for d in seen)
        assert phone["key"] not in str(seen) and laptop["key"] not in str(seen)
        # the phone sees the laptop, added before it, as one it may not remove
        from_phone = c.get("/api/profiles/me/devices", headers=auth(phone["key"])).json()["devices"]
        assert [(d["this"], d["removable"]) for d in from_phone] == [(False, False), (True, True)]
        # the phone is lost: the laptop removes it
        left = c.delete(f"/api/profiles/me/devices/{seen[1]['id']}", headers=auth(laptop["key"])).json()
        assert left == {"devices": [seen[0]]}
        r = c.get("/api/profiles/me", headers=auth(phone["key"]))
        assert r.status_code == 401 and r.json()["code"] == "profile_key"
        r = c.post(
            "/api/tables", json={"variant": "block", "players": 2, "seats": BOTS}, headers=auth(phone["key"])
        )
        assert r.status_code == 401  # the lost phone's key acts nowhere
        assert c.get("/api/profiles/me", headers=auth(laptop["key"])).json()["id"] == laptop["id"]


def test_a_thief_with_a_stolen_device_cannot_come_back_or_lock_the_owner_out(srv):
    """Issue 27: the stolen device made a link code, was signed out, claimed its code (a new key
    of the profile) and signed the owner out.  Now its code dies with its key, and a device
    added later cannot sign out an older one."""
    with srv.client() as c:
        owner = c.post("/api/profiles", json={"name": "Ana"}).json()
        stolen = second_device(c, owner["key"])
        code = c.post("/api/profiles/me/link", headers=auth(stolen["key"])).json()["code"]
        mine = c.get("/api/profiles/me/devices", headers=auth(owner["key"])).json()["devices"]
        # the stolen device tries to sign the owner out first: refused, nothing changes
        r = c.delete(f"/api/profiles/me/devices/{mine[0]['id']}", headers=auth(stolen["key"]))
        assert r.status_code == 403 and r.json()["code"] == "device_older"
        assert c.get("/api/profiles/me", headers=auth(owner["key"])).status_code == 200
        # the owner removes the stolen device; the thief's code died with it
        c.delete(f"/api/profiles/me/devices/{mine[1]['id']}", headers=auth(owner["key"]))
        r = c.post("/api/profiles/claim", json={"code": code})
        assert r.status_code == 404 and r.json()["code"] == "link_invalid"
        left = c.get("/api/profiles/me/devices", headers=auth(owner["key"])).json()["devices"]
        assert [d["this"] for d in left] == [True]
        # a key the thief claimed before being caught is newer still: it cannot remove the owner
        stolen = second_device(c, owner["key"])
        extra = second_device(c, stolen["key"])
        r = c.delete(f"/api/profiles/me/devices/{left[0]['id']}", headers=auth(extra["key"]))
        assert r.status_code == 403 and r.json()["code"] == "device_older"
        assert c.get("/api/profiles/me", headers=auth(owner["key"])).status_code == 200


def test_a_device_has_one_link_code_and_spent_codes_are_purged(srv):
    with srv.client() as c:
        a = c.post("/api/profiles", json={"name": "Cy"}).json()
        first = c.post("/api/profiles/me/link", headers=auth(a["key"])).json()["code"]
        second = c.post("/api/profiles/me/link", headers=auth(a["key"])).json()["code"]
        r = c.post("/api/profiles/claim", json={"code": first})
        assert r.status_code == 404 and r.json()["code"] == "link_invalid"  # replaced by the second
        assert c.post("/api/profiles/claim", json={"code": second}).status_code == 200
        with srv.server.store.engine.connect() as db:
            db.execute(update(profile_links_t).values(expires=0.0))  # every code still stored expires
        c.post("/api/profiles/me/link", headers=auth(a["key"]))  # a new code purges the spent ones
        with srv.server.store.engine.connect() as db:
            assert db.execute(select(func.count()).select_from(profile_links_t)).scalar() == 1


def test_profiles_made_from_one_address_are_limited(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", profile_rate=3) as s, s.client() as c:
        codes = [c.post("/api/profiles", json={"name": "Ana"}).status_code for _ in range(10)]
        assert codes == [200] * 6 + [429] * 4  # bursts of twice the rate a minute
        r = c.post("/api/profiles", json={})
        assert r.json()["code"] == "profile_rate" and r.json()["params"]["s"] >= 1
        with s.server.store.engine.connect() as db:
            assert db.execute(select(func.count()).select_from(profiles_t)).scalar() == 6


def test_a_device_signs_itself_out(srv):
    with srv.client() as c:
        a = c.post("/api/profiles", json={"name": "Bo"}).json()
        b = second_device(c, a["key"])
        mine = next(
            d
            for d in c.get("/api/profiles/me/devices", headers=auth(b["key"])).json()["devices"]
            if d["this"]
        )
        assert c.delete(f"/api/profiles/me/devices/{mine['id']}", headers=auth(b["key"])).json() == {
            "devices": []
        }
        assert c.get("/api/profiles/me", headers=auth(b["key"])).status_code == 401
        # the other device plays on, alone now
        left = c.get("/api/profiles/me/devices", headers=auth(a["key"])).json()["devices"]
        assert [d["this"] for d in left] == [True]


def test_nobody_lists_or_removes_another_profiles_devices(srv):
    with srv.client() as c:
        ana = c.post("/api/profiles", json={"name": "Ana"}).json()
        eve = c.post("/api/profiles", json={"name": "Eve"}).json()
        anas = c.get("/api/profiles/me/devices", headers=auth(ana["key"])).json()["devices"][0]["id"]
        before = keys(srv)
        r = c.delete(f"/api/profiles/me/devices/{anas}", headers=auth(eve["key"]))
        assert r.status_code == 404 and r.json()["code"] == "no_device"
        for path, headers, status in [
            (f"/api/profiles/me/devices/{anas}", {}, 401),  # no key
            (f"/api/profiles/me/devices/{anas}", auth(eve["key"] + "x"), 401),  # a wrong key
            ("/api/profiles/me/devices/not-hex-at-all!", auth(ana["key"]), 400),
            ("/api/profiles/me/devices/" + "a" * 17, auth(ana["key"]), 400),
            ("/api/profiles/me/devices/" + "0" * 16, auth(ana["key"]), 404),  # no such device
        ]:
            r = c.delete(path, headers=headers)
            assert r.status_code == status and "error" in r.json(), (path, r.text)
        assert c.get("/api/profiles/me/devices").status_code == 401
        assert keys(srv) == before  # nothing changed


# ---------------------------------------------------------------------------- as a person


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_signing_out_of_a_shared_computer_in_the_lobby(srv, browser, sized, size):  # noqa: F811
    """The lobby's profile card lists this browser's devices; "Sign out of this device" asks
    first in the page (this is the only device: it says the profile cannot be used again),
    then the key stops working and the browser forgets the profile and the name."""
    page = sized(size)
    page.goto(srv.http + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#profile:not([hidden])")
    stored = page.evaluate("JSON.parse(localStorage.getItem('bonepile:profile'))")
    page.locator("#profile-devices summary").click()
    page.wait_for_selector("ul.devices li")
    assert page.locator("ul.devices li").count() == 1
    assert page.locator("ul.devices li span").inner_text().startswith("This device, since ")
    page.locator("#sign-out").click()
    ask = page.locator("#sign-out-ask")
    assert "nobody can use this profile again" in ask.inner_text()
    assert page.evaluate("document.activeElement.id") == "sign-out-yes"
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#profile").screenshot(path=str(ARTIFACTS / f"devices-{size}.png"))
    # Cancel keeps everything, and gives the focus back
    ask.locator("button", has_text="Cancel").click()
    assert page.locator("#sign-out-ask").count() == 0
    assert page.evaluate("document.activeElement.id") == "sign-out"
    with srv.client() as c:
        assert c.get("/api/profiles/me", headers=auth(stored["key"])).status_code == 200
    page.locator("#sign-out").click()
    page.keyboard.press("Enter")  # the focus is on "Sign out"
    page.wait_for_selector("#profile [role=status]")
    assert "no longer plays as" in page.locator("#profile").inner_text()
    assert page.evaluate("localStorage.getItem('bonepile:profile')") is None
    assert page.evaluate("localStorage.getItem('bonepile:name')") is None
    with srv.client() as c:
        assert c.get("/api/profiles/me", headers=auth(stored["key"])).status_code == 401
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_the_devices_list_offers_remove_only_for_the_devices_added_later(srv, browser, sized):  # noqa: F811
    """The browser made the profile (its first device); a phone added later shows *Remove*
    here, and the rule is said under the list.  On the phone, the first device has no
    *Remove* (a stolen phone cannot sign out its owner)."""
    page = sized("laptop")
    page.goto(srv.http + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#profile:not([hidden])")
    stored = page.evaluate("JSON.parse(localStorage.getItem('bonepile:profile'))")
    with srv.client() as c:
        phone = second_device(c, stored["key"])
    page.locator("#profile-devices summary").click()
    page.wait_for_selector("ul.devices li:nth-child(2)")
    assert page.locator("ul.devices li").nth(1).locator("button.device-remove").count() == 1
    assert "added after it" in page.locator("#devices-rule").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#profile").screenshot(path=str(ARTIFACTS / "devices-first.png"))
    # the same page as the phone: the first device is listed without a Remove button
    page.evaluate(
        "([id, key]) => localStorage.setItem('bonepile:profile', JSON.stringify({id, key}))",
        [phone["id"], phone["key"]],
    )
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#profile-devices summary").click()
    page.wait_for_selector("ul.devices li:nth-child(2)")
    first, this = page.locator("ul.devices li").nth(0), page.locator("ul.devices li").nth(1)
    assert first.locator("button").count() == 0
    assert this.locator("#sign-out").count() == 1
    page.locator("#profile").screenshot(path=str(ARTIFACTS / "devices-later.png"))
