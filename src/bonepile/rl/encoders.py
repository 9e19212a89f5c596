"""The encoder of a variant's observations and masks: ``obs.Encoder`` for the line games,
``obs_trains.TrainEncoder`` for the train layout and the chicken foot.  The adapters (PettingZoo, Gymnasium,
OpenSpiel, self-play shards) get theirs here."""

from __future__ import annotations

from ..engine.variant import Variant
from .obs import Encoder
from .obs_trains import TrainEncoder


def encoder(variant: Variant) -> Encoder | TrainEncoder:
    """A new encoder for ``variant`` (it keeps per-seat readings: one per environment)."""
    if variant.layout in ("trains", "chicken_foot"):
        return TrainEncoder(variant)
    return Encoder(variant)


__all__ = ["encoder"]
