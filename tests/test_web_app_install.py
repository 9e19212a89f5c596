"""The installable app (issue 26): a valid web manifest with icons, a service worker that keeps
the client's shell, so that the lobby and How to play open with no network and say the server
cannot be reached.  In Chromium; screenshots go to artifacts/ (look at them)."""

from __future__ import annotations

import json
import struct
import urllib.request

from bonepile.engine.variant import ENGINE_VARIANTS
from test_web_browser import ARTIFACTS, browser, server  # noqa: F401

pytest_plugins = ["pages"]  # the sized page fixture


def _fetch(base: str, path: str) -> tuple[bytes, str]:
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return r.read(), r.headers.get("Content-Type", "")


def test_the_manifest_is_valid_and_its_icons_load(server):  # noqa: F811
    body, kind = _fetch(server, "/manifest.webmanifest")
    assert kind.startswith("application/manifest+json")
    m = json.loads(body)
    assert m["name"] and m["short_name"] == "bonepile"
    assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
    assert m["theme_color"].startswith("#") and m["background_color"].startswith("#")
    sizes = {}
    for icon in m["icons"]:
        data, kind = _fetch(server, icon["src"])
        assert kind.startswith(icon["type"]), (icon, kind)
        if icon["type"] == "image/png":  # the size the manifest says is the picture's
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            w, h = struct.unpack(">II", data[16:24])
            assert icon["sizes"] == f"{w}x{h}"
            sizes.setdefault(icon["purpose"], set()).add(w)
        else:
            assert b"<svg" in data
    assert {192, 512} <= sizes["any"] and 512 in sizes["maskable"]  # what browsers install from


def test_the_service_worker_keeps_files_that_exist(server):  # noqa: F811
    body, kind = _fetch(server, "/sw.js")
    assert "javascript" in kind
    text = body.decode()
    assert "__SHELL__" not in text and "__VERSION__" not in text
    shell = json.loads(json.loads('"' + text.split('JSON.parse("')[1].split('"))')[0] + '"'))
    assert "/" in shell and "/how-to-play" in shell and "/static/lobby.js" in shell
    for path in shell:  # one missing file would make the whole shell fail to install
        with urllib.request.urlopen(server + path, timeout=10) as r:
            assert r.status == 200, path


def test_the_lobby_and_how_to_play_open_offline_and_say_the_server_is_unreachable(server, sized):  # noqa: F811
    page = sized("phone")
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == server + "/"
    page.reload()  # the page is now the service worker's
    page.wait_for_function("!!navigator.serviceWorker.controller")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#offline").count() == 0 or page.locator("#offline").is_hidden()
    page.goto(server + "/how-to-play")  # kept while online
    page.wait_for_selector("a[href^='/how-to-play/']")
    page.context.set_offline(True)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#offline:not([hidden])")
    assert "server cannot be reached" in page.inner_text("#offline")
    assert page.locator("#variant option").count() == len(ENGINE_VARIANTS)  # the games, from the kept copy
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "offline_lobby_phone.png"))
    page.goto(server + "/how-to-play")
    page.wait_for_selector("a[href^='/how-to-play/']")
    page.wait_for_selector("#offline:not([hidden])")
    page.screenshot(path=str(ARTIFACTS / "offline_howto_phone.png"))
    page.context.set_offline(False)
