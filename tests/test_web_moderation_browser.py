"""Muting a player's chat in the browser, as two people at a table would, on a phone
(390x844) and a laptop (1366x768): Ana and Ben chat, Ana mutes Ben with the button under the
chat (a tap, or the keyboard), stops seeing his lines and is told how many are hidden, while
Ben still sees his own; a reload keeps the mute (neither has a profile: the browser sends it
again); unmuting shows his lines again.  Screenshots go to artifacts/ (look at them); axe finds no serious fault."""

from __future__ import annotations

import pytest

from test_web_axe import axe_problems
from test_web_browser import (  # noqa: F401  (fixtures)
    ARTIFACTS,
    _open_seat,
    _post,
    browser,
    server,
)

pytest_plugins = ["pages"]  # the sized page fixture


def chat_lines(page) -> list[str]:
    return page.evaluate("() => [...document.querySelectorAll('#chat li')].map(li => li.textContent)")


def say(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def open_side(page, size: str) -> None:
    """On a phone the chat is in the panel that opens over the table."""
    if size == "phone" and page.evaluate("!document.body.classList.contains('side-open')"):
        page.tap("#side-toggle")
        page.wait_for_selector("#chat-form", state="visible")


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_player_mutes_another_and_stops_seeing_their_chat(server, sized, size):  # noqa: F811
    made = _post(server, "/api/tables", {"variant": "block", "players": 2, "player": "Ana",
                                         "seats": [{"kind": "human"}, {"kind": "human"}]})  # fmt: skip
    tid = made["id"]
    joined = _post(server, f"/api/tables/{tid}/join", {"name": "Ben"})
    ana, ben = sized(size), sized(size)
    _open_seat(ana, server, made)
    _open_seat(ben, server, {"id": tid, "token": joined["token"]})
    for p in (ana, ben):
        open_side(p, size)

    say(ben, "hello Ana")
    ana.wait_for_function("() => document.querySelector('#chat')?.textContent.includes('hello Ana')")
    button = ana.locator("#chat-mute-1")
    assert button.inner_text() == "Mute Ben" and button.get_attribute("aria-pressed") == "false"
    assert ana.locator("#chat-mute-0").count() == 0  # no button for yourself
    assert ben.locator("#chat-mute-0").inner_text() == "Mute Ana"
    if size == "phone":
        button.tap()
    else:
        button.click()
    ana.wait_for_selector("#chat-mute-1[aria-pressed='true']")
    assert button.inner_text() == "Unmute Ben"
    ana.wait_for_function("() => !document.querySelector('#chat li')")
    assert ana.locator("#chat-hidden").inner_text() == "1 message hidden from someone you muted"

    say(ben, "are you there?")
    ben.wait_for_function("() => document.querySelector('#chat')?.textContent.includes('are you there?')")
    ana.wait_for_function(
        "() => document.querySelector('#chat-hidden')?.textContent.startsWith('2 messages')"
    )
    assert chat_lines(ana) == []
    assert chat_lines(ben) == ["Ben: hello Ana", "Ben: are you there?"]
    assert ben.locator("#chat-hidden").is_hidden()
    # Ana still writes, and Ben reads her
    say(ana, "I am here")
    ben.wait_for_function("() => document.querySelector('#chat')?.textContent.includes('Ana: I am here')")
    ana.wait_for_function("() => document.querySelector('#chat')?.textContent.includes('I am here')")
    assert chat_lines(ana) == ["Ana: I am here"]

    # a reload: the mute holds (this browser sends it again)
    ana.reload()
    ana.wait_for_selector("body[data-conn='1']")
    open_side(ana, size)
    ana.wait_for_selector("#chat-mute-1[aria-pressed='true']")
    ana.wait_for_function(
        "() => document.querySelector('#chat-hidden')?.textContent.startsWith('2 messages')"
    )
    assert chat_lines(ana) == ["Ana: I am here"]
    ARTIFACTS.mkdir(exist_ok=True)
    ana.screenshot(path=str(ARTIFACTS / f"moderation-muted-{size}.png"))
    ben.screenshot(path=str(ARTIFACTS / f"moderation-muter-unseen-{size}.png"))
    assert not axe_problems(ana, f"moderation_{size}")  # no serious accessibility fault
    # the page fits the screen: nothing sideways
    assert ana.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

    # unmute with the keyboard: his lines come back, nothing is hidden any more
    ana.focus("#chat-mute-1")
    ana.keyboard.press("Enter")
    ana.wait_for_selector("#chat-mute-1[aria-pressed='false']")
    ana.wait_for_function("() => document.querySelectorAll('#chat li').length === 3")
    assert chat_lines(ana) == ["Ben: hello Ana", "Ben: are you there?", "Ana: I am here"]
    assert ana.locator("#chat-hidden").is_hidden()
    assert ana.evaluate("document.activeElement.id") == "chat-mute-1"  # the focus stays put
    ana.reload()
    ana.wait_for_selector("body[data-conn='1']")
    open_side(ana, size)
    ana.wait_for_function("() => document.querySelectorAll('#chat li').length === 3")
    assert ana.locator("#chat-mute-1").get_attribute("aria-pressed") == "false"
    ana.screenshot(path=str(ARTIFACTS / f"moderation-unmuted-{size}.png"))
