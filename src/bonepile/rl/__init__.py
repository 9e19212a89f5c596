"""Reinforcement-learning interfaces over every bonepile variant.

* ``bonepile.rl.pettingzoo``: PettingZoo AEC environments (``env``, ``raw_env``);
* ``bonepile.rl.gym``: a single-agent Gymnasium environment against bonepile bots;
* ``bonepile.rl.openspiel``: OpenSpiel Python games (optional extra ``openspiel``);
* ``bonepile.rl.obs``: the observation vector and action mask they share, built only from
  a seat's ``View`` (``bonepile.rl.obs_trains``: the train layout's; ``bonepile.rl.encoders``
  picks a variant's).
* ``bonepile.rl.train``: a small PPO trainer (extra ``train``: PyTorch) behind ``bonepile train``.

The submodules import their libraries (extra ``rl``: numpy, gymnasium, pettingzoo); this
package itself imports nothing.  Without its extra, a submodule's import fails with one line
that names the extra (``extra_missing``).
"""


def extra_missing(module: str, extra: str, error: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error of ``module`` when a library of its ``extra`` is not installed: one line that
    says which extra to install."""
    return ModuleNotFoundError(
        f"{module} needs the {extra} extra ({error.name} is not installed): pip install 'bonepile[{extra}]'",
        name=error.name,
    )
