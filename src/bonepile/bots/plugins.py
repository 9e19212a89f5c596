"""Where a bot's name leads: the one place a ``--bots`` entry (or a web seat's level) is
turned into a way to build a bot.

A name is one of
* a built-in bot: a level people choose from (``beginner``, ``casual``, ``strong``,
  ``expert``) or a researcher's name (``random``, ``greedy``);
* a bot installed by another package under the entry-point group ``bonepile.bots``
  (``[project.entry-points."bonepile.bots"] mybot = "mypackage.mybot:MyBot"``);
* ``module:Class``, a ``Bot`` subclass importable from Python's path (the current folder
  included, as for ``python -m``).

Every failure is a ``BotError`` with a one-line reason: an unknown name, a module that does
not import, a missing class, a class that is not a ``Bot``.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from ..engine import Variant
from .base import Bot, BotError
from .budget import Budget
from .levels import FACTORIES, LEVELS
from .random_bot import RandomBot

#: the entry-point group other packages register bots under
GROUP = "bonepile.bots"

BotFactory = Callable[..., Bot]  # (variant, *, seed=None, budget=None) -> Bot


def _researchers() -> dict[str, type[Bot]]:
    from .expert import ExpertBot
    from .greedy import GreedyBot

    return {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}


def builtin_names() -> tuple[str, ...]:
    """Every built-in name: the researchers' names, then the levels (``expert`` is both)."""
    names = list(_researchers())
    names += [lv for lv in LEVELS if lv not in names]
    return tuple(names)


def _plugins() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def _choices() -> str:
    extra = [n for n in _plugins() if n not in builtin_names()]
    return ", ".join([*builtin_names(), *extra]) + ", or module:Class"


def _check_class(obj: Any, where: str) -> type[Bot]:
    if not (inspect.isclass(obj) and issubclass(obj, Bot)):
        raise BotError(f"{where} is not a bonepile Bot class (subclass bonepile.bots.Bot)")
    if obj.choose is Bot.choose and obj.evaluate is Bot.evaluate:
        # the base choose plays the best of evaluate: a bot defines one or the other
        raise BotError(f"{where} does not define choose(view) or evaluate(view)")
    return obj


def _load_spec(spec: str) -> type[Bot]:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise BotError(f"bad bot {spec!r}: write module:Class, e.g. mypackage.mybot:MyBot")
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)  # a bot in the current folder, as with ``python -m``
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        raise BotError(f"bot {spec!r}: no module named {e.name!r}") from None
    except Exception as e:  # the plugin's own import failed
        raise BotError(f"bot {spec!r}: importing {module_name} failed: {type(e).__name__}: {e}") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise BotError(f"bot {spec!r}: {module_name} has no {attr!r}")
        obj = getattr(obj, part)
    return _check_class(obj, f"bot {spec!r}")


def _load_entry_point(name: str, ep: Any) -> type[Bot]:
    try:
        obj = ep.load()
    except Exception as e:
        raise BotError(
            f"bot {name!r} (entry point {ep.value}): loading failed: {type(e).__name__}: {e}"
        ) from None
    return _check_class(obj, f"bot {name!r} (entry point {ep.value})")


def takes_budget(cls: type[Bot]) -> bool:
    """Does the class's constructor take a ``budget`` (a ``Budget``)?  The random bot and
    many plugins do not: they are built without one."""
    params = inspect.signature(cls.__init__).parameters
    return "budget" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def _from_class(cls: type[Bot], name: str | None = None) -> BotFactory:
    """Build ``cls``; a plugin (``name`` given) whose constructor fails is a BotError."""

    def build(variant: Variant, *, seed: int | None = None, budget: Budget | None = None) -> Bot:
        kw = {"budget": budget} if budget is not None and takes_budget(cls) else {}
        if name is None:
            return cls(variant, seed=seed, **kw)
        try:
            return cls(variant, seed=seed, **kw)
        except Exception as e:
            raise BotError(f"bot {name!r} could not be built: {type(e).__name__}: {e}") from None

    return build


def resolve(name: str) -> BotFactory:
    """How to build the bot called ``name`` (BotError with the reason when there is none)."""
    if not isinstance(name, str) or not name.strip():
        raise BotError(f"a bot needs a name; choose from {_choices()}")
    name = name.strip()
    if name in FACTORIES:
        return FACTORIES[name]
    researchers = _researchers()
    if name in researchers:
        return _from_class(researchers[name])
    if ":" in name:
        return _from_class(_load_spec(name), name)
    plugins = _plugins()
    if name in plugins:
        return _from_class(_load_entry_point(name, plugins[name]), name)
    raise BotError(f"unknown bot {name!r}; choose from {_choices()}")


def check(name: str) -> None:
    """Raise BotError when ``name`` leads to no bot (the module is imported, the class checked)."""
    resolve(name)


__all__ = ["GROUP", "BotFactory", "builtin_names", "resolve", "check", "takes_budget"]
