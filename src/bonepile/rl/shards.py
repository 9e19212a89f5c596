"""Self-play data on disk: the folder ``bonepile selfplay`` writes, and its loader.

A self-play folder holds

- ``manifest.json``: what was played (variant, options, bots, seed, budget), what it gave
  (deal sets, games, hands, decisions), the record files and, when observations were asked for,
  the encoder's layout and the shards;
- ``records/``: one game record per game (``docs/RECORD.md``, the arena's file names),
  readable by ``bonepile replay`` and by ``records(folder)`` here;
- ``shards/shard-NNNNN.npz`` (with observations): numpy arrays, one row per decision, in the
  order played (deal set, seating, move):

  ==============  =================  ========================================================
  array           shape, type        meaning
  ==============  =================  ========================================================
  ``obs``         (T, size) float32  the deciding seat's observation (``obs.Encoder``: only
                                     what that seat may know)
  ``mask``        (T, A) int8        its legal actions (A = 114 in the double-six set)
  ``action``      (T,) int16         the action it took (an action id, ``rl/actions.py``)
  ``seat``        (T,) int8          the deciding seat
  ``reward``      (T, n) float32     every seat's reward for this step, as the PettingZoo
                                     environment gives it (``episode="game"``): the points its
                                     side scored (Billitonnen: +1 / -1 / 0 at the game's end)
  ``done``        (T,) bool          the step ended the game
  ``episode``     (T,) int32         the game (episode) the step belongs to
  ``forced``      (T,) bool          the seat had one legal action (a forced draw, pass or
                                     play: what ``auto_forced`` plays for an agent)
  ``hand``        (T,) int16         the hand of the game the step belongs to (1, 2, ...;
                                     -1 in folders written before this array existed)
  ``ep_id``       (E,) int32         per game of the shard: its episode number
  ``ep_deal_set`` (E,) int32         its deal set
  ``ep_rotation`` (E,) int8          its seating
  ``ep_seed``     (E,) int64         its game seed (``engine.deals``: hand n is dealt from it)
  ``ep_bots``     (E, n) int8        the bot entry (index into the manifest's ``bots``) per seat
  ``ep_hands``    (E,) int32         hands played
  ``ep_finished`` (E,) bool          the game reached its end (not cut)
  ==============  =================  ========================================================

Shards are the format of ``numpy.savez_compressed`` (``numpy.load`` reads them), written with a
fixed timestamp in the archive, so that the same seed gives the same bytes.
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

FORMAT = "bonepile-selfplay/1"
MANIFEST = "manifest.json"
RECORDS = "records"
SHARDS = "shards"

STEP_ARRAYS = ("obs", "mask", "action", "seat", "reward", "done", "episode", "forced", "hand")
EPISODE_ARRAYS = ("ep_id", "ep_deal_set", "ep_rotation", "ep_seed", "ep_bots", "ep_hands", "ep_finished")

#: the archive time of every member (the earliest a zip file can say): no clock in the bytes
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def shard_name(index: int) -> str:
    return f"{SHARDS}/shard-{index:05d}.npz"


def save(path: str, arrays: Mapping[str, np.ndarray]) -> None:
    """Write ``arrays`` as ``numpy.savez_compressed`` does, with fixed archive timestamps."""
    tmp = path + ".part"
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, arr in arrays.items():
            info = zipfile.ZipInfo(name + ".npy", date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            with zf.open(info, "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.asanyarray(arr), allow_pickle=False)
    os.replace(tmp, path)


class NotSelfPlay(ValueError):
    """The folder is not one that ``bonepile selfplay`` wrote (or has no observations)."""


def read_manifest(folder: str) -> dict[str, Any]:
    path = os.path.join(folder, MANIFEST)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise NotSelfPlay(f"{folder} has no {MANIFEST}: not a self-play folder") from None
    except (OSError, ValueError) as e:
        raise NotSelfPlay(f"cannot read {path}: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise NotSelfPlay(f"{path} is not a {FORMAT} manifest")
    return doc


def iter_shards(folder: str) -> Iterator[dict[str, np.ndarray]]:
    """The arrays of each shard in order (one shard in memory at a time)."""
    obs = read_manifest(folder).get("obs")
    if not obs:
        raise NotSelfPlay(f"{folder} has no observations (selfplay was run without --obs)")
    for shard in obs["shards"]:
        with np.load(os.path.join(folder, shard["file"]), allow_pickle=False) as z:
            out = {name: z[name] for name in (*STEP_ARRAYS, *EPISODE_ARRAYS) if name in z.files}
        # folders written before ``forced`` and ``hand`` existed
        if "forced" not in out:
            out["forced"] = out["mask"].sum(axis=1) == 1
        if "hand" not in out:
            out["hand"] = np.full(len(out["action"]), -1, np.int16)
        yield out


@dataclass
class SelfPlayData:
    """Every shard of a self-play folder, joined: one row per decision (``STEP_ARRAYS``) and
    one per game (``episodes``, the ``EPISODE_ARRAYS`` without their ``ep_`` prefix)."""

    manifest: dict[str, Any]
    obs: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    seat: np.ndarray
    reward: np.ndarray
    done: np.ndarray
    episode: np.ndarray
    forced: np.ndarray
    hand: np.ndarray
    episodes: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.action)

    def steps_of(self, episode: int) -> np.ndarray:
        """The row numbers of one game's decisions, in order."""
        return np.flatnonzero(self.episode == episode)


def load(folder: str) -> SelfPlayData:
    """The observations, actions and rewards of a self-play folder (``NotSelfPlay`` if it is
    not one, or was written without observations)."""
    manifest = read_manifest(folder)
    parts = list(iter_shards(folder))
    info = manifest["obs"]
    n = manifest["players"]
    empty = {
        "obs": np.zeros((0, info["size"]), np.float32),
        "mask": np.zeros((0, info["n_actions"]), np.int8),
        "reward": np.zeros((0, n), np.float32),
        "ep_bots": np.zeros((0, n), np.int8),
    }

    def join(name: str) -> np.ndarray:
        if not parts:
            return empty.get(name, np.zeros(0))
        return np.concatenate([p[name] for p in parts])

    episodes = {name[3:]: join(name) for name in EPISODE_ARRAYS}
    return SelfPlayData(
        manifest,
        obs=join("obs"),
        mask=join("mask"),
        action=join("action"),
        seat=join("seat"),
        reward=join("reward"),
        done=join("done"),
        episode=join("episode"),
        forced=join("forced"),
        hand=join("hand"),
        episodes=episodes,
    )


def record_paths(folder: str) -> list[str]:
    """The record files of a self-play folder, in the order played."""
    manifest = read_manifest(folder)
    return [os.path.join(folder, RECORDS, name) for name in manifest["records"]]


def records(folder: str) -> Iterator[Any]:
    """Each game of the folder, replayed by the engine from its record (``engine.Game``)."""
    from ..engine import record as rec

    for path in record_paths(folder):
        yield rec.read(path)


__all__ = [
    "FORMAT",
    "SelfPlayData",
    "NotSelfPlay",
    "load",
    "iter_shards",
    "read_manifest",
    "record_paths",
    "records",
    "save",
]
