"""Request validation: every check of what a client sends, with a message that says what is
wrong and where.  A failed check raises ``RequestError`` (the HTTP status, or an ``error``
message on a socket); nothing here changes a table."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.requests import ClientDisconnect

from ..bots import BOT_LEVELS
from ..engine import BonepileError, make_variant
from ..engine.variant import OPTION_SPECS, Variant
from .words.names import seat_default, table_default

log = logging.getLogger("bonepile.serve")

if TYPE_CHECKING:
    from starlette.requests import Request

NAME_MAX = 24  # characters of a display name
CHAT_MAX = 200  # characters of one chat message
TOKEN_MAX = 16  # characters of a move token
ID_MAX = 32  # characters of a message id
MAX_BODY = 1 << 20  # any request body: 1 MiB
BODY_TIMEOUT = 10.0  # seconds a request's body may take to arrive
SLOW_BODIES = 8  # slow bodies of one address arriving at once; past it a new request is refused
SLOW_AFTER = 1.0  # seconds after which a body still arriving counts as slow
_arriving: dict[str, int] = {}  # address -> bodies being read now
_began: dict[str, list[float]] = {}  # address -> when each body being read now began
TARGET_FACTOR = 10  # a table's target is at most this many times its game's default target
MARKS_MAX = 3  # combining marks on one letter (more is "zalgo" text spilling over other lines)
#: letters that show nothing though Unicode does not call them spaces or format characters
INVISIBLE = frozenset(
    {0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F}
    | set(range(0x1D173, 0x1D17B))
)
#: letters of other scripts that look like Latin ones (once case-folded), for the check that a
#: person's name does not pass for a bot's ("вот" in Cyrillic, "b0t") and for the chat filter
LOOKALIKE = str.maketrans(
    "авезкорстухіјѕԁɡһӏмнԛԝьпαβεικνορτυχγηω0",
    "abezkopctyxijsdghlmhqwbnabeikvoptuxynwo",
)


class RequestError(Exception):
    """A bad request: the message says what is wrong; the status is the HTTP one."""

    def __init__(
        self,
        message: str,
        status: int = 400,
        *,
        code: str | None = None,
        params: dict[str, Any] | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code  # what a client words in its reader's language (``error.<code>``)
        self.params = params or {}

    def body(self) -> dict[str, Any]:
        """The JSON of the refusal: the English message, and its code and numbers if it has one."""
        out: dict[str, Any] = {"error": self.message}
        if self.code:
            out["code"] = self.code
            if self.params:
                out["params"] = self.params
        return out


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> tuple[str, str]:
    """A new secret seat token and the hash the server keeps of it."""
    token = secrets.token_urlsafe(18)
    return token, token_hash(token)


def clean_name(name: Any, default: str) -> str:
    """A display name: text in Unicode's composed form (NFC), every run of spaces one space
    and none at the ends, at most 24 characters; no control, format or invisible character
    and at most MARKS_MAX accents on one letter (RequestError saying which).  It is shown as
    text (never markup) by the client."""
    if name is None or name == "":
        return default
    if not isinstance(name, str):
        raise RequestError("name must be a string", code="bad_request")
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if not name:
        return default
    marks = 0
    for i, ch in enumerate(name):
        cat = unicodedata.category(ch)
        if (cat[0] == "C" and not _joins_emoji(name, i)) or cat in ("Zl", "Zp") or ord(ch) in INVISIBLE:
            raise RequestError(
                f"name must not contain invisible or control characters (it has {_char(ch)})",
                code="name_refused",
            )
        marks = marks + 1 if cat in ("Mn", "Me") else 0
        if marks > MARKS_MAX or (marks and i == 0):
            raise RequestError(
                f"name has too many accents on one letter (at most {MARKS_MAX})", code="name_refused"
            )
    if len(name) > NAME_MAX:
        raise RequestError(
            f"name must be at most {NAME_MAX} characters", code="name_long", params={"max": NAME_MAX}
        )
    return name


def _char(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} {name}" if name else f"U+{ord(ch):04X}"


def _joins_emoji(text: str, i: int) -> bool:
    """A zero-width joiner between two pictographs (a family or a profession emoji)."""
    if text[i] != "\u200d" or i == 0 or i + 1 >= len(text):
        return False
    before = text[i - 1]
    if before == "\ufe0f" and i >= 2:
        before = text[i - 2]
    return unicodedata.category(before) in ("So", "Sk") and unicodedata.category(text[i + 1]) == "So"


def person_name(name: Any, default: str) -> str:
    """A person's name: ``clean_name``, and it does not pass for a bot's or the server's
    ("Bot", "expert bot 1", "Greedy-Bot", "bonepile"), whatever its case, width or accents."""
    name = clean_name(name, default)
    if name != default and _looks_like_bot(name):
        raise RequestError(
            f"the name {name!r} looks like a bot's or the server's: a person's name may not say "
            f'"bot" or "bonepile"; please choose another',
            code="name_refused",
        )
    return name


def _looks_like_bot(name: str) -> bool:
    folded = unicodedata.normalize("NFKD", name).casefold()
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch)).translate(LOOKALIKE)
    words = [w for w in re.split(r"[\W_]+", folded) if w]
    joined = "".join(words)
    levels = "|".join(BOT_LEVELS)
    return (
        any(w in ("bot", "bots") for w in words)
        or "bonepile" in joined
        or re.fullmatch(rf"(?:{levels})*bots?\d*", joined) is not None
    )


def body_object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise RequestError("the body must be a JSON object", code="bad_request")
    return body


# ---------------------------------------------------------------------------- new tables
@dataclass
class NewTable:
    """A checked ``POST /api/tables`` body: the variant, the seats as stored (the creator's
    with its token's hash), the creator's seat and token (None when every seat is a bot)."""

    variant: Variant
    name: str
    seats: list[dict[str, Any]]
    timer: int | float
    creator: int | None
    token: str | None
    private: bool = False  # joined only with the table's invite link, not listed
    rated: bool = False  # its result changes its players' ratings (else a casual table)
    rated_bots: bool = False  # still rated when bots fill its free seats at the start


def rules(body: dict[str, Any], **fixed: Any) -> Variant:
    """The game a request asks for: ``variant``, its ``options`` and ``players`` (and the
    options the caller fixes, e.g. teams for a tournament of pairs), checked by the engine and
    against this server's bounds."""
    variant = body.get("variant")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise RequestError('"options" must be an object of rule options', code="bad_request")
    options = dict(options)
    if "players" in body:
        options["players"] = body["players"]
    options.update(fixed)
    try:
        v = make_variant(variant if isinstance(variant, str) else repr(variant), options)
    except BonepileError as e:
        raise RequestError(str(e), code="bad_rules") from None
    target_max = max_target(v.name)
    if target_max is not None and v.options.get("target", 0) > target_max:
        raise RequestError(
            f"option target must be an integer from 1 to {target_max} for {v.name} "
            f"(on this server), not {v.options['target']!r}",
            code="bad_rules",
        )
    return v


def new_table(body: Any) -> NewTable:
    body = body_object(body)
    v = rules(body)
    seats_in = body.get("seats")
    if seats_in is None:
        seats_in = [{"kind": "human"}] + [{"kind": "bot", "level": "expert"}] * (v.players - 1)
    if not isinstance(seats_in, list) or len(seats_in) != v.players:
        raise RequestError(
            f'"seats" must list {v.players} seats ({v.name} with {v.players} players)', code="bad_request"
        )
    timer = body.get("timer", 0) or 0
    if type(timer) not in (int, float) or not 0 <= timer <= 3600:
        raise RequestError(
            '"timer" must be a number of seconds per move from 0 (none) to 3600', code="bad_request"
        )
    name = clean_name(body.get("name"), "")
    private = body.get("private", False)
    if type(private) is not bool:
        raise RequestError(
            '"private" must be true (joined only with its invite link) or false', code="bad_request"
        )
    rated = body.get("rated", False)
    if type(rated) is not bool:
        raise RequestError(
            '"rated" must be true (the result counts for ratings) or false (casual)', code="bad_request"
        )
    rated_bots = body.get("rated_bots", False)
    if type(rated_bots) is not bool:
        raise RequestError(
            '"rated_bots" must be true (rated even when bots fill the free seats) or false',
            code="bad_request",
        )
    seats: list[dict[str, Any]] = []
    creator: int | None = None
    token: str | None = None
    for i, sd in enumerate(seats_in):
        if not isinstance(sd, dict) or sd.get("kind") not in ("human", "bot"):
            raise RequestError(f'seat {i}: "kind" must be "human" or "bot"', code="bad_request")
        if sd["kind"] == "bot":
            level = sd.get("level", "expert")
            if level not in BOT_LEVELS:
                raise RequestError(
                    f"seat {i}: bot level must be one of {', '.join(BOT_LEVELS)}", code="bad_request"
                )
            seats.append(
                {
                    "name": clean_name(sd.get("name"), seat_default("bot", level, i)),
                    "kind": "bot",
                    "level": level,
                    "token_hash": None,
                }
            )
        else:
            d: dict[str, Any] = {
                "name": person_name(sd.get("name"), seat_default("human", None, i)),
                "kind": "human",
                "level": None,
                "token_hash": None,
                "profile": None,
            }
            if creator is not None and sd.get("for") is not None:  # kept for one profile
                d["profile"] = profile_id(sd["for"])
            if creator is None:
                if sd.get("for") is not None:
                    raise RequestError(
                        f'seat {i} is the first person\'s, yours: it cannot be kept ("for") for another profile',
                        code="bad_request",
                    )
                creator = i
                token, d["token_hash"] = new_token()
                d["name"] = person_name(body.get("player") or sd.get("name"), seat_default("human", None, i))
            seats.append(d)
    return NewTable(
        v, name or table_default(v.name), seats, timer, creator, token, private, rated, rated_bots
    )


def max_target(variant: str) -> int | None:
    """The highest target a table of ``variant`` may play to (a game to 10^40 points is played
    forever), or None where the target is not an option."""
    spec = OPTION_SPECS.get(variant, {}).get("target")
    if spec is None or not isinstance(spec.default, int):
        return None
    return spec.default * TARGET_FACTOR


def invite(given: Any, invite_hash: str | None) -> None:
    """A private table is joined only with the secret of its invite link (403 otherwise)."""
    if invite_hash is None:
        return
    if not isinstance(given, str) or not given or len(given) > 64:
        raise RequestError(
            "this table is private: only its invite link lets you join or watch it", 403, code="private"
        )
    if not secrets.compare_digest(token_hash(given), invite_hash):
        raise RequestError(
            "this invite link is not this table's (the table is private)", 403, code="invite_wrong"
        )


def profile_id(value: Any) -> str:
    """A profile id as the server makes them (16 hexadecimal digits)."""
    if not isinstance(value, str) or not 1 <= len(value) <= 32 or not value.isalnum() or not value.isascii():
        raise RequestError(f"{str(value)[:40]!r} is not a profile id", code="bad_request")
    return value


def join_seat(want: Any, free: list[int]) -> int:
    """The seat a join asks for (the first free one by default)."""
    if not free:
        raise RequestError("this table has no free seat", 409, code="table_full")
    if want is None:
        return free[0]
    if type(want) is int and want in free:
        return want
    raise RequestError(f'"seat" must be one of the free seats {", ".join(map(str, free))}', code="seat_taken")


def table_id(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 32:
        raise RequestError("no such table", 404, code="no_table")
    return value


# ---------------------------------------------------------------------------- socket messages
def message(msg: Any) -> tuple[str, str | int | None]:
    """The type and the id of a client message (a JSON object with a "type")."""
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise RequestError('a message must be a JSON object with a "type"', code="bad_request")
    mid = msg.get("id")
    if mid is not None and not (isinstance(mid, (int, str)) and len(str(mid)) <= ID_MAX):
        raise RequestError('"id" must be a short number or string', code="bad_request")
    return msg["type"], mid


def rematch_answer(msg: dict[str, Any]) -> bool:
    """A rematch message's answer: true (ask, or accept) unless it says false."""
    accept = msg.get("accept", True)
    if type(accept) is not bool:
        raise RequestError(
            '"accept" must be true (ask for a rematch or accept it) or false (decline it)', code="bad_request"
        )
    return accept


def move_token(msg: dict[str, Any]) -> str:
    token = msg.get("move")
    if not isinstance(token, str) or len(token) > TOKEN_MAX:
        raise RequestError(
            '"move" must be a move token such as "6-4@L", "draw" or "pass"', code="bad_request"
        )
    return token


def chat_text(msg: dict[str, Any]) -> str:
    """A chat line as plain text: control characters and runs of spaces become one space."""
    text = msg.get("text")
    if not isinstance(text, str):
        raise RequestError('"text" must be a string', code="bad_request")
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if not text:
        raise RequestError("an empty chat message", code="chat_empty")
    if len(text) > CHAT_MAX:
        raise RequestError(
            f"a chat message is at most {CHAT_MAX} characters", code="chat_long", params={"max": CHAT_MAX}
        )
    return text


# ---------------------------------------------------------------------------- HTTP bodies
async def body_json(request: Request) -> Any:
    """A request's body read as JSON (an empty body: {})."""
    data = await read_body(request)
    if not data:
        return {}
    return parse_json(data)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(data: bytes) -> Any:
    """A body's bytes read as strict JSON: not UTF-8, ``NaN`` or ``Infinity``, a lone UTF-16
    surrogate in a string (``"\\ud800"``, which no text can hold) or nesting too deep are
    refused (400, ``not_json``) with words saying where."""
    try:
        value = json.loads(data, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError) as e:
        raise RequestError(f"the body is not JSON: {e}", code="not_json") from None
    except RecursionError:
        raise RequestError(
            "the body is not JSON that can be read: nested too deeply", code="not_json"
        ) from None
    if b"\\u" in data:  # a surrogate can only come from an escape
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                stack.extend(v.keys())
                stack.extend(v.values())
            elif isinstance(v, list):
                stack.extend(v)
            elif isinstance(v, str) and (m := _SURROGATE.search(v)):
                raise RequestError(
                    f"the body is not JSON text: the string {v[:40]!r} holds a lone UTF-16 "
                    f"surrogate (U+{ord(m.group()):04X})",
                    code="not_json",
                )
    return value


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """A request's body, refused (413) past ``limit`` bytes, (408) when it does not arrive
    within ``BODY_TIMEOUT`` seconds, and (429) when ``SLOW_BODIES`` other bodies of the same
    address have been arriving for more than ``SLOW_AFTER`` seconds (a client sending one byte
    now and then holds no more than that many connections for more than that long; a burst of
    quick requests from one address, people behind one router, is never refused for it).  A
    client that goes away while sending is one line in the log, not a traceback."""
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > limit:
        raise RequestError(
            f"the body is larger than {limit} bytes", 413, code="too_large", params={"n": limit}
        )
    address = request.client.host if request.client else ""
    now = time.monotonic()
    began = _began.setdefault(address, [])
    if sum(now - t > SLOW_AFTER for t in began) >= SLOW_BODIES:
        raise RequestError(
            f"{SLOW_BODIES} requests of yours are still sending their bodies; wait for them to end",
            429,
            code="bodies_busy",
            params={"n": SLOW_BODIES},
        )
    _arriving[address] = _arriving.get(address, 0) + 1
    began.append(now)
    data = b""
    try:
        async with asyncio.timeout(BODY_TIMEOUT):
            async for chunk in request.stream():
                data += chunk
                if len(data) > limit:
                    raise RequestError(
                        f"the body is larger than {limit} bytes", 413, code="too_large", params={"n": limit}
                    )
    except TimeoutError:
        raise RequestError(
            f"the body did not arrive within {BODY_TIMEOUT:g} seconds",
            408,
            code="body_slow",
            params={"s": BODY_TIMEOUT},
        ) from None
    except ClientDisconnect:
        log.info("%s %s: the client went away while sending its body", request.method, request.url.path)
        raise RequestError("the client went away while sending its body", 400, code="bad_request") from None
    finally:
        left = _arriving[address] - 1
        began.remove(now)
        if left:
            _arriving[address] = left
        else:
            del _arriving[address]
            _began.pop(address, None)
    return data
