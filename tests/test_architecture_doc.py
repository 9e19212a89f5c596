"""docs/ARCHITECTURE.md names every module of the package, and no module that does not exist.

Modules are named by their path relative to src/bonepile (``web/table.py``); ``__init__.py``
files need not be named, and the migration revisions may be named by their folder
(``web/store/migrations/versions/``)."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "bonepile"
DOC = ROOT / "docs" / "ARCHITECTURE.md"
VERSIONS = "/migrations/versions/"  # a folder of schema revisions, named as a whole

# a path ending in .py or /, made of folder and file names (no spaces)
PATH = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.py|(?:[\w-]+/)+)(?![\w/])")


def modules() -> list[str]:
    return sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if p.name != "__init__.py")


def named(text: str) -> set[str]:
    return set(PATH.findall(text))


def exists(path: str) -> bool:
    """A path the document may name: under src/bonepile, or from the repository's root
    (``tests/test_imports.py``, ``bench/engine.py``)."""
    return any((base / path).exists() for base in (PACKAGE, ROOT))


def test_every_module_is_named():
    text = DOC.read_text()
    names = named(text)
    missing = [
        m for m in modules() if m not in names and not (VERSIONS in m and m.rsplit("/", 1)[0] + "/" in names)
    ]
    assert not missing, "docs/ARCHITECTURE.md does not name: " + ", ".join(missing)


def test_every_named_module_exists():
    gone = sorted(p for p in named(DOC.read_text()) if p.endswith(".py") and not exists(p))
    assert not gone, "docs/ARCHITECTURE.md names paths that do not exist: " + ", ".join(gone)


def test_the_path_pattern():
    text = "`web/table.py` and (`engine/view.py`), the folder `web/migrations/versions/`, `cli/`"
    assert named(text) == {"web/table.py", "engine/view.py", "web/migrations/versions/", "cli/"}
    assert named("static/table/socket.js and https://example.org/x.py?") == set()
