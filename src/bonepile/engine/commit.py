"""Sealed deals: a commitment to a game's seed, published before the first hand, and the seed
revealed once the game is over, so that anyone can re-deal every hand and check the deals.

The scheme ``sha256-v1`` (RECORD.md, "Extensions"): the commitment is the lowercase hex SHA-256
of the ASCII bytes ``bonepile-deals/sha256-v1:<seed>:<salt>``, where ``<seed>`` is the seed in
decimal without sign or leading zeros and ``<salt>`` is 32 to 128 lowercase hex digits.  Neither
field can hold a ``:``, so one byte string names exactly one (seed, salt).  The salt is secret
until the seed is revealed: without it, a short seed could be found by trying them all.

A record carries the seal as its ``"deals"`` object (``Seal.field``, ``read_seal``)."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from .errors import RecordError

#: the name of the scheme a record's ``"deals"`` object gives
SCHEME = "sha256-v1"
#: seeds are integers 0 <= seed < 2**64
SEED_LIMIT = 1 << 64

_SALT = re.compile(r"[0-9a-f]{32,128}")
_HEX64 = re.compile(r"[0-9a-f]{64}")


def new_salt() -> str:
    """A fresh secret salt: 32 lowercase hex digits (128 bits) from the operating system."""
    return secrets.token_hex(16)


def seeded_salt(*parts: object) -> str:
    """A salt derived from public parts (32 hex digits): it hides nothing, so it is only for
    records revealed the moment they are written and that must come out the same every run
    (``bonepile random --seed``, the arena, self-play)."""
    text = ":".join(["bonepile-salt", *map(str, parts)]).encode()
    return hashlib.sha256(text).hexdigest()[:32]


def valid_seed(seed: object) -> bool:
    return type(seed) is int and 0 <= seed < SEED_LIMIT


def valid_salt(salt: object) -> bool:
    return isinstance(salt, str) and _SALT.fullmatch(salt) is not None


def message(seed: int, salt: str) -> bytes:
    """The bytes the commitment is the SHA-256 of (ValueError for a seed or salt out of range)."""
    if not valid_seed(seed):
        raise ValueError(f"a seed must be an integer from 0 to 2**64-1, not {seed!r}")
    if not valid_salt(salt):
        raise ValueError(f"a salt must be 32 to 128 lowercase hex digits, not {salt!r}")
    return f"bonepile-deals/{SCHEME}:{seed}:{salt}".encode("ascii")


def commitment(seed: int, salt: str) -> str:
    """The commitment to ``seed`` with ``salt``: a lowercase hex SHA-256 (64 digits)."""
    return hashlib.sha256(message(seed, salt)).hexdigest()


def check(seed: int, salt: str, committed: str) -> bool:
    """Whether ``seed`` and ``salt`` are the ones ``committed`` was made from."""
    if not (valid_seed(seed) and valid_salt(salt) and isinstance(committed, str)):
        return False
    return secrets.compare_digest(commitment(seed, salt), committed.lower())


@dataclass(frozen=True)
class Seal:
    """A game's commitment and, once revealed, the seed and salt it was made from."""

    commitment: str
    seed: int | None = None
    salt: str | None = None
    scheme: str = SCHEME

    @classmethod
    def make(cls, seed: int, salt: str | None = None) -> Seal:
        """The seal of ``seed`` with ``salt`` (a fresh one when None)."""
        salt = new_salt() if salt is None else salt
        return cls(commitment(seed, salt), seed, salt)

    @property
    def revealed(self) -> bool:
        return self.seed is not None and self.salt is not None

    def field(self, reveal: bool) -> dict[str, Any]:
        """The record's ``"deals"`` object: the commitment, and the seed and salt if ``reveal``."""
        doc: dict[str, Any] = {"scheme": self.scheme, "commitment": self.commitment}
        if reveal and self.revealed:
            doc["seed"] = self.seed
            doc["salt"] = self.salt
        return doc

    def sealed(self) -> Seal:
        """The same seal with the seed and salt left out (what is shown before the end)."""
        return Seal(self.commitment, scheme=self.scheme)


def read_seal(doc: dict[str, Any]) -> Seal | None:
    """A record's ``"deals"`` object checked for form only (not against the deals: see
    ``engine/verify.py``); None when the record has none.  RecordError names the field."""
    if "deals" not in doc or doc["deals"] is None:
        return None
    d = doc["deals"]
    if not isinstance(d, dict):
        raise RecordError('"deals" must be an object')
    if d.get("scheme") != SCHEME:
        shown = "missing" if "scheme" not in d else repr(d["scheme"])
        raise RecordError(f'"deals.scheme" must be "{SCHEME}" ({shown})')
    c = d.get("commitment")
    if not isinstance(c, str) or _HEX64.fullmatch(c) is None:
        raise RecordError('"deals.commitment" must be 64 lowercase hex digits (a SHA-256)')
    seed, salt = d.get("seed"), d.get("salt")
    if seed is not None and not valid_seed(seed):
        raise RecordError('"deals.seed" must be an integer from 0 to 2**64-1')
    if salt is not None and not valid_salt(salt):
        raise RecordError('"deals.salt" must be 32 to 128 lowercase hex digits')
    if (seed is None) != (salt is None):
        missing = "salt" if salt is None else "seed"
        raise RecordError(f'"deals.{missing}" is missing: the seed and the salt are revealed together')
    return Seal(c, seed, salt)
