"""The learned models' one forward pass: a multilayer perceptron (ReLU between layers) run with
numpy, read from a ``.npz`` of weights ``w0, b0, w1, b1, ...`` (inputs x outputs, float32), the
layout ``bench/train_beliefs.py``'s ``export`` writes.  No PyTorch at run time."""

from __future__ import annotations

import numpy as np


class Mlp:
    """A network of ``inputs`` features and ``outputs`` numbers; a model file of another
    shape (an older version's) is refused with a message that names the file."""

    def __init__(self, path: str, inputs: int, outputs: int) -> None:
        with np.load(path) as data:
            layers = sum(1 for k in data.files if k.startswith("w"))
            self.weights = [
                (data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)) for i in range(layers)
            ]
        if self.weights[0][0].shape[0] != inputs or self.weights[-1][0].shape[1] != outputs:
            raise ValueError(f"{path}: the model does not fit this version's input ({inputs} features)")

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The outputs, shape (..., outputs), for inputs of shape (..., inputs)."""
        h = x.astype(np.float32)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(self.weights):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return h
