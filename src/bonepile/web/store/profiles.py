"""Profiles without passwords: a display name and secret keys kept by the player's browsers.

A profile is its id; names need not be unique.  Its key (192 random bits) is shown once, when
the profile is made or moved to another device; the server keeps only the key's SHA-256 and
finds a profile by it, comparing the hash found in constant time as seat tokens are.  "Use on
another device" gives a short code (``LINK_CHARS`` letters, ``LINK_TTL`` seconds, used once)
which the other device trades for a key of its own.  A code is bound to the key (the device)
that made it: it stops working when that device is signed out, and a device's new code
replaces its previous one; used and expired codes are deleted whenever a code is made.

Who may sign out whom: a device signs itself out, and any device added after it (the one
the profile was made on can sign out every other).  A device cannot sign out one added
before it, so a stolen device, or a key copied from it, cannot lock its owner out; its owner
signs it out from an older device, and its codes die with it (docs/PLAYING.md).

Profiles made are limited per client address (``profile_rate`` a minute, bursts of twice).

The server runs with profiles ``off`` (no profile routes, a key sent with a table request is
ignored), ``optional`` (a seat is tied to a profile when its key comes with the request) or
``required`` (no table is made or joined without a profile)."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal, get_args

from .. import validate
from ..limits import Buckets
from ..messages import ProfileDevice, ProfileDevices, ProfileInfo, ProfileKey, ProfileLink
from ..validate import RequestError, token_hash
from .database import Store

Mode = Literal["off", "optional", "required"]
MODES: tuple[str, ...] = get_args(Mode)
KEY_BYTES = 24  # 192 bits of secret per key
KEY_MAX = 64  # characters of a key a client may send
LINK_CHARS = 8  # letters of a link code
LINK_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed by hand
LINK_TTL = 600.0  # seconds a link code may be used in
CLAIM_RATE = 10.0  # link codes one client address may try a minute (bursts of twice as many)
DEFAULT_NAME = "Player"

Db = Callable[..., Awaitable[Any]]


def new_key() -> tuple[str, str]:
    """A new secret profile key and the hash the server keeps of it."""
    key = secrets.token_urlsafe(KEY_BYTES)
    return key, token_hash(key)


def new_code() -> str:
    return "".join(secrets.choice(LINK_ALPHABET) for _ in range(LINK_CHARS))


def normal_code(value: Any) -> str:
    """A link code as typed: case and spaces or dashes between its letters do not matter."""
    if not isinstance(value, str) or len(value) > 4 * LINK_CHARS:
        raise RequestError(
            f'"code" must be the {LINK_CHARS}-letter code your other device shows',
            code="link_format",
            params={"n": LINK_CHARS},
        )
    code = "".join(ch for ch in value.upper() if ch not in " -")
    if len(code) != LINK_CHARS or any(ch not in LINK_ALPHABET for ch in code):
        raise RequestError(
            f'"code" must be the {LINK_CHARS}-letter code your other device shows',
            code="link_format",
            params={"n": LINK_CHARS},
        )
    return code


def bearer(authorization: str | None) -> str | None:
    """The key of an ``Authorization: Bearer <key>`` header (None without the header)."""
    if authorization is None:
        return None
    scheme, _, key = authorization.strip().partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key:
        raise RequestError(
            'the Authorization header must be "Bearer" and your profile key', 401, code="profile_key"
        )
    if len(key) > KEY_MAX:
        raise RequestError(
            "this profile key is not one this server gave (it is too long)", 401, code="profile_key"
        )
    return key


DEVICE_ID_CHARS = 16


def device_id(key_hash: str) -> str:
    """A device's name: derived from its key's hash, so that it tells nothing of the key."""
    return hashlib.sha256(f"device:{key_hash}".encode()).hexdigest()[:DEVICE_ID_CHARS]


class Profiles:
    """The profile requests, run against the store through ``db`` (the storage thread)."""

    def __init__(
        self,
        store: Store,
        db: Db,
        mode: str = "optional",
        *,
        claim_rate: float = CLAIM_RATE,
        profile_rate: float = 10.0,
    ):
        if mode not in MODES:
            raise ValueError(f"profiles must be one of {', '.join(MODES)}, not {mode!r}")
        self.store = store
        self.db = db
        self.mode = mode
        self.claim_rate = claim_rate
        self.claims: dict[str, tuple[float, float]] = {}  # client address -> (tries left, when)
        self.made = Buckets(profile_rate)  # profiles made per client address

    def _on(self) -> None:
        if self.mode == "off":
            raise RequestError("profiles are turned off on this server", 404, code="profiles_off")

    async def create(self, body: Any, address: str = "") -> ProfileKey:
        self._on()
        body = validate.body_object(body)
        name = validate.person_name(body.get("name"), DEFAULT_NAME)
        wait = self.made.take(address)
        if wait:
            per = self.made.rate * 60
            raise RequestError(
                f"too many profiles made from your address: at most {per:g} a minute; "
                f"try again in {wait:.0f} s",
                429,
                code="profile_rate",
                params={"s": max(1, round(wait))},
            )
        profile_id = secrets.token_hex(8)
        key, hashed = new_key()
        await self.db(self.store.create_profile, profile_id, name, hashed)
        return {"id": profile_id, "name": name, "key": key}

    async def me(self, authorization: str | None) -> ProfileInfo:
        """The profile whose key the header carries (401 without one, or with a wrong one)."""
        self._on()
        key = bearer(authorization)
        if key is None:
            raise RequestError(
                "no profile: send your profile key (Authorization: Bearer <key>)", 401, code="profile_key"
            )
        hashed = token_hash(key)
        found = await self.db(self.store.profile_by_key, hashed)
        if found is None or not secrets.compare_digest(found["key_hash"], hashed):
            raise RequestError(
                "this profile key is not known here (no profile has it)", 401, code="profile_key"
            )
        return {"id": found["id"], "name": found["name"]}

    async def rename(self, authorization: str | None, body: Any) -> ProfileInfo:
        profile = await self.me(authorization)
        body = validate.body_object(body)
        if "name" not in body:
            raise RequestError('"name" is missing: the new display name', code="bad_request")
        name = validate.person_name(body.get("name"), "")
        if not name:
            raise RequestError("a display name must not be empty", code="name_empty")
        await self.db(self.store.rename_profile, profile["id"], name)
        return {"id": profile["id"], "name": name}

    async def devices(self, authorization: str | None) -> ProfileDevices:
        """The devices that play as this profile (one key each), the asking one marked."""
        profile = await self.me(authorization)
        mine = token_hash(bearer(authorization) or "")
        keys = await self.db(self.store.profile_keys, profile["id"])
        rank = next((i for i, (h, _) in enumerate(keys) if h == mine), len(keys))
        out: list[ProfileDevice] = [
            {"id": device_id(h), "created": at, "this": h == mine, "removable": i >= rank}
            for i, (h, at) in enumerate(keys)
        ]
        return {"devices": out}

    async def forget_device(self, authorization: str | None, device: str) -> ProfileDevices:
        """Sign a device out of this profile: its key stops working at once, and its link
        codes with it (the asking device's own: this device signs out; afterwards the answer
        lists no device of it).  Only this device or one added after it (403 otherwise)."""
        profile = await self.me(authorization)
        if (
            not isinstance(device, str)
            or len(device) != DEVICE_ID_CHARS
            or not all(ch in "0123456789abcdef" for ch in device)
        ):
            raise RequestError(
                f"a device is named by {DEVICE_ID_CHARS} hexadecimal letters, not {device[:40]!r}",
                code="bad_request",
            )
        keys = await self.db(self.store.profile_keys, profile["id"])
        found = [(i, h) for i, (h, _) in enumerate(keys) if secrets.compare_digest(device_id(h), device)]
        mine = token_hash(bearer(authorization) or "")
        rank = next((i for i, (h, _) in enumerate(keys) if h == mine), len(keys))
        if found and found[0][0] < rank:
            raise RequestError(
                "that device was added to this profile before this one: only it can sign itself "
                "out (a device signs out only the devices added after it)",
                403,
                code="device_older",
            )
        if not found or not await self.db(self.store.drop_profile_key, profile["id"], found[0][1]):
            raise RequestError(f"this profile has no device {device!r}", 404, code="no_device")
        found_hash = found[0][1]
        if found_hash == mine:
            return {"devices": []}
        return await self.devices(authorization)

    async def link(self, authorization: str | None) -> ProfileLink:
        """A code that moves this profile to another device (used once, LINK_TTL seconds, as
        long as this device stays signed in; it replaces this device's previous code)."""
        profile = await self.me(authorization)
        code = new_code()
        mine = token_hash(bearer(authorization) or "")
        now = time.time()
        await self.db(self.store.add_link, token_hash(code), profile["id"], mine, now + LINK_TTL, now)
        return {"code": code, "expires_in": int(LINK_TTL)}

    async def claim(self, body: Any, address: str = "") -> ProfileKey:
        """A link code traded for a new key of its profile (the other device's own)."""
        self._on()
        body = validate.body_object(body)
        code = normal_code(body.get("code"))
        self._allow_claim(address)
        key, hashed = new_key()
        found = await self.db(self.store.claim_link, token_hash(code), hashed, time.time())
        if found is None:
            raise RequestError(
                "this code is not valid: it was used already, it expired (codes last "
                f"{int(LINK_TTL // 60)} minutes) or it was mistyped; ask your other device for a new one",
                404,
                code="link_invalid",
            )
        return {"id": found["id"], "name": found["name"], "key": key}

    async def of_request(self, authorization: str | None) -> ProfileInfo | None:
        """The profile a table request (create, join) is made with: None without a key when
        profiles are optional, or when they are off; a wrong key is refused, never ignored."""
        if self.mode == "off":
            return None
        if authorization is None and self.mode == "optional":
            return None
        if authorization is None:
            raise RequestError(
                "this server plays only with a profile: make one (POST /api/profiles) and send its "
                "key (Authorization: Bearer <key>)",
                401,
                code="profile_required",
            )
        return await self.me(authorization)

    def _allow_claim(self, address: str) -> None:
        """A token bucket per client address for link codes (a code has 40 bits: guessing
        one within its ten minutes takes far more tries than this allows)."""
        now = time.monotonic()
        rate = self.claim_rate / 60.0
        burst = 2 * self.claim_rate
        tokens, when = self.claims.get(address, (burst, now))
        tokens = min(burst, tokens + (now - when) * rate)
        if tokens < 1:
            raise RequestError(
                f"too many link codes tried from your address; try again in {(1 - tokens) / rate:.0f} s",
                429,
                code="link_rate",
                params={"s": max(1, round((1 - tokens) / rate))},
            )
        self.claims[address] = (tokens - 1, now)
        if len(self.claims) > 10000:
            self.claims = {a: (k, w) for a, (k, w) in self.claims.items() if k + (now - w) * rate < burst}
